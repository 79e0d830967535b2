package io.mdhub.p2p.fanout;

import java.util.ArrayList;

/**
 * An item open on the worker's item source, with the consumer streams watching it. Owned by one worker thread.
 */
final class WatchedItem
{
    final int itemId;
    final ItemKey key;
    final ArrayList<ItemWatch> watchers = new ArrayList<>(4);
    final ServiceTally tally;
    boolean isUpstreamStreaming;
    boolean hasImage;

    WatchedItem(final int itemId, final ItemKey key, final boolean isUpstreamStreaming, final ServiceTally tally)
    {
        this.tally = tally;
        this.itemId = itemId;
        this.key = key;
        this.isUpstreamStreaming = isUpstreamStreaming;
    }
}
