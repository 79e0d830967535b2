package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.test.InterruptAfter;

/**
 * The streamId table against a plain map: consecutive, lapped, negative and random ids, growth, removal and clear.
 */
@InterruptAfter(30)
class StreamItemTableTest
{
    /** Two services, so that a slot taken over by another item must take over its service too. */
    private static final DistributedService[] SERVICES =
    {
        new DistributedService(1, "ONE", null, null, null, null, new ImageUpdates(null)),
        new DistributedService(2, "TWO", null, null, null, null, new ImageUpdates(null))
    };

    private static CachedItem item(final int handle)
    {
        final byte[] name = ("RIC" + handle).getBytes();
        final int domainType = 0 == (handle & 1) ? DomainTypes.MARKET_PRICE : DomainTypes.MARKET_BY_ORDER;
        return new CachedItem(handle, SERVICES[(handle >> 1) & 1],
            ItemKey.copyOf(domainType, new UnsafeBuffer(name), 0, name.length));
    }

    @Test
    void consecutiveIdsSitInTheirSlotsAndTheTableGrowsToTwiceTheCount()
    {
        final StreamItemTable table = new StreamItemTable();
        final CachedItem[] items = new CachedItem[10_000];
        for (int i = 0; i < items.length; i++)
        {
            items[i] = item(i);
            assertNull(table.put(5 + i, items[i]));
        }

        assertEquals(items.length, table.size());
        assertEquals(0, table.overflowSize());
        assertTrue(table.capacity() >= 2 * items.length, "capacity " + table.capacity());
        for (int i = 0; i < items.length; i++)
        {
            assertSame(items[i], table.get(5 + i));
        }
        assertNull(table.get(4));
        assertNull(table.get(5 + items.length));
    }

    @Test
    void anIdWhoseSlotIsTakenGoesToTheOverflowAndIsFoundThere()
    {
        final StreamItemTable table = new StreamItemTable();
        final CachedItem longLived = item(1);
        final CachedItem lapping = item(2);
        final int capacity = table.capacity();
        table.put(3, longLived);
        table.put(3 + capacity, lapping);

        assertEquals(1, table.overflowSize());
        assertSame(longLived, table.get(3));
        assertSame(lapping, table.get(3 + capacity));

        final CachedItem replacement = item(3);
        assertSame(lapping, table.put(3 + capacity, replacement), "rebinding an overflowed id replaces it");
        assertEquals(2, table.size());
        assertSame(longLived, table.remove(3));
        assertNull(table.get(3));
        assertSame(replacement, table.get(3 + capacity), "still found after its slot frees");
        assertSame(replacement, table.remove(3 + capacity));
        assertEquals(0, table.size());
    }

    @Test
    void negativeIdsAsNonInteractiveProvidersUseThem()
    {
        final StreamItemTable table = new StreamItemTable();
        for (int i = 1; i <= 1000; i++)
        {
            table.put(-i, item(i));
        }
        assertEquals(1000, table.size());
        assertEquals(0, table.overflowSize());
        assertEquals(1, table.get(-1).handle());
        assertEquals(1000, table.get(-1000).handle());
        assertNull(table.get(1));
    }

    @Test
    void behavesAsAMapUnderRandomBindsRebindsAndUnbinds()
    {
        final Random random = new Random(42);
        final StreamItemTable table = new StreamItemTable();
        final Map<Integer, CachedItem> expected = new HashMap<>();
        int nextId = 1;
        for (int step = 0; step < 200_000; step++)
        {
            final int choice = random.nextInt(10);
            final int streamId;
            if (choice < 4)
            {
                streamId = nextId++;
            }
            else if (choice < 5)
            {
                streamId = random.nextInt();
            }
            else
            {
                streamId = Math.max(1, nextId - 1 - random.nextInt(Math.max(1, Math.min(nextId - 1, 5_000))));
            }
            if (choice < 7)
            {
                final CachedItem item = item(step);
                assertSame(expected.put(streamId, item), table.put(streamId, item), "put " + streamId);
            }
            else
            {
                assertSame(expected.remove(streamId), table.remove(streamId), "remove " + streamId);
            }
            assertEquals(expected.size(), table.size());
        }
        for (final Map.Entry<Integer, CachedItem> entry : expected.entrySet())
        {
            final CachedItem item = entry.getValue();
            assertSame(item, table.get(entry.getKey()));
            final StreamItemTable.Found found = table.find(entry.getKey());
            assertSame(item, found.item());
            assertEquals(item.handle(), found.handle(), "handle beside the slot");
            assertEquals(item.domainType(), found.domainType(), "domain type beside the slot");
            assertSame(item.service(), found.service(), "service beside the slot");
        }
        assertNull(table.find(0), "0 was never bound");
        final Map<CachedItem, Boolean> visited = new IdentityHashMap<>();
        table.forEach((item) -> assertNull(visited.put(item, Boolean.TRUE), "visited twice"));
        assertEquals(expected.size(), visited.size());
        assertTrue(table.overflowSize() > 0, "random ids made some collide");
    }

    @Test
    void clearForgetsEverythingAndShrinks()
    {
        final StreamItemTable table = new StreamItemTable();
        for (int i = 0; i < 1000; i++)
        {
            table.put(i, item(i));
        }
        table.put(StreamItemTable.INITIAL_CAPACITY * 64, item(1000));
        table.clear();

        assertEquals(0, table.size());
        assertEquals(StreamItemTable.INITIAL_CAPACITY, table.capacity());
        assertNull(table.get(7));
        final int[] count = {0};
        table.forEach((item) -> count[0]++);
        assertEquals(0, count[0]);
    }
}
