package io.mdhub.orderprobe;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (SIGINT/SIGTERM) for a tool's main loop: the signal sets a flag the loop polls, and the JVM waits (bounded)
 * until the loop has finished its summary and files and {@link #close()}d this.
 */
public final class StopSignal implements AutoCloseable
{
    private static final long CLOSE_WAIT_SECONDS = 120;

    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean isStopRequested;

    private StopSignal(final String name)
    {
        hook = new Thread(this::onSignal, name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * @param name the tool, for the hook thread's name.
     * @return the installed handler; close it when the main loop has finished.
     */
    public static StopSignal install(final String name)
    {
        return new StopSignal(name);
    }

    /**
     * @return true once a stop was asked for.
     */
    public boolean isStopRequested()
    {
        return isStopRequested;
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
        isStopRequested = true;
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
