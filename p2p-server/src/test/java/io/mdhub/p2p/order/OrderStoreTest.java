package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.test.InterruptAfter;

/**
 * The order store's pieces (the identity index has a test of its own): the Orders region (contiguous per partition,
 * off heap) and the Chronicle write-behind queue (survives a reopen, can be discarded for a state transfer).
 */
@InterruptAfter(60)
class OrderStoreTest
{
    @TempDir
    Path dir;

    @Test
    void memoryIsCutInOrderFromChunksAndClearedAtOnce()
    {
        try (ChunkSupply supply = new ChunkSupply(
            64 * 1024, "test", 16 * 1024, 0, TestCounters.newCounter("inline-chunks"));
            StoreMemory memory = new StoreMemory(supply))
        {
            long end = memory.allocate(1) + 8;
            int chunks = memory.chunks();
            for (int i = 0; i < 3_000; i++)
            {
                final int bytes = 1 + i % 100;
                final long address = memory.allocate(bytes);
                assertEquals(0, address & 7, "8-byte aligned");
                if (chunks == memory.chunks())
                {
                    assertEquals(end, address, "right after the one before it");
                }
                chunks = memory.chunks();
                end = address + ((bytes + 7) & ~7);
            }
            assertTrue(memory.chunks() > 1);
            assertThrows(IllegalArgumentException.class, () -> memory.allocate(64 * 1024 + 1));
            memory.allocate(64 * 1024); // a whole chunk
            memory.clear();
            assertEquals(1, memory.chunks(), "the first chunk is kept");
        }
    }

    @Test
    void regionAcceptsOnlyTheNextSequenceAndReturnsEveryRecord()
    {
        try (ChunkSupply supply = new ChunkSupply(
            OrderStore.CHUNK_SIZE, "test", TestCounters.newCounter("inline-chunks"));
            StoreMemory memory = new StoreMemory(supply))
        {
            final OrdersRegion region = new OrdersRegion(2, 1000, memory);
            final UnsafeBuffer record = new UnsafeBuffer(new byte[400]);
            for (int i = 1; i <= 50_000; i++)
            {
                record.putLong(0, i);
                assertTrue(region.put(i % 2, region.lastSequence(i % 2) + 1, record, 0, 300 + (i % 100)));
            }
            assertFalse(region.put(0, region.lastSequence(0) + 2, record, 0, 10), "a gap is refused");
            assertFalse(region.put(0, region.lastSequence(0), record, 0, 10), "a duplicate is refused");
            assertTrue(region.bytesStored() > OrderStore.CHUNK_SIZE && memory.chunks() > 1, "records span chunks");
            final UnsafeBuffer view = new UnsafeBuffer(0, 0);
            for (long sequence = 1; sequence <= region.lastSequence(1); sequence++)
            {
                final int length = region.wrap(1, sequence, view);
                final long i = view.getLong(0);
                assertEquals(1, i % 2);
                assertEquals(300 + (i % 100), length);
            }
            assertEquals(-1, region.wrap(1, region.lastSequence(1) + 1, view));
        }
    }

    @Test
    void fileSinkWritesOneLinePerOrder() throws Exception
    {
        final Path file = dir.resolve("orders.csv");
        final org.agrona.ExpandableArrayBuffer buffer = new org.agrona.ExpandableArrayBuffer(512);
        final io.mdhub.common.codecs.order.OrderRecordEncoder record =
            new io.mdhub.common.codecs.order.OrderRecordEncoder();
        try (OrderSink sink = OrderSinks.create("file:" + file))
        {
            for (int i = 1; i <= 3; i++)
            {
                record.wrapAndApplyHeader(buffer, 0, new io.mdhub.common.codecs.order.MessageHeaderEncoder())
                    .partition(1).epoch(2).sequence(i).clientId(7).orderId(100 + i).storedTimeMs(0)
                    .side(io.mdhub.common.codecs.order.Side.SELL).quantity(-5 + 10 * i).priceMantissa(-12345)
                    .priceExponent((byte)-2).ordType((byte)'2').timeInForce((byte)'0').symbol("VOD.L")
                    .clOrdId("C" + i).putFix(new UnsafeBuffer(new byte[0]), 0, 0);
                assertTrue(sink.write(1, i, buffer, 0,
                    io.mdhub.common.codecs.order.MessageHeaderEncoder.ENCODED_LENGTH + record.encodedLength()));
            }
        }
        assertEquals(List.of("1,1,2,7,101,VOD.L,2,5,-12345,-2", "1,2,2,7,102,VOD.L,2,15,-12345,-2",
            "1,3,2,7,103,VOD.L,2,25,-12345,-2"), Files.readAllLines(file));
        assertTrue(OrderSinks.create("noop").write(0, 1, buffer, 0, 1));
    }

