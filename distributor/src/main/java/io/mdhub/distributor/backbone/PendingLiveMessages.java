package io.mdhub.distributor.backbone;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableRingBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The bounded FIFO where live messages (refresh, update, status) wait while the backbone cannot take them: one
 * {@link ExpandableRingBuffer} for the whole distributor, so the order of publication is the order the providers'
 * messages were handled, across items, services and connections. A message gets no sequence number here: it takes
 * the service's next one when it is finally published, so numbers follow publication order. The store counts, per
 * item handle, the messages it holds, so answers (images built from the cache, which already reflects waiting
 * messages) can wait until the item has none.
 * <p>
 * Bounded by a byte cap: {@link #append} refuses a message that would take the used bytes (record headers and
 * alignment included) beyond it; the ring grows on demand up to twice the cap (room for the padding at its wrap
 * point), so memory follows the worst backlog. Each record, 8-byte aligned behind the ring's own 8-byte header:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         kind (1..3)                           |  0
 *  |                         serviceId                             |  4
 *  |                         itemHandle                            |  8
 *  |          fieldA: refresh domainType, status streamState       | 12
 *  |          fieldB: refresh flags, status dataState              | 16
 *  |                         nameLength (refresh)                  | 20
 *  |                                                               | 24
 *  +                 originNs (when the message was handled)       +
 *  |                                                               |
 *  |                         rwfLength                             | 32
 *  |                         (reserved)                            | 36
 *  |                 name bytes, then RWF bytes ...                | 40
 *  +---------------------------------------------------------------+
 * </pre>
 * Owned by the distributor's event loop. Appending and draining allocate nothing once the ring and the scratch
 * buffer have grown to the backlog's size.
 */
final class PendingLiveMessages implements ExpandableRingBuffer.MessageConsumer
{
    /**
     * Publishes one waiting record.
     */
    interface Sink
    {
        /**
         * @param record the store's buffer.
         * @param offset where the record starts (read it with the static accessors).
         * @return true when the record is done with (published, or passed over with its sequence taken); false to
         * keep it, and every record behind it, for a later drain.
         */
        boolean publishPending(DirectBuffer record, int offset);
    }

    static final int REFRESH = 1;
    static final int UPDATE = 2;
    static final int STATUS = 3;

    /** Smallest accepted cap: a handful of messages. */
    static final int MIN_CAPACITY = 1024;
    /** Largest accepted cap: the ring may grow to twice it, within Agrona's 1 GiB. */
    static final int MAX_CAPACITY = ExpandableRingBuffer.MAX_CAPACITY / 2;

    private static final int KIND_OFFSET = 0;
    private static final int SERVICE_ID_OFFSET = 4;
    private static final int ITEM_HANDLE_OFFSET = 8;
    private static final int FIELD_A_OFFSET = 12;
    private static final int FIELD_B_OFFSET = 16;
    private static final int NAME_LENGTH_OFFSET = 20;
    private static final int ORIGIN_NS_OFFSET = 24;
    private static final int RWF_LENGTH_OFFSET = 32;
    private static final int REQUEST_ID_OFFSET = 40;
    private static final int HEADER_LENGTH = 48;
    private static final int INITIAL_RING_CAPACITY = 64 * 1024;

    private final ExpandableRingBuffer ring;
    private final int capacityBytes;
    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(1024);
    private final Int2IntHashMap messagesByItem = new Int2IntHashMap(0);
    private final AtomicCounter pendingBytes;
    private final AtomicCounter highWater;
    private Sink sink;

