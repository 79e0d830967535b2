package io.mdhub.common.order.client;

import org.agrona.DirectBuffer;

import io.mdhub.common.codecs.order.RejectReason;

/**
 * What {@link OrderEgressAdapter} decodes from the connections to one pair's servers, as primitives. A PartitionMap
 * arrives as begin, one entry per partition, end.
 */
interface OrderEgressListener
{
    /**
     * A PartitionMap starts.
     *
     * @param pair           the pair whose server sent it.
     * @param sessionId      the client's index of the server whose connection it came on.
     * @param serverId       the server's id in its pair.
     * @param partitionCount partitions the pair serves.
     * @return false to skip the map (its entries and end are then not delivered).
     */
    boolean onPartitionMapBegin(int pair, int sessionId, int serverId, int partitionCount);

    /**
     * One partition's role on the server of the map being delivered.
     *
     * @param pair      the pair.
     * @param serverId  the server's id in its pair.
     * @param partition the partition.
     * @param role      the role's raw value ({@code PartitionRole}).
     * @param epoch     the partition's epoch.
     */
    void onPartitionMapEntry(int pair, int serverId, int partition, short role, int epoch);

    /**
     * The PartitionMap is complete.
     *
     * @param pair      the pair.
     * @param sessionId the client's index of the server whose connection it came on.
     * @param serverId  the server's id in its pair.
     */
    void onPartitionMapEnd(int pair, int sessionId, int serverId);

    /**
     * An OrderAck.
     *
     * @param pair            the pair.
     * @param sessionId       the client's index of the answering server.
     * @param clientId        the client the ack is for.
     * @param orderId         the order.
     * @param partition       the pair's partition.
     * @param epoch           the partition's epoch.
     * @param sequence        the order's sequence.
     * @param duplicate       true for the original ack of a resend.
     * @param replicated      false when stored on the primary alone.
     * @param sendTimestampNs echoed from the SubmitOrder answered.
     */
    void onOrderAck(
        int pair,
        int sessionId,
        long clientId,
        long orderId,
        int partition,
        int epoch,
        long sequence,
        boolean duplicate,
        boolean replicated,
        long sendTimestampNs);

    /**
     * An OrderReject.
     *
     * @param pair            the pair.
     * @param sessionId       the client's index of the answering server.
     * @param clientId        the client the reject is for.
     * @param orderId         the order.
     * @param partition       the pair's partition.
     * @param reason          why.
     * @param sendTimestampNs echoed from the SubmitOrder answered.
     * @param buffer          holds the text.
     * @param textOffset      where the text starts.
     * @param textLength      its length in bytes (ASCII).
     */
    void onOrderReject(
        int pair,
        int sessionId,
        long clientId,
        long orderId,
        int partition,
        RejectReason reason,
        long sendTimestampNs,
        DirectBuffer buffer,
        int textOffset,
        int textLength);

    /**
     * A message of another schema, an unknown template, or with lengths that overrun the fragment was skipped.
     *
     * @param pair the pair.
     */
    void onMalformed(int pair);
}
