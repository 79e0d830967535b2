package io.mdhub.p2p.fanout;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import io.mdhub.common.entitlement.UserRights;
import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.RwfMsgKeyFlyweight;
import io.mdhub.common.rwf.eta.BatchRequestLists;
import io.mdhub.common.rwf.eta.ViewRequestDecoder;
import io.mdhub.p2p.DisconnectReason;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.RejectReason;
import io.mdhub.p2p.entitlement.UsageEvent;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.buffer.ByteBuf;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The item streams of a worker's consumers: requests (one by one, in a batch, with a view, private), reissues,
 * closes (one, or a list), generic messages and posts on them, and the end of them all when a login ends. The first
 * request for an item opens it on the source ({@link ItemTable}); a later one joins it and asks for a fresh image. It
 * also wraps every inbound message, so a malformed one is answered here: its stream rejected, or, without a stream,
 * the connection closed. Worker thread only.
 */
final class ConsumerRequests
{
    private static final int MAX_NAME_LENGTH = 255;

    private final WorkerSettings settings;
    private final P2pCounters counters;
    private final ItemSource source;
    private final ItemTable items;
    private final WorkerCounts counts;
    private final EntitlementChecks entitlements;
    private final DirectoryView directory;
    private final StreamReplies replies;
    private final AdminResponder responder;
    private final ItemMessages messages;
    private final ConsumerPosts posts;
    private final BatchRequestLists batchLists = new BatchRequestLists();
    private final ViewRequestDecoder viewDecoder = new ViewRequestDecoder();
    private final RwfMsgFlyweight inbound = new RwfMsgFlyweight();
    private final UnsafeBuffer inboundView = new UnsafeBuffer(new byte[0]);

    /**
     * @param settings     limits and the server's counters.
     * @param source       the worker's item source.
     * @param items        the worker's items.
     * @param counts       the worker's message counts.
     * @param entitlements who may see which item.
     * @param directory    the worker's directory.
     * @param replies      rejects and ignores.
     * @param responder    its reader decodes views, batches and close lists.
     * @param messages     encodes statuses and acks.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // the worker's parts this one works with
    ConsumerRequests(
        final WorkerSettings settings,
        final ItemSource source,
        final ItemTable items,
        final WorkerCounts counts,
        final EntitlementChecks entitlements,
        final DirectoryView directory,
        final StreamReplies replies,
        final AdminResponder responder,
        final ItemMessages messages)
    {
        this.settings = settings;
        this.counters = settings.counters();
        this.source = source;
        this.items = items;
        this.counts = counts;
        this.entitlements = entitlements;
        this.directory = directory;
        this.replies = replies;
        this.responder = responder;
        this.messages = messages;
        this.posts = new ConsumerPosts(settings, source, messages, this::postDenial);
    }

    /**
     * @return the consumers' posts (the worker expires them, forgets a closed connection's and hands on their ACKs).
     */
    ConsumerPosts posts()
    {
        return posts;
    }

    /**
     * Wrap a consumer's message; a malformed one is answered here (its stream rejected, or, without a stream to
     * reject, the connection closed).
     *
     * @return the message wrapped (valid until the next call), or null if it was malformed.
     */
    RwfMsgFlyweight wrap(final ConsumerSession session, final ByteBuf message)
    {
        final int length = message.readableBytes();
        wrapInbound(message, length);
        if (!inbound.wrap(inboundView, 0, length))
        {
            onMalformed(session, length);
            return null;
        }
        return inbound;
    }

    /**
     * A logged-in consumer's message on an item domain, just {@link #wrap wrapped}.
     */
    void onItemMessage(final ConsumerSession session, final ByteBuf message)
    {
        final int msgClass = inbound.msgClass();
        if (RwfMsgDescriptor.REQUEST == msgClass)
        {
            onItemRequest(session, message);
        }
        else if (RwfMsgDescriptor.CLOSE == msgClass)
        {
            onItemClose(session, message);
        }
        else if (RwfMsgDescriptor.POST == msgClass)
        {
            posts.onPost(session, inbound, inboundView, message.readableBytes());
        }
        else if (RwfMsgDescriptor.GENERIC == msgClass)
        {
            onGeneric(session, message.readableBytes());
        }
        else
        {
            replies.ignore(session, inbound, "on an item stream (the server takes requests, closes and posts)");
        }
    }

