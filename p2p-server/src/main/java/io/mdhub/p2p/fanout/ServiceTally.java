package io.mdhub.p2p.fanout;

import io.mdhub.p2p.P2pCounters;

/**
 * One worker's view of a service's counters: updates received are tallied in a plain field and added to the shared
 * counter once per source event batch, so the per-update path does no atomic operation.
 */
final class ServiceTally
{
    final P2pCounters.ServiceCounters counters;
    long updatesIn;

    ServiceTally(final P2pCounters.ServiceCounters counters)
    {
        this.counters = counters;
    }
}
