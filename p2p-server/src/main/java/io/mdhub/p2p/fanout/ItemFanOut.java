package io.mdhub.p2p.fanout;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.RejectReason;
import io.mdhub.p2p.SlowConsumerPolicy;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.buffer.ByteBuf;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a worker does with the item source's events: each refresh, update, status and generic message of an item goes
 * to the item's watchers as a copy with each watcher's streamId (a view's watchers get their fields only, filtered
 * once per distinct view), each watch checked against the item's lock as a refresh or a new lock reaches it. Under
 * the conflate policy a consumer that falls behind counts the updates it misses and gets the item's latest state
 * when it catches up. The worker looks the item up and flushes; nothing here allocates per update. Worker thread
 * only.
 */
final class ItemFanOut
{
    private static final Logger LOG = LoggerFactory.getLogger(ItemFanOut.class);

    private final P2pCounters counters;
    private final ItemSource source;
    private final ItemTable items;
    private final WorkerCounts counts;
    private final EntitlementChecks entitlements;
    private final DirectoryView directory;
    private final StreamReplies replies;
    private final ItemMessages messages;
    private final boolean isConflating;
    private final ViewedMessages viewed = new ViewedMessages();
    private final ExpandableDirectByteBuffer image = new ExpandableDirectByteBuffer(4096);
    private final RwfMsgFlyweight imageMsg = new RwfMsgFlyweight();
    private final RwfMsgFlyweight sourceMsg = new RwfMsgFlyweight();
    private boolean isSendingConflated;

    /**
     * @param settings     the slow-consumer policy and the server's counters.
     * @param source       the worker's item source (images for conflated streams).
     * @param items        the worker's items.
     * @param counts       the worker's message counts.
     * @param entitlements who may see which item.
     * @param directory    the worker's directory (service names for the entitlement checks).
     * @param replies      closes a watch the entitlements refuse.
     * @param messages     encodes refreshes and copies.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // the worker's parts this one works with
    ItemFanOut(
        final WorkerSettings settings,
        final ItemSource source,
        final ItemTable items,
        final WorkerCounts counts,
        final EntitlementChecks entitlements,
        final DirectoryView directory,
        final StreamReplies replies,
        final ItemMessages messages)
    {
        this.counters = settings.counters();
        this.isConflating = SlowConsumerPolicy.CONFLATE == settings.slowConsumerPolicy();
        this.source = source;
        this.items = items;
        this.counts = counts;
        this.entitlements = entitlements;
        this.directory = directory;
        this.replies = replies;
        this.messages = messages;
    }

    /**
     * Conflate policy: a consumer that was behind is writable again (called from a task of its own or housekeeping,
     * never from inside a flush). Each of its streams that missed updates gets the item's latest state once — from
     * the source's image as an update with conflation info (a FieldList item) or an unsolicited refresh (a Map item:
     * an update could not say which entries went away) — until the connection turns unwritable again; the rest wait
     * for the next writability change.
     *
     * @return true if it ran (a latency connection's output is flushed then).
     */
    boolean onCaughtUp(final ConsumerSession session)
    {
        if (isSendingConflated || session.isClosing)
        {
            return false; // the loop below is already at work (it writes, so nothing should call back here; if it did)
        }
        isSendingConflated = true;
        try
        {
            final long nowNs = System.nanoTime();
            final ArrayList<ItemWatch> conflated = session.conflated;
            while (!conflated.isEmpty() && session.isWritable() && !session.isClosing)
            {
                final ItemWatch watch = conflated.remove(conflated.size() - 1);
                if (0 != watch.conflatedUpdates && ItemWatch.NOT_WATCHING != watch.index)
                {
                    sendConflated(watch, nowNs);
                }
                watch.conflatedUpdates = 0;
            }
        }
        finally
        {
            isSendingConflated = false;
        }
        return true;
    }

    private void sendConflated(final ItemWatch watch, final long nowNs)
    {
        final ConsumerSession session = watch.session;
        final int length = source.writeImage(watch.item.itemId, image);
        if (length > 0 && imageMsg.wrap(image, 0, length) && RwfMsgDescriptor.REFRESH == imageMsg.msgClass())
        {
            final RwfMsgFlyweight latest = null == watch.view ? imageMsg : viewed.refresh(imageMsg, watch.view);
            final boolean isFieldList = DataTypes.FIELD_LIST == latest.containerType();
            final ByteBuf out = isFieldList ?
                messages.conflatedUpdate(session.alloc(), latest, watch.streamId, watch.conflatedUpdates,
                    TimeUnit.NANOSECONDS.toMillis(nowNs - watch.conflatedSinceNs)) :
                messages.refreshFor(session.alloc(), latest, watch, false);
            if (null != out)
            {
                session.write(out);
                if (isFieldList)
                {
                    counts.updatesOut++;
                }
                else
                {
                    counts.refreshesOut++;
                }
                return;
            }
        }
        // no image kept here (no cache, a private stream): a fresh one from upstream, sent as an unsolicited refresh
        watch.isAwaitingRefresh = true;
        watch.isResyncing = true;
        source.refresh(watch.item.itemId);
    }