    private void wrapInbound(final ByteBuf message, final int length)
    {
        if (message.hasMemoryAddress())
        {
            inboundView.wrap(message.memoryAddress() + message.readerIndex(), length);
        }
        else if (message.hasArray())
        {
            inboundView.wrap(message.array(), message.arrayOffset() + message.readerIndex(), length);
        }
        else
        {
            inboundView.wrap(message.nioBuffer(message.readerIndex(), length));
        }
    }

    private void onMalformed(final ConsumerSession session, final int length)
    {
        final String reason = inbound.errorReason();
        if (length >= RwfMsgDescriptor.STREAM_ID_OFFSET + RwfMsgDescriptor.STREAM_ID_SIZE)
        {
            final int streamId = inboundView.getInt(RwfMsgDescriptor.STREAM_ID_OFFSET, RwfMsgDescriptor.BYTE_ORDER);
            final int domainType = inboundView.getByte(RwfMsgDescriptor.DOMAIN_TYPE_OFFSET) & 0xFF;
            if (DomainTypes.LOGIN != domainType && streamId != session.loginStreamId)
            {
                closeWatch(session, streamId);
                replies.reject(session, domainType, streamId, RejectReason.MALFORMED_REQUEST, StateCodes.USAGE_ERROR,
                    "Malformed message: " + reason);
                return;
            }
        }
        session.disconnect(DisconnectReason.MALFORMED_MESSAGE, "malformed RWF message (" + length + " bytes): " +
            reason);
    }

    private void onItemRequest(final ConsumerSession session, final ByteBuf message)
    {
        final int streamId = inbound.streamId();
        final int flags = inbound.flags();
        final boolean isStreaming = 0 != (flags & RwfMsgFlags.Request.STREAMING);
        FieldView view = null;
        if (0 != (flags & RwfMsgFlags.Request.HAS_VIEW))
        {
            if (!isRead(message) || !viewDecoder.decode(responder.reader.iterator()))
            {
                closeWatch(session, streamId);
                replies.reject(session, inbound.domainType(), streamId, RejectReason.MALFORMED_REQUEST,
                    StateCodes.USAGE_ERROR,
                    "Invalid view: " + (null == viewDecoder.error() ? "undecodable request" : viewDecoder.error()));
                return;
            }
            view = viewDecoder.view();
        }
        if (0 != (flags & RwfMsgFlags.Request.HAS_BATCH))
        {
            if (0 != (flags & RwfMsgFlags.Request.PRIVATE_STREAM))
            {
                replies.reject(session, inbound.domainType(), streamId, RejectReason.MALFORMED_REQUEST,
                    StateCodes.USAGE_ERROR, "Private streams are requested one by one, not in a batch");
                return;
            }
            onBatchRequest(session, message, isStreaming, flags, view);
            return;
        }
        final ItemWatch existing = session.watches.get(streamId);
        if (null != existing)
        {
            reissue(existing, isStreaming, flags, view);
            return;
        }
        final RwfMsgKeyFlyweight key = inbound.key();
        if (!inbound.hasMsgKey() || !key.hasServiceId() || !key.hasName())
        {
            replies.reject(session, inbound.domainType(), streamId, RejectReason.MALFORMED_REQUEST,
                StateCodes.USAGE_ERROR, "Item request needs a serviceId and a name in its msgKey");
            return;
        }
        if (0 != (flags & RwfMsgFlags.Request.PRIVATE_STREAM))
        {
            openPrivateWatch(session, inbound.domainType(), streamId, key.serviceId(), key.nameOffset(),
                key.nameLength(), key.hasNameType() ? key.nameType() : 1, view);
            return;
        }
        openWatch(session, inbound.domainType(), streamId, key.serviceId(), inboundView, key.nameOffset(),
            key.nameLength(), key.hasNameType() ? key.nameType() : 1, isStreaming, view);
    }

