package io.mdhub.p2p.backbone;

import org.agrona.collections.Int2ObjectHashMap;

import io.mdhub.backbone.protocol.ServiceSequenceTracker;

/**
 * One distributor process as a backbone item source sees it: one Aeron session of the data stream.
 */
final class DistributorState
{
    /** The announcement interval assumed until the distributor's first announcement gives its own. */
    static final long DEFAULT_ANNOUNCE_INTERVAL_NS = 1_000_000_000L;

    final int sessionId;
    final ServiceSequenceTracker sequences = new ServiceSequenceTracker();
    final HandleIndex itemByHandle = new HandleIndex();
    final Int2ObjectHashMap<CarriedService> services = new Int2ObjectHashMap<>();
    int distributorId;
    long epoch;
    long intervalNs = DEFAULT_ANNOUNCE_INTERVAL_NS;
    long lastSeenNs;
    long generation;
    int servicesExpected;
    int servicesSeen;
    boolean isAnnounced;
    boolean isAlive = true;
    boolean isReplaced;

    DistributorState(final int sessionId)
    {
        this.sessionId = sessionId;
    }

    boolean carries(final int serviceId)
    {
        return isAlive && services.containsKey(serviceId);
    }
}
