package io.mdhub.distributor;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.common.cache.ImageScratch;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.RwfMsgKeyFlyweight;
import io.netty.buffer.ByteBuf;

/**
 * Applies a provider's item messages (refresh, update, status, close on its negative streams) to the item caches and
 * passes them on to the listener. Updates take the allocation-free path: flyweight header, FieldList applied field by
 * field or Map applied entry by entry, the provider's bytes handed on unchanged. A new item stream is admitted only
 * with a key naming a service the provider announced and while the service is below its item limit; otherwise the
 * stream is closed with a StatusMsg and counted, and the connection stays up. Items are found by (domain, name): the
 * same name published in two domains is two items. A refresh whose domain is not its stream's item's is dropped and
 * counted (a provider reuses a stream for another item only after closing it). Each item keeps the group id of its
 * refreshes and of statuses that carry one, for {@link ItemGroups}.
 */
final class ItemFeed
{
    private static final String PROVIDER_LOST_TEXT = "provider connection lost; data is stale";

    private final DistributorCore core;
    private final RwfMsgFlyweight msg;
    private final ImageScratch imageScratch;
    private DirectBuffer rwf;
    private int rwfOffset;
    private int rwfLength;

    ItemFeed(final DistributorCore core)
    {
        this.core = core;
        this.msg = core.msg;
        this.imageScratch = core.imageScratch;
    }

    /**
     * @param session  the provider connection.
     * @param message  the message, wrapped in {@link DistributorCore#msg} over view.
     * @param view     the message bytes as an Agrona buffer.
     */
    void onMessage(final ProviderLink session, final ByteBuf message, final DirectBuffer view)
    {
        switch (msg.msgClass())
        {
            case MsgClasses.REFRESH:
                onRefresh(session, message, view);
                break;
            case MsgClasses.UPDATE:
                onUpdate(session, message, view);
                break;
            case MsgClasses.STATUS:
                onStatus(session, message, view);
                break;
            case MsgClasses.CLOSE:
                onClose(session);
                break;
            case MsgClasses.GENERIC:
                onGeneric(session, view);
                break;
            default:
                core.counters.messagesDropped().increment();
                break;
        }
    }

    private void onRefresh(final ProviderLink session, final ByteBuf message, final DirectBuffer view)
    {
        final int streamId = msg.streamId();
        CachedItem item = session.item(streamId);
        if (null == item)
        {
            item = admit(session, streamId, view);
            if (null == item)
            {
                return;
            }
        }
        else if (item.domainType() != msg.domainType())
        {
            core.counters.messagesDropped().increment();
            return;
        }
        // a refresh part without CLEAR_CACHE adds to the image, except when nothing is loaded yet; a service that
        // keeps no images (sink-driven, cache off) follows the state alone and passes the payload on untouched
        final DistributedService service = item.service();
        if (!service.isCaching())
        {
            item.cached().applyRefreshState(msg);
        }
        else if (!item.cached().applyRefresh(msg, imageScratch))
        {
            malformedPayload(session);
            return;
        }
        if (msg.hasGroupId())
        {
            item.groupId(msg.buffer(), msg.groupIdOffset(), msg.groupIdLength());
        }
        service.refreshesIn().increment();
        if (outgoing(session, service.id(), message, view))
        {
            if (null != item.interest)
            {
                core.sinkItems.onRefresh(item, msg.flags(), session.connectionId(), rwf, rwfOffset, rwfLength);
            }
            else
            {
                core.listener.onItemRefresh(service.id(), item.handle(), item.domainType(), msg.flags(),
                    session.connectionId(), item.nameBuffer(), rwf, rwfOffset, rwfLength);
            }
        }
    }

