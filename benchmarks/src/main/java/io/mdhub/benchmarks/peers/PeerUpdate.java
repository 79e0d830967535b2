package io.mdhub.benchmarks.peers;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The update the pub/sub peers carry, the size of the published benchmarks' level-1 update (74 bytes, as MDHub's
 * source sends): the publisher's sequence number (one publisher, one connection: the peers keep its order, so a gap
 * is a lost update), the item, the origin {@code System.nanoTime()} in every n-th update (0 in the others) and
 * quote-like filler derived from the sequence, so every update is as big and as varied as the next.
 */
final class PeerUpdate
{
    /** Bytes of every update. */
    static final int LENGTH = 74;
    private static final int SEQUENCE_OFFSET = 0;
    private static final int ORIGIN_OFFSET = 8;
    private static final int ITEM_OFFSET = 16;
    private static final int FILLER_OFFSET = 20;

    private PeerUpdate()
    {
    }

    /**
     * @param buffer   over an array of {@link #LENGTH} bytes.
     * @param sequence the publisher's sequence number, from 1.
     * @param item     the item's index.
     * @param originNs {@code System.nanoTime()} when sent, or 0.
     */
    static void encode(final UnsafeBuffer buffer, final long sequence, final int item, final long originNs)
    {
        buffer.putLong(SEQUENCE_OFFSET, sequence);
        buffer.putLong(ORIGIN_OFFSET, originNs);
        buffer.putInt(ITEM_OFFSET, item);
        for (int offset = FILLER_OFFSET; offset + Long.BYTES <= LENGTH; offset += Long.BYTES)
        {
            buffer.putLong(offset, sequence * 0x9E3779B97F4A7C15L + offset); // bid, ask, sizes, trade... as numbers
        }
        buffer.putShort(LENGTH - Short.BYTES, (short)sequence);
    }

    /**
     * @param buffer an update.
     * @return its sequence number.
     */
    static long sequence(final UnsafeBuffer buffer)
    {
        return buffer.getLong(SEQUENCE_OFFSET);
    }

    /**
     * @param buffer an update.
     * @return its origin time, or 0 when it has none.
     */
    static long originNs(final UnsafeBuffer buffer)
    {
        return buffer.getLong(ORIGIN_OFFSET);
    }

    /**
     * @param buffer an update.
     * @return its item's index.
     */
    static int item(final UnsafeBuffer buffer)
    {
        return buffer.getInt(ITEM_OFFSET);
    }
}
