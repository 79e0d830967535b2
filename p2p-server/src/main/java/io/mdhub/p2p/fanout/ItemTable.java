package io.mdhub.p2p.fanout;

import java.util.Arrays;
import java.util.HashMap;

import io.mdhub.common.rwf.FieldView;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.source.ItemSource;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayList;

/**
 * The items one worker has open on its item source: by key (domain, service, name) for the requests that share
 * them, and by item id, the source's handle, for the source's callbacks. Ids are reused, last freed first, so the
 * id array stays as small as the most items ever open at once. A private item has an id but no key entry: it is
 * never shared. Worker thread only.
 */
final class ItemTable
{
    private final ItemSource source;
    private final P2pCounters counters;
    private final WorkerCounts counts;
    private final int maxItems;
    private final ItemKey lookupKey = new ItemKey();
    private final HashMap<ItemKey, WatchedItem> items = new HashMap<>();
    private final IntArrayList freeItemIds = new IntArrayList();
    private WatchedItem[] itemsById = new WatchedItem[64];
    private int nextItemId;

    /**
     * @param source   the worker's item source: an item freed here is closed on it.
     * @param counters the server's counters (items open, watchlist entries).
     * @param counts   the worker's counts, which hold each service's tally.
     * @param maxItems distinct items open on all workers' sources together.
     */
    ItemTable(final ItemSource source, final P2pCounters counters, final WorkerCounts counts, final int maxItems)
    {
        this.source = source;
        this.counters = counters;
        this.counts = counts;
        this.maxItems = maxItems;
    }

    /**
     * @return the open item with this id, or null (a callback for an item freed meanwhile).
     */
    WatchedItem item(final int itemId)
    {
        return itemId >= 0 && itemId < itemsById.length ? itemsById[itemId] : null;
    }

    /**
     * @return the shared (not private) open item with this key, or null.
     */
    WatchedItem find(
        final int domainType, final int serviceId, final DirectBuffer name, final int nameOffset, final int nameLength)
    {
        return items.get(lookupKey.set(domainType, serviceId, name, nameOffset, nameLength));
    }

    /**
     * A shared item for a key no open item has: counted against the server's item limit, listed by key and id.
     * The caller opens it on the source.
     *
     * @return the item, or null if the server's item limit is reached (nothing is counted then).
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // the key's parts, not a key object per request
    WatchedItem newItem(
        final int domainType,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final boolean isStreaming,
        final FieldView view)
    {
        if (!admitItem())
        {
            return null;
        }
        final WatchedItem item = new WatchedItem(allocateItemId(),
            lookupKey.set(domainType, serviceId, name, nameOffset, nameLength).copy(), isStreaming,
            counts.tally(serviceId));
        item.upstreamView = view;
        item.tally.counters.itemsOpen().increment();
        items.put(item.key, item);
        itemsById[item.itemId] = item;
        return item;
    }

    /**
     * A private item: counted against the server's item limit and listed by id only, never by key.
     *
     * @return the item, or null if the server's item limit is reached (nothing is counted then).
     */
    WatchedItem newPrivateItem(
        final int domainType, final int serviceId, final DirectBuffer name, final int nameOffset, final int nameLength)
    {
        if (!admitItem())
        {
            return null;
        }
        final WatchedItem item = new WatchedItem(allocateItemId(),
            lookupKey.set(domainType, serviceId, name, nameOffset, nameLength).copy(), true, counts.tally(serviceId));
        item.isPrivate = true;
        item.tally.counters.itemsOpen().increment();
        itemsById[item.itemId] = item;
        return item;
    }

    private boolean admitItem()
    {
        if (counters.itemsOpen().increment() >= maxItems)
        {
            counters.itemsOpen().decrement();
            return false;
        }
        return true;
    }

    /**
     * Take a watch off its item (if it is still on it); an item left with no watcher is freed.
     */
    void detach(final ItemWatch watch)
    {
        final WatchedItem item = watch.item;
        if (item.removeWatcher(watch))
        {
            counters.watchlistEntries().decrement();
            if (0 == item.watcherCount())
            {
                freeItem(item);
            }
        }
    }

    /**
     * Close an item on the source and give its id back; an item freed already (or never listed) is left alone.
     */
    void freeItem(final WatchedItem item)
    {
        if (itemsById[item.itemId] != item)
        {
            return;
        }
        source.close(item.itemId);
        if (!item.isPrivate)
        {
            items.remove(item.key);
        }
        itemsById[item.itemId] = null;
        freeItemIds.addInt(item.itemId);
        counters.itemsOpen().decrement();
        item.tally.counters.itemsOpen().decrement();
    }

    /**
     * @return the shared items open (private ones are not counted).
     */
    int size()
    {
        return items.size();
    }

    private int allocateItemId()
    {
        if (!freeItemIds.isEmpty())
        {
            return freeItemIds.removeAt(freeItemIds.size() - 1);
        }
        final int itemId = nextItemId++;
        if (itemId == itemsById.length)
        {
            itemsById = Arrays.copyOf(itemsById, itemsById.length * 2);
        }
        return itemId;
    }
}