    private CachedItem admit(final ProviderLink session, final int streamId, final DirectBuffer view)
    {
        if (session.isRoute())
        {
            core.counters.messagesDropped().increment(); // a mounted provider answers only streams we opened
            return null;
        }
        final RwfMsgKeyFlyweight key = msg.key();
        if (!msg.hasMsgKey() || !key.hasServiceId() || !key.hasName())
        {
            session.rejectItem(streamId, msg.domainType(), ItemRejectReason.BAD_KEY);
            return null;
        }
        final DistributedService service = session.service(key.serviceId());
        if (null == service)
        {
            session.rejectItem(streamId, msg.domainType(), ItemRejectReason.UNKNOWN_SERVICE);
            return null;
        }
        final ItemCache cache = service.cache();
        final int handle = cache.handle(msg.domainType(), view, key.nameOffset(), key.nameLength());
        final CachedItem item;
        if (ItemCache.NO_HANDLE != handle)
        {
            item = cache.item(handle);
            if (null != item.owner && (session != item.owner || streamId != item.providerStreamId))
            {
                // another connection, or another stream of this one, published this item until now: the latest
                // publisher owns it, on one stream only, so a close of the old stream cannot drop it
                item.owner.unbind(item.providerStreamId);
            }
        }
        else
        {
            if (cache.isFull())
            {
                session.rejectItem(streamId, msg.domainType(), ItemRejectReason.TOO_MANY_ITEMS);
                return null;
            }
            item = cache.add(core.directory.nextItemHandle(), service, view, key.nameOffset(), key.nameLength(),
                msg.domainType());
            service.itemAdded();
        }
        item.owner = session;
        item.providerStreamId = streamId;
        session.bind(streamId, item);
        return item;
    }

    private void malformedPayload(final ProviderLink session)
    {
        session.disconnect(DataTypes.MAP == imageScratch.failedContainerType() ?
            ProviderDisconnectReason.MALFORMED_MAP : ProviderDisconnectReason.MALFORMED_FIELD_LIST,
            imageScratch.errorDescription());
    }

    private void onUpdate(final ProviderLink session, final ByteBuf message, final DirectBuffer view)
    {
        // the fields an update needs come from the stream table's arrays: the item's own record is read only when
        // its image is kept (a sink-driven service mounted without the cache keeps none: updates pass untouched)
        final StreamItemTable.Found item = session.find(msg.streamId());
        if (null == item)
        {
            core.counters.messagesDropped().increment();
            return;
        }
        final DistributedService service = item.service();
        if (service.isCaching() && !service.imageUpdates().onUpdate(item.item(), msg, imageScratch))
        {
            malformedPayload(session);
            return;
        }
        service.updatesIn().increment();
        if (outgoing(session, service.id(), message, view))
        {
            core.listener.onItemUpdate(service.id(), item.handle(), item.domainType(), msg.updateType(), rwf,
                rwfOffset, rwfLength);
        }
        service.imageUpdates().applyAfterBurst();
    }

    private void onStatus(final ProviderLink session, final ByteBuf message, final DirectBuffer view)
    {
        final CachedItem item = session.item(msg.streamId());
        if (null == item)
        {
            core.counters.messagesDropped().increment();
            return;
        }
        item.cached().applyStatus(msg);
        if (msg.hasGroupId())
        {
            item.groupId(msg.buffer(), msg.groupIdOffset(), msg.groupIdLength());
        }
        final DistributedService service = item.service();
        if (!outgoing(session, service.id(), message, view))
        {
            return;
        }
        if (null != item.interest && !item.interest.waitingRequests.isEmpty() && msg.hasState() &&
            isClosed(item.streamState()))
        {
            core.sinkItems.onClosed(item, item.streamState(), item.dataState(), rwf, rwfOffset, rwfLength);
        }
        core.listener.onItemStatus(service.id(), item.handle(), item.streamState(), item.dataState(),
            item.stateCode(), rwf, rwfOffset, rwfLength);
        if (msg.hasState() && isClosed(item.streamState()))
        {
            drop(session, item);
        }
    }

    /**
     * A provider's GenericMsg on an item stream goes to the item's watchers, as it came.
     */
    private void onGeneric(final ProviderLink session, final DirectBuffer view)
    {
        final CachedItem item = session.item(msg.streamId());
        if (null == item)
        {
            core.counters.messagesDropped().increment();
            return;
        }
        core.listener.onItemGeneric(item.service().id(), item.handle(), view, msg.offset(), msg.length());
    }

    private void onClose(final ProviderLink session)
    {
        final CachedItem item = session.item(msg.streamId());
        if (null == item)
        {
            core.counters.messagesDropped().increment();
            return;
        }
        drop(session, item);
    }

    static boolean isClosed(final int streamState)
    {
        return StreamStates.CLOSED == streamState || StreamStates.CLOSED_RECOVER == streamState ||
            StreamStates.REDIRECTED == streamState;
    }

    void drop(final ProviderLink session, final CachedItem item)
    {
        session.unbind(item.providerStreamId);
        item.owner = null;
        final DistributedService service = item.service();
        service.cache().remove(item);
        service.itemRemoved();
        core.listener.onItemDropped(service.id(), item.handle(), item.domainType());
    }