    @Test
    void queueSurvivesAReopenAndDiscardStartsAfresh() throws Exception
    {
        final Path queueDir = dir.resolve("queue");
        final UnsafeBuffer record = new UnsafeBuffer(new byte[64]);
        try (OrderQueue queue = new OrderQueue(queueDir))
        {
            for (int i = 0; i < 1000; i++)
            {
                record.putInt(0, i);
                queue.append(record, 0, 8 + i % 50);
            }
        }
        final List<Integer> seen = new ArrayList<>();
        try (OrderQueue queue = new OrderQueue(queueDir))
        {
            assertEquals(1000, queue.replay((buffer, length) ->
            {
                assertEquals(8 + buffer.getInt(0) % 50, length);
                seen.add(buffer.getInt(0));
            }));
            final Path aside = queue.discard();
            assertTrue(Files.isDirectory(aside));
            assertEquals(0, queue.replay((buffer, length) -> seen.add(-1)));
        }
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(i, seen.get(i));
        }
    }

    @Test
    void anOrderIsStoredInRegionIndexAndQueueTogetherOrNowhere()
    {
        final UnsafeBuffer record = new UnsafeBuffer(new byte[256]);
        try (OrderQueue queue = new OrderQueue(dir.resolve("store-queue"));
            OrderStore store = new OrderStore(new ChunkSupply(
                256 * 1024, "test", TestCounters.newCounter("inline-chunks")), 2, 100, 3, queue))
        {
            assertTrue(store.store(record, 0, encode(record, 1, 1, 3, 77, 501)));
            assertFalse(store.store(record, 0, encode(record, 1, 3, 3, 77, 503)), "not the next sequence: refused");
            assertEquals(1, store.region.lastSequence(1));
            assertEquals(1, store.index.sequence(77, 501));
            assertEquals(3, store.index.lastEpoch());
            assertEquals(OrderKeyIndex.MISSING, store.index.sequence(77, 503), "a refused order is in no index");
            assertEquals(1, queue.replay((buffer, length) -> assertEquals(501, orderIdOf(buffer))), "nor in the queue");

            assertTrue(store.restore(record, 0, encode(record, 1, 2, 3, 77, 502)), "replayed from the queue at start");
            assertEquals(2, store.index.sequence(77, 502));
            assertEquals(1, queue.replay((buffer, length) -> { }), "a restored order is not queued again");

            encode(record, 0, 1, 3, 77, 504);
            final int truncated = MessageHeaderEncoder.ENCODED_LENGTH + OrderRecordEncoder.BLOCK_LENGTH - 1;
            assertFalse(store.store(record, 0, truncated), "shorter than an OrderRecord's fixed fields: refused");
            assertEquals(0, store.region.lastSequence(0));

            assertTrue(store.store(record, 0, encode(record, 0, 1, 3, 77, 503)));
            assertTrue(store.index.isFull(), "sized for three orders");
            assertFalse(store.store(record, 0, encode(record, 0, 2, 3, 77, 504)), "a full index: refused");
            assertEquals(1, store.region.lastSequence(0), "and not in the region");
            assertEquals(2, queue.replay((buffer, length) -> { }), "nor in the queue");

            store.discard();
            assertEquals(0, store.region.lastSequence(1));
            assertEquals(OrderKeyIndex.MISSING, store.index.sequence(77, 501));
            assertEquals(0, queue.replay((buffer, length) -> { }));
        }
    }

    private static int encode(
        final UnsafeBuffer buffer,
        final int partition,
        final long sequence,
        final int epoch,
        final long clientId,
        final long orderId)
    {
        final OrderRecordEncoder encoder = new OrderRecordEncoder().wrapAndApplyHeader(
            buffer, 0, new MessageHeaderEncoder())
            .partition(partition).epoch(epoch).sequence(sequence).clientId(clientId).orderId(orderId).storedTimeMs(0)
            .side(Side.BUY).quantity(1).priceMantissa(1).priceExponent((byte)0).ordType((byte)'2')
            .timeInForce((byte)'0').symbol("VOD.L").clOrdId("C" + orderId).putFix(buffer, 0, 0);
        return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    private static long orderIdOf(final DirectBuffer buffer)
    {
        return new OrderRecordDecoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderDecoder()).orderId();
    }
}
