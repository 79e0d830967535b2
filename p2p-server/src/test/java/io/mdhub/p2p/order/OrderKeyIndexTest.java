package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.test.InterruptAfter;

/**
 * The identity index against a plain map of the same orders, for the arrival patterns a pair sees: rising ids from
 * one client or many, ids routed over partitions and replayed partition by partition (a state transfer), replication
 * lag, falling and random ids, a client that starts its ids again.
 */
@InterruptAfter(120)
class OrderKeyIndexTest
{
    /** Small chunks, prepared without pauses, so that the patterns cross many of them. */
    private final ChunkSupply supply = new ChunkSupply(
        256 * 1024, "index-test", 64 * 1024, 0, TestCounters.newCounter("inline-chunks"));
    private final StoreMemory memory = new StoreMemory(supply);
    private final Map<Key, long[]> model = new HashMap<>();

    private record Key(long clientId, long orderId)
    {
    }

    @AfterEach
    void closeMemory()
    {
        memory.close();
        supply.close();
    }

    @Test
    void risingIdsOfOneClientFillEveryLeaf()
    {
        final OrderKeyIndex index = new OrderKeyIndex(memory, OrderKeyIndex.MAX_ORDERS);
        final List<Key> keys = new ArrayList<>();
        for (long id = 1; id <= 300_000; id++)
        {
            keys.add(new Key(42, id));
        }
        putAll(index, keys);
        assertAllFound(index);
        assertTrue(index.innerLevels() >= 2, "levels " + index.innerLevels());
        assertTrue(memory.chunks() > 10, "chunks " + memory.chunks());
        assertTrue(index.leaves() <= 300_000 / OrderKeyIndex.LEAF_CAPACITY + 1, "leaves " + index.leaves());
    }

    @Test
    void risingIdsOfManyInterleavedClientsFillTheirLeaves()
    {
        final OrderKeyIndex index = new OrderKeyIndex(memory, OrderKeyIndex.MAX_ORDERS);
        final List<Key> keys = new ArrayList<>();
        for (long id = 1; id <= 1_000; id++)
        {
            for (long client = 1; client <= 200; client++)
            {
                keys.add(new Key(client * 7919, id));
            }
        }
        putAll(index, keys);
        assertAllFound(index);
        // a client's 1,000 ids span 8 leaves plus the part-filled ones at its ends: 0.88 at best
        assertTrue(fill(index) > 0.75, "fill " + fill(index));
    }

    @Test
    void idsRoutedOverPartitionsAndReplayedPartitionByPartition()
    {
        final List<List<Key>> byPartition = new ArrayList<>();
        for (int p = 0; p < 8; p++)
        {
            byPartition.add(new ArrayList<>());
        }
        for (long id = 1; id <= 100_000; id++)
        {
            for (long client = 1; client <= 3; client++)
            {
                byPartition.get(OrderClient.partitionOf(id, 8)).add(new Key(client, id));
            }
        }
        {
            final OrderKeyIndex index = new OrderKeyIndex(memory, OrderKeyIndex.MAX_ORDERS);
            for (final List<Key> keys : byPartition)
            {
                putAll(index, keys);
            }
            assertAllFound(index);
            assertTrue(fill(index) >= 0.5, "fill " + fill(index));
        }
    }

    @Test
    void laggingFallingRandomAndRestartedIds()
    {
        final List<Key> keys = new ArrayList<>();
        final Random random = new Random(7);
        final List<Key> window = new ArrayList<>();
        for (long id = 1; id <= 50_000; id++)
        {
            window.add(new Key(1, id)); // replication lag: rising ids shuffled within 32
            if (32 == window.size())
            {
                Collections.shuffle(window, random);
                keys.addAll(window);
                window.clear();
            }
        }
        for (long id = 50_000; id > 0; id--)
        {
            keys.add(new Key(2, id));
        }
        final SplittableRandom ids = new SplittableRandom(11);
        for (int i = 0; i < 100_000; i++)
        {
            keys.add(new Key(ids.nextLong(), ids.nextLong()));
        }
        for (int day = 0; day < 3; day++)
        {
            for (long id = 1; id <= 20_000; id++)
            {
                keys.add(new Key(3 + day, id)); // a client that starts again at 1 under a new session id
            }
        }
        {
            final OrderKeyIndex index = new OrderKeyIndex(memory, OrderKeyIndex.MAX_ORDERS);
            putAll(index, keys);
            assertAllFound(index);
            assertTrue(fill(index) >= 0.5, "fill " + fill(index));
        }
    }