    /**
     * Apply a consumer's posted message (the payload of its PostMsg, wrapped in {@link DistributorCore#msg}) to a
     * non-interactive item, as if its provider had sent it: an update or a refresh goes into the image and out to
     * every watcher. The provider itself is not told (it publishes; the cache is the distributor's).
     *
     * @param item   the posted item.
     * @param buffer holds the posted message.
     * @return 0 when applied, else an RWF NakCode ({@link #postRefusal()} says why).
     */
    int applyPost(final CachedItem item, final DirectBuffer buffer)
    {
        final DistributedService service = item.service();
        if (item.domainType() != msg.domainType())
        {
            return refusePost(NakCodes.INVALID_CONTENT, "the posted message's domain is not the item's");
        }
        if (MsgClasses.UPDATE == msg.msgClass())
        {
            if (service.isCaching() && !service.imageUpdates().onUpdate(item, msg, imageScratch))
            {
                return refusePost(NakCodes.INVALID_CONTENT, "malformed payload: " + imageScratch.errorDescription());
            }
            service.updatesIn().increment();
            core.listener.onItemUpdate(service.id(), item.handle(), item.domainType(), msg.updateType(), buffer,
                msg.offset(), msg.length());
            service.imageUpdates().applyAfterBurst();
            return NakCodes.NONE;
        }
        if (MsgClasses.REFRESH == msg.msgClass())
        {
            if (service.isCaching() && !item.cached().applyRefresh(msg, imageScratch))
            {
                return refusePost(NakCodes.INVALID_CONTENT, "malformed payload: " + imageScratch.errorDescription());
            }
            service.refreshesIn().increment();
            core.listener.onItemRefresh(service.id(), item.handle(), item.domainType(), msg.flags(), 0,
                item.nameBuffer(), buffer, msg.offset(), msg.length());
            return NakCodes.NONE;
        }
        return refusePost(NakCodes.INVALID_CONTENT, "a post carries an UpdateMsg or a RefreshMsg");
    }

    private String postRefusal;

    private int refusePost(final int nakCode, final String why)
    {
        postRefusal = why;
        return nakCode;
    }

    /**
     * @return why the last {@link #applyPost} refused.
     */
    String postRefusal()
    {
        return postRefusal;
    }

    /**
     * Point rwf/rwfOffset/rwfLength at the bytes to pass on: the provider's own, or a copy with the distributor's
     * serviceId when the provider's id differs and the message carries it.
     *
     * @return false if a needed re-encode failed (the provider is disconnected).
     */
    private boolean outgoing(
        final ProviderLink session, final int serviceId, final ByteBuf message, final DirectBuffer view)
    {
        if (msg.hasMsgKey() && msg.key().hasServiceId() && msg.key().serviceId() != serviceId)
        {
            final int length = core.rewriter.rewrite(message, message.readerIndex(), message.readableBytes(),
                serviceId);
            if (length < 0)
            {
                session.disconnect(ProviderDisconnectReason.REENCODE_FAILED, CodecReturnCodes.toString(length));
                return false;
            }
            rwf = core.rewriter.buffer();
            rwfOffset = 0;
            rwfLength = length;
            return true;
        }
        rwf = view;
        rwfOffset = msg.offset();
        rwfLength = msg.length();
        return true;
    }

    /**
     * The provider connection is gone: each of its items stays cached but turns Open/Suspect (stale), and the
     * listener gets a StatusMsg saying so.
     */
    void onProviderGone(final ProviderLink session)
    {
        session.forEachItem(this::markStale);
        if (session.isRoute())
        {
            session.forEachItem(core.sinkItems::orphaned);
        }
    }

    private void markStale(final CachedItem item)
    {
        item.owner = null;
        item.cached().state(StreamStates.OPEN, DataStates.SUSPECT, StateCodes.NONE);
        final int capacity = 256 + PROVIDER_LOST_TEXT.length();
        core.scratch.checkLimit(capacity);
        final int result = core.statusEncoder.encode(core.writer.begin(core.scratch, 0, capacity), item.domainType(),
            item.providerStreamId, StreamStates.OPEN, DataStates.SUSPECT, StateCodes.NONE, PROVIDER_LOST_TEXT);
        if (CodecReturnCodes.SUCCESS != result)
        {
            throw new IllegalStateException("status encoding failed: " + CodecReturnCodes.toString(result));
        }
        core.listener.onItemStatus(item.service().id(), item.handle(), item.streamState(), item.dataState(),
            item.stateCode(), core.scratch, 0, core.writer.encodedLength());
    }
}
