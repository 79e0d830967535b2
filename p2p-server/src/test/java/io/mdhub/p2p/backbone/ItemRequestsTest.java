package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.aeron.Publication;
import io.mdhub.backbone.protocol.RefreshFlags;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.StatusMsgEncoder;
import io.mdhub.common.test.InterruptAfter;

/**
 * The item requests and the answers to them ({@link ItemRequests} with {@link ItemAnswers}), without a backbone.
 */
@InterruptAfter(10)
class ItemRequestsTest
{
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long BASE = (5L << 40) | (1L << 32);
    private static final int SERVICE = 7;
    private static final int MP = DomainTypes.MARKET_PRICE;

    private final RecordingItemSourceListener listener = new RecordingItemSourceListener();
    private final RecordingControlSender control = new RecordingControlSender();
    private final TestCarriers carriers = new TestCarriers();
    private final ItemStatuses statuses = new ItemStatuses(listener);
    private final ItemRetries retries = new ItemRetries(10 * SECOND_NS, true);
    private final CachedNanoClock clock = new CachedNanoClock();
    private final SourceCounters counters = new SourceCounters();
    private final UpstreamCloses closes = new UpstreamCloses(control, this::wake, 0, 16, 256);
    private final ItemRequests requests = new ItemRequests(
        BASE, listener, control, carriers, statuses, retries, closes, counters, clock, this::wake);
    private final ItemAnswers answers = new ItemAnswers(
        requests, listener, carriers, statuses, retries, closes, clock, BASE);
    private final UnsafeBuffer image = new UnsafeBuffer(new byte[16]);
    private final ExpandableArrayBuffer statusBuffer = new ExpandableArrayBuffer(256);
    private int wakes;

    @Test
    void everyRequestIdCarriesThisSourcesRequesterBits()
    {
        carriers.set(SERVICE, 1);
        open(1, "IBM.N", true);
        open(2, "TRI.N", true);

        final List<String> sent = control.starting("request");
        assertEquals(2, sent.size());
        final long first = requestId(sent.get(0));
        final long second = requestId(sent.get(1));
        assertEquals(BASE, first & ItemRequests.REQUESTER_MASK);
        assertEquals(BASE, second & ItemRequests.REQUESTER_MASK);
        assertNotEquals(first, second);
        assertEquals(first, requests.item(1).requestId);
    }

    @Test
    void backPressureQueuesRequestsAndHousekeepingSendsAtMost256ACycle()
    {
        carriers.set(SERVICE, 1);
        control.result = Publication.BACK_PRESSURED;
        for (int i = 0; i < 300; i++)
        {
            open(i, "ITEM" + i, true);
        }
        assertTrue(control.sent.isEmpty());
        assertFalse(requests.isQueueEmpty());
        assertTrue(wakes > 0, "a sleeping worker is woken for them");

        control.result = 1;
        assertEquals(256, requests.sendQueued());
        assertEquals(44, requests.sendQueued());
        assertTrue(requests.isQueueEmpty());
        assertEquals(300, control.sent.size());
    }

    @Test
    void aRequestWithoutACarrierIsHeldUntilOneCarriesTheService()
    {
        open(1, "IBM.N", true);
        assertEquals(0, requests.sendQueued());
        assertTrue(requests.item(1).isHeld);
        assertTrue(control.sent.isEmpty());

        carriers.set(SERVICE, 1);
        requests.releaseHeld(SERVICE);
        assertEquals(1, requests.sendQueued());
        assertEquals(1, control.starting("request").size());
        assertFalse(requests.item(1).isHeld);
    }

    @Test
    void anUnansweredRequestIsSentAgainAfterASecondAndAnsweredOnesLeaveTheCheck()
    {
        carriers.set(SERVICE, 1);
        final DistributorState distributor = distributor(11);
        open(1, "IBM.N", true);
        open(2, "TRI.N", true);
        assertEquals(2, requests.outstandingItems());
        final long unanswered = requests.item(2).requestId;

        answer(distributor, 1, 100, RefreshFlags.COMPLETE);
        assertEquals(0, requests.resendUnanswered(SECOND_NS / 2), "not due yet");
        assertEquals(1, requests.outstandingItems(), "the answered one left the check");

        assertEquals(1, requests.resendUnanswered(SECOND_NS + 1));
        assertEquals(1, requests.sendQueued());
        final List<String> sent = control.starting("request");
        assertEquals(3, sent.size());
        assertTrue(sent.get(2).endsWith(" TRI.N"));
        assertNotEquals(unanswered, requestId(sent.get(2)), "a new id supersedes the old");
        assertEquals(1, counters.recoveries());
    }

