package io.mdhub.backbone.protocol;

import org.agrona.DirectBuffer;

/**
 * What a distributor hears on the backbone control stream, decoded into primitives by {@link ControlAdapter}.
 * Buffers are valid only during the call. Returning false asks for the same message again on the next poll.
 */
public interface ControlListener
{
    /**
     * A p2p-server's heartbeat.
     *
     * @param consumerId  the p2p-server.
     * @param epoch       changes whenever it restarts.
     * @param intervalMs  heartbeats come at least this often.
     * @param timestampNs when it was sent.
     */
    void onConsumerAnnouncement(int consumerId, long epoch, int intervalMs, long timestampNs);

    /**
     * Open interest in an item.
     *
     * @param consumerId  the p2p-server.
     * @param sourceIndex the item source within the p2p-server that holds the interest.
     * @param requestId  to echo in the answering refresh.
     * @param serviceId  service.
     * @param domainType RDM domain.
     * @param isStreaming false for a snapshot.
     * @param buffer     holds the item name.
     * @param nameOffset where it starts.
     * @param nameLength its length (ASCII).
     * @param viewOffset where the view's field ids start in buffer (int16 each, little-endian).
     * @param viewLength their length in bytes; 0 = every field.
     * @return true when consumed; false to be called again with it on the next poll.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    boolean onItemRequest(
        int consumerId, int sourceIndex, long requestId, int serviceId, int domainType, boolean isStreaming,
        DirectBuffer buffer, int nameOffset, int nameLength, int viewOffset, int viewLength);

    /**
     * Drop interest in an item.
     *
     * @param consumerId  the p2p-server.
     * @param sourceIndex      the item source within the p2p-server that drops its interest.
     * @param distributorEpoch the epoch of the distributor whose handle it is; 0 when the sender did not know.
     * @param serviceId        service.
     * @param itemHandle       item.
     */
    void onItemClose(int consumerId, int sourceIndex, long distributorEpoch, int serviceId, int itemHandle);

    /**
     * Resend images after loss.
     *
     * @param consumerId   the p2p-server.
     * @param serviceId    service.
     * @param itemHandle   one item, or -1 for every item of the service.
     * @param domainType   the item's RDM domain as the requester knows it; 0 for a whole service.
     * @param lastSequence the last sequence the requester holds.
     * @return true when consumed; false to be called again with it on the next poll.
     */
    boolean onRecoveryRequest(int consumerId, int serviceId, int itemHandle, int domainType, long lastSequence);

    /**
     * A consumer's post to an item; the distributor that carries the service answers with a PostAck.
     *
     * @param consumerId    the p2p-server.
     * @param sourceIndex   its posting item source.
     * @param postRequestId to echo in the PostAck.
     * @param distributorEpoch epoch of the distributor the item is bound to; 0 = any carrier of the service.
     * @param serviceId     service.
     * @param domainType    RDM domain of the item.
     * @param buffer        holds the item name and the PostMsg.
     * @param nameOffset    where the name starts.
     * @param nameLength    its length (ASCII).
     * @param rwfOffset     where the consumer's PostMsg starts.
     * @param rwfLength     its length.
     * @return true when consumed; false to be called again with it on the next poll.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    default boolean onItemPost(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final long distributorEpoch,
        final int serviceId,
        final int domainType,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        return true;
    }

    /**
     * Open a private stream: a stream of its own to the item's interactive provider, never cached and never shared
     * with another request. A distributor that serves none refuses it.
     *
     * @param consumerId  the p2p-server.
     * @param sourceIndex the item source within the p2p-server that holds the stream.
     * @param requestId   to echo in the answering refresh.
     * @param serviceId   service.
     * @param domainType  RDM domain.
     * @param buffer      holds the item name.
     * @param nameOffset  where it starts.
     * @param nameLength  its length (ASCII).
     * @param viewOffset  where the view's field ids start in buffer (int16 each, little-endian).
     * @param viewLength  their length in bytes; 0 = every field.
     * @return true when consumed; false to be called again with it on the next poll.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    default boolean onPrivateItemRequest(
        final int consumerId,
        final int sourceIndex,
        final long requestId,
        final int serviceId,
        final int domainType,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int viewOffset,
        final int viewLength)
    {
        return true;
    }

    /**
     * A consumer's GenericMsg on an open item stream, for the item's provider.
     *
     * @param consumerId       the p2p-server.
     * @param sourceIndex      its item source.
     * @param distributorEpoch the epoch of the distributor whose handle it is.
     * @param serviceId        service.
     * @param itemHandle       item.
     * @param buffer           holds the GenericMsg.
     * @param rwfOffset        where it starts.
     * @param rwfLength        its length.
     */
    default void onItemGeneric(
        final int consumerId,
        final int sourceIndex,
        final long distributorEpoch,
        final int serviceId,
        final int itemHandle,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
    }
}
