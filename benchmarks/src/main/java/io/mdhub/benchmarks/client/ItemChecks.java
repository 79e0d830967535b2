package io.mdhub.benchmarks.client;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StreamStates;

/**
 * What a mount makes of its items' messages, whatever wire they came over (RWF over RIPC, JSON over a WebSocket):
 * refreshes open an item and re-base its update counter, gaps in the counter are lost updates (unannounced when the
 * item was not Suspect), Suspect-to-Ok is a recovery, a closed stream is a closed item. Event loop of the mount's
 * connection only.
 */
final class ItemChecks
{
    private final MountStats stats;
    private final long[] lastSequence;
    private final boolean[] hasRefresh;
    private final long[] suspectSinceNs;

    ItemChecks(final MountStats stats, final MountItems items)
    {
        this.stats = stats;
        this.lastSequence = items.lastSequence;
        this.hasRefresh = items.hasRefresh;
        this.suspectSinceNs = items.suspectSinceNs;
    }

    /**
     * @param k        the item's index in the mount.
     * @param sequence the refresh's update counter, -1 when it has none.
     */
    void onRefresh(final int k, final long sequence)
    {
        MountStats.increment(stats.refreshes);
        if (!hasRefresh[k])
        {
            hasRefresh[k] = true;
            MountStats.increment(stats.itemsOpen);
        }
        lastSequence[k] = sequence;
    }

    /**
     * @param k           the item's index in the mount.
     * @param streamState the status's stream state.
     */
    void onStatus(final int k, final int streamState)
    {
        MountStats.increment(stats.statuses);
        if (streamState >= StreamStates.CLOSED_RECOVER)
        {
            MountStats.increment(stats.itemsClosed);
        }
    }

    /**
     * Suspect → Ok is a recovery: counted, and its duration (from the first Suspect) kept as the longest so far.
     *
     * @param k           the item's index in the mount.
     * @param streamState the message's stream state.
     * @param dataState   the message's data state.
     */
    void onState(final int k, final int streamState, final int dataState)
    {
        if (StreamStates.OPEN != streamState)
        {
            return;
        }
        if (DataStates.SUSPECT == dataState)
        {
            if (0 == suspectSinceNs[k])
            {
                suspectSinceNs[k] = System.nanoTime();
                stats.suspectChanged(1);
            }
        }
        else if (DataStates.OK == dataState && 0 != suspectSinceNs[k])
        {
            final long recoveryNs = System.nanoTime() - suspectSinceNs[k];
            suspectSinceNs[k] = 0;
            stats.suspectChanged(-1);
            MountStats.increment(stats.recoveries);
            if (recoveryNs > stats.maxRecoveryNs.get())
            {
                stats.maxRecoveryNs.lazySet(recoveryNs);
            }
        }
    }

    /**
     * An update's counter against the item's last one.
     *
     * @param k        the item's index in the mount.
     * @param sequence the update's counter, negative when it has none (not from the MDHub source: nothing to check).
     */
    void onSequence(final int k, final long sequence)
    {
        if (sequence < 0)
        {
            return;
        }
        final long last = lastSequence[k];
        if (last >= 0)
        {
            if (sequence > last + 1)
            {
                MountStats.add(stats.lostUpdates, sequence - last - 1);
                if (0 == suspectSinceNs[k])
                {
                    // no Suspect told the consumer its data might be incomplete: the gap went unannounced
                    MountStats.add(stats.skippedSilently, sequence - last - 1);
                }
            }
            else if (sequence <= last)
            {
                MountStats.increment(stats.outOfOrder);
            }
        }
        lastSequence[k] = Math.max(last, sequence);
    }
}