    private void onBatchRequest(
        final ConsumerSession session,
        final ByteBuf message,
        final boolean isStreaming,
        final int flags,
        final FieldView view)
    {
        final int batchStreamId = inbound.streamId();
        final int domainType = inbound.domainType();
        final RwfMsgKeyFlyweight key = inbound.key();
        if (!inbound.hasMsgKey() || !key.hasServiceId())
        {
            replies.reject(session, domainType, batchStreamId, RejectReason.MALFORMED_REQUEST, StateCodes.USAGE_ERROR,
                "Batch request needs a serviceId in its msgKey");
            return;
        }
        final int serviceId = key.serviceId();
        final int nameType = key.hasNameType() ? key.nameType() : 1;
        final int count;
        if (!isRead(message) || (count = batchLists.decodeItemList(responder.reader.iterator())) < 0)
        {
            replies.reject(session, domainType, batchStreamId, RejectReason.MALFORMED_REQUEST, StateCodes.USAGE_ERROR,
                "Batch request without a valid :ItemList");
            return;
        }
        session.write(messages.status(session.alloc(), domainType, batchStreamId, StreamStates.CLOSED, DataStates.OK,
            StateCodes.NONE, "Stream closed for batch"));
        counts.statusOut++;
        for (int i = 0; i < count; i++)
        {
            final int streamId = batchStreamId + 1 + i;
            final ItemWatch existing = session.watches.get(streamId);
            if (null != existing)
            {
                reissue(existing, isStreaming, flags, view);
            }
            else
            {
                openWatch(session, domainType, streamId, serviceId, batchLists.names(), batchLists.nameOffset(i),
                    batchLists.nameLength(i), nameType, isStreaming, view);
            }
        }
    }

    private void reissue(final ItemWatch watch, final boolean isStreaming, final int flags, final FieldView view)
    {
        watch.isStreaming = isStreaming;
        watch.item.view(watch, view);
        if (0 == (flags & RwfMsgFlags.Request.NO_REFRESH))
        {
            watch.isAwaitingRefresh = true;
            requestFor(watch.item, isStreaming);
        }
        else
        {
            widenUpstreamView(watch.item);
        }
    }

    /**
     * A watcher joined or reissued and awaits an image: a snapshot item turns streaming, or the view is widened, or
     * the image is asked for as it stands.
     */
    private void requestFor(final WatchedItem item, final boolean isStreaming)
    {
        if ((isStreaming && !item.isUpstreamStreaming) || !widenUpstreamView(item))
        {
            requestImage(item, isStreaming);
        }
    }

    /**
     * An item asked for upstream with a view that lacks fields its watchers now want is asked for again with their
     * union (or every field); its refresh reaches the watchers awaiting one. A narrower union is not asked for.
     *
     * @return true if asked again.
     */
    private boolean widenUpstreamView(final WatchedItem item)
    {
        final FieldView asked = item.upstreamView;
        if (null == asked || item.isPrivate)
        {
            return false;
        }
        final FieldView wanted = item.wantedView();
        if (asked.covers(wanted))
        {
            return false;
        }
        item.upstreamView = wanted;
        source.widenView(item.itemId, wanted);
        return true;
    }

    private void requestImage(final WatchedItem item, final boolean isStreaming)
    {
        if (isStreaming && !item.isUpstreamStreaming)
        {
            // a snapshot item turns streaming: asked for again, with the view its watchers now want
            item.isUpstreamStreaming = true;
            if (null != item.upstreamView && !item.isPrivate && !item.upstreamView.covers(item.wantedView()))
            {
                item.upstreamView = item.wantedView();
            }
            final ItemKey key = item.key;
            source.open(item.itemId, key.domainType(), key.serviceId(), new UnsafeBuffer(key.nameBytes()), 0,
                key.nameLength(), true, item.upstreamView);
        }
        else if (item.hasImage)
        {
            source.refresh(item.itemId);
        }
    }

