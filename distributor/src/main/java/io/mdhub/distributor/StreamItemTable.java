package io.mdhub.distributor;

import java.util.Objects;
import java.util.function.Consumer;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * One provider connection's items by streamId, found with one array index where a hash map needs two scattered
 * reads. Every message from a provider is looked up here, so at 100,000 open items the lookup was the largest cost on
 * the distributor's event loop (a hash map scrambles consecutive ids over its buckets: a cache miss in the key array,
 * another in the value array, per update). A mounted route numbers its requests upwards and providers count their
 * streams, so the ids of the open items lie close together: a slot per id modulo a power-of-two capacity, kept at
 * least twice the item count, holds nearly all of them, and a provider updating its items in turn walks the slots in
 * order, which the hardware prefetcher follows. An id whose slot another open item holds (a long-lived stream lapped
 * by newer ones) goes to an overflow map, which is looked at only while it holds something.
 * <p>
 * The fields an update needs (handle, domain type, service) are kept beside each slot too, read through
 * {@link #find}: the item's own record lies somewhere on the heap, and its first read was half of the event loop's
 * time at 500,000 updates/s, while these arrays are walked in order like the slots. They never change for an item
 * (all three are final in {@link CachedItem}).
 * <p>
 * Single-threaded: the distributor's event loop.
 */
final class StreamItemTable
{
    static final int INITIAL_CAPACITY = 64;
    static final int MAX_CAPACITY = 1 << 24;

    private final Int2ObjectHashMap<CachedItem> overflow = new Int2ObjectHashMap<>();
    private final Found found = new Found();
    private int[] streamIds = new int[INITIAL_CAPACITY];
    private CachedItem[] items = new CachedItem[INITIAL_CAPACITY];
    private int[] handles = new int[INITIAL_CAPACITY];
    private int[] domainTypes = new int[INITIAL_CAPACITY];
    private DistributedService[] services = new DistributedService[INITIAL_CAPACITY];
    private int mask = INITIAL_CAPACITY - 1;
    private int inSlots;

    /**
     * The item {@link #find} found: its update fields from the slot's arrays (or its record, for an item in the
     * overflow map). One reused instance, valid until the next {@code find}.
     */
    final class Found
    {
        private int slot;
        private CachedItem overflowed;

        int handle()
        {
            return null == overflowed ? handles[slot] : overflowed.handle();
        }

        int domainType()
        {
            return null == overflowed ? domainTypes[slot] : overflowed.domainType();
        }

        DistributedService service()
        {
            return null == overflowed ? services[slot] : overflowed.service();
        }

        /**
         * @return the item's record (a read of its own memory, where the fields above are not).
         */
        CachedItem item()
        {
            return null == overflowed ? items[slot] : overflowed;
        }
    }

    /**
     * @return the item bound to the streamId as a view of its update fields (valid until the next call), or null.
     */
    Found find(final int streamId)
    {
        final int index = streamId & mask;
        if (null != items[index] && streamIds[index] == streamId)
        {
            found.slot = index;
            found.overflowed = null;
            return found;
        }
        final CachedItem item = overflow.isEmpty() ? null : overflow.get(streamId);
        if (null == item)
        {
            return null;
        }
        found.overflowed = item;
        return found;
    }

    /**
     * @return the item bound to the streamId, or null.
     */
    CachedItem get(final int streamId)
    {
        final Found item = find(streamId);
        return null == item ? null : item.item();
    }

    /**
     * Bind the streamId to the item, replacing what it was bound to.
     *
     * @return the item it was bound to before, or null when it was not bound.
     */
    CachedItem put(final int streamId, final CachedItem item)
    {
        Objects.requireNonNull(item, "item");
        final int index = streamId & mask;
        final CachedItem inSlot = items[index];
        if (null != inSlot && streamIds[index] == streamId)
        {
            fill(index, streamId, item);
            return inSlot;
        }
        if (!overflow.isEmpty() && overflow.containsKey(streamId))
        {
            return overflow.put(streamId, item);
        }
        place(streamId, item);
        if (size() > (items.length >> 1) && items.length < MAX_CAPACITY)
        {
            resize(items.length << 1);
        }
        return null;
    }

    /**
     * @return the item the streamId was bound to, or null when it was not bound.
     */
    CachedItem remove(final int streamId)
    {
        final int index = streamId & mask;
        final CachedItem inSlot = items[index];
        if (null != inSlot && streamIds[index] == streamId)
        {
            items[index] = null;
            inSlots--;
            return inSlot;
        }
        return overflow.isEmpty() ? null : overflow.remove(streamId);
    }

    int size()
    {
        return inSlots + overflow.size();
    }

    /**
     * @return how many items sit in the overflow map rather than in their slots.
     */
    int overflowSize()
    {
        return overflow.size();
    }

    /**
     * @return the slot count.
     */
    int capacity()
    {
        return items.length;
    }

    /**
     * Unbind everything and give back the memory of a large table.
     */
    void clear()
    {
        overflow.clear();
        allocate(INITIAL_CAPACITY);
        inSlots = 0;
    }

    /**
     * Every bound item once; the action must not bind or unbind.
     */
    void forEach(final Consumer<CachedItem> action)
    {
        for (final CachedItem item : items)
        {
            if (null != item)
            {
                action.accept(item);
            }
        }
        if (!overflow.isEmpty())
        {
            overflow.values().forEach(action);
        }
    }

    private void resize(final int capacity)
    {
        final int[] oldStreamIds = streamIds;
        final CachedItem[] oldItems = items;
        allocate(capacity);
        inSlots = 0;
        final Int2ObjectHashMap<CachedItem>.EntryIterator overflowed = overflow.entrySet().iterator();
        final int[] overflowIds = new int[overflow.size()];
        final CachedItem[] overflowItems = new CachedItem[overflow.size()];
        for (int i = 0; overflowed.hasNext(); i++)
        {
            overflowed.next();
            overflowIds[i] = overflowed.getIntKey();
            overflowItems[i] = overflowed.getValue();
        }
        overflow.clear();
        for (int i = 0; i < oldItems.length; i++)
        {
            if (null != oldItems[i])
            {
                place(oldStreamIds[i], oldItems[i]);
            }
        }
        for (int i = 0; i < overflowIds.length; i++)
        {
            place(overflowIds[i], overflowItems[i]);
        }
    }

    private void place(final int streamId, final CachedItem item)
    {
        final int index = streamId & mask;
        if (null == items[index])
        {
            fill(index, streamId, item);
            inSlots++;
        }
        else
        {
            overflow.put(streamId, item);
        }
    }

    private void fill(final int index, final int streamId, final CachedItem item)
    {
        streamIds[index] = streamId;
        items[index] = item;
        handles[index] = item.handle();
        domainTypes[index] = item.domainType();
        services[index] = item.service();
    }

    private void allocate(final int capacity)
    {
        streamIds = new int[capacity];
        items = new CachedItem[capacity];
        handles = new int[capacity];
        domainTypes = new int[capacity];
        services = new DistributedService[capacity];
        mask = capacity - 1;
    }
}
