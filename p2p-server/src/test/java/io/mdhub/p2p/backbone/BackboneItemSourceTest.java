package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.p2p.P2pServer;
import io.netty.channel.EventLoop;

/**
 * The p2p-server fed over a real Aeron backbone (embedded driver, IPC) by distributor stand-ins, read by a real
 * ETA 3.9.1.0 consumer: the directory comes from announcements, item requests travel as ItemRequests and come back
 * as images, updates flow by handle; a sequence gap turns the item Open/Suspect and recovers it with a fresh image
 * (item by item, or by one service-level RecoveryRequest when the server holds most of the service); a distributor
 * that falls silent takes its items Suspect until it announces again, but a server that merely lags behind does not
 * think so; a restarted distributor's refusals keep recovering items Suspect for the grace period; two distributors
 * of one service keep their own sequences and handles, and the standby takes over when the first dies.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class BackboneItemSourceTest
{
    private static final String CHANNEL = "aeron:ipc";
    private static final int DATA_STREAM = 1001;
    private static final int CONTROL_STREAM = 1002;
    private static final int ITEM_STREAM = 5;
    private static final long GRACE_MS = 2_500;

    @TempDir
    Path dir;

    private BackboneNode node;
    private Aeron aeron;
    private FakeBackboneDistributor distributor;
    private P2pServer server;
    private EtaConsumer consumer;
    private final List<EventLoop> workerLoops = new CopyOnWriteArrayList<>();
    /** Per worker: its item source's {@code outstandingItems()}, read on the worker's event loop. */
    private final List<Callable<Integer>> outstandingPerWorker = new CopyOnWriteArrayList<>();
    private final List<FakeBackboneDistributor> others = new ArrayList<>();

    /**
     * The test runs the servers with {@code itemWait} off: unknown items are refused at once, recovering ones after the
     * grace period.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @interface ItemsDoNotWait
    {
    }

    @BeforeEach
    void launch(final TestInfo test)
    {
        final boolean isItemWait = test.getTestMethod().map((m) -> !m.isAnnotationPresent(ItemsDoNotWait.class))
            .orElse(true);
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(64 * 1024)
            .ipcTermBufferLength(1024 * 1024)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
        distributor = new FakeBackboneDistributor(aeron, CHANNEL, DATA_STREAM, CONTROL_STREAM)
            .item("TRI.N", 12340)
            .item("IBM.N", 20000);
        final BackboneItemSourceFactory factory = new BackboneItemSourceFactory(aeron,
            new BackboneItemSourceFactory.Settings()
                .channel(CHANNEL)
                .dataStreamId(DATA_STREAM)
                .controlStreamId(CONTROL_STREAM)
                .consumerId(42)
                .announceIntervalMs(20)
                .missedAnnouncements(4)
                .recoveryGraceMs(GRACE_MS)
                .itemWait(isItemWait)
                .idle(10_000, 200_000));
        server = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .componentName("p2p-backbone-test")
            .itemSourceFactory((workerIndex, eventLoop, listener) ->
            {
                workerLoops.add(eventLoop);
                final BackboneItemSource source = factory.newItemSource(workerIndex, eventLoop, listener);
                outstandingPerWorker.add(() -> eventLoop.submit(source::outstandingItems).get(5, TimeUnit.SECONDS));
                return source;
            }));
        MdTests.await("the p2p-server's heartbeat on the control stream",
            () -> distributor.consumerAnnouncements.get() > 0);
        final int seen = distributor.announcements.get();
        MdTests.await("an announcement after the p2p-server subscribed", () -> distributor.announcements.get() > seen);
        consumer = EtaConsumer.connect(server.port());
        assertEquals(StreamStates.OPEN, consumer.login("alice").state().streamState());
    }

    @AfterEach
    void close() throws Exception
    {
        if (null != consumer)
        {
            consumer.close();
        }
        if (null != server)
        {
            server.close();
        }
        if (null != distributor)
        {
            distributor.close();
        }
        for (final FakeBackboneDistributor other : others)
        {
            other.close();
        }
        if (null != aeron)
        {
            aeron.close();
        }
        if (null != node)
        {
            node.close();
        }
    }

    @Test
    void directoryImagesAndUpdatesComeOverTheBackbone()
    {
        consumer.requestDirectory(2, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        final EtaMessage directory = consumer.awaitMessage(2);
        assertEquals(MsgClasses.REFRESH, directory.msgClass());
        assertTrue(directory.serviceNames().contains(FakeBackboneDistributor.SERVICE_NAME), directory::toString);

        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        final EtaMessage refresh = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass());
        assertTrue(0 != (refresh.flags() & RefreshMsgFlags.SOLICITED));
        assertEquals(StreamStates.OPEN, refresh.streamState());
        assertEquals(12340L, refresh.mantissa(FieldIds.BID));

        for (int i = 1; i <= 50; i++)
        {
            distributor.update("TRI.N", 12340 + i);
        }
        for (int i = 1; i <= 50; i++)
        {
            final EtaMessage update = consumer.awaitMessage(ITEM_STREAM);
            assertEquals(MsgClasses.UPDATE, update.msgClass());
            assertEquals(12340L + i, update.mantissa(FieldIds.BID), "updates in order, none lost");
        }

    }

    @Test
    @ItemsDoNotWait
    void withoutItemWaitAFirstRequestForAnUnknownItemIsRefusedAtOnce()
    {
        consumer.requestItem(ITEM_STREAM + 1, FakeBackboneDistributor.SERVICE_ID, "NOPE.N");
        final EtaMessage notFound = consumer.awaitMessage(ITEM_STREAM + 1);
        assertEquals(MsgClasses.STATUS, notFound.msgClass());
        assertEquals(StreamStates.CLOSED, notFound.streamState());
        assertEquals(StateCodes.NOT_FOUND, notFound.code());
        assertEquals(1, distributor.requests("NOPE.N"), "a first request for an unknown item is refused at once");
    }

    @Test
    @ItemsDoNotWait
    void theRefusalOfAnItemCarriesTheItemsOwnDomain()
    {
        consumer.requestItem(ITEM_STREAM + 2, DomainTypes.MARKET_BY_ORDER, FakeBackboneDistributor.SERVICE_ID, "NOPE.N",
            true);
        final EtaMessage notFound = consumer.awaitMessage(ITEM_STREAM + 2);
        assertEquals(MsgClasses.STATUS, notFound.msgClass(), notFound::toString);
        assertEquals(DomainTypes.MARKET_BY_ORDER, notFound.domainType(), "the status is on the item's domain");
        assertEquals(StreamStates.CLOSED, notFound.streamState());
        assertEquals(StateCodes.NOT_FOUND, notFound.code());
    }

    @Test
    void anItemRequestedBeforeItsProviderPublishesItWaitsOpenSuspectAndOpensWhenPublished()
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "LATE.N");
        final EtaMessage waiting = consumer.awaitMessage(ITEM_STREAM);
        assertSuspect(waiting);
        assertEquals("waiting for the provider to publish the item", waiting.text());
        MdTests.await("asked for again after 1 s and 2 s", () -> distributor.requests("LATE.N") >= 3);

        // the next try would come 4 s after the last: the provider's broadcast refresh brings the item now
        final long publishedNs = System.nanoTime();
        distributor.publish("LATE.N", 4242);
        final EtaMessage image = consumer.awaitMessage(ITEM_STREAM);
        final long elapsedMs = (System.nanoTime() - publishedNs) / 1_000_000L;
        assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
        assertTrue(0 != (image.flags() & RefreshMsgFlags.SOLICITED), "the consumer's first refresh: " + image);
        assertEquals(StreamStates.OPEN, image.streamState());
        assertEquals(DataStates.OK, image.dataState());
        assertEquals(4242L, image.mantissa(FieldIds.BID));
        assertTrue(elapsedMs < 2_000, "opened when published, not at the next retry: " + elapsedMs + " ms");

        distributor.update("LATE.N", 4243);
        assertEquals(4243L, consumer.awaitMessage(ITEM_STREAM).mantissa(FieldIds.BID), "and streams from then on");
        assertNull(consumer.pollMessage(ITEM_STREAM, Duration.ofMillis(200)), "no status after the refresh");
    }

    @Test
    void anItemARestartedDistributorHasNotRepublishedStaysOpenSuspectUntilItIs() throws Exception
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.close();
        distributor = new FakeBackboneDistributor(aeron, CHANNEL, DATA_STREAM, CONTROL_STREAM); // empty after restart
        MdTests.await("refused after the restart", () -> distributor.requests("TRI.N") >= 1);
        MdTests.await("asked for again after 1 s and 2 s: past the grace period",
            () -> distributor.requests("TRI.N") >= 3);
        EtaMessage message;
        while (null != (message = consumer.pollMessage(ITEM_STREAM, Duration.ofMillis(100))))
        {
            assertSuspect(message); // the restart, then the wait: never Closed
        }

        distributor.publish("TRI.N", 12399);
        message = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.REFRESH, message.msgClass(), message::toString);
        assertEquals(DataStates.OK, message.dataState());
        assertEquals(12399L, message.mantissa(FieldIds.BID));
    }

    @Test
    void everyItemMessageTakenFromTheStreamIsCountedWhetherWatchedOrNot()
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());
        final long before = messagesIn();

        for (int i = 1; i <= 30; i++)
        {
            distributor.update("IBM.N", 20000 + i); // nobody here watches it
        }
        for (int i = 1; i <= 20; i++)
        {
            distributor.update("TRI.N", 12340 + i);
        }
        for (int i = 1; i <= 20; i++)
        {
            assertEquals(MsgClasses.UPDATE, consumer.awaitMessage(ITEM_STREAM).msgClass());
        }
        // each worker reads the whole stream; the last update counted before it was passed on to the consumer
        final int readers = workerLoops.size();
        MdTests.await(() -> "50 messages per stream reader, " + readers + " readers, counted " +
            (messagesIn() - before), () -> messagesIn() - before == 50L * readers);
    }

    private long messagesIn()
    {
        return MdCounters.sum(aeron.countersReader(), MdCounters.BACKBONE_MESSAGES_IN_TYPE_ID);
    }

    @Test
    void anAnswerNobodyWantsAnyMoreIsClosedBackUnlessTheItemIsAskedForAgain()
    {
        // closed while its request was out: the late answer's interest is handed back to its distributor
        distributor.holdAnswers();
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        MdTests.await("the request reached the distributor", () -> 1 == distributor.requests("TRI.N"));
        consumer.closeItem(ITEM_STREAM);
        distributor.releaseAnswers();
        MdTests.await(() -> "a close for the unwanted answer, got " + distributor.closes(),
            () -> 1 == distributor.closes().size());
        assertTrue(distributor.closes().get(0).endsWith("epoch=mine"), distributor.closes()::toString);

        // closed and asked for again before the first answer: that answer serves the new request's interest
        distributor.holdAnswers();
        consumer.requestItem(ITEM_STREAM + 1, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        MdTests.await("the request reached the distributor", () -> 1 == distributor.requests("IBM.N"));
        consumer.closeItem(ITEM_STREAM + 1);
        consumer.requestItem(ITEM_STREAM + 2, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        MdTests.await("the second request reached the distributor", () -> 2 == distributor.requests("IBM.N"));
        distributor.releaseAnswers();
        final EtaMessage refresh = consumer.awaitMessage(ITEM_STREAM + 2);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertNull(consumer.pollMessage(ITEM_STREAM + 2, Duration.ofMillis(300)));
        assertEquals(1, distributor.closes().size(), () -> "no close for a wanted item: " + distributor.closes());
    }

    @Test
    void aGapTurnsTheItemSuspectAndAFreshImageRecoversIt()
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.skipSequence();
        distributor.update("IBM.N", 20100);

        final EtaMessage suspect = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.STATUS, suspect.msgClass(), suspect::toString);
        assertEquals(StreamStates.OPEN, suspect.streamState());
        assertEquals(DataStates.SUSPECT, suspect.dataState());
        final EtaMessage recovered = awaitClass(MsgClasses.REFRESH);
        assertEquals(0, recovered.flags() & RefreshMsgFlags.SOLICITED, "a recovery image is unsolicited");
        assertEquals(DataStates.OK, recovered.dataState());
        assertEquals(20100L, recovered.mantissa(FieldIds.BID), "the image has the update after the gap");
    }

    /**
     * An item recovering item by item (its request still unanswered) may get its image from a recovery pass meanwhile
     * — another worker's or another p2p-server's, which every subscriber of the stream sees. The consumers then have
     * a whole image and see the item Open/Ok; a later gap must turn it Suspect again before any update after the gap
     * reaches them, even though the item's own request is still out. (It used to stay "recovering" until its own
     * answer came, so the next gap skipped it and the consumer saw the update counter jump while Ok.)
     */
    @Test
    void anImageFromARecoveryPassEndsTheRecoverySoTheNextGapTurnsTheItemSuspectAgain()
    {
        for (int i = 0; i < 20; i++)
        {
            distributor.item("S" + i, 1000 + i);
        }
        final int seen = distributor.announcements.get();
        MdTests.await("announced with 22 items", () -> distributor.announcements.get() > seen + 1);
        distributor.awaitConsumed(aeron);
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.ignoreRequestsFor("IBM.N", true); // 1 of 22 items: recovered by its own request, left unanswered
        distributor.skipSequence();
        distributor.update("IBM.N", 20100);
        assertSuspect(consumer.awaitMessage(ITEM_STREAM));
        assertEquals(MsgClasses.UPDATE, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.recoveryImage("IBM.N"); // a pass someone else asked for
        final EtaMessage image = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
        assertEquals(DataStates.OK, image.dataState(), "the consumer has a whole image again");

        distributor.skipSequence();
        distributor.update("IBM.N", 20200);
        assertSuspect(consumer.awaitMessage(ITEM_STREAM)); // before the update that follows the gap
        final EtaMessage update = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(20200L, update.mantissa(FieldIds.BID));

        distributor.ignoreRequestsFor("IBM.N", false);
        final EtaMessage recovered = awaitClass(MsgClasses.REFRESH);
        assertEquals(DataStates.OK, recovered.dataState());
        assertEquals(20200L, recovered.mantissa(FieldIds.BID));
    }

    @Test
    void everyWorkerOfAServerAnnouncesTheSameConsumerIdAndEpoch() throws Exception
    {
        final BackboneItemSourceFactory factory = new BackboneItemSourceFactory(aeron,
            new BackboneItemSourceFactory.Settings()
                .channel(CHANNEL)
                .dataStreamId(DATA_STREAM)
                .controlStreamId(CONTROL_STREAM)
                .consumerId(43)
                .announceIntervalMs(20));
        final List<EventLoop> loops = new CopyOnWriteArrayList<>();
        try (P2pServer threeWorkers = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .workers(3)
            .componentName("p2p-three-workers")
            .itemSourceFactory((workerIndex, eventLoop, listener) ->
            {
                loops.add(eventLoop);
                return factory.newItemSource(workerIndex, eventLoop, listener);
            })))
        {
            MdTests.await("three workers", () -> loops.size() == 3);
            final int seen = distributor.consumerAnnouncements.get();
            MdTests.await("ten announcements from the workers",
                () -> distributor.consumerAnnouncements.get() > seen + 10);
            assertEquals(1, distributor.consumerEpochs.get(43).size(),
                () -> "one server, one epoch (else the distributor logs a restart at every announcement): " +
                distributor.consumerEpochs.get(43));
        }
    }

    @Test
    void aSilentDistributorTakesItsServiceDownAndItemsSuspectUntilItAnnouncesAgain()
    {
        final int directoryStream = 2;
        consumer.requestDirectory(directoryStream, Directory.ServiceFilterFlags.INFO |
            Directory.ServiceFilterFlags.STATE, true, -1);
        final EtaMessage directory = consumer.awaitMessage(directoryStream);
        assertEquals(1, directory.directoryRefresh().serviceList().get(0).state().serviceState(), "up");
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.isAnnouncing = false; // its heartbeats stop: the service is down for the consumer
        final EtaMessage suspect = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.STATUS, suspect.msgClass(), suspect::toString);
        assertEquals(DataStates.SUSPECT, suspect.dataState());
        final EtaMessage down = consumer.awaitMessage(directoryStream);
        assertEquals(FakeBackboneDistributor.SERVICE_ID, down.directoryUpdate().serviceList().get(0).serviceId());
        assertEquals(0, down.directoryUpdate().serviceList().get(0).state().serviceState(), "down");

        distributor.isAnnouncing = true;
        final EtaMessage recovered = awaitClass(MsgClasses.REFRESH);
        assertEquals(DataStates.OK, recovered.dataState());
        final EtaMessage up = consumer.awaitMessage(directoryStream);
        assertEquals(1, up.directoryUpdate().serviceList().get(0).state().serviceState(), "up again");
    }

    @Test
    void aDistributorDeclaredDeadIsRevivedByItsDataAndNoImageItSendsIsDropped()
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());
        distributor.isAnnouncing = false;
        assertSuspect(consumer.awaitMessage(ITEM_STREAM)); // silent too long: declared dead

        // still not announcing, it sends a new image (its provider reconnected) and an update following on from it
        distributor.item("TRI.N", 555);
        distributor.recoveryImage("TRI.N");
        distributor.update("TRI.N", 556);
        final EtaMessage image = awaitImageWhileOpen(); // no update before the image it follows on from
        assertEquals(555L, image.mantissa(FieldIds.BID));
        assertEquals(DataStates.OK, image.dataState());
        final EtaMessage update = awaitClass(MsgClasses.UPDATE);
        assertEquals(556L, update.mantissa(FieldIds.BID));
        distributor.isAnnouncing = true;
    }

    @Test
    void anUnansweredRequestIsSentAgain()
    {
        distributor.ignoreNextRequestFor("IBM.N");
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        final EtaMessage refresh = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(20000L, refresh.mantissa(FieldIds.BID));
    }

    /**
     * The request check (every 250 ms) walks the items with a request out, a retry due or a pass awaited, not every
     * open item: an answered item leaves its list.
     */
    @Test
    void theRequestCheckWalksOnlyTheItemsWithSomethingOutstanding()
    {
        distributor.ignoreNextRequestFor("IBM.N");
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        consumer.requestItem(ITEM_STREAM + 1, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM + 1).msgClass());

        MdTests.await("TRI.N answered and off the list, IBM.N's request still out", () -> 1 == outstandingItems());
        final EtaMessage refresh = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        MdTests.await("nothing outstanding once both are answered", () -> 0 == outstandingItems());
    }

    private int outstandingItems()
    {
        int count = 0;
        for (final Callable<Integer> outstanding : outstandingPerWorker)
        {
            try
            {
                count += outstanding.call();
            }
            catch (final Exception ex)
            {
                throw new AssertionError("reading a worker's list", ex);
            }
        }
        return count;
    }

    @Test
    void twoDistributorsOfOneServiceKeepTheirOwnSequencesAndHandlesAndTheStandbyTakesOver() throws Exception
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(12340L, consumer.awaitMessage(ITEM_STREAM).mantissa(FieldIds.BID));

        // a standby for the same service: its own sequences, and the same handle for TRI.N with other prices
        final FakeBackboneDistributor standby = another(8, FakeBackboneDistributor.SERVICE_ID,
            FakeBackboneDistributor.SERVICE_NAME).item("TRI.N", 50000);
        final int seen = standby.announcements.get();
        MdTests.await("the standby announcing", () -> standby.announcements.get() > seen + 1);
        for (int i = 1; i <= 50; i++)
        {
            standby.update("TRI.N", 50000 + i);
        }
        standby.awaitConsumed(aeron);
        for (int i = 1; i <= 20; i++)
        {
            distributor.update("TRI.N", 12340 + i);
        }
        for (int i = 1; i <= 20; i++)
        {
            final EtaMessage update = consumer.awaitMessage(ITEM_STREAM);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(12340L + i, update.mantissa(FieldIds.BID),
                "only the answering distributor's updates, in order, no false gap");
        }

        distributor.close(); // dies: the item is asked for again, and the standby answers
        final EtaMessage suspect = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.STATUS, suspect.msgClass(), suspect::toString);
        assertEquals(StreamStates.OPEN, suspect.streamState());
        assertEquals(DataStates.SUSPECT, suspect.dataState());
        final EtaMessage image = awaitClass(MsgClasses.REFRESH);
        assertEquals(50050L, image.mantissa(FieldIds.BID), "the standby's image");
        assertEquals(DataStates.OK, image.dataState());
        standby.update("TRI.N", 60000);
        final EtaMessage update = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(60000L, update.mantissa(FieldIds.BID));
    }

    @Test
    void aRefusalFromADistributorWithoutTheServiceIsNotFinal()
    {
        final FakeBackboneDistributor other = another(9, 2, "OTHER"); // refuses service 1 with SOURCE_UNKNOWN
        final int seen = other.announcements.get();
        MdTests.await("the other distributor announcing", () -> other.announcements.get() > seen + 1);
        other.awaitConsumed(aeron);

        distributor.ignoreNextRequestFor("IBM.N"); // the distributor with the item answers the second request only
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        final EtaMessage refresh = consumer.awaitMessage(ITEM_STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(20000L, refresh.mantissa(FieldIds.BID));
    }

    @Test
    void aServerThatLagsBehindDoesNotDeclareALiveDistributorDead() throws Exception
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        final CountDownLatch blocked = new CountDownLatch(workerLoops.size());
        final CountDownLatch release = new CountDownLatch(1);
        try
        {
            for (final EventLoop loop : workerLoops)
            {
                loop.execute(() ->
                {
                    blocked.countDown();
                    try
                    {
                        release.await(); // a busy worker: the data stream piles up behind it
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            MdTests.await("every worker busy", () -> 0 == blocked.getCount());
            for (int i = 1; i <= 2000; i++)
            {
                distributor.update("TRI.N", 12340 + i);
            }
            final int seen = distributor.announcements.get();
            MdTests.await("the distributor announcing on, unread, for twice the missed-announcement limit",
                () -> distributor.announcements.get() > seen + 8);
        }
        finally
        {
            release.countDown();
        }

        for (int i = 1; i <= 2000; i++)
        {
            final EtaMessage update = consumer.awaitMessage(ITEM_STREAM);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(12340L + i, update.mantissa(FieldIds.BID));
        }
    }

    @Test
    void aDistributorWhoseDataFlowsIsAliveWhileItsAnnouncementsAreHeldUp()
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.isAnnouncing = false; // as if its announcements lost the race for a back-pressured stream
        final long silenceNs = 6L * FakeBackboneDistributor.ANNOUNCE_INTERVAL_MS * 1_000_000L;
        final long startNs = System.nanoTime();
        for (int i = 1; System.nanoTime() - startNs < silenceNs; i++)
        {
            distributor.update("TRI.N", 12340 + i);
            final EtaMessage update = consumer.awaitMessage(ITEM_STREAM);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(12340L + i, update.mantissa(FieldIds.BID));
        }
        distributor.isAnnouncing = true;
    }

    @Test
    void itemsOfARestartedDistributorStaySuspectUntilItRepublishesThem() throws Exception
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.close();
        distributor = new FakeBackboneDistributor(aeron, CHANNEL, DATA_STREAM, CONTROL_STREAM); // empty cache
        MdTests.await("the item asked for again after a refusal", () -> distributor.requests("TRI.N") >= 2);
        distributor.item("TRI.N", 777); // the provider republished it

        final EtaMessage image = awaitImageWhileOpen();
        assertEquals(777L, image.mantissa(FieldIds.BID));
        assertEquals(DataStates.OK, image.dataState());
    }

    @Test
    @ItemsDoNotWait
    void afterTheGracePeriodTheRefusalOfARecoveringItemIsPassedOn() throws Exception
    {
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());

        distributor.close();
        distributor = new FakeBackboneDistributor(aeron, CHANNEL, DATA_STREAM, CONTROL_STREAM); // never has it
        MdTests.await("the first refusal", () -> distributor.requests("TRI.N") >= 1);
        final long firstRequestNs = System.nanoTime();
        EtaMessage message;
        do
        {
            message = consumer.awaitMessage(ITEM_STREAM);
            assertEquals(MsgClasses.STATUS, message.msgClass(), message::toString);
        }
        while (StreamStates.OPEN == message.streamState());
        final long elapsedMs = (System.nanoTime() - firstRequestNs) / 1_000_000L;
        assertEquals(StreamStates.CLOSED, message.streamState());
        assertEquals(StateCodes.NOT_FOUND, message.code());
        assertTrue(elapsedMs >= GRACE_MS - 300, "closed only after the grace period: " + elapsedMs + " ms");
        assertTrue(distributor.requests("TRI.N") >= 2, "retried meanwhile");
    }

    @Test
    void anItemRefusedForNowStaysOpenSuspectAndOpensAsSoonAsItsServiceIsUpAgain()
    {
        distributor.isServiceUp = false; // no provider up behind the distributor: requests are refused for now
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertSuspect(consumer.awaitMessage(ITEM_STREAM));
        MdTests.await("asked for again, twice, after 1 s and 2 s", () -> distributor.requests("TRI.N") >= 3);

        // the next try would be 4 s after the last: the service announced up brings it forward
        final long upNs = System.nanoTime();
        distributor.isServiceUp = true;
        final EtaMessage image = awaitImageWhileOpen();
        final long elapsedMs = (System.nanoTime() - upNs) / 1_000_000L;
        assertTrue(0 != (image.flags() & RefreshMsgFlags.SOLICITED), "the consumer's first refresh: " + image);
        assertEquals(DataStates.OK, image.dataState());
        assertEquals(12340L, image.mantissa(FieldIds.BID));
        assertTrue(elapsedMs < 3_000, "opened when the service came up, not after the wait: " + elapsedMs + " ms");
    }

    @Test
    void aGapIsRecoveredItemByItemOrByOneServiceRequestWhenTheServerHoldsMostOfTheService()
    {
        for (int i = 0; i < 20; i++)
        {
            distributor.item("S" + i, 1000 + i);
        }
        final int seen = distributor.announcements.get();
        MdTests.await("announced with 22 items", () -> distributor.announcements.get() > seen + 1);
        distributor.awaitConsumed(aeron);
        for (int i = 0; i < 3; i++)
        {
            consumer.requestItem(10 + i, FakeBackboneDistributor.SERVICE_ID, "S" + i);
            assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(10 + i).msgClass());
        }

        distributor.skipSequence();
        distributor.update("S0", 2000);
        for (int i = 0; i < 3; i++)
        {
            awaitRecovered(10 + i);
        }
        assertEquals(0, distributor.recoveryRequests.get(), "3 of 22 items: asked for one by one");
        assertEquals(6, distributor.requests());

        for (int i = 3; i < 20; i++)
        {
            consumer.requestItem(10 + i, FakeBackboneDistributor.SERVICE_ID, "S" + i);
        }
        consumer.requestItem(30, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        consumer.requestItem(31, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        for (int stream = 13; stream <= 31; stream++)
        {
            assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(stream).msgClass());
        }

        distributor.skipSequence();
        distributor.update("S0", 2001);
        for (int stream = 10; stream <= 31; stream++)
        {
            awaitRecovered(stream);
        }
        assertEquals(1, distributor.recoveryRequests.get(), "the whole service: one RecoveryRequest");
        assertEquals(6 + 19, distributor.requests(), "and no item requests");
    }

    @Test
    void aDistributorThatIgnoresServiceRecoveryIsAskedItemByItem()
    {
        distributor.isIgnoringRecoveryRequests = true;
        consumer.requestItem(ITEM_STREAM, FakeBackboneDistributor.SERVICE_ID, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM).msgClass());
        consumer.requestItem(ITEM_STREAM + 1, FakeBackboneDistributor.SERVICE_ID, "IBM.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(ITEM_STREAM + 1).msgClass());

        distributor.skipSequence();
        distributor.update("TRI.N", 12399);
        awaitRecovered(ITEM_STREAM);
        awaitRecovered(ITEM_STREAM + 1);
        assertEquals(1, distributor.recoveryRequests.get());
        assertEquals(2, distributor.requests("TRI.N"));
        assertEquals(2, distributor.requests("IBM.N"));
    }

    private FakeBackboneDistributor another(final int distributorId, final int serviceId, final String serviceName)
    {
        final FakeBackboneDistributor other = new FakeBackboneDistributor(
            aeron, CHANNEL, DATA_STREAM, CONTROL_STREAM, distributorId, serviceId, serviceName);
        others.add(other);
        return other;
    }

    private static void assertSuspect(final EtaMessage message)
    {
        assertEquals(MsgClasses.STATUS, message.msgClass(), () -> "Open/Suspect expected: " + message);
        assertEquals(StreamStates.OPEN, message.streamState());
        assertEquals(DataStates.SUSPECT, message.dataState());
    }

    private void awaitRecovered(final int streamId)
    {
        EtaMessage message = consumer.awaitMessage(streamId);
        assertEquals(MsgClasses.STATUS, message.msgClass(), message::toString);
        assertEquals(DataStates.SUSPECT, message.dataState());
        while (MsgClasses.REFRESH != message.msgClass())
        {
            message = consumer.awaitMessage(streamId);
            if (MsgClasses.STATUS == message.msgClass())
            {
                assertEquals(StreamStates.OPEN, message.streamState(), message::toString);
            }
        }
        assertEquals(DataStates.OK, message.dataState());
    }

    private EtaMessage awaitImageWhileOpen()
    {
        while (true)
        {
            final EtaMessage message = consumer.awaitMessage(ITEM_STREAM);
            if (MsgClasses.REFRESH == message.msgClass())
            {
                return message;
            }
            assertEquals(MsgClasses.STATUS, message.msgClass(), message::toString);
            assertEquals(StreamStates.OPEN, message.streamState(), "the stream stays open: " + message);
            assertEquals(DataStates.SUSPECT, message.dataState());
        }
    }

    private EtaMessage awaitClass(final int msgClass)
    {
        while (true)
        {
            final EtaMessage message = consumer.awaitMessage(ITEM_STREAM);
            if (message.msgClass() == msgClass)
            {
                return message;
            }
        }
    }
}
