package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The order store's pieces: the identity index (idempotency), the Orders region (contiguous per partition, off
 * heap) and the Chronicle write-behind queue (survives a reopen, can be discarded for a state transfer).
 */
@InterruptAfter(60)
class OrderStoreTest
{
    @TempDir
    Path dir;

    @Test
    void indexFindsEveryOrderAcrossGrowthAndKeepsTheFirstEntry()
    {
        try (OrderKeyIndex index = new OrderKeyIndex(16))
        {
            for (int i = 1; i <= 100_000; i++)
            {
                assertTrue(index.put(i % 7, i, i % 4, 1, i));
            }
            assertEquals(100_000, index.size());
            assertFalse(index.put(3, 3, 0, 2, 999), "a known order keeps its first sequence");
            for (int i = 1; i <= 100_000; i++)
            {
                assertEquals(i, index.sequence(i % 7, i));
                assertEquals(i % 4, index.lastPartition());
            }
            assertEquals(OrderKeyIndex.MISSING, index.sequence(99, 1));
            index.clear();
            assertEquals(OrderKeyIndex.MISSING, index.sequence(1, 1));
        }
    }

    @Test
    void indexSizedForExpectedOrdersHoldsThemWithoutGrowing()
    {
        try (OrderKeyIndex index = OrderKeyIndex.forOrders(10_000))
        {
            final int capacity = index.capacity();
            assertTrue(capacity * 0.6 >= 10_000, "capacity " + capacity);
            for (int i = 1; i <= 10_000; i++)
            {
                assertTrue(index.put(7, i, 0, 1, i));
            }
            assertEquals(capacity, index.capacity(), "no growth on the order path up to the expected orders");
            assertTrue(index.put(7, 10_001 + capacity, 0, 1, 10_001 + capacity)); // past the threshold it grows
            for (int i = 10_001; i <= capacity; i++)
            {
                index.put(8, i, 0, 1, i);
            }
            assertTrue(index.capacity() > capacity);
            assertEquals(5_000, index.sequence(7, 5_000));
        }
    }

    @Test
    void indexGrowsIntoAPreparedTableAndDrainsTheOldOneAFewSlotsAPut()
    {
        try (OrderKeyIndex index = OrderKeyIndex.forOrders(30_000))
        {
            final int capacity = index.capacity();
            final int threshold = (int)(capacity * 0.6);
            int orderId = 0;
            while (orderId < threshold - threshold / 4)
            {
                assertTrue(index.put(3, ++orderId, orderId % 4, 1, orderId));
            }
            MdTests.await("the doubled table is prepared off the order path", index::isNextTableReady);
            while (index.capacity() == capacity)
            {
                assertTrue(index.put(3, ++orderId, orderId % 4, 1, orderId));
            }
            assertEquals(2 * capacity, index.capacity());
            assertEquals(0, index.inlineGrowths(), "the prepared table was taken");
            assertTrue(index.isDraining(), "the old table is drained a few slots a put, not at once");
            for (int id = 1; id <= orderId; id++)
            {
                assertEquals(id, index.sequence(3, id), "found while the old table drains: " + id);
                assertEquals(id % 4, index.lastPartition());
            }
            assertFalse(index.put(3, 1, 0, 2, 999_999), "an order put before the growth is known");
            final int puts = capacity / OrderKeyIndex.MIGRATE_SLOTS_PER_PUT;
            for (int i = 0; i < puts; i++)
            {
                assertTrue(index.put(4, ++orderId, orderId % 4, 1, orderId));
            }
            assertFalse(index.isDraining(), "drained within capacity / " + OrderKeyIndex.MIGRATE_SLOTS_PER_PUT);
            assertEquals(orderId, index.size());
            for (int id = 1; id <= orderId; id++)
            {
                assertEquals(id, index.sequence(id <= orderId - puts ? 3 : 4, id));
                assertEquals(id % 4, index.lastPartition());
            }
        }
    }

    @Test
    void regionAcceptsOnlyTheNextSequenceAndReturnsEveryRecord()
    {
        try (OrdersRegion region = new OrdersRegion(2, 1000, "test"))
        {
            final UnsafeBuffer record = new UnsafeBuffer(new byte[400]);
            for (int i = 1; i <= 50_000; i++)
            {
                record.putLong(0, i);
                assertTrue(region.put(i % 2, region.lastSequence(i % 2) + 1, record, 0, 300 + (i % 100)));
            }
            assertFalse(region.put(0, region.lastSequence(0) + 2, record, 0, 10), "a gap is refused");
            assertFalse(region.put(0, region.lastSequence(0), record, 0, 10), "a duplicate is refused");
            assertTrue(region.bytesStored() > OrdersRegion.CHUNK_SIZE, "records span chunks");
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
        final UnsafeBuffer record = new UnsafeBuffer(new byte[64]);
        try (OrderQueue queue = new OrderQueue(dir.resolve("store-queue"));
            OrderStore store = new OrderStore(new OrdersRegion(2, 100, "test"), OrderKeyIndex.forOrders(100), queue))
        {
            record.putLong(0, 501);
            assertTrue(store.store(1, 1, 3, 77, 501, record, 0, 40));
            assertFalse(store.store(1, 3, 3, 77, 503, record, 0, 40), "not the next sequence: refused");
            assertEquals(1, store.region.lastSequence(1));
            assertEquals(1, store.index.sequence(77, 501));
            assertEquals(OrderKeyIndex.MISSING, store.index.sequence(77, 503), "a refused order is in no index");
            assertEquals(1, queue.replay((buffer, length) -> assertEquals(501, buffer.getLong(0))),
                "nor in the queue");

            assertTrue(store.restore(1, 2, 3, 77, 502, record, 0, 40), "replayed from the queue at start");
            assertEquals(2, store.index.sequence(77, 502));
            assertEquals(1, queue.replay((buffer, length) -> { }), "a restored order is not queued again");

            store.discard();
            assertEquals(0, store.region.lastSequence(1));
            assertEquals(OrderKeyIndex.MISSING, store.index.sequence(77, 501));
            assertEquals(0, queue.replay((buffer, length) -> { }));
        }
    }
}
