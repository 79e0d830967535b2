package io.mdhub.p2p.order;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.agrona.UnsafeAccess;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Hands the Orders region its chunks without the order path paying for them. A chunk's memory costs a page fault per
 * page when first written: for a 16 MiB chunk that is 4,096 faults, tens of milliseconds of a CPU on a virtual
 * machine. A daemon thread keeps one spare chunk ready and prepares the next as soon as the spare is taken; when
 * orders outrun it the owner allocates inline, and {@link #inlineAllocations()} says how often.
 * <p>
 * The spare is written a slice at a time with a pause after each slice, so its faults are spread over a fraction of
 * a second instead of taking a CPU in one burst. Both servers of a pair store every order and so need their next
 * chunk at the same moment; on a small host the two bursts together took both CPUs from the order agents.
 * <p>
 * Chunks are raw native memory: {@link #free(UnsafeBuffer)} releases one.
 */
final class ChunkSupply implements AutoCloseable
{
    /** Bytes written between pauses while a spare is prepared: 16 pages. */
    static final int SLICE_BYTES = 64 * 1024;
    /** The pause after each slice: a 16 MiB chunk is prepared in 256 slices over ~0.3 s or more. */
    static final long SLICE_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final int chunkSize;
    private final int sliceBytes;
    private final long slicePauseNs;
    private final AtomicReference<UnsafeBuffer> spare = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean isRunning = true;
    private long inlineAllocations;

    /**
     * Start preparing the first spare, paced as {@link #SLICE_BYTES} and {@link #SLICE_PAUSE_NS} say.
     *
     * @param chunkSize bytes per chunk.
     * @param name      names the thread.
     */
    ChunkSupply(final int chunkSize, final String name)
    {
        this(chunkSize, name, SLICE_BYTES, SLICE_PAUSE_NS);
    }

    /**
     * Start preparing the first spare.
     *
     * @param chunkSize    bytes per chunk.
     * @param name         names the thread.
     * @param sliceBytes   bytes written between pauses.
     * @param slicePauseNs the pause after each slice (0: none).
     */
    ChunkSupply(final int chunkSize, final String name, final int sliceBytes, final long slicePauseNs)
    {
        if (chunkSize <= 0 || sliceBytes <= 0 || slicePauseNs < 0)
        {
            throw new IllegalArgumentException("chunk " + chunkSize + " B, slice " + sliceBytes + " B, pause " +
                slicePauseNs + " ns");
        }
        this.chunkSize = chunkSize;
        this.sliceBytes = sliceBytes;
        this.slicePauseNs = slicePauseNs;
        thread = new Thread(this::run, "mdhub-order-chunks-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Called by the region's (single) owner thread.
     *
     * @return a zeroed chunk of {@code chunkSize} bytes, the caller's to {@link #free(UnsafeBuffer)}.
     */
    UnsafeBuffer take()
    {
        final UnsafeBuffer chunk = spare.getAndSet(null);
        LockSupport.unpark(thread);
        if (null != chunk)
        {
            return chunk;
        }
        inlineAllocations++;
        final UnsafeBuffer inline = allocate();
        inline.setMemory(0, chunkSize, (byte)0);
        return inline;
    }

    /**
     * Release a chunk this supply handed out.
     *
     * @param chunk from {@link #take()}.
     */
    void free(final UnsafeBuffer chunk)
    {
        UnsafeAccess.UNSAFE.freeMemory(chunk.addressOffset());
    }

    /**
     * @return chunks the owner had to allocate itself because no spare was ready.
     */
    long inlineAllocations()
    {
        return inlineAllocations;
    }

    /**
     * @return true when a prepared chunk is waiting to be taken.
     */
    boolean isSpareReady()
    {
        return null != spare.get();
    }

    private UnsafeBuffer allocate()
    {
        return new UnsafeBuffer(UnsafeAccess.UNSAFE.allocateMemory(chunkSize), chunkSize);
    }

    private void run()
    {
        while (isRunning)
        {
            if (null == spare.get())
            {
                final UnsafeBuffer chunk = prepare();
                if (null == chunk)
                {
                    break; // closed
                }
                spare.set(chunk); // only take() empties it, so nothing is overwritten
            }
            LockSupport.park(this);
        }
    }

    /**
     * @return a zeroed chunk, or null if closed while preparing it.
     */
    private UnsafeBuffer prepare()
    {
        final UnsafeBuffer chunk = allocate();
        for (int offset = 0; offset < chunkSize; offset += sliceBytes)
        {
            chunk.setMemory(offset, Math.min(sliceBytes, chunkSize - offset), (byte)0);
            pause();
            if (!isRunning)
            {
                free(chunk);
                return null;
            }
        }
        return chunk;
    }

    /** At least {@code slicePauseNs}: a park may return early, and the pacing is what this class is for. */
    private void pause()
    {
        final long deadline = System.nanoTime() + slicePauseNs;
        for (long left = slicePauseNs; left > 0 && isRunning; left = deadline - System.nanoTime())
        {
            LockSupport.parkNanos(this, left);
        }
    }

    @Override
    public void close()
    {
        isRunning = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        final UnsafeBuffer chunk = spare.getAndSet(null);
        if (null != chunk)
        {
            free(chunk);
        }
    }
}
