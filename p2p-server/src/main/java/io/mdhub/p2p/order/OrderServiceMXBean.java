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

    /**
     * @return what the fence knows of the peer process: UP, DOWN (certainly not running) or UNKNOWN (not answering:
     * maybe alive), with the reason.
     */
    String getFenceState();

    /**
     * @return true after {@link #takeOverPeerPartitions(String)} until the peer restarts or catches up.
     */
    boolean isPeerDeclaredDead();

    /**
     * @return what this server's store proves (persisted in its queue directory): SOLE (it was the last one
     * serving: it holds every acknowledged order), PAIRED or UNPROVEN (the peer may hold orders it lacks, so it
     * does not start alone).
     */
    String getStanding();

    /**
     * @return the orders this server completed as primary over the last ten seconds (or since the previous reading
     * when that was longer ago), then the store-to-completion latency's p50, p90, p99, p99.9 and max in microseconds.
     */
    long[] getAckLatencyUs();

    /**
     * @return ingress and peer messages that could not be read at all, skipped.
     */
    long getMalformed();

    /**
     * @return takeovers forced by an operator (this operation, or {@code mdhub.order.startup.force.alone}).
     */
    long getForcedTakeovers();

    /**
     * Operator override, for a peer the fence cannot prove dead (its host or network does not answer, so this
     * server holds the acknowledgements that need it and takes nothing over): promote every partition the peer is
     * primary of now; while this server is starting, serve every partition alone. Use it only after making sure the
     * peer is dead or its store lost for good. Logged as an error and counted.
     *
     * @param reason why (logged), e.g. "host b2 powered off, ticket 1234".
     * @return what was done.
     */
    String takeOverPeerPartitions(String reason);
}