    /**
     * A provider's GenericMsg on an item goes to every watcher of it.
     */
    void onGeneric(final WatchedItem item, final DirectBuffer buffer, final int offset, final int length)
    {
        for (int i = 0, size = item.watcherCount(); i < size; i++)
        {
            final ItemWatch watch = item.watcher(i);
            watch.session.writeCopy(buffer, offset, length, watch.streamId, messages);
        }
    }

    /**
     * Checks a watch against its item's lock as a refresh brings it: a watch the user may not have is closed with
     * Closed/NotEntitled (a first refresh: denied; a stream already granted: withdrawn); a first grant is recorded.
     *
     * @return true if the watch may have the refresh.
     */
    boolean isEntitled(final ItemWatch watch, final int index, final ServiceInfo info, final long nowMs)
    {
        final String denial = entitlements.itemDenial(watch, info);
        if (null == denial)
        {
            if (0 == watch.grantedMs)
            {
                entitlements.granted(watch, info, nowMs);
            }
            return true;
        }
        watch.item.removeWatcherAt(index);
        watch.session.watches.remove(watch.streamId);
        counters.watchlistEntries().decrement();
        if (0 == watch.grantedMs)
        {
            entitlements.denied(watch, info, denial);
            replies.reject(watch.session, watch.item.key.domainType(), watch.streamId, RejectReason.NOT_ENTITLED,
                StateCodes.NOT_ENTITLED, denial);
        }
        else
        {
            entitlements.closed(watch, info, "permission withdrawn: " + denial);
            replies.reject(watch.session, watch.item.key.domainType(), watch.streamId,
                RejectReason.ENTITLEMENT_WITHDRAWN, StateCodes.NOT_ENTITLED, denial);
        }
        return false;
    }

    /**
     * A refresh of an item from the source: to the watchers awaiting one (all, if unsolicited), each checked against
     * the item's lock first; a snapshot watcher's stream ends with it.
     *
     * @return false if the source's message was malformed (nothing was written).
     */
    boolean onRefresh(
        final WatchedItem item, final boolean solicited, final DirectBuffer buffer, final int offset, final int length)
    {
        if (!sourceMsg.wrap(buffer, offset, length) || RwfMsgDescriptor.REFRESH != sourceMsg.msgClass())
        {
            LOG.warn("item {}: source sent a malformed refresh: {}", item.key, sourceMsg.errorReason());
            return false;
        }
        final boolean isComplete = 0 != (sourceMsg.flags() & RwfMsgFlags.Refresh.REFRESH_COMPLETE);
        final boolean isStreamingImage = StreamStates.NON_STREAMING != sourceMsg.streamState();
        if (isComplete && isStreamingImage)
        {
            item.hasImage = true;
            item.statusBeforeImage = null;
        }
        final boolean isLockChanged = EntitlementChecks.takeLock(
            item, buffer, sourceMsg.permDataOffset(), sourceMsg.permDataLength());
        final ServiceInfo info = directory.info(item.key.serviceId());
        final long nowMs = System.currentTimeMillis();
        for (int i = item.watcherCount() - 1; i >= 0; i--)
        {
            final ItemWatch watch = item.watcher(i);
            if ((watch.isAwaitingRefresh || isLockChanged) && !isEntitled(watch, i, info, nowMs))
            {
                continue;
            }
            // a snapshot image cannot start a stream: a streaming watcher waits for the refresh of its upgrade
            if ((solicited && !watch.isAwaitingRefresh) || (watch.isStreaming && !isStreamingImage))
            {
                continue;
            }
            final ByteBuf out = messages.refreshFor(watch.session.alloc(),
                null == watch.view ? sourceMsg : viewed.refresh(sourceMsg, watch.view), watch,
                watch.isAwaitingRefresh && !watch.isResyncing);
            if (null == out)
            {
                LOG.warn("item {}: cannot re-encode the source's refresh for stream {}", item.key, watch.streamId);
                continue;
            }
            watch.session.write(out);
            counts.refreshesOut++;
            watch.conflatedUpdates = 0; // the image holds whatever it missed
            if (isComplete)
            {
                watch.isAwaitingRefresh = false;
                watch.isResyncing = false;
                if (!watch.isStreaming)
                {
                    item.removeWatcherAt(i);
                    watch.session.watches.remove(watch.streamId);
                    counters.watchlistEntries().decrement();
                    entitlements.closed(watch, info, "snapshot");
                }
            }
        }
        if (0 == item.watcherCount())
        {
            items.freeItem(item);
        }
        return true;
    }

