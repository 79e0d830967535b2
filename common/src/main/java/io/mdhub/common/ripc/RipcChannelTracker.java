package io.mdhub.common.ripc;

import java.util.concurrent.TimeUnit;

/**
 * Counts the channels of one RIPC component whose pipeline still exists, so {@link RipcContext#close()} can wait
 * until no handler can touch the counters any more before it frees their ids. A channel counts from the moment its
 * pipeline is built until the pipeline is torn down (after channelInactive and channelUnregistered), which is the
 * last time a RIPC handler updates a counter. Per connection, never on the message path.
 */
final class RipcChannelTracker
{
    private int liveChannels;

    synchronized void added()
    {
        liveChannels++;
    }

    synchronized void removed()
    {
        if (0 == --liveChannels)
        {
            notifyAll();
        }
    }

    synchronized int liveChannels()
    {
        return liveChannels;
    }

    /**
     * @param timeoutNs longest wait.
     * @return true when no channel is live (now or within the timeout); false on timeout or interrupt (the
     * interrupt flag is kept).
     */
    synchronized boolean awaitNoLiveChannels(final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (liveChannels > 0)
        {
            final long remainingNs = deadlineNs - System.nanoTime();
            if (remainingNs <= 0)
            {
                return false;
            }
            try
            {
                TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
