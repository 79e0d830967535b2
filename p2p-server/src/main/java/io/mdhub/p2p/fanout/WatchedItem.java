package io.mdhub.p2p.fanout;

import java.util.ArrayList;

/**
 * An item open on the worker's item source, with the consumer streams watching it. Owned by one worker thread.
 * <p>
 * A watcher knows its place in the list, and removal moves the last watcher into the hole: one consumer may watch an
 * item on as many streams as its item limit allows, and closing them one by one must not cost a scan each (100,000
 * streams closed at a disconnect would otherwise stall the worker, and every consumer on it, for seconds). The
 * order of the watchers is therefore not the order they came in; nothing depends on it.
 */
final class WatchedItem
{
    final int itemId;
    final ItemKey key;
    final ServiceTally tally;
    private final ArrayList<ItemWatch> watchers = new ArrayList<>(4);
    boolean isUpstreamStreaming;
    boolean hasImage;

    WatchedItem(final int itemId, final ItemKey key, final boolean isUpstreamStreaming, final ServiceTally tally)
    {
        this.tally = tally;
        this.itemId = itemId;
        this.key = key;
        this.isUpstreamStreaming = isUpstreamStreaming;
    }

    int watcherCount()
    {
        return watchers.size();
    }

    ItemWatch watcher(final int index)
    {
        return watchers.get(index);
    }

    void addWatcher(final ItemWatch watch)
    {
        watch.index = watchers.size();
        watchers.add(watch);
    }

    /**
     * Remove the watcher at an index; the last watcher takes its place, so a loop that removes while it walks the
     * list must walk it backwards.
     */
    void removeWatcherAt(final int index)
    {
        final ItemWatch removed = watchers.get(index);
        final ItemWatch last = watchers.remove(watchers.size() - 1);
        if (last != removed)
        {
            watchers.set(index, last);
            last.index = index;
        }
        removed.index = ItemWatch.NOT_WATCHING;
    }

    /**
     * @return true if the watch was one of this item's watchers (it is not any more).
     */
    boolean removeWatcher(final ItemWatch watch)
    {
        final int index = watch.index;
        if (index < 0 || index >= watchers.size() || watchers.get(index) != watch)
        {
            return false;
        }
        removeWatcherAt(index);
        return true;
    }
}
