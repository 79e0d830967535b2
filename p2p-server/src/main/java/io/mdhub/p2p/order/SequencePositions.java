package io.mdhub.p2p.order;

import static org.agrona.UnsafeAccess.UNSAFE;

import java.util.Arrays;

/**
 * Per partition, where each sequence's record is: an 8-byte position per sequence in 4 KiB blocks cut from the
 * store's {@link StoreMemory} as a partition's sequences reach them. Memory follows the orders held and is written in
 * sequence order, so only the block at each partition's head is ever touched cold. A partition's table of block
 * addresses is sized for the expected orders; past them it is copied to one twice its length (a few KiB).
 * Single-threaded (the order agent).
 */
final class SequencePositions
{
    private static final int BLOCK_SIZE = 4096;
    private static final int POSITIONS_PER_BLOCK = BLOCK_SIZE / Long.BYTES;
    private static final int BLOCK_SHIFT = Integer.numberOfTrailingZeros(POSITIONS_PER_BLOCK);

    private final StoreMemory memory;
    private final long[][] blocks;

    /**
     * @param partitions     partitions.
     * @param expectedOrders orders over all partitions the block tables are sized for.
     * @param memory         where blocks come from.
     */
    SequencePositions(final int partitions, final long expectedOrders, final StoreMemory memory)
    {
        this.memory = memory;
        blocks = new long[partitions][];
        final long perPartition = (expectedOrders + partitions - 1) / partitions + 1;
        final int blocksPerPartition = (int)Math.min(Integer.MAX_VALUE - 8, (perPartition >>> BLOCK_SHIFT) + 1);
        for (int i = 0; i < partitions; i++)
        {
            blocks[i] = new long[blocksPerPartition];
        }
    }

    /**
     * @param partition a partition.
     * @param sequence  a sequence of it, at most one past the last one put.
     * @param position  where its record is.
     */
    void put(final int partition, final long sequence, final long position)
    {
        final int block = (int)(sequence >>> BLOCK_SHIFT);
        long[] table = blocks[partition];
        if (block == table.length)
        {
            table = Arrays.copyOf(table, table.length * 2);
            blocks[partition] = table;
        }
        if (0 == table[block])
        {
            table[block] = memory.allocate(BLOCK_SIZE);
        }
        UNSAFE.putLong(table[block] + ((sequence & (POSITIONS_PER_BLOCK - 1)) << 3), position);
    }

    /**
     * @param partition a partition.
     * @param sequence  a sequence that was {@link #put}.
     * @return where its record is.
     */
    long get(final int partition, final long sequence)
    {
        return UNSAFE.getLong(blocks[partition][(int)(sequence >>> BLOCK_SHIFT)] +
            ((sequence & (POSITIONS_PER_BLOCK - 1)) << 3));
    }

    /**
     * Forget every position (the memory is being cleared).
     */
    void clear()
    {
        for (final long[] table : blocks)
        {
            Arrays.fill(table, 0);
        }
    }
}
