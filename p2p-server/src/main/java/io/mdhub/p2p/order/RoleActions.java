package io.mdhub.p2p.order;

import java.nio.file.Path;

/**
 * What a role change of {@link RoleArbiter} does outside the partitions: the store, the queue's standing, the link
 * to the peer, the post-processor. {@link OrderAgent} is the implementation.
 */
interface RoleActions
{
    OrderQueue.Standing standing();

    void standing(OrderQueue.Standing standing, String why);

    /**
     * Discard the store (queue, Orders region, identity index) before a full state transfer.
     *
     * @return where the old queue was moved.
     */
    Path discardStore();

    /**
     * Persist a partition's drained position.
     */
    void drained(int partition, long sequence);

    /**
     * Ask the peer to catch this server up from where each partition stands here (the next sequence after the
     * last one stored; 1 after a discard).
     *
     * @param requestId the attempt, from 1 within this start: the peer ignores one it has taken already.
     */
    void requestCatchUp(long requestId);

    /**
     * Post-process the orders of a partition taken over that the dead primary may not have completed.
     */
    void postProcessTakenOver(Partition partition);

    boolean isLinkSevered();

    boolean isLinkConnected();
}
