package io.mdhub.p2p.fanout;

import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.rwf.FieldView;

/**
 * One consumer stream on one item: a watchlist entry. The consumer's streamId, what its request asked for (so the
 * refresh can echo the key, and its view: the fields it wants, null for all) and whether it still waits for its
 * refresh.
 */
final class ItemWatch
{
    /** {@link #index} of a watch no item lists. */
    static final int NOT_WATCHING = -1;

    final ConsumerSession session;
    final int streamId;
    final WatchedItem item;
    final int serviceId;
    final int nameType;
    final UnsafeBuffer name;
    boolean isStreaming;
    boolean isAwaitingRefresh = true;
    /** The fields this stream gets, or null for all; changed through {@link WatchedItem#view}. */
    FieldView view;
    /** Where the item's watcher list holds this watch (kept by {@link WatchedItem}). */
    int index = NOT_WATCHING;
    /**
     * Updates this stream missed while its consumer was behind (conflate policy); 0 while it is up to date. While it
     * is not 0 the stream gets no update until its conflated one.
     */
    int conflatedUpdates;
    /** When it missed the first of them. */
    long conflatedSinceNs;
    /** Waits for a refresh that stands for missed updates of an item no image was kept of: sent unsolicited. */
    boolean isResyncing;
    /** When the entitlements granted this stream (its first refresh), ms since the epoch; 0 until then. */
    long grantedMs;

    ItemWatch(
        final ConsumerSession session,
        final int streamId,
        final WatchedItem item,
        final int nameType,
        final boolean isStreaming)
    {
        this.session = session;
        this.streamId = streamId;
        this.item = item;
        this.serviceId = item.key.serviceId();
        this.nameType = nameType;
        this.name = new UnsafeBuffer(item.key.nameBytes(), 0, item.key.nameLength());
        this.isStreaming = isStreaming;
    }
}
