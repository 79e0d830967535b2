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
}
