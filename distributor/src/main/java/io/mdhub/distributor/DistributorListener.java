package io.mdhub.distributor;

import org.agrona.DirectBuffer;

/**
 * Where the distributor's events go: the backbone publisher implements it. Every call happens on the distributor's
 * single event-loop thread, in the order the events happened, with primitives and buffer regions only (no objects
 * per message). A buffer region is valid only during the call: copy what must outlive it.
 * <p>
 * The RWF bytes are the provider's own message, unchanged, except when the distributor renumbered the provider's
 * service: then the msgKey's serviceId was rewritten (re-encoded by ETA). The message's streamId is the provider's
 * (negative, NIP-chosen) stream and means nothing downstream; the item handle identifies the item.
 * Implementations must not block and must not throw.
 */
public interface DistributorListener
{
    /**
     * A service appeared, changed state, or went down (its last provider left).
     *
     * @param serviceId         distributor-wide service id.
     * @param serviceName       the service name (the same String instance for the life of the service).
     * @param serviceState      1 up, 0 down.
     * @param acceptingRequests 1 if the service accepts requests, else 0.
     */
    default void onServiceChanged(
        final int serviceId, final String serviceName, final int serviceState, final int acceptingRequests)
    {
    }

    /**
     * A refresh (or one part of a multi-part refresh) was applied to the item's image.
     *
     * @param serviceId    distributor-wide service id.
     * @param itemHandle   distributor-wide item handle, assigned at the item's first refresh.
     * @param domainType   the item's domain (6 MarketPrice...).
     * @param refreshFlags the RefreshMsg flags (CLEAR_CACHE 0x100 on the first part, REFRESH_COMPLETE 0x40 on the
     *                     last).
     * @param connectionId the provider connection the refresh came from (origin).
     * @param name         a buffer holding exactly the item name (its capacity is the name length); stable for the
     *                     life of the item.
     * @param rwf          buffer holding the RWF RefreshMsg.
     * @param rwfOffset    first byte of the message.
     * @param rwfLength    message length.
     */
    default void onItemRefresh(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int refreshFlags,
        final long connectionId,
        final DirectBuffer name,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
    }

    /**
     * A sink-driven item's provider refresh (or one part of it) that answers a backbone request waiting for it: to
     * be published echoing the requestId, in order with the item's live messages.
     *
     * @param serviceId    distributor-wide service id.
     * @param itemHandle   the item.
     * @param domainType   the item's domain.
     * @param refreshFlags the RefreshMsg flags.
     * @param requestId    the backbone request answered.
     * @param connectionId the provider connection the refresh came from.
     * @param name         a buffer holding exactly the item name.
     * @param rwf          buffer holding the RWF RefreshMsg.
     * @param rwfOffset    first byte of the message.
     * @param rwfLength    message length.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    default void onItemAnswer(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int refreshFlags,
        final long requestId,
        final long connectionId,
        final DirectBuffer name,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
    }

    /**
     * A provider closed a sink-driven item while a backbone request waited for it: to be published as a refusal of
     * that request (handle -1, echoing the requestId).
     *
     * @param serviceId   distributor-wide service id.
     * @param requestId   the backbone request refused.
     * @param domainType  the item's domain.
     * @param streamState the closing stream state.
     * @param dataState   the data state.
     * @param rwf         buffer holding the provider's RWF StatusMsg.
     * @param rwfOffset   first byte of the message.
     * @param rwfLength   message length.
     */
    default void onRequestRefused(
        final int serviceId,
        final long requestId,
        final int domainType,
        final int streamState,
        final int dataState,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
    }

    /**
     * An update was applied to the item's image.
     *
     * @param serviceId  distributor-wide service id.
     * @param itemHandle the item.
     * @param domainType the item's domain.
     * @param updateType the update type (quote, trade...).
     * @param rwf        buffer holding the RWF UpdateMsg.
     * @param rwfOffset  first byte of the message.
     * @param rwfLength  message length.
     */
    default void onItemUpdate(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int updateType,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
    }

    /**
     * The item's state changed: a provider's StatusMsg, or Open/Suspect made by the distributor when the item's
     * provider left (then the RWF is a StatusMsg the distributor encoded).
     *
     * @param serviceId   distributor-wide service id.
     * @param itemHandle  the item.
     * @param streamState the new stream state (1 open, 4 closed...).
     * @param dataState   the new data state (1 ok, 2 suspect).
     * @param stateCode   the state code.
     * @param rwf         buffer holding the RWF StatusMsg.
     * @param rwfOffset   first byte of the message.
     * @param rwfLength   message length.
     */
    default void onItemStatus(
        final int serviceId,
        final int itemHandle,
        final int streamState,
        final int dataState,
        final int stateCode,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
    }

    /**
     * The item left the cache (its provider closed it); its handle is never used again. When the provider closed it
     * with a StatusMsg, {@link #onItemStatus} with that Closed state came just before.
     *
     * @param serviceId  distributor-wide service id.
     * @param itemHandle the item.
     * @param domainType the item's domain.
     */
    default void onItemDropped(final int serviceId, final int itemHandle, final int domainType)
    {
    }

    /**
     * The outcome of a consumer's post that came over the backbone: for the p2p-server item source that sent it.
     *
     * @param consumerId    the posting p2p-server.
     * @param sourceIndex   its posting item source.
     * @param postRequestId the backbone post's id.
     * @param serviceId     distributor-wide service id.
     * @param nakCode       RWF NakCode, 0 when accepted.
     * @param text          why, for a NAK, or empty.
     */
    default void onPostAck(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final int serviceId,
        final int nakCode,
        final String text)
    {
    }

    /**
     * A provider's GenericMsg on an item stream, for the item's watchers.
     *
     * @param serviceId  distributor-wide service id.
     * @param itemHandle the item.
     * @param rwf        holds the GenericMsg.
     * @param rwfOffset  where it starts.
     * @param rwfLength  its length.
     */
    default void onItemGeneric(
        final int serviceId, final int itemHandle, final DirectBuffer rwf, final int rwfOffset, final int rwfLength)
    {
    }
}
