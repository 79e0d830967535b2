package io.mdhub.common.concurrent;

import java.util.concurrent.RejectedExecutionException;

import io.netty.util.concurrent.EventExecutor;

/**
 * Runs a loop's duty cycle when an Aeron subscription gains or loses an image. The client's conductor thread adds the
 * image and then calls the subscription's handlers, and only then can the loop's poll see it: a loop that went to
 * sleep on its doorbell before that (a new publisher's ring can come first) would otherwise not look at the image
 * until its next ring or tick. Made before the subscription, told its loop once the loop's cycle exists; until then
 * it does nothing (the cycle's first run finds whatever images there are).
 */
public final class ImageWaker implements Runnable
{
    private volatile EventExecutor loop;
    private volatile Runnable cycle;

    /**
     * @param loop  the loop the cycle runs on.
     * @param cycle the duty cycle that polls the subscription.
     */
    public void wakeOn(final EventExecutor loop, final Runnable cycle)
    {
        this.cycle = cycle;
        this.loop = loop;
    }

    /**
     * Queue the cycle on its loop (from the client's conductor thread); nothing before {@link #wakeOn} or after the
     * loop shut down.
     */
    @Override
    public void run()
    {
        final EventExecutor loop = this.loop;
        if (null != loop && !loop.isShuttingDown())
        {
            try
            {
                loop.execute(cycle);
            }
            catch (final RejectedExecutionException ex)
            {
                // the loop began to shut down meanwhile: nobody is left to wake
            }
        }
    }
}
