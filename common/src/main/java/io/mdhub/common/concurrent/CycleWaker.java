package io.mdhub.common.concurrent;

import java.util.concurrent.RejectedExecutionException;

import io.netty.util.concurrent.EventExecutor;

/**
 * Runs a loop's duty cycle on behalf of something that is not a ring: an Aeron subscription gaining or losing an image
 * (the client's conductor, on whichever thread runs it, adds the image and then calls the subscription's handlers; only
 * then can the loop's poll see it, so a loop asleep on its doorbell would otherwise not look until its next ring or
 * tick), or work the loop made outside its cycle that now waits on the clock (live data refused by a full stream). Made
 * before the subscription or the work's owner, told its loop once the loop's cycle exists; until then it does nothing
 * (the cycle's first run finds whatever there is).
 */
public final class CycleWaker implements Runnable
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
     * Queue the cycle on its loop (from any thread); nothing before {@link #wakeOn} or after the loop shut down.
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
