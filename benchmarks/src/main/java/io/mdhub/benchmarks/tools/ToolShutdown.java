package io.mdhub.benchmarks.tools;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (SIGINT/SIGTERM) handling for a tool's main loop: the signal releases {@link #await(long)}, and the JVM
 * waits (bounded) until the main thread has closed its connections and called {@link #close()}. A {@code quit}
 * command can release the loop the same way with {@link #stop()}.
 */
public final class ToolShutdown implements AutoCloseable
{
    private static final long CLOSE_WAIT_SECONDS = 10;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;

    private ToolShutdown(final String name)
    {
        hook = new Thread(this::onSignal, name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * @param name the tool, for the hook thread's name.
     * @return the installed handler; close it when the main loop has finished.
     */
    public static ToolShutdown install(final String name)
    {
        return new ToolShutdown(name);
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
        catch (final IllegalStateException ex)
        {
            // shutting down already: the hook is running and now returns
        }
    }

    private void onSignal()
    {
        stop.countDown();
        try
        {
            done.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
