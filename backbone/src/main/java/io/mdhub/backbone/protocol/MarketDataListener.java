package io.mdhub.backbone.protocol;

import org.agrona.DirectBuffer;

/**
 * What a p2p-server hears on a backbone data stream, decoded into primitives by {@link MarketDataAdapter}. Buffers
 * are valid only during the call. Returning false asks for the same message again on the next poll (back-pressure
 * propagates to the stream instead of being queued).
 */
public interface MarketDataListener
{
    /**
     * A distributor's announcement begins; {@link #onServiceAnnounced} follows once per service.
     *
     * @param distributorId the announcing distributor.
     * @param epoch         changes whenever that distributor restarts.
     * @param intervalMs    announcements come at least this often: silence for a few intervals means it is gone.
     * @param timestampNs   when it was sent.
     * @param serviceCount  how many services follow.
     */
    void onAnnouncement(int distributorId, long epoch, int intervalMs, long timestampNs, int serviceCount);

    /**
     * One service of the announcement in progress.
     *
     * @param distributorId      the announcing distributor.
     * @param serviceId          backbone-wide service id.
     * @param isUp               ServiceState.
     * @param isAcceptingRequests AcceptingRequests.
     * @param lastSequence       sequence of the service's last data message (0 if none yet).
     * @param itemCount          items the service has.
     * @param capabilities       bit n set: serves RDM domain n.
     * @param buffer             holds the service name.
     * @param nameOffset         where the name starts.
     * @param nameLength         its length (ASCII).
     */
    void onServiceAnnounced(
        int distributorId,
        int serviceId,
        boolean isUp,
        boolean isAcceptingRequests,
        long lastSequence,
        int itemCount,
        long capabilities,
        DirectBuffer buffer,
        int nameOffset,
        int nameLength);

    /**
     * An item's image (or one part of it).
     *
     * @param serviceId         service.
     * @param itemHandle        handle used by later updates and statuses.
     * @param sequence          the service's sequence number.
     * @param originTimestampNs when the provider's message reached the distributor.
     * @param requestId         the answered ItemRequest's id, or 0.
     * @param domainType        RDM domain.
     * @param flags             {@link RefreshFlags} bits.
     * @param buffer            holds the name and the RWF refresh.
     * @param nameOffset        item name start.
     * @param nameLength        item name length.
     * @param rwfOffset         RWF message start.
     * @param rwfLength         RWF message length.
     * @return true when consumed; false to be called again with it on the next poll.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    boolean onItemRefresh(
        int serviceId,
        int itemHandle,
        long sequence,
        long originTimestampNs,
        long requestId,
        int domainType,
        int flags,
        DirectBuffer buffer,
        int nameOffset,
        int nameLength,
        int rwfOffset,
        int rwfLength);

    /**
     * One update.
     *
     * @param serviceId         service.
     * @param itemHandle        item.
     * @param sequence          the service's sequence number.
     * @param originTimestampNs when the provider's message reached the distributor.
     * @param buffer            holds the RWF update.
     * @param rwfOffset         where it starts.
     * @param rwfLength         its length.
     * @return true when consumed; false to be called again with it on the next poll.
     */
    boolean onItemUpdate(
        int serviceId, int itemHandle, long sequence, long originTimestampNs, DirectBuffer buffer, int rwfOffset,
        int rwfLength);

    /**
     * A state change of an item (Closed stream states mean the item is gone), or the refusal of an ItemRequest.
     *
     * @param serviceId         service.
     * @param itemHandle        item, or -1 when a request for an unknown item is refused.
     * @param sequence          the service's sequence number.
     * @param originTimestampNs when the provider's message reached the distributor.
     * @param requestId         the ItemRequest refused, or 0.
     * @param streamState       RWF StreamState.
     * @param dataState         RWF DataState.
     * @param buffer            holds the RWF status message.
     * @param rwfOffset         where it starts.
     * @param rwfLength         its length.
     * @return true when consumed; false to be called again with it on the next poll.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    boolean onItemStatus(
        int serviceId, int itemHandle, long sequence, long originTimestampNs, long requestId, int streamState,
        int dataState, DirectBuffer buffer, int rwfOffset, int rwfLength);

    /**
     * The outcome of a post some p2p-server sent (each checks whether it is the addressee).
     *
     * @param consumerId    the posting p2p-server.
     * @param sourceIndex   its posting item source.
     * @param postRequestId the ItemPost's id.
     * @param serviceId     the service posted to.
     * @param nakCode       RWF NakCode, 0 when accepted.
     * @param buffer        holds the text.
     * @param textOffset    where it starts.
     * @param textLength    its length (ASCII; 0 for none).
     */
    default void onPostAck(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final int serviceId,
        final int nakCode,
        final DirectBuffer buffer,
        final int textOffset,
        final int textLength)
    {
    }

    /**
     * A provider's GenericMsg on an item stream.
     *
     * @param serviceId  service.
     * @param itemHandle item.
     * @param buffer     holds the GenericMsg.
     * @param rwfOffset  where it starts.
     * @param rwfLength  its length.
     */
    default void onItemGeneric(
        final int serviceId, final int itemHandle, final DirectBuffer buffer, final int rwfOffset, final int rwfLength)
    {
    }
}