    private void openWatch(
        final ConsumerSession session,
        final int domainType,
        final int streamId,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final int nameType,
        final boolean isStreaming,
        final FieldView view)
    {
        if (!isRequestable(session, domainType, streamId, serviceId, name, nameOffset, nameLength))
        {
            return;
        }
        if (session.watches.size() >= settings.maxItemsPerConsumer())
        {
            replies.reject(session, domainType, streamId, RejectReason.CONSUMER_ITEM_LIMIT, StateCodes.TOO_MANY_ITEMS,
                "Item limit per consumer (" + settings.maxItemsPerConsumer() + ") reached");
            return;
        }
        WatchedItem item = items.find(domainType, serviceId, name, nameOffset, nameLength);
        final boolean isNew = null == item;
        if (isNew)
        {
            item = items.newItem(domainType, serviceId, name, nameOffset, nameLength, isStreaming, view);
            if (null == item)
            {
                replies.reject(session, domainType, streamId, RejectReason.SERVER_ITEM_LIMIT, StateCodes.TOO_MANY_ITEMS,
                    "Server item limit (" + settings.maxItems() + ") reached");
                return;
            }
        }
        final ItemWatch watch = new ItemWatch(session, streamId, item, nameType, isStreaming);
        watch.view = view;
        item.addWatcher(watch);
        session.watches.put(streamId, watch);
        counters.watchlistEntries().increment();
        if (isNew)
        {
            source.open(item.itemId, domainType, serviceId, name, nameOffset, nameLength, isStreaming, view);
        }
        else
        {
            if (null != item.statusBeforeImage)
            {
                final byte[] status = item.statusBeforeImage;
                session.writeCopy(new UnsafeBuffer(status), 0, status.length, streamId, messages);
                counts.statusOut++;
            }
            requestFor(item, isStreaming);
        }
    }

    /**
     * @return true if the service is in the directory and the name's length is valid; else the request is rejected.
     */
    private boolean isRequestable(
        final ConsumerSession session, final int domainType, final int streamId, final int serviceId,
        final DirectBuffer name, final int nameOffset, final int nameLength)
    {
        directory.ensureLoaded(source);
        if (null == directory.info(serviceId))
        {
            replies.reject(session, domainType, streamId, RejectReason.UNKNOWN_SERVICE, StateCodes.SOURCE_UNKNOWN,
                "Service id " + serviceId + " is not in the source directory");
            return false;
        }
        if (0 == nameLength || nameLength > MAX_NAME_LENGTH)
        {
            replies.reject(session, domainType, streamId, RejectReason.MALFORMED_REQUEST, StateCodes.USAGE_ERROR,
                "Item name must be 1 to 255 bytes");
            return false;
        }
        final ServiceInfo info = directory.info(serviceId);
        if (!entitlements.mayUseService(session, info))
        {
            final String why = "User " + session.userName + " is not entitled to service " + info.name();
            entitlements.denied(session, domainType, info.name(), name, nameOffset, nameLength,
                UsageEvent.ITEM_DENIED, why);
            replies.reject(session, domainType, streamId, RejectReason.NOT_ENTITLED, StateCodes.NOT_ENTITLED, why);
            return false;
        }
        return true;
    }

    /**
     * A private stream: an item of its own (one watcher, never in the item table, so never shared) opened on the
     * source as private, which never caches it.
     */
    private void openPrivateWatch(
        final ConsumerSession session,
        final int domainType,
        final int streamId,
        final int serviceId,
        final int nameOffset,
        final int nameLength,
        final int nameType,
        final FieldView view)
    {
        if (!isRequestable(session, domainType, streamId, serviceId, inboundView, nameOffset, nameLength))
        {
            return;
        }
        final boolean isOverConsumerLimit = session.watches.size() >= settings.maxItemsPerConsumer();
        final WatchedItem item = isOverConsumerLimit ?
            null : items.newPrivateItem(domainType, serviceId, inboundView, nameOffset, nameLength);
        if (null == item)
        {
            replies.reject(session, domainType, streamId, isOverConsumerLimit ?
                RejectReason.CONSUMER_ITEM_LIMIT : RejectReason.SERVER_ITEM_LIMIT, StateCodes.TOO_MANY_ITEMS,
                "Item limit reached");
            return;
        }
        final ItemWatch watch = new ItemWatch(session, streamId, item, nameType, true);
        watch.view = view;
        item.addWatcher(watch);
        session.watches.put(streamId, watch);
        counters.watchlistEntries().increment();
        if (!source.openPrivate(item.itemId, domainType, serviceId, inboundView, nameOffset, nameLength, view))
        {
            item.removeWatcher(watch);
            session.watches.remove(streamId);
            counters.watchlistEntries().decrement();
            items.freeItem(item);
            replies.reject(session, domainType, streamId, RejectReason.MALFORMED_REQUEST, StateCodes.USAGE_ERROR,
                "Private streams are not served here");
        }
    }

