package io.mdhub.common.order.client;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayQueue;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The client's unacknowledged orders: a fixed number of slots (the in-flight window), each with an off-heap copy of
 * its FIX bytes, found by order id through a primitive map, plus a FIFO of slots to be sent. Nothing allocates after
 * construction. The per-slot fields are arrays indexed by slot, read and written directly by the client's classes
 * ({@link OrderClient}, {@link OrderRouting}, {@link OrderClientEgress}). Not thread safe.
 * <pre>
 *   slot state:  FREE --allocate--> QUEUED --sent--> SENT --ack / final reject--> FREE
 *                                     ^  |  no route   |  map change, server lost, ack timeout
 *                                     |  v             v
 *                                     WAITING <--------+ retryable reject (NOT_PRIMARY, UNAVAILABLE, UNKNOWN_CLIENT)
 *                WAITING goes back to QUEUED on the pair's next PartitionMap or at its retry time.
 * </pre>
 */
final class InFlightOrders implements AutoCloseable
{
    /** Slot not in use. */
    static final byte FREE = 0;
    /** To be sent (first time or again) on the next send pass. */
    static final byte QUEUED = 1;
    /** Sent; waiting for the answer. */
    static final byte SENT = 2;
    /** No route now (no partition map, no primary, server unreachable, retryable reject). */
    static final byte WAITING = 3;

    private static final long MISSING = -1;

    final int capacity;
    final int maxOrderLength;
    final UnsafeBuffer fixStore;
    final long[] orderIds;
    final byte[] states;
    final int[] requestedPartitions;
    final int[] pairs;
    final int[] partitions;
    final int[] globalPartitions;
    final int[] lengths;
    final int[] sentServers;
    final int[] sentEpochs;
    final long[] sendTimestampsNs;
    final long[] retryAtNs;
    final int[] sends;
    final OrderListener[] listeners;
    private final boolean[] queued;
    private final ByteBuffer fixMemory;
    private final Long2LongHashMap slotByOrderId;
    private final int[] freeSlots;
    private final IntArrayQueue sendQueue;
    private int freeCount;

    /**
     * @param capacity       most orders in flight.
     * @param maxOrderLength longest FIX message.
     */
    InFlightOrders(final int capacity, final int maxOrderLength)
    {
        this.capacity = capacity;
        this.maxOrderLength = maxOrderLength;
        // a plain direct buffer (not an aligned slice), so close() can free it at once
        this.fixMemory = ByteBuffer.allocateDirect(Math.multiplyExact(capacity, maxOrderLength));
        this.fixStore = new UnsafeBuffer(fixMemory);
        this.orderIds = new long[capacity];
        this.states = new byte[capacity];
        this.requestedPartitions = new int[capacity];
        this.pairs = new int[capacity];
        this.partitions = new int[capacity];
        this.globalPartitions = new int[capacity];
        this.lengths = new int[capacity];
        this.sentServers = new int[capacity];
        this.sentEpochs = new int[capacity];
        this.sendTimestampsNs = new long[capacity];
        this.retryAtNs = new long[capacity];
        this.sends = new int[capacity];
        this.listeners = new OrderListener[capacity];
        this.queued = new boolean[capacity];
        // twice the window at load factor 0.5: never resized, so never allocates
        this.slotByOrderId = new Long2LongHashMap(capacity * 2, 0.5f, MISSING);
        this.freeSlots = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            freeSlots[i] = capacity - 1 - i;
        }
        this.freeCount = capacity;
        this.sendQueue = new IntArrayQueue(capacity, -1);
    }

    /**
     * @param orderId an order id.
     * @return its slot, or -1 when it is not in flight.
     */
    int slotOf(final long orderId)
    {
        return (int)slotByOrderId.get(orderId);
    }

    /**
     * Take a free slot for an order and copy its FIX bytes; the caller sets the other fields and queues it.
     *
     * @param orderId the order id, not in flight.
     * @param fix     the FIX message.
     * @param offset  where it starts.
     * @param length  its length, at most {@link #maxOrderLength}.
     * @return the slot, or -1 when the window is full.
     */
    int allocate(final long orderId, final DirectBuffer fix, final int offset, final int length)
    {
        if (0 == freeCount)
        {
            return -1;
        }
        final int slot = freeSlots[--freeCount];
        slotByOrderId.put(orderId, slot);
        orderIds[slot] = orderId;
        lengths[slot] = length;
        fixStore.putBytes(fixOffset(slot), fix, offset, length);
        pairs[slot] = -1;
        partitions[slot] = -1;
        globalPartitions[slot] = -1;
        sentServers[slot] = -1;
        sentEpochs[slot] = 0;
        sendTimestampsNs[slot] = 0;
        retryAtNs[slot] = 0;
        sends[slot] = 0;
        return slot;
    }

    /**
     * Forget an order. Its slot may still sit in the send queue; the send pass skips slots that are not QUEUED.
     *
     * @param slot the order's slot.
     */
    void free(final int slot)
    {
        slotByOrderId.remove(orderIds[slot]);
        states[slot] = FREE;
        listeners[slot] = null;
        freeSlots[freeCount++] = slot;
    }

    /**
     * Mark an order to be sent on the next send pass.
     *
     * @param slot the order's slot.
     */
    void enqueue(final int slot)
    {
        states[slot] = QUEUED;
        if (!queued[slot])
        {
            queued[slot] = true;
            sendQueue.offerInt(slot);
        }
    }

    /**
     * @return the next slot from the send queue, or -1 when it is empty.
     */
    int pollQueue()
    {
        final int slot = sendQueue.pollInt();
        if (slot >= 0)
        {
            queued[slot] = false;
        }
        return slot;
    }

    /**
     * @return slots in the send queue (some may no longer be QUEUED).
     */
    int queueSize()
    {
        return sendQueue.size();
    }

    /**
     * @param slot a slot.
     * @return where its FIX bytes are in {@link #fixStore}.
     */
    int fixOffset(final int slot)
    {
        return slot * maxOrderLength;
    }

    /**
     * @return orders in flight.
     */
    int inFlight()
    {
        return capacity - freeCount;
    }

    /**
     * @return true when no slot is free.
     */
    boolean isFull()
    {
        return 0 == freeCount;
    }

    /**
     * Release the off-heap memory; the store is unusable afterwards.
     */
    @Override
    public void close()
    {
        Arrays.fill(listeners, null);
        BufferUtil.free(fixMemory);
    }
}