    @Test
    void aMultiPartAnswerKeepsTheRequestOutAndItsPartsGoWhereTheFirstWent()
    {
        carriers.set(SERVICE, 1);
        final DistributorState distributor = distributor(11);
        open(1, "IBM.N", true);
        final long requestId = requests.item(1).requestId;

        answer(distributor, 1, 100, 0);
        assertEquals(1, requests.itemIdOf(requestId), "still outstanding");
        requests.item(1).isRecovering = true; // a gap between the parts
        answer(distributor, 1, 100, RefreshFlags.COMPLETE);

        assertEquals(List.of("refresh 1 solicited", "refresh 1 solicited"), listener.log);
        assertEquals(HandleIndex.MISSING, requests.itemIdOf(requestId));
        assertEquals(0, requests.item(1).requestId);
        assertEquals(1, distributor.itemByHandle.get(SERVICE, 100), "bound by the handle of the answer");
    }

    @Test
    void aSnapshotIsForgottenAfterItsCompleteRefresh()
    {
        carriers.set(SERVICE, 1);
        final DistributorState distributor = distributor(11);
        open(1, "IBM.N", false);

        answer(distributor, 1, 100, RefreshFlags.COMPLETE);

        assertNull(requests.item(1));
        assertEquals(HandleIndex.MISSING, distributor.itemByHandle.get(SERVICE, 100));
        assertEquals(List.of("refresh 1 solicited"), listener.log);
    }

    @Test
    void aRefusalIsFinalOnlyOnceEveryCarrierRefusedAndANonCarriersIsIgnored()
    {
        carriers.set(SERVICE, 2);
        final DistributorState first = distributor(11);
        final DistributorState second = distributor(12);
        final DistributorState other = new DistributorState(13); // carries no SERVICE
        open(1, "IBM.N", true);
        final long requestId = requests.item(1).requestId;
        final int length = status(StreamStates.CLOSED, StateCodes.NOT_ENTITLED, "denied");

        refuse(other, requestId, StreamStates.CLOSED, length);
        refuse(first, requestId, StreamStates.CLOSED, length);
        assertTrue(listener.log.isEmpty(), "another carrier may still have it: " + listener.log);
        assertEquals(1, requests.item(1).refusals);

        refuse(second, requestId, StreamStates.CLOSED, length);
        assertEquals(1, listener.starting("status 1 ").size());
        assertNull(requests.item(1), "a Closed refusal ends the item");
    }

    @Test
    void anItemNotPublishedYetWaitsForItsProviderAndIsAskedForWhenPublished()
    {
        carriers.set(SERVICE, 1);
        final DistributorState distributor = distributor(11);
        open(1, "IBM.N", true);
        final int length = status(StreamStates.CLOSED_RECOVER, StateCodes.NOT_FOUND, "not in cache");
        refuse(distributor, requests.item(1).requestId, StreamStates.CLOSED_RECOVER, length);

        assertEquals(List.of("status 1 6 1 2 0 " + ItemRetries.WAITING_TEXT), listener.log, "Open/Suspect");
        assertEquals(1, retries.waitingItems());
        assertTrue(requests.item(1).isAwaitingRetry);

        final UnsafeBuffer name = name("IBM.N");
        answers.onImage(distributor, SERVICE, 200, MP, RefreshFlags.COMPLETE, name, 0, name.capacity(), 0, 1);
        assertEquals(2, control.starting("request").size(), "asked for at once, not at the next retry");
    }

    @Test
    void anUnwantedAnswerIsClosedBackUnlessAnotherServersOrStillWanted()
    {
        final DistributorState distributor = distributor(11);
        distributor.epoch = 42;
        final UnsafeBuffer name = name("IBM.N");

        answers.onAnswer(distributor, SERVICE, 100, (9L << 40) | 1, MP, RefreshFlags.COMPLETE, name, 0,
            name.capacity(), 0, 1);
        assertTrue(control.starting("close").isEmpty(), "another server's answer");

        carriers.set(SERVICE, 1);
        open(1, "IBM.N", true);
        answers.onAnswer(distributor, SERVICE, 100, BASE | 999_999, MP, RefreshFlags.COMPLETE, name, 0,
            name.capacity(), 0, 1);
        assertTrue(control.starting("close").isEmpty(), "a request for the same item is out");

        answer(distributor, 1, 100, RefreshFlags.COMPLETE);
        answers.onAnswer(distributor, SERVICE, 100, BASE | 999_998, MP, RefreshFlags.COMPLETE, name, 0,
            name.capacity(), 0, 1);
        assertTrue(control.starting("close").isEmpty(), "the handle is bound to an open item");

        answers.onAnswer(distributor, SERVICE, 101, BASE | 999_997, MP, RefreshFlags.COMPLETE, name("X"), 0, 1,
            0, 1);
        assertEquals(List.of("close 42 7 101"), control.starting("close"));
    }

