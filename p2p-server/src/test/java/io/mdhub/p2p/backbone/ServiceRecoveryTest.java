package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.rdm.DomainTypes;

import io.aeron.Publication;
import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class ServiceRecoveryTest
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final int SERVICE = 7;

    private final RecordingControlSender control = new RecordingControlSender();
    private final SourceCounters counters = new SourceCounters();
    private final RecordingItems items = new RecordingItems();
    private final List<DistributorState> distributors = new ArrayList<>();
    private final DistributorState distributor = new DistributorState(11);
    private final CarriedService service = new CarriedService(distributor, SERVICE);
    private int wakes;
    private final ServiceRecovery recovery = new ServiceRecovery(items, control, counters, distributors, this::wake);

    ServiceRecoveryTest()
    {
        distributor.services.put(SERVICE, service);
        distributors.add(distributor);
        service.itemCount = 10;
    }

    @Test
    void aDuplicateIsDroppedUncountedAndAGapIsCountedAndRecovered()
    {
        items.ids(1, 2, 3);
        assertTrue(recovery.inSequence(distributor, SERVICE, 1, 0));
        assertFalse(recovery.inSequence(distributor, SERVICE, 1, 0), "a duplicate");
        assertEquals(1, counters.messagesIn());
        assertEquals(0, counters.gaps());
        assertTrue(items.calls.isEmpty());

        assertTrue(recovery.inSequence(distributor, SERVICE, 3, 0));
        assertEquals(2, counters.messagesIn());
        assertEquals(1, counters.gaps());
        assertEquals(List.of("collect 11 7", "recover [1, 2, 3] items gap on the backbone: recovering"), items.calls);
    }

    @Test
    void aWorkerHoldingHalfTheServiceAsksForAPassElseItemByItem()
    {
        items.ids(1, 2, 3, 4);
        recovery.recover(distributor, SERVICE, "text", 0);
        assertEquals("recover [1, 2, 3, 4] items text", items.calls.get(1), "4 of 10: item by item");
        assertTrue(control.sent.isEmpty());

        items.ids(1, 2, 3, 4, 5);
        distributor.sequences.onMessage(SERVICE, 41);
        recovery.recover(distributor, SERVICE, "text", 5 * SECOND_NS);
        assertEquals("recover [1, 2, 3, 4, 5] pass text", items.calls.get(3), "5 of 10: one pass");
        assertEquals(List.of("recovery 7 -1 0 41"), control.sent);
        assertEquals(CarriedService.PASS_SENT, service.passState);
        assertEquals(5 * SECOND_NS, service.lastPassImageNs);

        recovery.recover(distributor, SERVICE, null, 6 * SECOND_NS);
        assertEquals("recover [1, 2, 3, 4, 5] items null", items.calls.get(5), "no second pass while one runs");
        assertEquals(1, control.sent.size());
    }

    @Test
    void aBackPressuredPassWaitsForHousekeepingAndWakesTheLoop()
    {
        items.ids(1, 2, 3, 4, 5);
        control.result = Publication.BACK_PRESSURED;
        recovery.recover(distributor, SERVICE, "text", 0);
        assertEquals(CarriedService.PASS_PENDING, service.passState);
        assertTrue(recovery.hasPendingPasses());
        assertEquals(1, wakes);

        assertEquals(0, recovery.sendPendingPasses(SECOND_NS));
        assertTrue(recovery.hasPendingPasses());

        control.result = 1;
        assertEquals(1, recovery.sendPendingPasses(2 * SECOND_NS));
        assertFalse(recovery.hasPendingPasses());
        assertEquals(CarriedService.PASS_SENT, service.passState);
        assertEquals(2 * SECOND_NS, service.lastPassImageNs);
    }

    @Test
    void aPassIdleForTwoSecondsEndsAndOneThatBroughtNothingIsIgnoredFromThenOn()
    {
        items.ids(1, 2, 3, 4, 5);
        recovery.recover(distributor, SERVICE, "text", 0);

        recovery.endIdlePasses(ServiceRecovery.PASS_IDLE_TIMEOUT_NS);
        assertEquals(CarriedService.PASS_SENT, service.passState, "not idle long enough");
        recovery.endIdlePasses(ServiceRecovery.PASS_IDLE_TIMEOUT_NS + 1);
        assertEquals(CarriedService.PASS_NONE, service.passState);
        assertTrue(service.isPassIgnored, "it brought no image");

        recovery.recover(distributor, SERVICE, "text", 3 * SECOND_NS);
        assertEquals("recover [1, 2, 3, 4, 5] items text", items.calls.get(3), "item by item from now on");

        recovery.onRecoveryImage(distributor, SERVICE, 4 * SECOND_NS);
        assertFalse(service.isPassIgnored, "a recovery image shows it serves passes");
    }

    @Test
    void aPassThatBringsImagesEndsTwoSecondsAfterTheLast()
    {
        items.ids(1, 2, 3, 4, 5);
        recovery.recover(distributor, SERVICE, "text", 0);
        recovery.onRecoveryImage(distributor, SERVICE, SECOND_NS);
        assertEquals(1, service.passImages);

        recovery.endIdlePasses(SECOND_NS + ServiceRecovery.PASS_IDLE_TIMEOUT_NS);
        assertEquals(CarriedService.PASS_SENT, service.passState);
        recovery.endIdlePasses(SECOND_NS + ServiceRecovery.PASS_IDLE_TIMEOUT_NS + 1);
        assertEquals(CarriedService.PASS_NONE, service.passState);
        assertFalse(service.isPassIgnored);
    }

    @Test
    void aTailLossAnnouncedIsCountedAndRecovered()
    {
        items.ids(1);
        recovery.inSequence(distributor, SERVICE, 1, 0);
        recovery.onServiceSequence(distributor, SERVICE, 1, 0);
        assertTrue(items.calls.isEmpty(), "nothing missing");

        recovery.onServiceSequence(distributor, SERVICE, 3, 0);
        assertEquals(1, counters.gaps());
        assertEquals(3, distributor.sequences.lastSequence(SERVICE));
        assertEquals("recover [1] items tail loss on the backbone: recovering", items.calls.get(1));
    }

    @Test
    void aDeadDistributorsPassesEndAndALostBackboneDropsPendingOnes()
    {
        items.ids(1, 2, 3, 4, 5);
        control.result = Publication.BACK_PRESSURED;
        recovery.recover(distributor, SERVICE, "text", 0);

        recovery.onDistributorDied(distributor);
        assertEquals(CarriedService.PASS_NONE, service.passState);
        recovery.reset();
        assertFalse(recovery.hasPendingPasses());
    }

    @Test
    void itemsWhoseImageIsAlreadyOnItsWayAreNotAskedForAgain()
    {
        final RecordingItemSourceListener listener = new RecordingItemSourceListener();
        final ItemRequests requests = new ItemRequests(1L << 32, listener, control, new Carriers()
        {
            @Override
            public boolean hasCarrier(final int serviceId)
            {
                return true;
            }

            @Override
            public int carriers(final int serviceId)
            {
                return 1;
            }
        }, new ItemStatuses(listener), new ItemRetries(SECOND_NS, true), new UpstreamCloses(control, this::wake, 0,
            16, 256), counters, new CachedNanoClock(), this::wake);
        final ServiceRecovery real = new ServiceRecovery(requests, control, counters, distributors, this::wake);
        open(requests, 1, 100);
        open(requests, 2, 101);
        requests.item(2).isRecovering = true; // its request is out, later in the stream than the loss
        control.sent.clear();

        real.recover(distributor, SERVICE, "gap on the backbone: recovering", 0);

        assertTrue(requests.item(1).isRecovering);
        assertTrue(requests.item(1).isQueued, "asked for again");
        assertFalse(requests.item(2).isQueued, "not asked for twice");
        assertEquals(List.of("status 1 6 1 2 0 gap on the backbone: recovering"), listener.log);
        assertNull(requests.item(1).awaitingPass);
        assertSame(distributor, requests.item(2).distributor);
    }

    private void open(final ItemRequests requests, final int itemId, final int handle)
    {
        final UnsafeBuffer name = new UnsafeBuffer(("ITEM" + itemId).getBytes(StandardCharsets.US_ASCII));
        requests.open(itemId, DomainTypes.MARKET_PRICE, SERVICE, name, 0, name.capacity(), true, null);
        requests.item(itemId).bind(distributor, handle);
    }

    private void wake()
    {
        wakes++;
    }

    /**
     * Hands out scripted item ids and records what it is asked to do with them.
     */
    private static final class RecordingItems implements RecoverableItems
    {
        final List<String> calls = new ArrayList<>();
        private int[] ids = new int[0];

        void ids(final int... ids)
        {
            this.ids = ids;
        }

        @Override
        public void collectRecoverable(final DistributorState distributor, final int serviceId, final IntArrayList out)
        {
            calls.add("collect " + distributor.sessionId + " " + serviceId);
            for (final int id : ids)
            {
                out.addInt(id);
            }
        }

        @Override
        public void recoverItems(final IntArrayList itemIds, final CarriedService passOrNull, final String text)
        {
            calls.add("recover " + itemIds + " " + (null == passOrNull ? "items" : "pass") + " " + text);
        }
    }
}