    @Test
    void aKnownOrderKeepsItsFirstEntryAndUnknownNeighboursAreMissing()
    {
        final OrderKeyIndex index = new OrderKeyIndex(memory, OrderKeyIndex.MAX_ORDERS);
        for (long id = 2; id <= 20_000; id += 2)
        {
            assertTrue(index.put(9, id, (int)(id % 5), 3, id));
        }
        assertEquals(OrderKeyIndex.MISSING, index.sequence(9, 3));
        assertFalse(index.put(9, 4, 1, 4, 999), "a known order keeps its first entry");
        assertEquals(4, index.sequence(9, 4));
        assertEquals(4, index.lastPartition());
        assertEquals(3, index.lastEpoch());
        for (long id = 1; id <= 20_001; id += 2)
        {
            assertEquals(OrderKeyIndex.MISSING, index.sequence(9, id), "never put: " + id);
        }
        assertEquals(OrderKeyIndex.MISSING, index.sequence(8, 2));
        assertEquals(OrderKeyIndex.MISSING, index.sequence(10, 2));
        assertEquals(OrderKeyIndex.MISSING, index.sequence(Long.MIN_VALUE, 2));
        assertEquals(OrderKeyIndex.MISSING, index.sequence(Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(10_000, index.size());
        assertThrows(IllegalArgumentException.class, () -> index.put(9, 1, 0, 1, 0));
    }

    @Test
    void clearForgetsEverythingOnceTheMemoryIsCleared()
    {
        final OrderKeyIndex index = new OrderKeyIndex(memory, OrderKeyIndex.MAX_ORDERS);
        for (long id = 1; id <= 100_000; id++)
        {
            index.put(5, id, 0, 1, id);
        }
        assertTrue(memory.chunks() > 1);
        memory.clear();
        index.clear();
        assertEquals(1, memory.chunks());
        assertEquals(0, index.size());
        assertEquals(0, index.innerLevels());
        assertEquals(OrderKeyIndex.MISSING, index.sequence(5, 1));
        assertEquals(OrderKeyIndex.MISSING, index.sequence(5, 100_000));
        for (long id = 1; id <= 100_000; id++)
        {
            assertTrue(index.put(5, id, 1, 2, id + 1));
        }
        assertEquals(77, index.sequence(5, 76));
        assertEquals(1, index.lastPartition());
    }

    @Test
    void aFullIndexRefusesMore()
    {
        final OrderKeyIndex index = new OrderKeyIndex(memory, 1_000);
        for (long id = 1; id <= 1_000; id++)
        {
            assertFalse(index.isFull());
            index.put(5, id, 0, 1, id);
        }
        assertTrue(index.isFull());
        assertFalse(index.put(5, 7, 0, 1, 7), "a known order is still answered");
        assertThrows(IllegalStateException.class, () -> index.put(5, 1_001, 0, 1, 1_001));
    }

    private void putAll(final OrderKeyIndex index, final List<Key> keys)
    {
        for (final Key key : keys)
        {
            final long sequence = model.size() + 1;
            final int partition = (int)(sequence % 1_000);
            final int epoch = (int)(sequence % 77) + 1;
            final boolean isNew = !model.containsKey(key);
            assertEquals(isNew ? OrderKeyIndex.MISSING : model.get(key)[0], index.sequence(key.clientId, key.orderId));
            assertEquals(isNew, index.put(key.clientId, key.orderId, partition, epoch, sequence), key.toString());
            if (isNew)
            {
                model.put(key, new long[] {sequence, partition, epoch});
            }
        }
        assertEquals(model.size(), index.size());
    }

    private void assertAllFound(final OrderKeyIndex index)
    {
        model.forEach((key, entry) ->
        {
            assertEquals(entry[0], index.sequence(key.clientId, key.orderId), key.toString());
            assertEquals(entry[1], index.lastPartition(), key.toString());
            assertEquals(entry[2], index.lastEpoch(), key.toString());
            if (!model.containsKey(new Key(key.clientId, key.orderId + 1)))
            {
                assertEquals(OrderKeyIndex.MISSING, index.sequence(key.clientId, key.orderId + 1));
            }
        });
    }

    private static double fill(final OrderKeyIndex index)
    {
        return index.size() / (double)(index.leaves() * OrderKeyIndex.LEAF_CAPACITY);
    }
}
