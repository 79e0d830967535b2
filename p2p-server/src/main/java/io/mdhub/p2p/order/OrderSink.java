package io.mdhub.p2p.order;

import org.agrona.DirectBuffer;

/**
 * The downstream system the write-behind queue drains into, an extension point. The primary of a partition calls it
 * for each acknowledged order of the partition in sequence order; the drained position is replicated so a promoted
 * backup resumes after it. Delivery is at least once across a failover (the last few orders before a failover may
 * be written again by the new primary: a sink dedupes by (partition, sequence) if it must). Runs on the order
 * agent's thread; named in {@code mdhub.order.sink}.
 */
public interface OrderSink extends AutoCloseable
{
    /**
     * @param partition the order's partition.
     * @param sequence  its sequence.
     * @param record    buffer holding the encoded OrderRecord (with its message header).
     * @param offset    first byte.
     * @param length    length.
     * @return true if taken; false to be offered the same record again later (back-pressure).
     */
    boolean write(int partition, long sequence, DirectBuffer record, int offset, int length);

    @Override
    default void close()
    {
    }
}
