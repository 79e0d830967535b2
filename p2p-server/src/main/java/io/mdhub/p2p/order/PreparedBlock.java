package io.mdhub.p2p.order;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.UnsafeAccess;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One block of native memory made ready off the order path: a daemon thread zeroes it a slice at a time, with a
 * pause after each slice, so that its page faults are spread over time instead of taking a CPU in one burst. A page
 * costs a fault when first written, tens of microseconds on a virtual machine under load: a 16 MiB block is 4,096
 * of them, 45 ms of a CPU on an idle host of two vCPUs and ~200 ms on a busy one.
 * <p>
 * The owner asks {@link #take()} when it needs the block and gets null while it is not ready; a taken block is the
 * owner's, released with {@link #free(UnsafeBuffer)}. {@link #close()} stops the preparation and frees a block that
 * was not taken.
 */
final class PreparedBlock implements AutoCloseable
{
    /** Bytes written between pauses: 16 pages. */
    static final int SLICE_BYTES = 64 * 1024;
    /** The pause after each slice: a 16 MiB block takes 256 slices, ~0.3 s or more. */
    static final long SLICE_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final int bytes;
    private final int sliceBytes;
    private final long slicePauseNs;
    private final Thread thread;
    private volatile UnsafeBuffer ready;
    private volatile boolean isRunning = true;
    private boolean isTaken;

    /**
     * Start preparing, paced as {@link #SLICE_BYTES} and {@link #SLICE_PAUSE_NS} say.
     *
     * @param bytes      size of the block.
     * @param threadName names the daemon thread.
     */
    PreparedBlock(final int bytes, final String threadName)
    {
        this(bytes, threadName, SLICE_BYTES, SLICE_PAUSE_NS);
    }

    /**
     * Start preparing.
     *
     * @param bytes        size of the block.
     * @param threadName   names the daemon thread.
     * @param sliceBytes   bytes written between pauses.
     * @param slicePauseNs the pause after each slice (0: none).
     */
    PreparedBlock(final int bytes, final String threadName, final int sliceBytes, final long slicePauseNs)
    {
        if (bytes <= 0 || sliceBytes <= 0 || slicePauseNs < 0)
        {
            throw new IllegalArgumentException("block " + bytes + " B, slice " + sliceBytes + " B, pause " +
                slicePauseNs + " ns");
        }
        this.bytes = bytes;
        this.sliceBytes = sliceBytes;
        this.slicePauseNs = slicePauseNs;
        thread = new Thread(this::prepare, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Allocate and zero a block on the calling thread, for when a prepared one is not ready.
     *
     * @param bytes size of the block.
     * @return the block, the caller's to {@link #free(UnsafeBuffer)}.
     */
    static UnsafeBuffer allocateZeroed(final int bytes)
    {
        final UnsafeBuffer block = allocate(bytes);
        block.setMemory(0, bytes, (byte)0);
        return block;
    }

    /**
     * Release a block from {@link #take()} or {@link #allocateZeroed(int)}.
     *
     * @param block the block.
     */
    static void free(final UnsafeBuffer block)
    {
        UnsafeAccess.UNSAFE.freeMemory(block.addressOffset());
    }

    /**
     * @return size of the block.
     */
    int bytes()
    {
        return bytes;
    }

    /**
     * @return true when the block is zeroed and not yet taken.
     */
    boolean isReady()
    {
        return null != ready && !isTaken;
    }

    /**
     * Called by the (single) owner thread.
     *
     * @return the zeroed block, now the caller's; or null while it is not ready (or once it was taken).
     */
    UnsafeBuffer take()
    {
        final UnsafeBuffer block = ready;
        if (null == block || isTaken)
        {
            return null;
        }
        isTaken = true;
        return block;
    }

    private static UnsafeBuffer allocate(final int bytes)
    {
        return new UnsafeBuffer(UnsafeAccess.UNSAFE.allocateMemory(bytes), bytes);
    }

    private void prepare()
    {
        final UnsafeBuffer block = allocate(bytes);
        for (int offset = 0; offset < bytes; offset += sliceBytes)
        {
            block.setMemory(offset, Math.min(sliceBytes, bytes - offset), (byte)0);
            pause();
            if (!isRunning)
            {
                free(block);
                return;
            }
        }
        ready = block;
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
     * Stop preparing and free the block unless it was taken. Called by the owner thread.
     */
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
        final UnsafeBuffer block = ready;
        if (null != block && !isTaken)
        {
            isTaken = true;
            free(block);
        }
    }
}
