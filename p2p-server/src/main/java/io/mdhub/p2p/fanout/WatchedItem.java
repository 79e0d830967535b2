package io.mdhub.p2p.fanout;

import java.util.Arrays;

import io.mdhub.common.entitlement.PermissionLock;
import io.mdhub.common.rwf.FieldView;

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
    private static final ItemWatch[] NO_WATCHES = new ItemWatch[0];

    final int itemId;
    final ItemKey key;
    final ServiceTally tally;
    /**
     * Watcher 0 in a field of its own, the others in an array: an update reads an item with one watcher (most items
     * below fan-out) in two objects, this one and its watch, both allocated when the item was opened. An ArrayList
     * took two more, the list and its array, each a likely cache miss at a million updates a second over 100,000
     * items.
     */
    private ItemWatch first;
    private ItemWatch[] others = NO_WATCHES;
    private int watcherCount;
    /** Watchers with a view: while there are none, an update goes to every watcher as the same bytes. */
    private int viewWatchers;
    boolean isUpstreamStreaming;
    boolean hasImage;
    /**
     * The view the item was asked for upstream (the union of its watchers' views then), or null for every field: a
     * watcher that wants more makes the worker ask again, wider.
     */
    FieldView upstreamView;
    /** A private stream: one watcher, its own upstream stream, not in the worker's item table (never shared). */
    boolean isPrivate;
    /**
     * The source's last Open status before the item's first image (e.g. Open/Suspect "waiting for the provider"):
     * a watcher that joins before the image gets it too, not silence.
     */
    byte[] statusBeforeImage;
    /** The lock the item's provider put in its last refresh or status (PermData), or null if it sent none. */
    PermissionLock lock;
    /** The PermData {@link #lock} was read from, to tell a repeated lock from a new one without reading it again. */
    byte[] permData;

    WatchedItem(final int itemId, final ItemKey key, final boolean isUpstreamStreaming, final ServiceTally tally)
    {
        this.tally = tally;
        this.itemId = itemId;
        this.key = key;
        this.isUpstreamStreaming = isUpstreamStreaming;
    }

    int watcherCount()
    {
        return watcherCount;
    }

    /**
     * @return true if some watcher gets only the fields of its view.
     */
    boolean hasViews()
    {
        return 0 != viewWatchers;
    }

    /**
     * @return the fields the watchers want together: null (every field) when one of them has no view.
     */
    FieldView wantedView()
    {
        FieldView union = null;
        for (int i = 0; i < watcherCount; i++)
        {
            final FieldView view = watcher(i).view;
            if (null == view)
            {
                return null;
            }
            union = null == union ? view : union.union(view);
        }
        return union;
    }

    /**
     * Give a watch a view, or none (null: every field).
     */
    void view(final ItemWatch watch, final FieldView view)
    {
        final boolean isListed = watch.index >= 0 && watch.index < watcherCount && watcher(watch.index) == watch;
        if (isListed)
        {
            viewWatchers += (null != view ? 1 : 0) - (null != watch.view ? 1 : 0);
        }
        watch.view = view;
    }

    ItemWatch watcher(final int index)
    {
        if (index < 0 || index >= watcherCount)
        {
            throw new IndexOutOfBoundsException("watcher " + index + " of " + watcherCount);
        }
        return 0 == index ? first : others[index - 1];
    }

    void addWatcher(final ItemWatch watch)
    {
        final int index = watcherCount;
        if (index > others.length)
        {
            others = Arrays.copyOf(others, Math.max(4, others.length * 2));
        }
        put(index, watch);
        watch.index = index;
        watcherCount = index + 1;
        if (null != watch.view)
        {
            viewWatchers++;
        }
    }

    /**
     * Remove the watcher at an index; the last watcher takes its place, so a loop that removes while it walks the
     * list must walk it backwards.
     */
    void removeWatcherAt(final int index)
    {
        final ItemWatch removed = watcher(index);
        final int lastIndex = watcherCount - 1;
        final ItemWatch last = watcher(lastIndex);
        put(lastIndex, null); // a removed watch, and the session it names, is not kept reachable from here
        watcherCount = lastIndex;
        if (last != removed)
        {
            put(index, last);
            last.index = index;
        }
        removed.index = ItemWatch.NOT_WATCHING;
        if (null != removed.view)
        {
            viewWatchers--;
        }
    }

    /**
     * @return true if the watch was one of this item's watchers (it is not any more).
     */
    boolean removeWatcher(final ItemWatch watch)
    {
        final int index = watch.index;
        if (index < 0 || index >= watcherCount || watcher(index) != watch)
        {
            return false;
        }
        removeWatcherAt(index);
        return true;
    }

    private void put(final int index, final ItemWatch watch)
    {
        if (0 == index)
        {
            first = watch;
        }
        else
        {
            others[index - 1] = watch;
        }
    }
}
