package io.mdhub.p2p.order;

import java.nio.file.Path;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;

/**
 * The three places a server keeps every order it holds, as primary or as backup: the Orders region (the record, by
 * partition and sequence), the identity index (client and order id to partition, epoch and sequence, for resends) and
 * the write-behind queue (what survives the process and feeds the sink). An order is written to all three at once,
 * region first: an order in the queue is always found by the index and the region, and one the region refuses is in
 * none of them.
 * <p>
 * The region and the index live in this process's memory, cut from one {@link StoreMemory} whose chunks one
 * {@link ChunkSupply} thread prepares, and are freed with the store; the queue belongs to the service.
 */
final class OrderStore implements AutoCloseable
{
    /** Bytes per chunk of native memory for records, positions and index nodes. */
    static final int CHUNK_SIZE = 16 * 1024 * 1024;

    final OrdersRegion region;
    final OrderKeyIndex index;
    final OrderQueue queue;
    private final ChunkSupply chunks;
    private final StoreMemory memory;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final OrderRecordDecoder recordDecoder = new OrderRecordDecoder();

    /**
     * @param partitions     partitions.
     * @param expectedOrders orders the region's position tables are sized for up front.
     * @param name           names the thread that prepares chunks.
     * @param queue          the write-behind queue (not closed with the store).
     * @param inlineChunks   counts chunks the order thread had to allocate itself (not closed with the store).
     */
    OrderStore(
        final int partitions,
        final long expectedOrders,
        final String name,
        final OrderQueue queue,
        final AtomicCounter inlineChunks)
    {
        this(new ChunkSupply(CHUNK_SIZE, name, inlineChunks), partitions, expectedOrders, OrderKeyIndex.MAX_ORDERS,
            queue);
    }

    /**
     * @param chunks         where region and index take memory from (closed with the store).
     * @param partitions     partitions.
     * @param expectedOrders orders the region's position tables are sized for up front.
     * @param maxOrders      orders the index takes before the store refuses more.
     * @param queue          the write-behind queue (not closed with the store).
     */
    OrderStore(
        final ChunkSupply chunks,
        final int partitions,
        final long expectedOrders,
        final int maxOrders,
        final OrderQueue queue)
    {
        this.chunks = chunks;
        this.memory = new StoreMemory(chunks);
        this.region = new OrdersRegion(partitions, expectedOrders, memory);
        this.index = new OrderKeyIndex(memory, maxOrders);
        this.queue = queue;
    }

    /**
     * Keep an order that arrived: region, index, queue.
     *
     * @param record an encoded OrderRecord (message header first), whose partition is one of the region's.
     * @param offset where it starts.
     * @param length its length.
     * @return true if stored; false if the record is shorter than an OrderRecord, the identity index is full or the
     * region refused it (not the partition's next sequence, or larger than a chunk), and then it is nowhere.
     */
    boolean store(final DirectBuffer record, final int offset, final int length)
    {
        if (!restore(record, offset, length))
        {
            return false;
        }
        queue.append(record, offset, length);
        return true;
    }

    /**
     * Take back an order replayed from this server's own queue at start: region and index (it is in the queue).
     *
     * @return true if restored; false as {@link #store} says.
     */
    boolean restore(final DirectBuffer record, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH + OrderRecordDecoder.BLOCK_LENGTH || index.isFull())
        {
            return false; // the index refuses nothing else, so nothing is in the region that is not in the index
        }
        recordDecoder.wrapAndApplyHeader(record, offset, headerDecoder);
        final int partition = recordDecoder.partition();
        final long sequence = recordDecoder.sequence();
        if (!region.put(partition, sequence, record, offset, length))
        {
            return false;
        }
        index.put(recordDecoder.clientId(), recordDecoder.orderId(), partition, recordDecoder.epoch(), sequence);
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
        memory.clear();
        index.clear();
        return aside;
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(memory, chunks);
    }
}
