package io.mdhub.p2p.order;

import java.nio.file.Path;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;

/**
 * The three places a server keeps every order it holds, as primary or as backup: the Orders region (the record, by
 * partition and sequence), the identity index (client and order id to partition, epoch and sequence, for resends) and
 * the write-behind queue (what survives the process and feeds the sink). An order is written to all three at once,
 * region first: an order in the queue is always found by the index and the region, and one the region refuses is in
 * none of them.
 * <p>
 * The region and the index live in this process's memory and close with the store; the queue belongs to the service.
 */
final class OrderStore implements AutoCloseable
{
    final OrdersRegion region;
    final OrderKeyIndex index;
    final OrderQueue queue;

    /**
     * @param region the Orders region.
     * @param index  the identity index.
     * @param queue  the write-behind queue (not closed with the store).
     */
    OrderStore(final OrdersRegion region, final OrderKeyIndex index, final OrderQueue queue)
    {
        this.region = region;
        this.index = index;
        this.queue = queue;
    }

    /**
     * Keep an order that arrived: region, index, queue.
     *
     * @return true if stored; false if the identity index is full or the region refused it (not the partition's
     * next sequence, or larger than a chunk), and then it is nowhere.
     */
    boolean store(
        final int partition,
        final long sequence,
        final int epoch,
        final long clientId,
        final long orderId,
        final DirectBuffer record,
        final int offset,
        final int length)
    {
        if (!restore(partition, sequence, epoch, clientId, orderId, record, offset, length))
        {
            return false;
        }
        queue.append(record, offset, length);
        return true;
    }

    /**
     * Take back an order replayed from this server's own queue at start: region and index (it is in the queue).
     *
     * @return true if restored; false if the index is full or the region refused it (see {@link #store}).
     */
    boolean restore(
        final int partition,
        final long sequence,
        final int epoch,
        final long clientId,
        final long orderId,
        final DirectBuffer record,
        final int offset,
        final int length)
    {
        if (index.isFull() || !region.put(partition, sequence, record, offset, length))
        {
            return false; // checked before the region takes it: the index throws when full
        }
        index.put(clientId, orderId, partition, epoch, sequence);
        return true;
    }

    /**
     * Forget every order (before a state transfer from the peer): the queue is set aside, region and index emptied.
     *
     * @return where the queue was set aside.
     */
    Path discard()
    {
        final Path aside = queue.discard();
        region.clear();
        index.clear();
        return aside;
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(region, index);
    }
}
