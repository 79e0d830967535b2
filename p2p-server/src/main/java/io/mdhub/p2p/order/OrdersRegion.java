package io.mdhub.p2p.order;

import static org.agrona.UnsafeAccess.UNSAFE;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Orders region: every stored order record of every partition, off the Java heap, addressable by (partition,
 * sequence). Each record (a length prefix, then the encoded OrderRecord) is cut from the store's
 * {@link StoreMemory}; {@link SequencePositions} finds it by partition and sequence, so sequences are contiguous by
 * construction: a record is accepted only as its partition's next sequence. The garbage collector sees a handful of
 * objects however many orders there are. Single-threaded (the order agent).
 */
final class OrdersRegion
{
    private static final int LENGTH_PREFIX = 4;

    private final StoreMemory memory;
    private final SequencePositions positions;
    private final long[] lastSequence;
    private final UnsafeBuffer writer = new UnsafeBuffer(0, 0);
    private long bytesStored;

    /**
     * @param partitions     partitions.
     * @param expectedOrders orders the positions' block tables are sized for (see {@link SequencePositions}).
     * @param memory         where records and positions are cut from.
     */
    OrdersRegion(final int partitions, final long expectedOrders, final StoreMemory memory)
    {
        this.memory = memory;
        positions = new SequencePositions(partitions, expectedOrders, memory);
        lastSequence = new long[partitions];
    }

    /**
     * @param partition a partition.
     * @return its last stored sequence (0 = none).
     */
    long lastSequence(final int partition)
    {
        return lastSequence[partition];
    }

    /**
     * Store a record as the partition's next sequence.
     *
     * @return true if stored; false if {@code sequence} is not {@code lastSequence + 1} (the caller counts the gap
     * or the duplicate) or the record does not fit a chunk.
     */
    boolean put(final int partition, final long sequence, final DirectBuffer record, final int offset, final int length)
    {
        if (sequence != lastSequence[partition] + 1 || length > memory.maxAllocation() - LENGTH_PREFIX)
        {
            return false;
        }
        final long address = memory.allocate(LENGTH_PREFIX + length);
        writer.wrap(address, LENGTH_PREFIX + length);
        writer.putInt(0, length);
        writer.putBytes(LENGTH_PREFIX, record, offset, length);
        positions.put(partition, sequence, address);
        bytesStored += length;
        lastSequence[partition] = sequence;
        return true;
    }

    /**
     * Point a view at a stored record.
     *
     * @return the record length, or -1 if the partition has no such sequence.
     */
    int wrap(final int partition, final long sequence, final UnsafeBuffer view)
    {
        if (sequence < 1 || sequence > lastSequence[partition])
        {
            return -1;
        }
        final long address = positions.get(partition, sequence);
        final int length = UNSAFE.getInt(address);
        view.wrap(address + LENGTH_PREFIX, length);
        return length;
    }

    /**
     * @return bytes of records stored.
     */
    long bytesStored()
    {
        return bytesStored;
    }

    /**
     * @return partitions.
     */
    int partitions()
    {
        return lastSequence.length;
    }

    /**
     * Forget every record (before a full state transfer, the memory being cleared).
     */
    void clear()
    {
        positions.clear();
        Arrays.fill(lastSequence, 0);
        bytesStored = 0;
    }
}
