package io.mdhub.benchmarks.source;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a source has done, written by its event loop and read by the reporting thread and tests.
 */
public final class SourceStats
{
    volatile boolean connected;
    volatile boolean loginRefused;
    volatile long targetRate;
    volatile long refreshesSent;
    volatile long updatesSent;
    volatile long skipped;
    final AtomicLong pushBacks = new AtomicLong();
    final AtomicLong statusIn = new AtomicLong();
    final AtomicLong malformedIn = new AtomicLong();

    /**
     * @return true while logged in to the distributor.
     */
    public boolean isConnected()
    {
        return connected;
    }

    /**
     * @return true if the distributor refused the login.
     */
    public boolean isLoginRefused()
    {
        return loginRefused;
    }

    /**
     * @return the commanded update rate.
     */
    public long targetRate()
    {
        return targetRate;
    }

    /**
     * @return item refreshes sent.
     */
    public long refreshesSent()
    {
        return refreshesSent;
    }

    /**
     * @return updates sent.
     */
    public long updatesSent()
    {
        return updatesSent;
    }

    /**
     * @return updates that fell due but were never sent: the source fell more than a burst behind, because the
     * distributor pushed back or the source itself was not scheduled.
     */
    public long skipped()
    {
        return skipped;
    }

    /**
     * @return ticks that stopped early because the socket stayed full after a flush: the distributor pushing back.
     */
    public long pushBacks()
    {
        return pushBacks.get();
    }

    /**
     * @return status messages received from the distributor (e.g. items it closed).
     */
    public long statusIn()
    {
        return statusIn.get();
    }
}
