package io.mdhub.p2p.fanout;

import static io.mdhub.p2p.fanout.FanOutHarness.FEED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.p2p.DisconnectReason;
import io.mdhub.p2p.RejectReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The item streams of a fan-out worker's consumers, without sockets ({@link FanOutHarness}): what a request, a
 * reissue, a batch, a close, a private stream and malformed input do to the consumer and to the item source.
 */
@InterruptAfter(10)
class ConsumerRequestsTest
{
    private final FanOutHarness harness = new FanOutHarness(100, 1_000);

    @AfterEach
    void tearDown()
    {
        harness.close();
    }

    private FanOutHarness.Consumer loggedIn(final String user)
    {
        final FanOutHarness.Consumer consumer = harness.connect();
        assertEquals(MsgClasses.REFRESH, consumer.login(user).msgClass());
        return consumer;
    }

    @Test
    void aRequestBeforeTheLoginIsClosedLoginRequired()
    {
        final FanOutHarness.Consumer consumer = harness.connect();

        consumer.send(FanOutHarness.item(5, FEED, "TRI.N", true, 0));

        final List<EtaMessage> answers = consumer.read();
        assertEquals(1, answers.size(), answers::toString);
        assertEquals(5, answers.get(0).streamId());
        assertEquals(StateCodes.USAGE_ERROR, FanOutHarness.closedCode(answers.get(0)));
        assertEquals("Login required", answers.get(0).text());
        assertEquals(1, harness.counters.rejected(RejectReason.LOGIN_REQUIRED).get());
        assertEquals(List.of(), harness.source.takeCalls());
    }

    @Test
    void aSecondWatcherOpensTheSourceOnceAndBothGetTheImage()
    {
        final FanOutHarness.Consumer alice = loggedIn("alice");
        final FanOutHarness.Consumer bob = loggedIn("bob");

        alice.send(FanOutHarness.item(5, FEED, "TRI.N", true, 0));
        bob.send(FanOutHarness.item(7, FEED, "TRI.N", true, 0));

        assertEquals(List.of("open 0 6/1/TRI.N streaming"), harness.source.takeCalls());
        assertEquals(2, harness.counters.watchlistEntries().get());
        assertEquals(1, harness.counters.itemsOpen().get());
        harness.refresh(0, true, StreamStates.OPEN);
        assertEquals(5, single(alice.read()).streamId());
        assertEquals(7, single(bob.read()).streamId());

        bob.send(FanOutHarness.item(9, FEED, "TRI.N", true, 0));
        assertEquals(List.of("refresh 0"), harness.source.takeCalls(), "a joiner after the image asks for it again");
    }

    @Test
    void aReissueWithoutRefreshOnlyWidensTheUpstreamView()
    {
        final FanOutHarness.Consumer consumer = loggedIn("alice");
        consumer.send(FanOutHarness.view(5, "TRI.N", 0, 22));
        assertEquals(List.of("open 0 6/1/TRI.N streaming view"), harness.source.takeCalls());

        consumer.send(FanOutHarness.view(5, "TRI.N", RequestMsgFlags.NO_REFRESH, 22, 25));
        assertEquals(List.of("widenView 0"), harness.source.takeCalls());
        consumer.send(FanOutHarness.view(5, "TRI.N", RequestMsgFlags.NO_REFRESH, 25));
        assertEquals(List.of(), harness.source.takeCalls(), "a narrower view is not asked for");
        assertEquals(List.of(), consumer.read());

        consumer.send(FanOutHarness.view(5, "TRI.N", 0, 25));
        assertEquals(List.of(), harness.source.takeCalls(), "no image yet: the refresh to come answers it");
        assertEquals(1, harness.counters.watchlistEntries().get(), "a reissue opens no stream");
    }

