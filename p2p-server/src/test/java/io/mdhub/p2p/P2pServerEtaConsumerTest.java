package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.CloseMsg;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.GenericMsg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.PostMsg;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;
import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaChannel;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Real ETA 3.9.1.0 consumers against a {@link P2pServer} fed by a {@link StubMarketDataSource}.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(30)
class P2pServerEtaConsumerTest
{
    static final int SERVICE_ID = 1;
    static final int OTHER_SERVICE_ID = 300;
    private static int serverCount;

    final StubMarketDataSource source = new StubMarketDataSource()
        .service(SERVICE_ID, "DIRECT_FEED")
        .service(OTHER_SERVICE_ID, "OTHER_FEED")
        .item(SERVICE_ID, "TRI.N", FieldIds.BID, 12340, FieldIds.ASK, 12350, FieldIds.TRDPRC_1, 12345,
            FieldIds.TRDVOL_1, 100)
        .item(SERVICE_ID, "IBM.N", FieldIds.BID, 20000, FieldIds.ASK, 20010)
        .item(SERVICE_ID, "MSFT.O", FieldIds.BID, 41000, FieldIds.ASK, 41020)
        .item(OTHER_SERVICE_ID, "VOD.L", FieldIds.BID, 7000, FieldIds.ASK, 7010);
    final List<AutoCloseable> closeables = new ArrayList<>();
    P2pServer server;

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != server)
        {
            server.close();
        }
    }

    P2pServer.Context context()
    {
        return new P2pServer.Context()
            .port(0)
            .componentName("p2p-test-" + (++serverCount))
            .itemSourceFactory(source);
    }

    void launch(final P2pServer.Context ctx)
    {
        server = P2pServer.launch(ctx);
    }

    EtaConsumer consumer(final String user)
    {
        final EtaConsumer consumer = EtaConsumer.connect(server.port());
        closeables.add(consumer);
        final LoginRefresh refresh = consumer.login(user);
        assertEquals(StreamStates.OPEN, refresh.state().streamState());
        assertEquals(DataStates.OK, refresh.state().dataState());
        return consumer;
    }

    /**
     * The next message on a stream; the stub source sends every field as a REAL with hint EXPONENT_2.
     */
    static EtaMessage awaitOn(final EtaConsumer consumer, final int streamId)
    {
        final EtaMessage message = consumer.awaitMessage(streamId);
        for (final int fid : message.fieldIds())
        {
            if (!message.isBlank(fid) && DataTypes.REAL == message.rwfType(fid))
            {
                assertEquals(RealHints.EXPONENT_2, message.hint(fid), message::toString);
            }
        }
        return message;
    }

    /**
     * @return the REAL fields of a refresh, as the stub source's image holds them (fid to mantissa).
     */
    static Map<Integer, Long> image(final EtaMessage refresh)
    {
        assertEquals(refresh.fieldIds().size(), refresh.mantissas().size(), () -> "only REAL fields: " + refresh);
        return refresh.mantissas();
    }

    static void assertRefresh(
        final EtaMessage refresh, final int streamId, final int streamState, final String name)
    {
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(streamId, refresh.streamId());
        assertEquals(streamState, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertTrue(0 != (refresh.flags() & RefreshMsgFlags.SOLICITED), refresh::toString);
        assertTrue(0 != (refresh.flags() & RefreshMsgFlags.REFRESH_COMPLETE), refresh::toString);
        assertEquals(SERVICE_ID, refresh.keyServiceId(), refresh::toString);
        assertEquals(name, refresh.keyName());
    }

    @Test
    void loginAnnouncesFeaturesHonestly()
    {
        launch(context());
        final EtaConsumer consumer = EtaConsumer.connect(server.port());
        closeables.add(consumer);
        final LoginRefresh refresh = consumer.login("alice");
        assertEquals("alice", refresh.userName().toString());
        assertTrue(refresh.checkSolicited());
        assertEquals(1, refresh.features().supportViewRequests());
        assertEquals(1, refresh.features().supportBatchRequests());
        assertEquals(1, refresh.features().supportBatchCloses());
        assertEquals(1, refresh.features().supportOMMPost());
        assertTrue(refresh.state().text().toString().contains(server.context().componentName()));
        MdTests.await("login counted", () -> 1 == server.context().counters().loginsAccepted().get());
    }

    @Test
    void directoryHonoursFilterAndServiceAndStreamsStateChanges()
    {
        launch(context());
        final EtaConsumer consumer = consumer("alice");

        consumer.requestDirectory(2, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE |
            Directory.ServiceFilterFlags.GROUP, true, -1);
        final DirectoryRefresh all = awaitOn(consumer, 2).directoryRefresh();
        assertEquals(2, all.serviceList().size());
        final Service feed = service(all.serviceList(), SERVICE_ID);
        assertEquals("DIRECT_FEED", feed.info().serviceName().toString());
        assertTrue(feed.info().capabilitiesList().contains((long)DomainTypes.MARKET_PRICE));
        assertTrue(feed.info().capabilitiesList().contains((long)DomainTypes.DICTIONARY));
        assertEquals(List.of("RWFFld", "RWFEnum"), feed.info().dictionariesProvidedList());
        assertEquals(1, feed.state().serviceState());
        assertEquals(1, feed.state().acceptingRequests());
        assertEquals("OTHER_FEED", service(all.serviceList(), OTHER_SERVICE_ID).info().serviceName().toString());

        consumer.requestDirectory(3, Directory.ServiceFilterFlags.STATE, false, OTHER_SERVICE_ID);
        final DirectoryRefresh stateOnly = awaitOn(consumer, 3).directoryRefresh();
        assertEquals(1, stateOnly.serviceList().size());
        final Service other = stateOnly.serviceList().get(0);
        assertEquals(OTHER_SERVICE_ID, other.serviceId());
        assertEquals(0, other.flags() & Service.ServiceFlags.HAS_INFO, "INFO filtered out");
        assertTrue(other.checkHasState());

        consumer.requestDirectory(4, Directory.ServiceFilterFlags.INFO, false, 77);
        final EtaMessage unknown = awaitOn(consumer, 4);
        assertEquals(MsgClasses.STATUS, unknown.msgClass());
        assertEquals(StreamStates.CLOSED, unknown.streamState());
        assertEquals(StateCodes.SOURCE_UNKNOWN, unknown.code());

        source.serviceDown(SERVICE_ID);
        final DirectoryUpdate down = awaitOn(consumer, 2).directoryUpdate();
        assertEquals(1, down.serviceList().size());
        assertEquals(SERVICE_ID, down.serviceList().get(0).serviceId());
        assertEquals(0, down.serviceList().get(0).state().serviceState());
        source.serviceUp(SERVICE_ID);
        assertEquals(1, awaitOn(consumer, 2).directoryUpdate().serviceList().get(0).state().serviceState());
    }

    @Test
    void dictionaryDownloadLoadsIntoEta()
    {
        launch(context());
        final EtaConsumer consumer = consumer("alice");
        final DataDictionary downloaded = CodecFactory.createDataDictionary();

        consumer.requestDictionary(3, SERVICE_ID, DictionaryLoader.FIELD_DICTIONARY_NAME);
        assertNonStreaming(consumer.awaitDictionary(3, downloaded, true));
        consumer.requestDictionary(4, SERVICE_ID, DictionaryLoader.ENUM_TYPE_DICTIONARY_NAME);
        assertNonStreaming(consumer.awaitDictionary(4, downloaded, false));

        final DataDictionary shipped = DictionaryLoader.loadBundled();
        assertEquals(shipped.numberOfEntries(), downloaded.numberOfEntries());
        assertEquals("BID", downloaded.entry(FieldIds.BID).acronym().toString());
        assertEquals(shipped.enumTableCount(), downloaded.enumTableCount());

        consumer.requestDictionary(5, SERVICE_ID, "NoSuchDictionary");
        final EtaMessage unknown = awaitOn(consumer, 5);
        assertEquals(MsgClasses.STATUS, unknown.msgClass());
        assertEquals(StreamStates.CLOSED, unknown.streamState());
        assertEquals(StateCodes.NOT_FOUND, unknown.code());
    }

    private static void assertNonStreaming(final List<EtaMessage> parts)
    {
        assertTrue(parts.size() >= 1);
        for (final EtaMessage part : parts)
        {
            assertEquals(StreamStates.NON_STREAMING, part.streamState(), "the request was not streaming");
        }
    }

    @Test
    void streamingRequestGetsTheSourceImageThenEveryUpdateInOrder()
    {
        launch(context());
        final EtaConsumer consumer = consumer("alice");
        consumer.requestItem(5, SERVICE_ID, "TRI.N", true);
        final EtaMessage refresh = awaitOn(consumer, 5);
        assertRefresh(refresh, 5, StreamStates.OPEN, "TRI.N");
        assertEquals(source.image(SERVICE_ID, "TRI.N"), image(refresh));

        final int updates = 500;
        for (int i = 1; i <= updates; i++)
        {
            source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, i, FieldIds.BID, 12340 + i);
        }
        for (int i = 1; i <= updates; i++)
        {
            final EtaMessage update = awaitOn(consumer, 5);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(i, update.mantissa(FieldIds.TRDVOL_1), "update " + i + " in order");
            assertEquals(12340 + i, update.mantissa(FieldIds.BID));
        }
        MdTests.await("update counters", () -> server.context().counters().updatesOut().get() == updates);
        assertEquals(1, server.context().counters().watchlistEntries().get());
        assertEquals(1, server.context().counters().itemsOpen().get());

        consumer.closeItem(5);
        MdTests.await("the item closed on the source", () -> 1 == source.closes.get());
        MdTests.await("watchlist empty", () -> 0 == server.context().counters().watchlistEntries().get());
        assertEquals(0, server.context().counters().itemsOpen().get());
        source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, 9999);
        consumer.requestItem(6, SERVICE_ID, "IBM.N", true);
        final EtaMessage next = consumer.awaitMessage();
        assertEquals(6, next.streamId(), () -> "nothing more on the closed stream: " + next);
    }

    @Test
    void snapshotRequestGetsOneNonStreamingRefreshAndNoUpdates()
    {
        launch(context());
        final EtaConsumer consumer = consumer("alice");
        consumer.requestItem(5, SERVICE_ID, "IBM.N", false);
        final EtaMessage refresh = awaitOn(consumer, 5);
        assertRefresh(refresh, 5, StreamStates.NON_STREAMING, "IBM.N");
        assertEquals(source.image(SERVICE_ID, "IBM.N"), image(refresh));
        MdTests.await("snapshot watch gone", () -> 0 == server.context().counters().watchlistEntries().get());
        MdTests.await("item gone", () -> 0 == server.context().counters().itemsOpen().get());

        source.update(SERVICE_ID, "IBM.N", 0, FieldIds.BID, 1);
        consumer.requestItem(6, SERVICE_ID, "MSFT.O", true);
        assertEquals(6, consumer.awaitMessage().streamId(), "no update for the snapshot stream");
    }

    @Test
    void twoConsumersOnOneItemEachGetEveryMessageOnTheirOwnStream()
    {
        twoConsumersOnOneItem(true);
        assertEquals(0, source.refreshRequests.get(), "the second consumer's image came from the p2p-server's cache");
        assertEquals(1, server.context().counters().cacheRefreshes().get());
    }

    @Test
    void itemSourcesAreClosedEvenWhenTheEventLoopsStoppedFirst()
    {
        launch(context());
        assertEquals(1, source.openSources());
        server.context().eventLoopGroup().shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        server.close();
        server = null;
        assertEquals(0, source.openSources(), "the worker released its source although its loop was gone");
    }

    @Test
    void withoutTheCacheTheSecondConsumersImageComesFromTheSource()
    {
        twoConsumersOnOneItem(false);
        assertEquals(1, source.refreshRequests.get(), "the second consumer's image came from the source");
        assertEquals(0, server.context().counters().cacheRefreshes().get());
    }

    private void twoConsumersOnOneItem(final boolean cacheEnabled)
    {
        launch(context().cacheEnabled(cacheEnabled));
        final EtaConsumer first = consumer("alice");
        final EtaConsumer second = consumer("bob");
        first.requestItem(5, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(first, 5), 5, StreamStates.OPEN, "TRI.N");
        source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, 1);
        assertEquals(1L, awaitOn(first, 5).mantissa(FieldIds.TRDVOL_1));

        second.requestItem(9, SERVICE_ID, "TRI.N", true);
        final EtaMessage secondRefresh = awaitOn(second, 9);
        assertRefresh(secondRefresh, 9, StreamStates.OPEN, "TRI.N");
        assertEquals(source.image(SERVICE_ID, "TRI.N"), image(secondRefresh));
        assertEquals(1, source.opens.get(), "one open on the source for both consumers");

        for (int i = 2; i <= 200; i++)
        {
            source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, i);
        }
        for (int i = 2; i <= 200; i++)
        {
            assertEquals((long)i, awaitOn(first, 5).mantissa(FieldIds.TRDVOL_1));
            final EtaMessage update = awaitOn(second, 9);
            assertEquals(MsgClasses.UPDATE, update.msgClass());
            assertEquals((long)i, update.mantissa(FieldIds.TRDVOL_1));
        }
        assertNull(first.poll(), "no refresh was sent to the first consumer for the second one");
        assertEquals(1, server.context().counters().itemsOpen().get());
        assertEquals(2, server.context().counters().watchlistEntries().get());
    }

    @Test
    void serviceDownSuspectsEveryWatcherAndRecoveryRefreshesThem()
    {
        launch(context());
        final EtaConsumer first = consumer("alice");
        final EtaConsumer second = consumer("bob");
        first.requestItem(5, SERVICE_ID, "TRI.N", true);
        second.requestItem(7, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(first, 5), 5, StreamStates.OPEN, "TRI.N");
        assertRefresh(awaitOn(second, 7), 7, StreamStates.OPEN, "TRI.N");

        source.serviceDown(SERVICE_ID);
        for (final int[] pair : new int[][]{{0, 5}, {1, 7}})
        {
            final EtaMessage status = awaitOn(0 == pair[0] ? first : second, pair[1]);
            assertEquals(MsgClasses.STATUS, status.msgClass(), status::toString);
            assertEquals(StreamStates.OPEN, status.streamState());
            assertEquals(DataStates.SUSPECT, status.dataState());
        }

        source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, 42);
        source.serviceUp(SERVICE_ID);
        for (final int[] pair : new int[][]{{0, 5}, {1, 7}})
        {
            final EtaConsumer consumer = 0 == pair[0] ? first : second;
            EtaMessage received = awaitOn(consumer, pair[1]);
            while (MsgClasses.UPDATE == received.msgClass())
            {
                received = awaitOn(consumer, pair[1]);
            }
            assertEquals(MsgClasses.REFRESH, received.msgClass(), received::toString);
            assertEquals(StreamStates.OPEN, received.streamState());
            assertEquals(DataStates.OK, received.dataState());
            assertEquals(42L, received.mantissa(FieldIds.TRDVOL_1));
            assertFalse(0 != (received.flags() & RefreshMsgFlags.SOLICITED), "recovery refresh is unsolicited");
        }
    }

    @Test
    void batchRequestOpensStreamsAfterTheBatchIdAndBatchCloseClosesThem()
    {
        launch(context());
        final EtaConsumer consumer = consumer("alice");
        consumer.requestBatch(10, SERVICE_ID, true, "TRI.N", "IBM.N", "MSFT.O");
        final EtaMessage batchStatus = awaitOn(consumer, 10);
        assertEquals(MsgClasses.STATUS, batchStatus.msgClass());
        assertEquals(StreamStates.CLOSED, batchStatus.streamState());
        assertEquals("Stream closed for batch", batchStatus.text());
        assertRefresh(awaitOn(consumer, 11), 11, StreamStates.OPEN, "TRI.N");
        assertRefresh(awaitOn(consumer, 12), 12, StreamStates.OPEN, "IBM.N");
        assertRefresh(awaitOn(consumer, 13), 13, StreamStates.OPEN, "MSFT.O");
        assertEquals(3, server.context().counters().watchlistEntries().get());

        consumer.closeBatch(11, 11, 13);
        MdTests.await("two closes", () -> 2 == source.closes.get());
        assertEquals(1, server.context().counters().watchlistEntries().get());
        source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, 1);
        source.update(SERVICE_ID, "IBM.N", 0, FieldIds.BID, 20001);
        final EtaMessage update = consumer.awaitMessage();
        assertEquals(12, update.streamId(), "only the still open stream updates");
        assertEquals(20001L, update.mantissa(FieldIds.BID));
    }

    @Test
    void unknownServiceAndUnknownItemAreClosedWithTheirCodes()
    {
        launch(context());
        final EtaConsumer consumer = consumer("alice");
        consumer.requestItem(5, 99, "TRI.N", true);
        final EtaMessage unknownService = awaitOn(consumer, 5);
        assertEquals(MsgClasses.STATUS, unknownService.msgClass());
        assertEquals(StreamStates.CLOSED, unknownService.streamState());
        assertEquals(DataStates.SUSPECT, unknownService.dataState());
        assertEquals(StateCodes.SOURCE_UNKNOWN, unknownService.code());

        consumer.requestItem(6, SERVICE_ID, "NOPE.N", true);
        final EtaMessage notFound = awaitOn(consumer, 6);
        assertEquals(MsgClasses.STATUS, notFound.msgClass());
        assertEquals(StreamStates.CLOSED, notFound.streamState());
        assertEquals(StateCodes.NOT_FOUND, notFound.code());
        final P2pCounters counters = server.context().counters();
        MdTests.await("rejections counted", () -> 1 == counters.rejected(RejectReason.UNKNOWN_SERVICE).get() &&
            1 == counters.rejected(RejectReason.NOT_FOUND).get());
        assertEquals(0, counters.itemsOpen().get());
        assertEquals(0, counters.watchlistEntries().get());
    }

    @Test
    void itemLimitsCloseOverLimitRequestsWithTooManyItems()
    {
        launch(context().maxItemsPerConsumer(2).maxItems(3));
        final EtaConsumer first = consumer("alice");
        first.requestItem(5, SERVICE_ID, "TRI.N", true);
        first.requestItem(6, SERVICE_ID, "IBM.N", true);
        first.requestItem(7, SERVICE_ID, "MSFT.O", true);
        assertRefresh(awaitOn(first, 5), 5, StreamStates.OPEN, "TRI.N");
        assertRefresh(awaitOn(first, 6), 6, StreamStates.OPEN, "IBM.N");
        final EtaMessage perConsumer = awaitOn(first, 7);
        assertEquals(StreamStates.CLOSED, perConsumer.streamState());
        assertEquals(StateCodes.TOO_MANY_ITEMS, perConsumer.code());
        assertTrue(perConsumer.text().contains("per consumer"), perConsumer.text());

        final EtaConsumer second = consumer("bob");
        second.requestItem(5, SERVICE_ID, "MSFT.O", true);
        assertRefresh(awaitOn(second, 5), 5, StreamStates.OPEN, "MSFT.O");
        second.requestItem(6, OTHER_SERVICE_ID, "VOD.L", true);
        final EtaMessage aggregate = awaitOn(second, 6);
        assertEquals(StreamStates.CLOSED, aggregate.streamState());
        assertEquals(StateCodes.TOO_MANY_ITEMS, aggregate.code());
        assertTrue(aggregate.text().contains("Server item limit"), aggregate.text());
        second.requestItem(7, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(second, 7), 7, StreamStates.OPEN, "TRI.N");
        assertEquals(3, server.context().counters().itemsOpen().get());
    }

    @Test
    void providerRoleLoginIsRejectedAndDisconnected()
    {
        launch(context());
        final EtaConsumer provider = EtaConsumer.connect(server.port());
        closeables.add(provider);
        provider.sendLogin("nip", true);
        final EtaMessage status = provider.awaitMessage();
        assertEquals(MsgClasses.STATUS, status.msgClass());
        assertEquals(DomainTypes.LOGIN, status.domainType());
        assertEquals(StreamStates.CLOSED, status.streamState());
        assertEquals(DataStates.SUSPECT, status.dataState());
        assertTrue(status.text().contains("Provider logins are not accepted"), status.text());
        provider.awaitClosed();
        final P2pCounters counters = server.context().counters();
        MdTests.await("counted", () -> 1 == counters.rejected(RejectReason.PROVIDER_LOGIN).get() &&
            1 == counters.disconnects(DisconnectReason.LOGIN_REJECTED).get());
        final EtaConsumer consumer = consumer("alice");
        consumer.requestItem(5, SERVICE_ID, "TRI.N", true);
        assertNotNull(awaitOn(consumer, 5));
    }

    @Test
    @InterruptAfter(60)
    void consumerThatNeverReadsIsDisconnectedWhileOthersReceiveEveryUpdate() throws Exception
    {
        launch(context().maxOutputBytes(64 * 1024).slowConsumerTimeoutNs(java.util.concurrent.TimeUnit.SECONDS
            .toNanos(2)));
        final EtaConsumer good = consumer("good");
        good.requestItem(5, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(good, 5), 5, StreamStates.OPEN, "TRI.N");

        final RawRipcConsumer slow = new RawRipcConsumer(server.port());
        closeables.add(slow);
        slow.login("slow");
        slow.requestItem(5, SERVICE_ID, "TRI.N");
        slow.requestItem(6, SERVICE_ID, "IBM.N");
        final P2pCounters counters = server.context().counters();
        MdTests.await("the slow consumer's streams", () -> 3 == counters.watchlistEntries().get());

        long expected = 1;
        int published = 0;
        final int maxRounds = 20_000;
        final int maxOutstanding = 8;
        while (0 == counters.disconnects(DisconnectReason.SLOW_CONSUMER).get() && published < maxRounds)
        {
            source.update(SERVICE_ID, "TRI.N", 1000, FieldIds.TRDVOL_1, ++published);
            // the good consumer keeps up: it never has more than a few updates outstanding
            while (expected <= published - maxOutstanding)
            {
                assertEquals(expected++, awaitOn(good, 5).mantissa(FieldIds.TRDVOL_1), "good consumer in order");
            }
        }
        assertEquals(1, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get(), "published " + published);
        for (int i = 0; i < 100; i++)
        {
            source.update(SERVICE_ID, "TRI.N", 1000, FieldIds.TRDVOL_1, ++published);
        }
        while (expected <= published)
        {
            assertEquals(expected++, awaitOn(good, 5).mantissa(FieldIds.TRDVOL_1), "good consumer in order");
        }
        assertEquals(1, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get(), "only the slow one");
        MdTests.await("the slow consumer's socket closed", slow::isClosedByServer);
        MdTests.await("its streams gone", () -> 1 == counters.watchlistEntries().get());
        assertEquals(1, counters.connectionsActive().get());
    }

    @Test
    @InterruptAfter(60)
    void aConsumerThatStopsReadingWithLittleQueuedIsDisconnectedAtTheSlowConsumerTimeoutNotItsPingTimeout()
        throws Exception
    {
        // a 64 MiB limit: its channel turns unwritable only past 32 MiB queued
        launch(context().maxOutputBytes(64 << 20)
            .slowConsumerTimeoutNs(java.util.concurrent.TimeUnit.SECONDS.toNanos(1))
            .ripcContext(new RipcServer.Context().pingTimeoutNs(java.util.concurrent.TimeUnit.SECONDS.toNanos(60))));
        final RawRipcConsumer slow = new RawRipcConsumer(server.port());
        closeables.add(slow);
        slow.login("stops-reading");
        slow.requestItem(5, SERVICE_ID, "TRI.N");
        final P2pCounters counters = server.context().counters();
        MdTests.await("the consumer's stream", () -> 1 == counters.watchlistEntries().get());

        // 20 MB: more than the sockets hold, far less than would make its channel unwritable
        final long startNs = System.nanoTime();
        for (int i = 0; i < 5_000 && 0 == counters.disconnects(DisconnectReason.SLOW_CONSUMER).get(); i++)
        {
            source.update(SERVICE_ID, "TRI.N", 4_000, FieldIds.TRDVOL_1, i);
        }
        MdTests.await("disconnected as slow", () -> 1 == counters.disconnects(DisconnectReason.SLOW_CONSUMER).get());
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
        assertTrue(elapsedMs < 10_000, "at the 1 s slow-consumer timeout, not the 60 s ping timeout: " + elapsedMs);
        MdTests.await("the slow consumer's socket closed", slow::isClosedByServer);
        MdTests.await("its stream gone", () -> 0 == counters.watchlistEntries().get());
    }

    @Test
    void malformedMessagesCloseTheStreamOrTheConnectionOfThatConsumerOnly()
    {
        launch(context());
        final EtaConsumer bad = consumer("bad");
        final EtaConsumer good = consumer("good");
        good.requestItem(5, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(good, 5), 5, StreamStates.OPEN, "TRI.N");

        // REQUEST on MarketPrice stream 9 whose header length runs past the message
        bad.writeRaw(new byte[]{0x00, 0x40, 0x01, 0x06, 0x00, 0x00, 0x00, 0x09, 0x04, 0x00});
        final EtaMessage closed = awaitOn(bad, 9);
        assertEquals(MsgClasses.STATUS, closed.msgClass());
        assertEquals(StreamStates.CLOSED, closed.streamState());
        assertEquals(StateCodes.USAGE_ERROR, closed.code());
        assertTrue(closed.text().startsWith("Malformed message"), closed.text());
        bad.requestItem(10, SERVICE_ID, "IBM.N", true);
        assertRefresh(awaitOn(bad, 10), 10, StreamStates.OPEN, "IBM.N");

        bad.writeRaw(new byte[]{0x00, 0x01, 0x02});
        bad.awaitClosed();
        final P2pCounters counters = server.context().counters();
        MdTests.await("counted", () -> 1 == counters.disconnects(DisconnectReason.MALFORMED_MESSAGE).get() &&
            1 == counters.rejected(RejectReason.MALFORMED_REQUEST).get());
        source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, 7);
        assertEquals(7L, awaitOn(good, 5).mantissa(FieldIds.TRDVOL_1));
    }

    @Test
    void messagesTheServerDoesNotTakeAreCountedAndLeaveTheStreamOpen()
    {
        launch(context());
        final EtaConsumer consumer = consumer("poster");
        consumer.requestItem(5, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(consumer, 5), 5, StreamStates.OPEN, "TRI.N");

        // a generic message and a post on the open item stream, and a generic message on the login stream: this
        // source carries neither posts nor generic messages, so the post is refused (NAK) and the others ignored
        consumer.writeRaw(genericMsg(5, DomainTypes.MARKET_PRICE));
        consumer.writeRaw(EtaChannel.encode((iterator) ->
        {
            final PostMsg post = (PostMsg)CodecFactory.createMsg();
            post.msgClass(MsgClasses.POST);
            post.domainType(DomainTypes.MARKET_PRICE);
            post.streamId(5);
            post.containerType(DataTypes.NO_DATA);
            post.applyPostComplete();
            post.applyAck();
            post.applyHasPostId();
            post.postId(1);
            return post.encode(iterator);
        }));
        consumer.writeRaw(genericMsg(1, DomainTypes.LOGIN));

        final P2pCounters counters = server.context().counters();
        final EtaMessage nak = awaitOn(consumer, 5);
        assertEquals(MsgClasses.ACK, nak.msgClass(), nak::toString);
        assertEquals(NakCodes.DENIED_BY_SRC, ((AckMsg)nak.msg()).nakCode());
        assertEquals(1, ((AckMsg)nak.msg()).ackId());
        MdTests.await("two messages ignored", () -> 2 == counters.messagesIgnored().get());
        assertEquals(1, counters.postsRefused().get());
        source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, 9);
        assertEquals(9L, awaitOn(consumer, 5).mantissa(FieldIds.TRDVOL_1), "the stream carries on");
        assertEquals(0, counters.disconnects(DisconnectReason.MALFORMED_MESSAGE).get());
    }

    private static byte[] genericMsg(final int streamId, final int domainType)
    {
        return EtaChannel.encode((iterator) ->
        {
            final GenericMsg generic = (GenericMsg)CodecFactory.createMsg();
            generic.msgClass(MsgClasses.GENERIC);
            generic.domainType(domainType);
            generic.streamId(streamId);
            generic.containerType(DataTypes.NO_DATA);
            generic.applyMessageComplete();
            return generic.encode(iterator);
        });
    }

    @Test
    void jmxListsConnectionsAndDropsOne() throws Exception
    {
        launch(context());
        final EtaConsumer first = consumer("alice");
        final EtaConsumer second = consumer("bob");
        first.requestItem(5, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(first, 5), 5, StreamStates.OPEN, "TRI.N");
        final javax.management.ObjectName name =
            io.mdhub.common.metrics.MBeans.objectName("P2pServer", server.context().componentName());
        assertTrue(io.mdhub.common.metrics.MBeans.server().isRegistered(name));
        assertEquals(2, io.mdhub.common.metrics.MBeans.server().getAttribute(name, "ConnectionCount"));

        final String[] connections = server.control().getConnections();
        assertEquals(2, connections.length);
        String alice = null;
        for (final String line : connections)
        {
            if (line.contains("user=alice"))
            {
                alice = line;
            }
        }
        assertNotNull(alice, String.join("\n", connections));
        assertTrue(alice.contains("watchlist=1"), alice);

        second.requestItem(6, SERVICE_ID, "IBM.N", true);
        awaitOn(second, 6);
        for (int i = 1; i <= 3; i++)
        {
            source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, i);
        }
        source.update(SERVICE_ID, "IBM.N", 0, FieldIds.BID, 1);
        for (int i = 0; i < 3; i++)
        {
            awaitOn(first, 5);
        }
        awaitOn(second, 6);
        final String[] services = (String[])io.mdhub.common.metrics.MBeans.server().getAttribute(name, "Services");
        assertEquals(1, services.length, String.join("\n", services));
        assertTrue(services[0].startsWith("id=" + SERVICE_ID + " name="), services[0]);
        assertTrue(services[0].contains(" items=2 updatesIn=4 updatesPerSecond="), services[0]);
        final String after = server.control().getServices()[0];
        assertTrue(after.contains(" updatesIn=4 updatesPerSecond=0"), "no update since the last call: " + after);
        final long id = Long.parseLong(alice.replaceAll(".* id=(\\d+) .*", "$1"));
        assertTrue(server.control().dropConnection(id));
        first.awaitClosed();
        assertFalse(server.control().dropConnection(id));
        MdTests.await("dropped", () -> 1 == server.context().counters().disconnects(DisconnectReason.ADMIN_DROP)
            .get() && 1 == server.control().getConnectionCount());
        second.requestItem(5, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(second, 5), 5, StreamStates.OPEN, "TRI.N");
    }

    @Test
    void eachListenerFlushesItsConnectionsByItsOwnProfile()
    {
        final long intervalMs = 2_000;
        launch(context().flushProfile(FlushProfile.LATENCY)
            .flushIntervalNs(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(intervalMs))
            .extraListeners(List.of(new ConsumerListener(0, FlushProfile.THROUGHPUT))));
        final EtaConsumer immediate = consumer("immediate");
        final EtaConsumer timed = EtaConsumer.connect(server.port(1));
        closeables.add(timed);
        assertEquals(StreamStates.OPEN, timed.login("timed").state().streamState(), "answered on a timer tick");
        immediate.requestItem(5, SERVICE_ID, "TRI.N", true);
        awaitOn(immediate, 5);
        timed.requestItem(7, SERVICE_ID, "TRI.N", true);
        awaitOn(timed, 7); // arrives on a tick: the next one is a whole interval away

        source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, 1);
        assertEquals(MsgClasses.UPDATE, awaitOn(immediate, 5).msgClass(), "the latency listener flushes at once");
        assertNull(timed.pollMessage(7, Duration.ofMillis(intervalMs / 4)),
            "the throughput listener's connection waits for its flush timer");
        final EtaMessage update = timed.awaitMessage(7, Duration.ofMillis(intervalMs * 3));
        assertEquals(MsgClasses.UPDATE, update.msgClass(), "then the timer flushes it");
    }

    @Test
    void listenersAndOutputLimitsAreCheckedWhenConfigured()
    {
        assertEquals(List.of(new ConsumerListener(14012, FlushProfile.THROUGHPUT),
                new ConsumerListener(14022, FlushProfile.LATENCY)),
            ConsumerListener.parseList(" 14012:throughput, 14022:LATENCY"));
        assertTrue(ConsumerListener.parseList(" ").isEmpty());
        for (final String bad : List.of("14012", "x:latency", "14012:fast", "70000:latency"))
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> ConsumerListener.parseList(bad));
            assertTrue(ex.getMessage().startsWith(P2pConfiguration.EXTRA_LISTENERS_PROP_NAME + ": bad entry"),
                ex.getMessage());
        }
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
            () -> context().port(14012).extraListeners(List.of(new ConsumerListener(14012, FlushProfile.THROUGHPUT)))
                .conclude());
        assertTrue(twice.getMessage().contains("port 14012 is listed twice"), twice.getMessage());
        final IllegalArgumentException guaranteed = assertThrows(IllegalArgumentException.class,
            () -> context().maxOutputBytes(1 << 20).guaranteedOutputBytes(2 << 20).conclude());
        assertTrue(guaranteed.getMessage().contains(P2pConfiguration.GUARANTEED_OUTPUT_BYTES_PROP_NAME),
            guaranteed.getMessage());
        final P2pServer.Context defaults = context().maxOutputBytes(1 << 20);
        defaults.conclude();
        assertEquals(1 << 19, defaults.guaranteedOutputBytes(), "half of the maximum by default");
        defaults.close();
    }

    @Test
    void severalWorkersWithTheThroughputProfileFanOutToEveryConsumer()
    {
        launch(context().workers(2).flushProfile(FlushProfile.THROUGHPUT)
            .flushIntervalNs(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(5)));
        final List<EtaConsumer> consumers = new ArrayList<>();
        for (int c = 0; c < 4; c++)
        {
            final EtaConsumer consumer = consumer("user" + c);
            consumer.requestItem(5 + c, SERVICE_ID, "TRI.N", true);
            assertRefresh(awaitOn(consumer, 5 + c), 5 + c, StreamStates.OPEN, "TRI.N");
            consumers.add(consumer);
        }
        assertEquals(2, source.opens.get(), "one open per worker: each worker has its own item source");
        assertEquals(2, server.context().counters().itemsOpen().get());
        final int updates = 300;
        for (int i = 1; i <= updates; i++)
        {
            source.update(SERVICE_ID, "TRI.N", 0, FieldIds.TRDVOL_1, i);
        }
        for (int c = 0; c < consumers.size(); c++)
        {
            for (int i = 1; i <= updates; i++)
            {
                final EtaMessage update = awaitOn(consumers.get(c), 5 + c);
                assertEquals((long)i, update.mantissa(FieldIds.TRDVOL_1));
            }
        }
    }

    private static Service service(final List<Service> services, final int serviceId)
    {
        for (final Service service : services)
        {
            if (service.serviceId() == serviceId)
            {
                return service;
            }
        }
        throw new AssertionError("no service " + serviceId + " in " + services);
    }

    @Test
    void connectionsWithoutALoginAreClosedAtTheLoginTimeoutWhileLoggedInConsumersAreServed()
    {
        launch(context().loginTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300)));
        final P2pCounters counters = server.context().counters();
        final EtaConsumer healthy = consumer("healthy");

        final EtaConsumer silent = EtaConsumer.connect(server.port()); // handshakes, answers pings, never logs in
        closeables.add(silent);
        silent.awaitClosed();
        MdTests.await("the silent one counted", () -> 1 == counters.disconnects(DisconnectReason.LOGIN_TIMEOUT).get());

        final EtaConsumer leaving = consumer("leaving");
        final CloseMsg logoff = (CloseMsg)CodecFactory.createMsg();
        logoff.msgClass(MsgClasses.CLOSE);
        logoff.domainType(DomainTypes.LOGIN);
        logoff.streamId(EtaConsumer.LOGIN_STREAM);
        logoff.containerType(DataTypes.NO_DATA);
        leaving.channel().write(logoff::encode); // logged off, connection kept: the login clock starts again
        leaving.awaitClosed();
        MdTests.await("the logged-off one counted", () ->
            2 == counters.disconnects(DisconnectReason.LOGIN_TIMEOUT).get());

        healthy.requestItem(5, SERVICE_ID, "TRI.N", true);
        assertRefresh(awaitOn(healthy, 5), 5, StreamStates.OPEN, "TRI.N");
        assertEquals(2, counters.disconnects(DisconnectReason.LOGIN_TIMEOUT).get(), "the logged-in one stays");
    }
}