    /**
     * @param capacityBytes the cap on used bytes, {@link #MIN_CAPACITY} to {@link #MAX_CAPACITY}.
     * @param pendingBytes  set to the bytes in use after every change.
     * @param highWater     raised to the most bytes ever in use.
     */
    PendingLiveMessages(final int capacityBytes, final AtomicCounter pendingBytes, final AtomicCounter highWater)
    {
        if (capacityBytes < MIN_CAPACITY || capacityBytes > MAX_CAPACITY)
        {
            throw new IllegalArgumentException("pending capacity out of range: " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
        this.ring = new ExpandableRingBuffer(Math.min(INITIAL_RING_CAPACITY, capacityBytes),
            BitUtil.findNextPositivePowerOfTwo(capacityBytes) * 2, false);
        this.pendingBytes = pendingBytes;
        this.highWater = highWater;
    }

    /**
     * @param sink where {@link #drain(int)} publishes.
     */
    void sink(final Sink sink)
    {
        this.sink = sink;
    }

    /**
     * @return true when nothing waits.
     */
    boolean isEmpty()
    {
        return ring.isEmpty();
    }

    /**
     * @return bytes in use (records, their headers and alignment).
     */
    int size()
    {
        return ring.size();
    }

    /**
     * @return the cap on bytes in use.
     */
    int capacity()
    {
        return capacityBytes;
    }

    /**
     * @param itemHandle an item.
     * @return true while a live message of the item waits here.
     */
    boolean hasPending(final int itemHandle)
    {
        return !messagesByItem.isEmpty() && messagesByItem.containsKey(itemHandle);
    }

    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    boolean appendRefresh(
        final int serviceId,
        final int itemHandle,
        final long requestId,
        final long originNs,
        final int domainType,
        final int flags,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final int length = header(REFRESH, serviceId, itemHandle, originNs, domainType, flags, nameLength, rwfLength);
        scratch.putLong(REQUEST_ID_OFFSET, requestId);
        scratch.putBytes(HEADER_LENGTH, name, nameOffset, nameLength);
        scratch.putBytes(HEADER_LENGTH + nameLength, rwf, rwfOffset, rwfLength);
        return append(itemHandle, length);
    }

    boolean appendUpdate(
        final int serviceId,
        final int itemHandle,
        final long originNs,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final int length = header(UPDATE, serviceId, itemHandle, originNs, 0, 0, 0, rwfLength);
        scratch.putLong(REQUEST_ID_OFFSET, 0);
        scratch.putBytes(HEADER_LENGTH, rwf, rwfOffset, rwfLength);
        return append(itemHandle, length);
    }

    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    boolean appendStatus(
        final int serviceId,
        final int itemHandle,
        final long requestId,
        final long originNs,
        final int streamState,
        final int dataState,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final int length = header(STATUS, serviceId, itemHandle, originNs, streamState, dataState, 0, rwfLength);
        scratch.putLong(REQUEST_ID_OFFSET, requestId);
        scratch.putBytes(HEADER_LENGTH, rwf, rwfOffset, rwfLength);
        return append(itemHandle, length);
    }

    /**
     * Hand waiting records to the sink, oldest first, until it refuses one or the limit is reached.
     *
     * @param messageLimit most records to publish.
     * @return bytes freed.
     */
    int drain(final int messageLimit)
    {
        if (ring.isEmpty())
        {
            return 0;
        }
        final int bytes = ring.consume(this, messageLimit);
        if (bytes > 0)
        {
            pendingBytes.setOrdered(ring.size());
        }
        return bytes;
    }

    @Override
    public boolean onMessage(final MutableDirectBuffer buffer, final int offset, final int length, final int headOffset)
    {
        if (!sink.publishPending(buffer, offset))
        {
            return false;
        }
        final int itemHandle = buffer.getInt(offset + ITEM_HANDLE_OFFSET);
        final int count = messagesByItem.get(itemHandle);
        if (count <= 1)
        {
            messagesByItem.remove(itemHandle);
        }
        else
        {
            messagesByItem.put(itemHandle, count - 1);
        }
        return true;
    }

    private int header(
        final int kind,
        final int serviceId,
        final int itemHandle,
        final long originNs,
        final int fieldA,
        final int fieldB,
        final int nameLength,
        final int rwfLength)
    {
        final int length = HEADER_LENGTH + nameLength + rwfLength;
        scratch.checkLimit(length);
        scratch.putInt(KIND_OFFSET, kind);
        scratch.putInt(SERVICE_ID_OFFSET, serviceId);
        scratch.putInt(ITEM_HANDLE_OFFSET, itemHandle);
        scratch.putInt(FIELD_A_OFFSET, fieldA);
        scratch.putInt(FIELD_B_OFFSET, fieldB);
        scratch.putInt(NAME_LENGTH_OFFSET, nameLength);
        scratch.putLong(ORIGIN_NS_OFFSET, originNs);
        scratch.putInt(RWF_LENGTH_OFFSET, rwfLength);
        return length;
    }

    private boolean append(final int itemHandle, final int length)
    {
        final int used = BitUtil.align(
            ExpandableRingBuffer.HEADER_LENGTH + length, ExpandableRingBuffer.HEADER_ALIGNMENT);
        if ((long)ring.size() + used > capacityBytes || !ring.append(scratch, 0, length))
        {
            return false;
        }
        messagesByItem.put(itemHandle, messagesByItem.get(itemHandle) + 1);
        final int size = ring.size();
        pendingBytes.setOrdered(size);
        if (size > highWater.get())
        {
            highWater.setOrdered(size);
        }
        return true;
    }

    static int kind(final DirectBuffer record, final int offset)
    {
        return record.getInt(offset + KIND_OFFSET);
    }

    static int serviceId(final DirectBuffer record, final int offset)
    {
        return record.getInt(offset + SERVICE_ID_OFFSET);
    }

    static int itemHandle(final DirectBuffer record, final int offset)
    {
        return record.getInt(offset + ITEM_HANDLE_OFFSET);
    }

    /**
     * @return the refresh's domainType, or the status's streamState.
     */
    static int fieldA(final DirectBuffer record, final int offset)
    {
        return record.getInt(offset + FIELD_A_OFFSET);
    }

    /**
     * @return the refresh's RWF flags, or the status's dataState.
     */
    static int fieldB(final DirectBuffer record, final int offset)
    {
        return record.getInt(offset + FIELD_B_OFFSET);
    }

    static long requestId(final DirectBuffer record, final int offset)
    {
        return record.getLong(offset + REQUEST_ID_OFFSET);
    }

    static long originNs(final DirectBuffer record, final int offset)
    {
        return record.getLong(offset + ORIGIN_NS_OFFSET);
    }

    static int nameOffset(final int offset)
    {
        return offset + HEADER_LENGTH;
    }

    static int nameLength(final DirectBuffer record, final int offset)
    {
        return record.getInt(offset + NAME_LENGTH_OFFSET);
    }

    static int rwfOffset(final DirectBuffer record, final int offset)
    {
        return offset + HEADER_LENGTH + record.getInt(offset + NAME_LENGTH_OFFSET);
    }

    static int rwfLength(final DirectBuffer record, final int offset)
    {
        return record.getInt(offset + RWF_LENGTH_OFFSET);
    }
}