    /**
     * An update of an item from the source: a copy with each watcher's streamId to every watcher that has had its
     * refresh (a view's watchers get its fields only); under the conflate policy a consumer that is behind counts it
     * instead. Allocates nothing.
     */
    void onUpdate(final WatchedItem item, final DirectBuffer buffer, final int offset, final int length)
    {
        item.tally.updatesIn++;
        if (item.hasViews())
        {
            updateViews(item, buffer, offset, length);
        }
        else
        {
            for (int i = 0, size = item.watcherCount(); i < size; i++)
            {
                final ItemWatch watch = item.watcher(i);
                if (!watch.isAwaitingRefresh && !watch.session.isClosing)
                {
                    if (isConflating && watch.session.holdsBackUpdate(watch))
                    {
                        counts.updatesConflated++;
                        continue;
                    }
                    watch.session.writeCopy(buffer, offset, length, watch.streamId, messages);
                    counts.updatesOut++;
                }
            }
        }
    }

    /**
     * An update for an item some of whose watchers have views: each distinct view's copy is filtered once; a watcher
     * whose view keeps none of the update's fields is sent nothing.
     */
    private void updateViews(final WatchedItem item, final DirectBuffer buffer, final int offset, final int length)
    {
        viewed.beginUpdate(buffer, offset, length);
        for (int i = 0, size = item.watcherCount(); i < size; i++)
        {
            final ItemWatch watch = item.watcher(i);
            if (watch.isAwaitingRefresh || watch.session.isClosing)
            {
                continue;
            }
            if (isConflating && watch.session.holdsBackUpdate(watch))
            {
                counts.updatesConflated++;
                continue;
            }
            if (null == watch.view || !viewed.filterUpdate(watch.view))
            {
                watch.session.writeCopy(buffer, offset, length, watch.streamId, messages);
                counts.updatesOut++;
            }
            else if (viewed.keptFields() > 0)
            {
                watch.session.writeCopy(
                    viewed.buffer(), viewed.offset(), viewed.length(), watch.streamId, messages);
                counts.updatesOut++;
            }
        }
    }

    /**
     * A status of an item from the source: to every watcher (those a new lock in it no longer allows are closed
     * first); a Closed one ends every watcher's stream, and the item.
     */
    void onStatus(final WatchedItem item, final DirectBuffer buffer, final int offset, final int length)
    {
        boolean isClosing = false;
        int code = StateCodes.NONE;
        // a provider may lock (or lock anew) an item in a status: the watchers it already granted are checked again
        final boolean isWrapped = sourceMsg.wrap(buffer, offset, length);
        final boolean isLockChanged = isWrapped &&
            EntitlementChecks.takeLock(item, buffer, sourceMsg.permDataOffset(), sourceMsg.permDataLength());
        if (isWrapped && sourceMsg.hasState())
        {
            final int streamState = sourceMsg.streamState();
            isClosing = StreamStates.OPEN != streamState;
            code = sourceMsg.stateCode();
            if (!isClosing && !item.hasImage)
            {
                final byte[] status = new byte[length];
                buffer.getBytes(offset, status);
                item.statusBeforeImage = status;
            }
        }
        final ServiceInfo info = directory.info(item.key.serviceId());
        final long nowMs = System.currentTimeMillis();
        for (int i = item.watcherCount() - 1; i >= 0; i--)
        {
            final ItemWatch watch = item.watcher(i);
            if (isLockChanged && !watch.isAwaitingRefresh && !isEntitled(watch, i, info, nowMs))
            {
                continue;
            }
            watch.session.writeCopy(buffer, offset, length, watch.streamId, messages);
            counts.statusOut++;
            if (isClosing)
            {
                item.removeWatcherAt(i);
                watch.session.watches.remove(watch.streamId);
                counters.watchlistEntries().decrement();
                entitlements.closed(watch, info, "closed by the source");
                if (StateCodes.NOT_FOUND == code)
                {
                    counters.rejected(RejectReason.NOT_FOUND).increment();
                }
            }
        }
        if (0 == item.watcherCount())
        {
            items.freeItem(item);
        }
    }
}