    /**
     * A consumer's GenericMsg on an open item stream goes to the item's provider; anywhere else it is ignored.
     */
    private void onGeneric(final ConsumerSession session, final int length)
    {
        final ItemWatch watch = session.watches.get(inbound.streamId());
        if (null == watch || !source.generic(watch.item.itemId, inboundView, 0, length))
        {
            replies.ignore(session, inbound,
                "(a generic message on no open item stream, or before the item's first image)");
        }
    }

    private void onItemClose(final ConsumerSession session, final ByteBuf message)
    {
        if (DataTypes.ELEMENT_LIST == inbound.containerType() && inbound.payloadLength() > 0 && isRead(message))
        {
            final IntArrayList streamIds = batchLists.decodeStreamIdList(responder.reader.iterator());
            if (null != streamIds)
            {
                for (int i = 0, size = streamIds.size(); i < size; i++)
                {
                    closeWatch(session, streamIds.getInt(i));
                }
            }
        }
        closeWatch(session, inbound.streamId());
    }

    private void closeWatch(final ConsumerSession session, final int streamId)
    {
        final ItemWatch watch = session.watches.remove(streamId);
        if (null != watch)
        {
            entitlements.closed(watch, directory.info(watch.serviceId), "closed by the consumer");
            items.detach(watch);
        }
    }

    /**
     * A post meets the lock its item's provider gave: on-stream the watch's item, off-stream the item if it is open in
     * this worker (else only the file's lock for its name is known). A stream not yet granted takes no post: its lock
     * may still be on its way.
     */
    private String postDenial(
        final ConsumerSession session, final int domainType, final int serviceId, final ItemWatch watch,
        final DirectBuffer name, final int nameOffset, final int nameLength)
    {
        final ServiceInfo info = directory.info(serviceId);
        final String denial;
        if (null != watch && 0 == watch.grantedMs && session.rights != UserRights.ALL)
        {
            denial = "stream " + watch.streamId + " is not granted yet: no post before its refresh";
        }
        else
        {
            final WatchedItem item = null != watch ? watch.item : nameLength > 0 && nameLength <= MAX_NAME_LENGTH ?
                items.find(domainType, serviceId, name, nameOffset, nameLength) : null;
            denial = entitlements.postDenial(session, info, item, name, nameOffset, nameLength);
        }
        if (null != denial)
        {
            entitlements.denied(session, domainType, null == info ? "service id " + serviceId : info.name(), name,
                nameOffset, nameLength, UsageEvent.POST_DENIED, denial);
        }
        return denial;
    }

    /**
     * Ends a consumer's login, whichever way it ends (the login stream closed, the permission withdrawn, the
     * connection closed): every stream of it closes (each granted one recorded as closed), then the logoff.
     */
    void logOff(final ConsumerSession session, final String reason)
    {
        for (final ItemWatch watch : session.watches.values())
        {
            entitlements.closed(watch, directory.info(watch.serviceId), reason);
            items.detach(watch);
        }
        entitlements.logoff(session, reason);
        session.watches.clear();
        session.directoryStreamId = 0;
        session.isLoggedIn = false;
    }

    private boolean isRead(final ByteBuf message)
    {
        return CodecReturnCodes.SUCCESS ==
            responder.reader.read(message, message.readerIndex(), message.readableBytes());
    }
}
