package io.mdhub.common.status;

import java.nio.ByteBuffer;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

/**
 * A {@link CountersManager} over direct buffers of its own, for a Context that was given none: the Context makes one
 * at conclude, owns it, and either frees it at close ({@link #close()}) or leaves it to the garbage collector when a
 * reader may outlive it. A clone of the Context must not take it over: it makes its own.
 */
public final class InMemoryCounters implements AutoCloseable
{
    private ByteBuffer metaData;
    private ByteBuffer values;
    private final CountersManager manager;

    /**
     * @param capacity counters it has room for.
     */
    public InMemoryCounters(final int capacity)
    {
        metaData = ByteBuffer.allocateDirect(capacity * CountersManager.METADATA_LENGTH);
        values = ByteBuffer.allocateDirect(capacity * CountersManager.COUNTER_LENGTH);
        manager = new CountersManager(new UnsafeBuffer(metaData), new UnsafeBuffer(values));
    }

    /**
     * @return the manager over the buffers.
     */
    public CountersManager manager()
    {
        return manager;
    }

    /**
     * Free the buffers now: nothing may read the manager after this.
     */
    @Override
    public void close()
    {
        if (null != metaData)
        {
            BufferUtil.free(metaData);
            BufferUtil.free(values);
            metaData = null;
            values = null;
        }
    }
}