    @Test
    void aLivePrivateStreamIsRecoveredByHandleAndALostOneIsClosedRecover()
    {
        carriers.set(SERVICE, 1);
        final DistributorState distributor = distributor(11);
        final UnsafeBuffer name = name("ORDER1");
        requests.openPrivate(1, MP, SERVICE, name, 0, name.capacity(), null);
        assertTrue(control.starting("request").get(0).endsWith(" ORDER1 private"));
        answer(distributor, 1, 100, RefreshFlags.COMPLETE);

        requests.refresh(1);
        assertEquals(List.of("recovery 7 100 6 0"), control.starting("recovery"), "by handle, never by name");

        distributor.isAlive = false;
        requests.rerequest(distributor, -1, "distributor restarted: recovering");
        assertTrue(requests.hasLostPrivates());
        assertEquals(1, requests.closeLostPrivates());
        assertNull(requests.item(1));
        assertEquals(1, control.starting("request").size(), "not asked for again by name");
        assertEquals("status 1 6 " + StreamStates.CLOSED_RECOVER + " " + DataStates.SUSPECT + " " + StateCodes.NONE +
            " private stream lost upstream: open it again", listener.log.get(listener.log.size() - 1));
    }

    @Test
    void aClosedItemIsClosedUpstreamOnTheDistributorItIsBoundTo()
    {
        carriers.set(SERVICE, 1);
        final DistributorState distributor = distributor(11);
        distributor.epoch = 42;
        open(1, "IBM.N", true);
        answer(distributor, 1, 100, RefreshFlags.COMPLETE);

        requests.close(1);

        assertNull(requests.item(1));
        assertEquals(List.of("close 42 7 100"), control.starting("close"));
        assertEquals(HandleIndex.MISSING, distributor.itemByHandle.get(SERVICE, 100));
    }

    private void open(final int itemId, final String name, final boolean isStreaming)
    {
        final UnsafeBuffer buffer = name(name);
        requests.open(itemId, MP, SERVICE, buffer, 0, buffer.capacity(), isStreaming, null);
    }

    private void answer(final DistributorState distributor, final int itemId, final int handle, final int flags)
    {
        final OpenItem item = requests.item(itemId);
        answers.onAnswer(distributor, SERVICE, handle, item.requestId, MP, flags, item.name, 0, item.name.capacity(),
            0, image.capacity());
    }

    private int status(final int streamState, final int code, final String text)
    {
        final EtaMsgWriter writer = new EtaMsgWriter();
        final StatusMsgEncoder encoder = new StatusMsgEncoder();
        assertEquals(CodecReturnCodes.SUCCESS, encoder.encode(writer.begin(statusBuffer, 0, statusBuffer.capacity()),
            MP, 0, streamState, DataStates.SUSPECT, code, text));
        return writer.encodedLength();
    }

    private void refuse(
        final DistributorState distributor, final long requestId, final int streamState, final int length)
    {
        answers.onStatus(distributor, SERVICE, -1, requestId, streamState, statusBuffer, 0, length, 0);
    }

    private static DistributorState distributor(final int sessionId)
    {
        final DistributorState distributor = new DistributorState(sessionId);
        distributor.services.put(SERVICE, new CarriedService(distributor, SERVICE));
        return distributor;
    }

    private static long requestId(final String line)
    {
        return Long.parseUnsignedLong(line.split(" ")[1], 16);
    }

    private static UnsafeBuffer name(final String name)
    {
        return new UnsafeBuffer(name.getBytes(StandardCharsets.US_ASCII));
    }

    private void wake()
    {
        wakes++;
    }

    private static final class TestCarriers implements Carriers
    {
        private final Map<Integer, Integer> counts = new HashMap<>();

        void set(final int serviceId, final int count)
        {
            counts.put(serviceId, count);
        }

        @Override
        public boolean hasCarrier(final int serviceId)
        {
            return carriers(serviceId) > 0;
        }

        @Override
        public int carriers(final int serviceId)
        {
            return counts.getOrDefault(serviceId, 0);
        }
    }
}
