package io.mdhub.p2p.order;

import java.util.ArrayList;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Orders region: every stored order record of every partition, off the Java heap, addressable by (partition,
 * sequence). Records are appended to 16 MiB native-memory chunks (a length prefix, then the encoded OrderRecord);
 * per partition a direct buffer of 8-byte positions indexed by sequence finds them, so sequences are contiguous by
 * construction: a record is accepted only as its partition's next sequence. The garbage collector sees a handful of
 * objects however many orders there are. Single-threaded (the order agent).
 */
final class OrdersRegion implements AutoCloseable
{
    static final int CHUNK_SIZE = 16 * 1024 * 1024;

    private static final int LENGTH_PREFIX = 4;
    private static final int MAX_INITIAL_POSITION_BYTES = 1 << 30;

    private final ArrayList<UnsafeBuffer> chunks = new ArrayList<>();
    private final ChunkSupply chunkSupply;
    private final ExpandableDirectByteBuffer[] positions;
    private final long[] lastSequence;
    private long bytesStored;
    private int chunkPosition = CHUNK_SIZE;

    /**
     * @param partitions     partitions.
     * @param expectedOrders orders it is sized for up front, so that sequence positions are not copied to a larger
     *                       buffer on the order path until then.
     * @param name           names the thread that prepares chunks.
     */
    OrdersRegion(final int partitions, final long expectedOrders, final String name)
    {
        positions = new ExpandableDirectByteBuffer[partitions];
        lastSequence = new long[partitions];
        final long perPartition = (expectedOrders + partitions - 1) / partitions + 1;
        final int positionBytes = (int)Math.min(MAX_INITIAL_POSITION_BYTES, Math.max(64 * 1024, perPartition * 8));
        for (int i = 0; i < partitions; i++)
        {
            positions[i] = new ExpandableDirectByteBuffer(positionBytes);
        }
        chunkSupply = new ChunkSupply(CHUNK_SIZE, name);
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
        if (sequence != lastSequence[partition] + 1 || length + LENGTH_PREFIX > CHUNK_SIZE)
        {
            return false;
        }
        if (chunkPosition + LENGTH_PREFIX + length > CHUNK_SIZE)
        {
            chunks.add(chunkSupply.take());
            chunkPosition = 0;
        }
        final int chunkIndex = chunks.size() - 1;
        final UnsafeBuffer chunk = chunks.get(chunkIndex);
        chunk.putInt(chunkPosition, length);
        chunk.putBytes(chunkPosition + LENGTH_PREFIX, record, offset, length);

        final ExpandableDirectByteBuffer index = positions[partition];
        final int indexOffset = (int)(sequence * Long.BYTES);
        index.checkLimit(indexOffset + Long.BYTES);
        index.putLong(indexOffset, ((long)chunkIndex << 32) | chunkPosition);

        chunkPosition += LENGTH_PREFIX + length;
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
        final long position = positions[partition].getLong((int)(sequence * Long.BYTES));
        final UnsafeBuffer chunk = chunks.get((int)(position >>> 32));
        final int chunkOffset = (int)position;
        final int length = chunk.getInt(chunkOffset);
        view.wrap(chunk, chunkOffset + LENGTH_PREFIX, length);
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
     * Forget every record (before a full state transfer); chunks are freed.
     */
    void clear()
    {
        freeChunks();
        java.util.Arrays.fill(lastSequence, 0);
        bytesStored = 0;
        chunkPosition = CHUNK_SIZE;
    }

    private void freeChunks()
    {
        for (final UnsafeBuffer chunk : chunks)
        {
            chunkSupply.free(chunk);
        }
        chunks.clear();
    }

    @Override
    public void close()
    {
        chunkSupply.close();
        freeChunks();
    }
}
