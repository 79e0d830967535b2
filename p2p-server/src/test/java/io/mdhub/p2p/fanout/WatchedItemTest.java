package io.mdhub.p2p.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The watcher list of an item, which removes by moving the last watcher into the hole: every removal, by watch or by
 * index, leaves exactly the other watchers, each knowing its place, and a backwards walk that removes as it goes
 * still visits every watcher once (the walks of the worker's refresh and status fan-out).
 */
@InterruptAfter(20)
class WatchedItemTest
{
    private static final byte[] NAME = "TRI.N".getBytes(StandardCharsets.US_ASCII);

    private final WatchedItem item = new WatchedItem(
        0, new ItemKey().set(6, 1, new UnsafeBuffer(NAME), 0, NAME.length).copy(), true, null);

    private ItemWatch watch(final int streamId)
    {
        return new ItemWatch(null, streamId, item, 1, true);
    }

    @Test
    void removalsInAnyOrderLeaveExactlyTheOtherWatchersEachAtItsIndex()
    {
        final Random random = new Random(42);
        final List<ItemWatch> expected = new ArrayList<>();
        for (int round = 0; round < 20_000; round++)
        {
            final int choice = random.nextInt(3);
            if (0 == choice || expected.isEmpty())
            {
                final ItemWatch added = watch(round);
                item.addWatcher(added);
                expected.add(added);
            }
            else if (1 == choice)
            {
                final ItemWatch removed = expected.remove(random.nextInt(expected.size()));
                assertTrue(item.removeWatcher(removed));
                assertFalse(item.removeWatcher(removed), "a watch is removed once");
            }
            else
            {
                final int index = random.nextInt(item.watcherCount());
                final ItemWatch removed = item.watcher(index);
                item.removeWatcherAt(index);
                assertTrue(expected.remove(removed));
                assertEquals(ItemWatch.NOT_WATCHING, removed.index);
            }
            assertEquals(expected.size(), item.watcherCount());
        }
        final Set<ItemWatch> listed = new HashSet<>();
        for (int i = 0; i < item.watcherCount(); i++)
        {
            final ItemWatch watch = item.watcher(i);
            assertEquals(i, watch.index, "each watcher knows its place");
            listed.add(watch);
        }
        assertEquals(new HashSet<>(expected), listed);
    }

    @Test
    void aWalkBackwardsThatRemovesVisitsEveryWatcherOnce()
    {
        for (int i = 0; i < 10; i++)
        {
            item.addWatcher(watch(i));
        }
        final Set<Integer> visited = new HashSet<>();
        for (int i = item.watcherCount() - 1; i >= 0; i--)
        {
            final ItemWatch watch = item.watcher(i);
            assertTrue(visited.add(watch.streamId), "visited once");
            if (0 == watch.streamId % 2)
            {
                item.removeWatcherAt(i);
            }
        }
        assertEquals(10, visited.size());
        assertEquals(5, item.watcherCount());
        for (int i = 0; i < item.watcherCount(); i++)
        {
            assertEquals(1, item.watcher(i).streamId % 2);
        }
    }

    @Test
    void oneHundredThousandStreamsOfOneItemCloseOneByOneOldestFirst()
    {
        final ItemWatch[] watches = new ItemWatch[100_000];
        for (int i = 0; i < watches.length; i++)
        {
            watches[i] = watch(i);
            item.addWatcher(watches[i]);
        }
        for (final ItemWatch watch : watches) // the order a session close finds them in
        {
            assertTrue(item.removeWatcher(watch));
        }
        assertEquals(0, item.watcherCount());
        assertEquals(ItemWatch.NOT_WATCHING, watches[watches.length - 1].index);
    }
}
