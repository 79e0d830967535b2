package io.mdhub.p2p.order;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Hands the Orders region its chunks without the order agent paying for them. The JVM zeroes new direct memory, so
 * allocating a chunk faults in every one of its pages: for a 16 MiB chunk that is 4,096 page faults, tens of
 * milliseconds on a virtual machine, which the agent used to spend in the middle of the order path once every few
 * seconds at load. A daemon thread keeps one spare chunk allocated and prepares the next as soon as the spare is
 * taken; when orders outrun it the agent allocates inline, and {@link #inlineAllocations()} says how often.
 */
final class ChunkSupply implements AutoCloseable
{
    private final int chunkSize;
    private final AtomicReference<UnsafeBuffer> spare = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean isRunning = true;
    private long inlineAllocations;

    /**
     * Start preparing the first spare.
     *
     * @param chunkSize bytes per chunk.
     * @param name      names the thread.
     */
    ChunkSupply(final int chunkSize, final String name)
    {
        this.chunkSize = chunkSize;
        thread = new Thread(this::run, "mdhub-order-chunks-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Called by the region's (single) owner thread.
     *
     * @return a zeroed chunk of {@code chunkSize} bytes, the caller's to free.
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
        return allocate();
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
        return new UnsafeBuffer(ByteBuffer.allocateDirect(chunkSize));
    }

    private void run()
    {
        while (isRunning)
        {
            if (null == spare.get())
            {
                spare.set(allocate()); // only take() empties it, so nothing is overwritten
            }
            LockSupport.park(this);
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
            BufferUtil.free(chunk);
        }
    }
}
