package io.mdhub.p2p.order;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Hands the order store its chunks of memory without the order path paying for them: a {@link BlockPreparer}
 * always has the next chunk in the making (its page faults spread over a fraction of a second), and is asked for the
 * one after as soon as it is taken. Both servers of a pair store every order and so need their next chunk at the
 * same moment; on a small host two chunks faulted in at once took both CPUs from the order agents. When orders
 * outrun the preparation the owner allocates inline, and the counter it is given (the service's
 * {@code order-store-inline-chunks}) says how often. Chunks are
 * {@link NativeBlocks}: {@link #free(UnsafeBuffer)} releases one.
 */
final class ChunkSupply implements AutoCloseable
{
    private final int chunkSize;
    private final BlockPreparer preparer;
    private final AtomicCounter inlineAllocations;

    /**
     * Start preparing the first spare, paced as {@link BlockPreparer} does by default.
     *
     * @param chunkSize         bytes per chunk.
     * @param name              names the preparing thread.
     * @param inlineAllocations counts the chunks the owner had to allocate itself (not closed with the supply).
     */
    ChunkSupply(final int chunkSize, final String name, final AtomicCounter inlineAllocations)
    {
        this(chunkSize, name, BlockPreparer.SLICE_BYTES, BlockPreparer.SLICE_PAUSE_NS, inlineAllocations);
    }

    /**
     * Start preparing the first spare.
     *
     * @param chunkSize         bytes per chunk.
     * @param name              names the preparing thread.
     * @param sliceBytes        bytes brought in between pauses.
     * @param slicePauseNs      the pause after each slice (0: none).
     * @param inlineAllocations counts the chunks the owner had to allocate itself (not closed with the supply).
     */
    ChunkSupply(
        final int chunkSize,
        final String name,
        final int sliceBytes,
        final long slicePauseNs,
        final AtomicCounter inlineAllocations)
    {
        this.chunkSize = chunkSize;
        this.inlineAllocations = inlineAllocations;
        preparer = new BlockPreparer("mdhub-order-chunks-" + name, sliceBytes, slicePauseNs);
        preparer.request(chunkSize);
    }

    /**
     * Called by the region's (single) owner thread.
     *
     * @return a zeroed chunk of {@code chunkSize} bytes, the caller's to {@link #free(UnsafeBuffer)}.
     */
    UnsafeBuffer take()
    {
        final UnsafeBuffer chunk = preparer.take();
        if (null == chunk)
        {
            inlineAllocations.increment(); // the spare in the making stays for the chunk after this one
            return NativeBlocks.allocatePrepared(chunkSize);
        }
        preparer.request(chunkSize);
        return chunk;
    }

    /**
     * Release a chunk this supply handed out.
     *
     * @param chunk from {@link #take()}.
     */
    void free(final UnsafeBuffer chunk)
    {
        NativeBlocks.free(chunk);
    }

    /**
     * @return bytes per chunk.
     */
    int chunkSize()
    {
        return chunkSize;
    }

    /**
     * @return chunks the owner had to allocate itself because no spare was ready.
     */
    long inlineAllocations()
    {
        return inlineAllocations.get();
    }

    /**
     * @return true when a prepared chunk is waiting to be taken.
     */
    boolean isSpareReady()
    {
        return preparer.isReady();
    }

    @Override
    public void close()
    {
        preparer.close();
    }
}
