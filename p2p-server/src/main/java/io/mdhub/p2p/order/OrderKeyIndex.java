package io.mdhub.p2p.order;

import java.util.concurrent.TimeUnit;

import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Off-heap hash index from an order's identity (client id, order id) to where it was stored (partition and
 * sequence): what makes a resend idempotent. Open addressing with linear probing over one native table of 32-byte
 * slots {@code [clientId][orderId][partition][epoch][sequence]}; a sequence of 0 marks an empty slot. Grows by
 * doubling at 60% load, so lookups stay one or two cache lines. Nothing is ever removed (orders are kept for the
 * life of the queue). Single-threaded.
 * <p>
 * <b>Growth without a pause.</b> Sized up front for {@code mdhub.order.expected.orders}; past that the table doubles.
 * Allocating the doubled table (128 MiB at ~1.26 M orders: 32,768 page faults) and moving every entry in one go on
 * the order agent would stall it for a second or more, so the doubled table is made ready by a {@link BlockPreparer}
 * from three quarters of the way to the threshold on, and after the switch the old table is drained into it a few
 * slots per {@link #put}; until it is empty, lookups that miss the new table look in the old one. A drain finishes
 * long before the next growth: {@link #MIGRATE_SLOTS_PER_PUT} old slots a put empty a table of capacity C within C/8
 * puts, while the next threshold is 0.6 × C puts away. Tables under {@link #PREPARE_MIN_BYTES} are allocated inline.
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
    /** Old slots moved to the new table per put while a growth drains. */
    static final int MIGRATE_SLOTS_PER_PUT = 8;
    /** Smaller tables are allocated on the spot: their faults cost less than a thread. */
    static final int PREPARE_MIN_BYTES = 1024 * 1024;
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
    private int prepareThreshold;
    /** Made at the first table large enough to prepare; its thread then stays, parked between growths. */
    private BlockPreparer tables;
    private long inlineGrowths;

    private UnsafeBuffer draining;
    private int drainingCapacity;
    private int drained;

    private UnsafeBuffer lastTable;
    private int lastBase = -1;

    OrderKeyIndex(final int initialCapacity)
    {
        use(BlockPreparer.allocateZeroed(BitUtil.findNextPositivePowerOfTwo(Math.max(16, initialCapacity)) *
            SLOT_SIZE));
    }

    /**
     * @param expectedOrders orders to hold before the first growth.
     * @return an index sized for them.
     */
    static OrderKeyIndex forOrders(final long expectedOrders)
    {
        return new OrderKeyIndex((int)Math.min(MAX_CAPACITY, (long)Math.ceil(expectedOrders / LOAD_FACTOR) + 1));
    }

    private void use(final UnsafeBuffer table)
    {
        slots = table;
        capacity = table.capacity() / SLOT_SIZE;
        mask = capacity - 1;
        resizeThreshold = (int)(capacity * LOAD_FACTOR);
        prepareThreshold = resizeThreshold - resizeThreshold / 4;
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
        insert(slots, mask, clientId, orderId, partition, epoch, sequence);
        size++;
        if (null != draining)
        {
            drain(MIGRATE_SLOTS_PER_PUT);
        }
        // once per table, as the size passes the mark: no call into the (synchronised) preparer on every put
        if (size == prepareThreshold && capacity < MAX_CAPACITY && capacity * 2 * SLOT_SIZE >= PREPARE_MIN_BYTES)
        {
            if (null == tables)
            {
                tables = new BlockPreparer("mdhub-order-index");
            }
            tables.request(capacity * 2 * SLOT_SIZE);
        }
        return true;
    }

    private static void insert(
        final UnsafeBuffer table,
        final int mask,
        final long clientId,
        final long orderId,
        final int partition,
        final int epoch,
        final long seq)
    {
        int slot = hash(clientId, orderId) & mask;
        while (MISSING != table.getLong(slot * SLOT_SIZE + SEQUENCE_OFFSET))
        {
            slot = (slot + 1) & mask;
        }
        final int base = slot * SLOT_SIZE;
        table.putLong(base + CLIENT_OFFSET, clientId);
        table.putLong(base + ORDER_OFFSET, orderId);
        table.putInt(base + PARTITION_OFFSET, partition);
        table.putInt(base + EPOCH_OFFSET, epoch);
        table.putLong(base + SEQUENCE_OFFSET, seq);
    }

    /**
     * Find an order; on success {@link #lastPartition()} and {@link #lastEpoch()} describe it.
     *
     * @return its sequence, or {@link #MISSING}.
     */
    long sequence(final long clientId, final long orderId)
    {
        lastBase = find(slots, mask, clientId, orderId);
        lastTable = slots;
        if (lastBase < 0 && null != draining)
        {
            lastBase = find(draining, drainingCapacity - 1, clientId, orderId);
            lastTable = draining;
        }
        return lastBase < 0 ? MISSING : lastTable.getLong(lastBase + SEQUENCE_OFFSET);
    }

    /**
     * @return the slot's byte offset in the table, or -1 if the order is not there.
     */
    private static int find(final UnsafeBuffer table, final int mask, final long clientId, final long orderId)
    {
        int slot = hash(clientId, orderId) & mask;
        while (true)
        {
            final int base = slot * SLOT_SIZE;
            if (MISSING == table.getLong(base + SEQUENCE_OFFSET))
            {
                return -1;
            }
            if (table.getLong(base + CLIENT_OFFSET) == clientId && table.getLong(base + ORDER_OFFSET) == orderId)
            {
                return base;
            }
            slot = (slot + 1) & mask;
        }
    }

    int lastPartition()
    {
        return lastTable.getInt(lastBase + PARTITION_OFFSET);
    }

    int lastEpoch()
    {
        return lastTable.getInt(lastBase + EPOCH_OFFSET);
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
     * @return true while the table before the last growth still holds entries not yet moved.
     */
    boolean isDraining()
    {
        return null != draining;
    }

    /**
     * @return true when the doubled table is zeroed and waiting for the next growth.
     */
    boolean isNextTableReady()
    {
        return null != tables && tables.isReady();
    }

    /**
     * @return growths whose table was not prepared in time, so the agent allocated it itself.
     */
    long inlineGrowths()
    {
        return inlineGrowths;
    }

    /**
     * Forget everything (a server that takes a full state transfer starts again).
     */
    void clear()
    {
        stopDraining();
        slots.setMemory(0, slots.capacity(), (byte)0);
        size = 0;
        lastBase = -1;
        lastTable = null;
    }

    private void grow()
    {
        if (null != draining)
        {
            drain(drainingCapacity); // cannot happen at the pace above; finish rather than keep two old tables
        }
        final long startNs = System.nanoTime();
        final int newBytes = capacity * 2 * SLOT_SIZE;
        UnsafeBuffer table = null == tables ? null : tables.take();
        if (null == table)
        {
            if (null != tables)
            {
                tables.cancel(); // a preparation still under way: this growth cannot wait for it
            }
            table = BlockPreparer.allocateZeroed(newBytes);
            if (newBytes >= PREPARE_MIN_BYTES)
            {
                inlineGrowths++;
                // a pause on the order path that mdhub.order.expected.orders avoids: say so, with its length
                LOG.warn("order identity index grew to {} slots for {} orders, its table allocated on the order " +
                    "path in {} ms (size it with {})", capacity * 2, size,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs),
                    OrderServiceConfiguration.EXPECTED_ORDERS_PROP_NAME);
            }
        }
        draining = slots;
        drainingCapacity = capacity;
        drained = 0;
        use(table);
    }

    private void drain(final int slotCount)
    {
        final int end = Math.min(drainingCapacity, drained + slotCount);
        for (int base = drained * SLOT_SIZE, limit = end * SLOT_SIZE; base < limit; base += SLOT_SIZE)
        {
            final long sequence = draining.getLong(base + SEQUENCE_OFFSET);
            if (MISSING != sequence)
            {
                insert(slots, mask, draining.getLong(base + CLIENT_OFFSET), draining.getLong(base + ORDER_OFFSET),
                    draining.getInt(base + PARTITION_OFFSET), draining.getInt(base + EPOCH_OFFSET), sequence);
            }
        }
        drained = end;
        if (drained == drainingCapacity)
        {
            LOG.info("order identity index: {} slots for {} orders, the old table drained", capacity, size);
            stopDraining();
        }
    }

    private void stopDraining()
    {
        if (null != draining)
        {
            BlockPreparer.free(draining);
            draining = null;
        }
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
        stopDraining();
        if (null != tables)
        {
            tables.close();
        }
        BlockPreparer.free(slots);
    }
}
