package io.mdhub.benchmarks.client;

import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;

import io.mdhub.common.latency.LatencyRecorder;

/**
 * Counts of one mount, written by its event loop only (lazySet: single writer) and read by the reporter.
 */
public final class MountStats
{
    final AtomicLong refreshes = new AtomicLong();
    final AtomicLong updates = new AtomicLong();
    final AtomicLong statuses = new AtomicLong();
    final AtomicLong itemsOpen = new AtomicLong();
    final AtomicLong itemsClosed = new AtomicLong();
    final AtomicLong lostUpdates = new AtomicLong();
    final AtomicLong outOfOrder = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong itemsSuspect = new AtomicLong();
    final AtomicLong recoveries = new AtomicLong();
    final AtomicLong maxRecoveryNs = new AtomicLong();
    final AtomicLong failovers = new AtomicLong();
    final AtomicLong skippedSilently = new AtomicLong();
    /** Epoch ms the first Suspect episode since the reporter last looked began (0: none); the reporter clears it. */
    final AtomicLong suspectFromMs = new AtomicLong();
    /** Epoch ms the mount's last Suspect episode ended (every item Ok again; 0: none yet). */
    final AtomicLong allOkMs = new AtomicLong();
    final LatencyRecorder latency = new LatencyRecorder("end-to-end");
    volatile boolean isReady;
    volatile String failure;

    static void increment(final AtomicLong counter)
    {
        counter.lazySet(counter.get() + 1);
    }

    static void add(final AtomicLong counter, final long delta)
    {
        counter.lazySet(counter.get() + delta);
    }

    /**
     * Change the count of Suspect items (event loop only), noting when the mount's first item goes Suspect and when
     * its last one is Ok again: the times a fault reaches the consumer and the consumer is whole again.
     *
     * @param delta items newly Suspect (positive) or recovered (negative).
     */
    void suspectChanged(final long delta)
    {
        final long before = itemsSuspect.get();
        final long after = before + delta;
        itemsSuspect.lazySet(after);
        if (0 == before && after > 0)
        {
            suspectFromMs.compareAndSet(0, System.currentTimeMillis());
        }
        else if (before > 0 && 0 == after)
        {
            allOkMs.lazySet(System.currentTimeMillis());
        }
    }

    /**
     * @return updates missing by the per-item counters while the item was not Suspect: lost without a word.
     */
    public long skippedSilently()
    {
        return skippedSilently.get();
    }

    /**
     * @return items Open/Suspect now (a Suspect status or refresh, no Ok refresh since).
     */
    public long itemsSuspect()
    {
        return itemsSuspect.get();
    }

    /**
     * @return connections lost and moved to the next server of the list.
     */
    public long failovers()
    {
        return failovers.get();
    }

    /**
     * @return items that went Suspect and came back with an Ok refresh.
     */
    public long recoveries()
    {
        return recoveries.get();
    }

    /**
     * @return the longest time from an item's Suspect to its Ok refresh, in nanoseconds.
     */
    public long maxRecoveryNs()
    {
        return maxRecoveryNs.get();
    }

    /**
     * @return refreshes received.
     */
    public long refreshes()
    {
        return refreshes.get();
    }

    /**
     * @return updates received.
     */
    public long updates()
    {
        return updates.get();
    }

    /**
     * @return status messages received.
     */
    public long statuses()
    {
        return statuses.get();
    }

    /**
     * @return items that have had their first refresh.
     */
    public long itemsOpen()
    {
        return itemsOpen.get();
    }

    /**
     * @return items the server closed.
     */
    public long itemsClosed()
    {
        return itemsClosed.get();
    }

    /**
     * @return updates missing by the per-item counters.
     */
    public long lostUpdates()
    {
        return lostUpdates.get();
    }

    /**
     * @return updates whose counter went backwards.
     */
    public long outOfOrder()
    {
        return outOfOrder.get();
    }

    /**
     * @return messages that could not be parsed.
     */
    public long malformed()
    {
        return malformed.get();
    }

    /**
     * @return true once the mount has logged in, found its service and sent its requests.
     */
    public boolean isReady()
    {
        return isReady;
    }

    /**
     * @return why the mount gave up, or null.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * Take the latency recorded since the last call (reporting thread only).
     *
     * @return the interval histogram, in nanoseconds (valid until the next call).
     */
    public Histogram latencyInterval()
    {
        return latency.intervalHistogram();
    }
}
