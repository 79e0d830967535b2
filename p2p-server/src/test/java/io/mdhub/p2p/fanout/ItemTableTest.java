package io.mdhub.p2p.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;

import com.refinitiv.eta.rdm.DomainTypes;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.source.ServiceInfo;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The worker's item table on its own: ids, the key index, the server's item limit and the counts an item holds.
 */
@InterruptAfter(10)
class ItemTableTest
{
    private static final int MAX_ITEMS = 3;
    private static final int FEED = 1;

    private final RecordingItemSource source = new RecordingItemSource();
    private final P2pCounters counters = FanOutHarness.newCounters();
    private final DirectoryView directory = new DirectoryView("test");
    private final ItemTable table = new ItemTable(source, counters, new WorkerCounts(counters, directory), MAX_ITEMS);

    ItemTableTest()
    {
        directory.reset(List.of(new ServiceInfo(FEED, "DIRECT_FEED", true, true, DomainTypes.MARKET_PRICE)));
    }

    private WatchedItem open(final String name)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(RecordingItemSource.ascii(name));
        return table.newItem(DomainTypes.MARKET_PRICE, FEED, bytes, 0, bytes.capacity(), true, null);
    }

    private WatchedItem find(final String name)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(RecordingItemSource.ascii(name));
        return table.find(DomainTypes.MARKET_PRICE, FEED, bytes, 0, bytes.capacity());
    }

    private WatchedItem openPrivate(final String name)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(RecordingItemSource.ascii(name));
        return table.newPrivateItem(DomainTypes.MARKET_PRICE, FEED, bytes, 0, bytes.capacity());
    }

    @Test
    void freedIdsAreReusedLastFreedFirst()
    {
        final WatchedItem a = open("A");
        final WatchedItem b = open("B");
        final WatchedItem c = open("C");
        assertEquals(List.of(0, 1, 2), List.of(a.itemId, b.itemId, c.itemId));
        table.freeItem(a);
        table.freeItem(c);
        assertEquals(2, open("D").itemId, "the id freed last comes back first");
        assertEquals(0, open("E").itemId);
        assertSame(b, table.item(1));
        assertNull(table.item(-1));
        assertNull(table.item(1_000));
    }

    @Test
    void freeingClosesTheItemOnTheSourceOnceAndUncountsIt()
    {
        final WatchedItem item = open("TRI.N");
        assertEquals(1, counters.itemsOpen().get());
        assertEquals(1, item.tally.counters.itemsOpen().get());
        assertSame(item, find("TRI.N"));
        source.takeCalls();

        table.freeItem(item);
        table.freeItem(item);

        assertEquals(List.of("close 0"), source.takeCalls());
        assertEquals(0, counters.itemsOpen().get());
        assertEquals(0, item.tally.counters.itemsOpen().get());
        assertNull(find("TRI.N"));
        assertNull(table.item(item.itemId));
        assertEquals(0, table.size());
    }

    @Test
    void aPrivateItemIsNeverFoundByItsKey()
    {
        final WatchedItem privateItem = openPrivate("TRI.N");
        assertNotNull(privateItem);
        assertNull(find("TRI.N"));
        assertEquals(0, table.size(), "private items are not in the key index");
        assertSame(privateItem, table.item(privateItem.itemId));

        final WatchedItem shared = open("TRI.N");
        assertNotSame(privateItem, shared);
        assertSame(shared, find("TRI.N"));
        table.freeItem(privateItem);
        assertSame(shared, find("TRI.N"), "freeing the private item leaves the shared one listed");
        assertEquals(1, counters.itemsOpen().get());
    }

    @Test
    void theServerItemLimitIsRefusedWithoutLeakingTheCount()
    {
        final WatchedItem a = open("A");
        open("B");
        open("C");
        assertEquals(MAX_ITEMS, counters.itemsOpen().get());

        assertNull(open("D"));
        assertNull(openPrivate("E"));
        assertEquals(MAX_ITEMS, counters.itemsOpen().get(), "a refused item is not counted");
        assertEquals(MAX_ITEMS, a.tally.counters.itemsOpen().get());
        assertNull(find("D"));

        table.freeItem(a);
        assertEquals(0, open("D").itemId, "room again once an item went");
        assertEquals(MAX_ITEMS, counters.itemsOpen().get());
    }

    @Test
    void detachingTheLastWatcherFreesTheItem()
    {
        final WatchedItem item = open("TRI.N");
        final ItemWatch first = new ItemWatch(null, 5, item, 1, true);
        final ItemWatch second = new ItemWatch(null, 6, item, 1, true);
        item.addWatcher(first);
        item.addWatcher(second);
        counters.watchlistEntries().getAndAdd(2);
        source.takeCalls();

        table.detach(first);
        table.detach(first);
        assertEquals(List.of(), source.takeCalls());
        assertEquals(1, counters.watchlistEntries().get());

        table.detach(second);
        assertEquals(List.of("close 0"), source.takeCalls());
        assertEquals(0, counters.watchlistEntries().get());
        assertEquals(0, counters.itemsOpen().get());
    }
}
