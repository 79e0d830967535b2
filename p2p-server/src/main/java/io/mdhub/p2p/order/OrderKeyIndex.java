package io.mdhub.p2p.order;

import java.util.concurrent.TimeUnit;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Off-heap hash index from an order's identity (client id, order id) to where it was stored (partition and
 * sequence): what makes a resend idempotent. Open addressing with linear probing over one direct buffer of 32-byte
 * slots {@code [clientId][orderId][partition][epoch][sequence]}; a sequence of 0 marks an empty slot. Grows by
 * doubling at 60% load, so lookups stay one or two cache lines. Nothing is ever removed (orders are kept for the
 * life of the queue). Single-threaded.
 */
final class OrderKeyIndex implements AutoCloseable
{
    /** Returned by {@link #sequence(long, long)} for an unknown order. */
    static final long MISSING = 0;

    private static final Logger LOG = LoggerFactory.getLogger(OrderKeyIndex.class);
    private static final int SLOT_SIZE = 32;
    private static final double LOAD_FACTOR = 0.6;
    /** Largest table: its byte size (slots × 32) must stay an int. */
    static final int MAX_CAPACITY = 1 << 25;
    /** Most orders an index may be sized for up front: they fit the largest table at the load factor. */
    static final long MAX_EXPECTED_ORDERS = 20_000_000L;
    /** At the largest table, orders it still takes (probes lengthen, nothing breaks) before it refuses more. */
    static final int MAX_ORDERS = (int)(MAX_CAPACITY * 0.9);
    private static final int CLIENT_OFFSET = 0;
    private static final int ORDER_OFFSET = 8;
    private static final int PARTITION_OFFSET = 16;
    private static final int EPOCH_OFFSET = 20;
    private static final int SEQUENCE_OFFSET = 24;

    private UnsafeBuffer slots;
    private int capacity;
    private int mask;
    private int size;
    private int resizeThreshold;
    private int lastSlot = -1;

    OrderKeyIndex(final int initialCapacity)
    {
        allocate(BitUtil.findNextPositivePowerOfTwo(Math.max(16, initialCapacity)));
    }

    /**
     * @param expectedOrders orders to hold before the first growth.
     * @return an index sized for them.
     */
    static OrderKeyIndex forOrders(final long expectedOrders)
    {
        return new OrderKeyIndex((int)Math.min(MAX_CAPACITY, (long)Math.ceil(expectedOrders / LOAD_FACTOR) + 1));
    }

    private void allocate(final int newCapacity)
    {
        capacity = newCapacity;
        mask = newCapacity - 1;
        resizeThreshold = (int)(newCapacity * LOAD_FACTOR);
        slots = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(newCapacity * SLOT_SIZE)); // zeroed: all empty
    }

    /**
     * Remember where an order was stored; an order already known keeps its first entry.
     *
     * @return true if added, false if the order was already there.
     */
    boolean put(final long clientId, final long orderId, final int partition, final int epoch, final long sequence)
    {
        if (sequence <= 0)
        {
            throw new IllegalArgumentException("sequence must be positive: " + sequence);
        }
        if (MISSING != sequence(clientId, orderId))
        {
            return false;
        }
        if (isFull())
        {
            throw new IllegalStateException("order identity index full: " + size + " orders");
        }
        if (size >= resizeThreshold && capacity < MAX_CAPACITY)
        {
            grow();
        }
        insert(clientId, orderId, partition, epoch, sequence);
        size++;
        return true;
    }

    private void insert(final long clientId, final long orderId, final int partition, final int epoch, final long seq)
    {
        int slot = hash(clientId, orderId) & mask;
        while (MISSING != slots.getLong(slot * SLOT_SIZE + SEQUENCE_OFFSET))
        {
            slot = (slot + 1) & mask;
        }
        final int base = slot * SLOT_SIZE;
        slots.putLong(base + CLIENT_OFFSET, clientId);
        slots.putLong(base + ORDER_OFFSET, orderId);
        slots.putInt(base + PARTITION_OFFSET, partition);
        slots.putInt(base + EPOCH_OFFSET, epoch);
        slots.putLong(base + SEQUENCE_OFFSET, seq);
    }

    /**
     * Find an order; on success {@link #lastPartition()} and {@link #lastEpoch()} describe it.
     *
     * @return its sequence, or {@link #MISSING}.
     */
    long sequence(final long clientId, final long orderId)
    {
        int slot = hash(clientId, orderId) & mask;
        while (true)
        {
            final int base = slot * SLOT_SIZE;
            final long sequence = slots.getLong(base + SEQUENCE_OFFSET);
            if (MISSING == sequence)
            {
                lastSlot = -1;
                return MISSING;
            }
            if (slots.getLong(base + CLIENT_OFFSET) == clientId && slots.getLong(base + ORDER_OFFSET) == orderId)
            {
                lastSlot = slot;
                return sequence;
            }
            slot = (slot + 1) & mask;
        }
    }

    int lastPartition()
    {
        return slots.getInt(lastSlot * SLOT_SIZE + PARTITION_OFFSET);
    }

    int lastEpoch()
    {
        return slots.getInt(lastSlot * SLOT_SIZE + EPOCH_OFFSET);
    }

    /**
     * @return true when it takes no more orders (the largest table, 90 % full): the caller refuses new orders.
     */
    boolean isFull()
    {
        return size >= MAX_ORDERS;
    }

    int capacity()
    {
        return capacity;
    }

    int size()
    {
        return size;
    }

    /**
     * Forget everything (a server that takes a full state transfer starts again).
     */
    void clear()
    {
        slots.setMemory(0, slots.capacity(), (byte)0);
        size = 0;
        lastSlot = -1;
    }

    private void grow()
    {
        final long startNs = System.nanoTime();
        final UnsafeBuffer old = slots;
        final int oldCapacity = capacity;
        allocate(capacity * 2);
        for (int slot = 0; slot < oldCapacity; slot++)
        {
            final int base = slot * SLOT_SIZE;
            final long sequence = old.getLong(base + SEQUENCE_OFFSET);
            if (MISSING != sequence)
            {
                insert(old.getLong(base + CLIENT_OFFSET), old.getLong(base + ORDER_OFFSET),
                    old.getInt(base + PARTITION_OFFSET), old.getInt(base + EPOCH_OFFSET), sequence);
            }
        }
        BufferUtil.free(old);
        // a pause on the order path that mdhub.order.expected.orders avoids: say so, with its length
        LOG.warn("order identity index grew to {} slots for {} orders in {} ms (size it with {})", capacity, size,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs),
            OrderServiceConfiguration.EXPECTED_ORDERS_PROP_NAME);
    }

    private static int hash(final long clientId, final long orderId)
    {
        long h = clientId * 0x9E3779B97F4A7C15L + orderId;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int)h;
    }

    @Override
    public void close()
    {
        BufferUtil.free(slots);
    }
}
