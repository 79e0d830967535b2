package io.mdhub.p2p.order;

/**
 * JMX view of an order service ({@code io.mdhub:type=OrderService,name=server-N}).
 */
public interface OrderServiceMXBean
{
    /**
     * @return STARTING, CATCHING_UP or SERVING.
     */
    String getState();

    /**
     * @return one line per partition: role, epoch, last/acked/drained sequences, queue depth, gaps, failovers,
     * replication round trip.
     */
    String[] getPartitions();

    /**
     * @return true while heartbeats from the peer arrive.
     */
    boolean isReplicationLinkUp();

    /**
     * @return orders acknowledged.
     */
    long getOrdersAcked();

    /**
     * @return sequence gaps seen.
     */
    long getGaps();

    /**
     * @return partitions taken over from a dead peer.
     */
    long getFailovers();

    /**
     * Hand every partition this server is primary of to the peer (once it is a synchronous backup) and take none
     * back; false ends it.
     *
     * @param isSteppingDown true to step down.
     */
    void stepDown(boolean isSteppingDown);

    /**
     * @return true while stepping down.
     */
    boolean isSteppingDown();
}
