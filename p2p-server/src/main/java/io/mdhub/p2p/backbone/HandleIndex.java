package io.mdhub.p2p.backbone;

import org.agrona.collections.Long2LongHashMap;

/**
 * One distributor's items as this p2p-server knows them: (serviceId, item handle) to the local item id, looked up for
 * every message off the backbone. A distributor numbers its items upwards as they are first asked for, and the
 * providers behind it update their items in turn, so the handles of successive updates mostly follow one another: a
 * slot per handle modulo a power-of-two capacity, kept at least twice the entry count, turns the lookup into reads
 * that walk three arrays in order (which the hardware prefetcher follows) where a hash map scatters consecutive keys
 * and costs a cache miss per update at 100,000 items. A key whose slot another entry holds goes to an overflow map,
 * consulted only while it holds something. Owned by the worker's thread.
 */
final class HandleIndex
{
    /** Returned by {@link #get(int, int)} and {@link #remove(int, int)} for a key that is not there. */
    static final long MISSING = -1;
    static final int INITIAL_CAPACITY = 64;
    static final int MAX_CAPACITY = 1 << 24;

    private final Long2LongHashMap overflow = new Long2LongHashMap(MISSING);
    private int[] serviceIds = new int[INITIAL_CAPACITY];
    private int[] handles = new int[INITIAL_CAPACITY];
    private long[] itemIds = newItemIds(INITIAL_CAPACITY);
    private int mask = INITIAL_CAPACITY - 1;
    private int inSlots;

    /**
     * @return the item id, or {@link #MISSING}.
     */
    long get(final int serviceId, final int handle)
    {
        final int index = handle & mask;
        final long itemId = itemIds[index];
        if (MISSING != itemId && handles[index] == handle && serviceIds[index] == serviceId)
        {
            return itemId;
        }
        return overflow.isEmpty() ? MISSING : overflow.get(key(serviceId, handle));
    }

    /**
     * @param itemId not negative.
     */
    void put(final int serviceId, final int handle, final long itemId)
    {
        if (itemId < 0)
        {
            throw new IllegalArgumentException("item id " + itemId);
        }
        final int index = handle & mask;
        if (MISSING != itemIds[index] && handles[index] == handle && serviceIds[index] == serviceId)
        {
            itemIds[index] = itemId;
            return;
        }
        final long key = key(serviceId, handle);
        if (!overflow.isEmpty() && MISSING != overflow.get(key))
        {
            overflow.put(key, itemId);
            return;
        }
        place(serviceId, handle, itemId);
        if (size() > (itemIds.length >> 1) && itemIds.length < MAX_CAPACITY)
        {
            resize(itemIds.length << 1);
        }
    }

    /**
     * @return the item id the key had, or {@link #MISSING}.
     */
    long remove(final int serviceId, final int handle)
    {
        final int index = handle & mask;
        final long itemId = itemIds[index];
        if (MISSING != itemId && handles[index] == handle && serviceIds[index] == serviceId)
        {
            itemIds[index] = MISSING;
            inSlots--;
            return itemId;
        }
        return overflow.isEmpty() ? MISSING : overflow.remove(key(serviceId, handle));
    }

    int size()
    {
        return inSlots + overflow.size();
    }

    int overflowSize()
    {
        return overflow.size();
    }

    int capacity()
    {
        return itemIds.length;
    }

    private void place(final int serviceId, final int handle, final long itemId)
    {
        final int index = handle & mask;
        if (MISSING == itemIds[index])
        {
            serviceIds[index] = serviceId;
            handles[index] = handle;
            itemIds[index] = itemId;
            inSlots++;
        }
        else
        {
            overflow.put(key(serviceId, handle), itemId);
        }
    }

    private void resize(final int capacity)
    {
        final int[] oldServiceIds = serviceIds;
        final int[] oldHandles = handles;
        final long[] oldItemIds = itemIds;
        final long[] overflowKeys = new long[overflow.size()];
        final long[] overflowItemIds = new long[overflow.size()];
        final Long2LongHashMap.EntryIterator overflowed = overflow.entrySet().iterator();
        for (int i = 0; overflowed.hasNext(); i++)
        {
            overflowed.next();
            overflowKeys[i] = overflowed.getLongKey();
            overflowItemIds[i] = overflowed.getLongValue();
        }
        overflow.clear();
        serviceIds = new int[capacity];
        handles = new int[capacity];
        itemIds = newItemIds(capacity);
        mask = capacity - 1;
        inSlots = 0;
        for (int i = 0; i < oldItemIds.length; i++)
        {
            if (MISSING != oldItemIds[i])
            {
                place(oldServiceIds[i], oldHandles[i], oldItemIds[i]);
            }
        }
        for (int i = 0; i < overflowKeys.length; i++)
        {
            place((int)(overflowKeys[i] >>> 32), (int)overflowKeys[i], overflowItemIds[i]);
        }
    }

    private static long key(final int serviceId, final int handle)
    {
        return ((long)serviceId << 32) | (handle & 0xFFFF_FFFFL);
    }

    private static long[] newItemIds(final int capacity)
    {
        final long[] itemIds = new long[capacity];
        java.util.Arrays.fill(itemIds, MISSING);
        return itemIds;
    }
}
