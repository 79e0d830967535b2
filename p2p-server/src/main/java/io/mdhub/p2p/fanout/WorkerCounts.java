package io.mdhub.p2p.fanout;

import java.util.ArrayList;

import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.source.ServiceInfo;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * One worker's message counts, kept in plain fields and added to the server's shared counters once per flush
 * ({@link #publish()}), so the per-message paths do no atomic operation. The parts of the worker count into the public
 * fields directly (one field read on the fan-out path). Worker thread only.
 */
final class WorkerCounts
{
    private final P2pCounters counters;
    private final DirectoryView directory;
    private final Int2ObjectHashMap<ServiceTally> tallyByServiceId = new Int2ObjectHashMap<>();
    private final ArrayList<ServiceTally> tallies = new ArrayList<>();
    long messagesIn;
    long messagesOut;
    long refreshesOut;
    long updatesOut;
    long statusOut;
    long updatesConflated;

    /**
     * @param counters  the server's counters the counts are added to.
     * @param directory names a service's counters after its directory entry.
     */
    WorkerCounts(final P2pCounters counters, final DirectoryView directory)
    {
        this.counters = counters;
        this.directory = directory;
    }

    /**
     * Add what was counted since the last call to the shared counters (called before every flush: whoever sees a
     * flushed message also sees it counted).
     */
    void publish()
    {
        if (0 != messagesIn)
        {
            counters.messagesIn().getAndAdd(messagesIn);
            messagesIn = 0;
        }
        if (0 != messagesOut)
        {
            counters.messagesOut().getAndAdd(messagesOut);
            messagesOut = 0;
        }
        if (0 != refreshesOut)
        {
            counters.refreshesOut().getAndAdd(refreshesOut);
            refreshesOut = 0;
        }
        if (0 != updatesOut)
        {
            counters.updatesOut().getAndAdd(updatesOut);
            updatesOut = 0;
        }
        if (0 != statusOut)
        {
            counters.statusOut().getAndAdd(statusOut);
            statusOut = 0;
        }
        if (0 != updatesConflated)
        {
            counters.updatesConflated().getAndAdd(updatesConflated);
            updatesConflated = 0;
        }
        final ArrayList<ServiceTally> tallies = this.tallies;
        for (int i = 0, size = tallies.size(); i < size; i++)
        {
            final ServiceTally tally = tallies.get(i);
            if (0 != tally.updatesIn)
            {
                tally.counters.updatesIn().getAndAdd(tally.updatesIn);
                tally.updatesIn = 0;
            }
        }
    }

    /**
     * @return this worker's tally of a service, made (with the service's counters) the first time it is asked for.
     */
    ServiceTally tally(final int serviceId)
    {
        ServiceTally tally = tallyByServiceId.get(serviceId);
        if (null == tally)
        {
            final ServiceInfo info = directory.info(serviceId);
            tally = new ServiceTally(counters.service(serviceId, null == info ? "#" + serviceId : info.name()));
            tallyByServiceId.put(serviceId, tally);
            tallies.add(tally);
        }
        return tally;
    }
}
