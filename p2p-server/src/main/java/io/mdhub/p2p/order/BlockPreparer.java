package io.mdhub.p2p.order;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Makes blocks of native memory ready off the order path. One daemon thread, started with the preparer and parked
 * between requests, brings the requested block into memory a slice at a time ({@link NativeBlocks#prepare}) with a
 * pause after each slice, so that page faults are spread over time instead of taking a CPU in one burst: in 4 KiB
 * pages a 16 MiB block is 4,096 faults, tens of microseconds each on a virtual machine under load; in huge pages it
 * is eight.
 * <p>
 * The owner (one thread) {@link #request(int) requests} a block and later {@link #take() takes} it, getting null
 * while it is not ready; a taken block is the owner's, released with {@link NativeBlocks#free(UnsafeBuffer)}. A new
 * request or {@link #cancel()} discards whatever was requested before. Requests and takes are rare (a chunk every few
 * seconds), so they synchronise; the order path itself never touches the preparer.
 */
final class BlockPreparer implements AutoCloseable
{
    /** Bytes brought in between pauses: one huge page (one fault) where blocks get them, else 16 pages. */
    static final int SLICE_BYTES = NativeBlocks.isHugePaged() ? NativeBlocks.HUGE_PAGE : 64 * 1024;
    /** The pause after each slice: a 16 MiB block takes 8 slices in huge pages, 256 (~0.3 s or more) in 4 KiB. */
    static final long SLICE_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final int sliceBytes;
    private final long slicePauseNs;
    private final Thread thread;
    private volatile boolean isRunning = true;
    /** Bumped by every request and cancel: a preparation of an older one is thrown away. */
    private volatile long requestId;
    private int requestedBytes;
    private UnsafeBuffer ready;

    /**
     * Start the preparing thread, paced as {@link #SLICE_BYTES} and {@link #SLICE_PAUSE_NS} say.
     *
     * @param threadName names the daemon thread.
     */
    BlockPreparer(final String threadName)
    {
        this(threadName, SLICE_BYTES, SLICE_PAUSE_NS);
    }

    /**
     * Start the preparing thread.
     *
     * @param threadName   names the daemon thread.
     * @param sliceBytes   bytes written between pauses.
     * @param slicePauseNs the pause after each slice (0: none).
     */
    BlockPreparer(final String threadName, final int sliceBytes, final long slicePauseNs)
    {
        if (sliceBytes <= 0 || slicePauseNs < 0)
        {
            throw new IllegalArgumentException("slice " + sliceBytes + " B, pause " + slicePauseNs + " ns");
        }
        this.sliceBytes = sliceBytes;
        this.slicePauseNs = slicePauseNs;
        thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Have a block of this size prepared, in place of anything requested before.
     *
     * @param bytes size of the block.
     */
    synchronized void request(final int bytes)
    {
        if (bytes <= 0)
        {
            throw new IllegalArgumentException("block " + bytes + " B");
        }
        discard();
        requestedBytes = bytes;
        notifyAll();
    }

    /**
     * Drop the request and free a block prepared for it.
     */
    synchronized void cancel()
    {
        discard();
    }

    /**
     * @return true when the requested block is prepared and waiting to be taken.
     */
    synchronized boolean isReady()
    {
        return null != ready;
    }

    /**
     * @return the requested block, now the caller's, which ends the request; or null while it is not ready (the
     * request stands).
     */
    synchronized UnsafeBuffer take()
    {
        final UnsafeBuffer block = ready;
        if (null != block)
        {
            ready = null;
            requestedBytes = 0;
            requestId++;
        }
        return block;
    }

    private void discard()
    {
        requestId++;
        requestedBytes = 0;
        if (null != ready)
        {
            NativeBlocks.free(ready);
            ready = null;
        }
    }

    private void run()
    {
        while (isRunning)
        {
            final long id;
            final int bytes;
            synchronized (this)
            {
                while (isRunning && (0 == requestedBytes || null != ready))
                {
                    try
                    {
                        wait();
                    }
                    catch (final InterruptedException ex)
                    {
                        return;
                    }
                }
                id = requestId;
                bytes = requestedBytes;
            }
            final UnsafeBuffer block = prepare(id, bytes);
            synchronized (this)
            {
                if (null != block && id == requestId && isRunning)
                {
                    ready = block;
                }
                else if (null != block)
                {
                    NativeBlocks.free(block); // the request was replaced or cancelled while its block was written
                }
            }
        }
    }

    /**
     * @return the prepared block (zeros), or null if its request was replaced or cancelled, or the preparer closed,
     * meanwhile.
     */
    private UnsafeBuffer prepare(final long id, final int bytes)
    {
        final UnsafeBuffer block = NativeBlocks.allocate(bytes);
        for (int offset = 0; offset < bytes; offset += sliceBytes)
        {
            NativeBlocks.prepare(block, offset, Math.min(sliceBytes, bytes - offset));
            pause();
            if (!isRunning || id != requestId)
            {
                NativeBlocks.free(block);
                return null;
            }
        }
        return block;
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

    /**
     * Stop the thread and free a block not taken.
     */
    @Override
    public void close()
    {
        isRunning = false;
        synchronized (this)
        {
            notifyAll();
        }
        LockSupport.unpark(thread);
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        synchronized (this)
        {
            discard();
        }
    }
}
