package io.mdhub.common.concurrent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (SIGINT/SIGTERM) handling for a command-line tool's main loop: the signal releases {@link #await(long)} (or
 * turns {@link #isStopped()} true for a loop that polls), and the JVM waits, bounded, until the main thread has
 * closed its connections, written its summary and called {@link #close()}. A {@code quit} command releases the loop
 * the same way with {@link #stop()}.
 */
public final class ToolShutdown implements AutoCloseable
{
    /**
     * How long a signalled JVM waits for the main loop to close by default: enough to close connections.
     */
    public static final long DEFAULT_CLOSE_WAIT_SECONDS = 10;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private final long closeWaitSeconds;
    private final Thread hook;

    ToolShutdown(final String name, final long closeWaitSeconds, final boolean isHookInstalled)
    {
        this.closeWaitSeconds = closeWaitSeconds;
        hook = new Thread(this::onSignal, name + "-shutdown");
        if (isHookInstalled)
        {
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /**
     * @param name the tool, for the hook thread's name.
     * @return the installed handler, waiting {@link #DEFAULT_CLOSE_WAIT_SECONDS} for the close; close it when the
     * main loop has finished.
     */
    public static ToolShutdown install(final String name)
    {
        return install(name, DEFAULT_CLOSE_WAIT_SECONDS);
    }

    /**
     * @param name             the tool, for the hook thread's name.
     * @param closeWaitSeconds how long a signalled JVM waits for {@link #close()}: longer for a tool that writes its
     *                         results before it exits.
     * @return the installed handler; close it when the main loop has finished.
     */
    public static ToolShutdown install(final String name, final long closeWaitSeconds)
    {
        return new ToolShutdown(name, closeWaitSeconds, true);
    }

    /**
     * Wait up to a timeout for a stop.
     *
     * @param timeoutMs how long to wait.
     * @return true if a stop was asked for.
     * @throws InterruptedException if interrupted.
     */
    public boolean await(final long timeoutMs) throws InterruptedException
    {
        return stop.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /**
     * @return true once a stop was asked for (a loop that sleeps on a timer of its own checks this).
     */
    public boolean isStopped()
    {
        return 0 == stop.getCount();
    }

    /**
     * Ask the main loop to stop (e.g. a {@code quit} command).
     */
    public void stop()
    {
        stop.countDown();
    }

    /**
     * The main loop is done: let a pending signal finish the JVM, or remove the hook.
     */
    @Override
    public void close()
    {
        done.countDown();
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException | IllegalArgumentException ex)
        {
            // shutting down already (the hook is running and now returns), or the hook was never installed
        }
    }

    /**
     * What the signal does: release the main loop, then hold the JVM until it has closed or the wait is over.
     */
    void onSignal()
    {
        stop.countDown();
        try
        {
            done.await(closeWaitSeconds, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
