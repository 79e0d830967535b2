package io.mdhub.p2p.order;

import org.agrona.DirectBuffer;

/**
 * The downstream system the write-behind queue drains into, an extension point. The primary of a partition calls
 * {@link #write} for each acknowledged order of the partition in sequence order, a batch at a time, then
 * {@link #flush()}; only when the flush says the batch is durable does the drained position advance, get persisted
 * in the queue directory and replicated to the backup. So a promoted backup, or a server restarted after both
 * stopped, resumes after the last durable batch: delivery is at least once (the orders written after the last
 * successful flush may be written again: a sink dedupes by (partition, sequence) if it must), never a loss. Runs on
 * the order agent's thread; named in {@code mdhub.order.sink}.
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

    /**
     * Make everything written so far durable downstream (a file written to the OS, or fsynced; a broker's
     * acknowledgement; ...). An exception counts as false.
     *
     * @return true if every record written so far survives this process being killed; false to be asked again
     * later (the drained position stays, and the records are not offered again until a restart or failover).
     */
    default boolean flush()
    {
        return true;
    }

    @Override
    default void close()
    {
    }
}
