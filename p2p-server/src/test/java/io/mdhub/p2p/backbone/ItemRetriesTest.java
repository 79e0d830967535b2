package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.StatusMsgEncoder;
import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class ItemRetriesTest
{
    private static final long SECOND_NS = 1_000_000_000L;

    @Test
    void aRecoveringItemIsRetriedAfterDoublingWaitsUpToEightSeconds()
    {
        final ItemRetries retries = new ItemRetries(60 * SECOND_NS, false);
        final OpenItem item = ItemStatusesTest.item(1, DomainTypes.MARKET_PRICE);

        assertEquals(List.of(1L, 2L, 4L, 8L, 8L, 8L), waits(retries, item, true, 6));
        assertTrue(item.isAwaitingRetry);
    }

    @Test
    void theLastTryIsAtTheGraceEndThenTheRefusalIsPassedOn()
    {
        final ItemRetries retries = new ItemRetries(20 * SECOND_NS, false);
        final OpenItem item = ItemStatusesTest.item(1, DomainTypes.MARKET_PRICE);

        assertEquals(List.of(1L, 2L, 4L, 8L, 5L), waits(retries, item, true, 5)); // tries at 1, 3, 7, 15, 20 s
        assertEquals(ItemRetries.GIVE_UP, retries.retryLater(item, true, item.retryAtNs));
        assertEquals(ItemRetries.GIVE_UP, retries.retryLater(item, true, item.retryAtNs + SECOND_NS));
    }

    @Test
    void anItemRefusedForNowIsRetriedPastTheGrace()
    {
        final ItemRetries retries = new ItemRetries(SECOND_NS, false);
        final OpenItem item = ItemStatusesTest.item(1, DomainTypes.MARKET_PRICE);

        assertEquals(List.of(1L, 2L, 4L, 8L, 8L), waits(retries, item, false, 5));
    }

    @Test
    void anItemWaitingForItsProviderIsRetriedUpToEveryThirtySeconds()
    {
        final ItemRetries retries = new ItemRetries(SECOND_NS, true);
        final OpenItem item = ItemStatusesTest.item(1, DomainTypes.MARKET_PRICE);
        assertTrue(retries.isItemWait());

        assertEquals(ItemRetries.WAITING_TEXT, retries.waitForProvider(item));
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L), waits(retries, item, false, 7));
    }

    @Test
    void theFirstRefusalIsFirstOnlyUntilTheItemIsWholeAgain()
    {
        final ItemRetries retries = new ItemRetries(60 * SECOND_NS, false);
        final OpenItem item = ItemStatusesTest.item(1, DomainTypes.MARKET_PRICE);

        assertEquals(ItemRetries.FIRST, retries.retryLater(item, true, 100));
        assertEquals(100, item.refusedSinceNs);
        assertEquals(ItemRetries.AGAIN, retries.retryLater(item, true, 200));
        assertEquals(100, item.refusedSinceNs, "the grace counts from the first refusal");

        item.refusedSinceNs = OpenItem.NONE; // answered
        item.retryDelayNs = 0;
        assertEquals(ItemRetries.FIRST, retries.retryLater(item, true, 300));
        assertEquals(300 + SECOND_NS, item.retryAtNs);
    }

    @Test
    void waitingItemsAreFoundByNameUntilTheyStopWaiting()
    {
        final ItemRetries retries = new ItemRetries(SECOND_NS, true);
        final OpenItem item = ItemStatusesTest.item(1, DomainTypes.MARKET_PRICE);
        item.hadImage = true;
        assertFalse(retries.hasWaiting());

        assertEquals(ItemRetries.NOT_REPUBLISHED_TEXT, retries.waitForProvider(item));
        retries.waitForProvider(item);
        assertEquals(1, retries.waitingItems());
        assertTrue(retries.hasWaiting());
        assertSame(item, retries.waitingFor(7, DomainTypes.MARKET_PRICE, item.name, 0, item.name.capacity()));
        assertNull(retries.waitingFor(7, DomainTypes.MARKET_BY_ORDER, item.name, 0, item.name.capacity()));

        retries.stopWaiting(item);
        assertFalse(item.isWaitingForProvider);
        assertEquals(0, retries.waitingItems());
        assertNull(retries.waitingFor(7, DomainTypes.MARKET_PRICE, item.name, 0, item.name.capacity()));
    }

    @Test
    void aNotFoundRefusalIsToldFromOthersAndKeepsItsText()
    {
        final ItemRetries retries = new ItemRetries(SECOND_NS, true);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
        final EtaMsgWriter writer = new EtaMsgWriter();
        final StatusMsgEncoder encoder = new StatusMsgEncoder();

        assertEquals(CodecReturnCodes.SUCCESS, encoder.encode(writer.begin(buffer, 0, buffer.capacity()),
            DomainTypes.MARKET_PRICE, 0, StreamStates.CLOSED_RECOVER, DataStates.SUSPECT, StateCodes.NOT_FOUND,
            "not in the cache"));
        assertTrue(retries.isNotFound(buffer, 0, writer.encodedLength()));
        assertEquals("not in the cache", retries.refusalText());

        assertEquals(CodecReturnCodes.SUCCESS, encoder.encode(writer.begin(buffer, 0, buffer.capacity()),
            DomainTypes.MARKET_PRICE, 0, StreamStates.CLOSED_RECOVER, DataStates.SUSPECT, StateCodes.NONE, ""));
        assertFalse(retries.isNotFound(buffer, 0, writer.encodedLength()));
    }

    /**
     * Refuse the item at each of its tries in turn, from 0.
     *
     * @return the waits, in seconds.
     */
    private static List<Long> waits(
        final ItemRetries retries, final OpenItem item, final boolean isGraceBounded, final int count)
    {
        final List<Long> waits = new ArrayList<>();
        long nowNs = 0;
        for (int i = 0; i < count; i++)
        {
            final int next = retries.retryLater(item, isGraceBounded, nowNs);
            assertEquals(0 == i ? ItemRetries.FIRST : ItemRetries.AGAIN, next);
            waits.add((item.retryAtNs - nowNs) / SECOND_NS);
            nowNs = item.retryAtNs;
        }
        return waits;
    }
}