    @Test
    void aBatchIsClosedThenItsItemsOpenOnTheStreamsAfterIt()
    {
        final FanOutHarness.Consumer consumer = loggedIn("alice");

        consumer.send(FanOutHarness.batch(10, "A.N", "B.N", "C.N"));

        final EtaMessage batch = single(consumer.read());
        assertEquals(10, batch.streamId());
        assertEquals(MsgClasses.STATUS, batch.msgClass());
        assertEquals(StreamStates.CLOSED, batch.streamState());
        assertEquals(DataStates.OK, batch.dataState());
        assertEquals(List.of("open 0 6/1/A.N streaming", "open 1 6/1/B.N streaming", "open 2 6/1/C.N streaming"),
            harness.source.takeCalls());
        harness.refresh(0, true, StreamStates.OPEN);
        harness.refresh(2, true, StreamStates.OPEN);
        harness.refresh(1, true, StreamStates.OPEN);
        assertEquals(List.of(11, 13, 12), consumer.read().stream().map(EtaMessage::streamId).toList());
    }

    @Test
    void aCloseWithAStreamIdListClosesTheListedStreams()
    {
        final FanOutHarness.Consumer consumer = loggedIn("alice");
        consumer.send(FanOutHarness.item(5, FEED, "A.N", true, 0));
        consumer.send(FanOutHarness.item(6, FEED, "B.N", true, 0));
        consumer.send(FanOutHarness.item(7, FEED, "C.N", true, 0));
        harness.source.takeCalls();

        consumer.send(FanOutHarness.batchClose(5, 7));

        assertEquals(Set.of("close 0", "close 2"), Set.copyOf(harness.source.takeCalls()));
        assertEquals(1, harness.counters.watchlistEntries().get());
        assertEquals(1, harness.counters.itemsOpen().get());
        assertEquals(List.of(), consumer.read(), "a close is not answered");
    }

    @Test
    void aPrivateStreamTheSourceDoesNotServeIsRejectedAndItsItemFreed()
    {
        final FanOutHarness.Consumer consumer = loggedIn("alice");

        consumer.send(FanOutHarness.item(5, FEED, "TRI.N", true, RequestMsgFlags.PRIVATE_STREAM));

        assertEquals(List.of("openPrivate 0 6/1/TRI.N", "close 0"), harness.source.takeCalls());
        final EtaMessage answer = single(consumer.read());
        assertEquals(StateCodes.USAGE_ERROR, FanOutHarness.closedCode(answer));
        assertEquals("Private streams are not served here", answer.text());
        assertEquals(0, harness.counters.itemsOpen().get());
        assertEquals(0, harness.counters.watchlistEntries().get());

        harness.source.servingPrivateStreams(true);
        consumer.send(FanOutHarness.item(6, FEED, "TRI.N", true, RequestMsgFlags.PRIVATE_STREAM));
        consumer.send(FanOutHarness.item(7, FEED, "TRI.N", true, 0));
        assertEquals(List.of("openPrivate 0 6/1/TRI.N", "open 1 6/1/TRI.N streaming"), harness.source.takeCalls(),
            "a private stream shares its item with no one");
        assertEquals(2, harness.counters.itemsOpen().get());
    }

    @Test
    void malformedInputWithAStreamIdRejectsThatStreamAndWithoutOneDisconnects()
    {
        final FanOutHarness.Consumer consumer = loggedIn("alice");
        consumer.send(FanOutHarness.item(5, FEED, "TRI.N", true, 0));
        harness.source.takeCalls();

        consumer.send(Arrays.copyOf(FanOutHarness.item(5, FEED, "TRI.N", true, 0), 12));

        assertEquals(List.of("close 0"), harness.source.takeCalls(), "the stream's item is closed");
        final EtaMessage answer = single(consumer.read());
        assertEquals(5, answer.streamId());
        assertEquals(StateCodes.USAGE_ERROR, FanOutHarness.closedCode(answer));
        assertTrue(answer.text().startsWith("Malformed message"), answer.text());
        assertEquals(1, harness.counters.rejected(RejectReason.MALFORMED_REQUEST).get());
        assertTrue(consumer.isOpen());

        consumer.send(new byte[] {0, 1, 2});

        assertFalse(consumer.isOpen());
        assertEquals(1, harness.counters.disconnects(DisconnectReason.MALFORMED_MESSAGE).get());
    }

    private static EtaMessage single(final List<EtaMessage> messages)
    {
        assertEquals(1, messages.size(), messages::toString);
        return messages.get(0);
    }
}
