package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;

/**
 * A real ETA 3.9.1.0 consumer connected straight to the {@link InteractiveSource}: login, directory, streaming item
 * requests answered by refreshes in the level-1 layout, per-item update counters without gaps, closes, snapshots,
 * reissues, batches, dictionaries and refusals.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class InteractiveSourceTest
{
    private static final int SERVICE_ID = 7;
    private static final String SERVICE = "SINK_TEST";

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private InteractiveSource source;

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != source)
        {
            source.close();
        }
    }

    private void launch(final long rate)
    {
        launch(rate, true);
    }

    private void launch(final long rate, final boolean packOutbound)
    {
        source = InteractiveSource.launch(new InteractiveSource.Context()
            .port(0)
            .componentName("sink-test")
            .serviceName(SERVICE)
            .serviceId(SERVICE_ID)
            .rate(rate)
            .timestampEvery(5)
            .packOutbound(packOutbound));
    }

    private EtaConsumer consumer(final String user)
    {
        final EtaConsumer consumer = EtaConsumer.connect(source.port());
        closeables.add(consumer);
        final LoginRefresh refresh = consumer.login(user);
        assertEquals(StreamStates.OPEN, refresh.state().streamState());
        assertEquals(DataStates.OK, refresh.state().dataState());
        return consumer;
    }

    @Test
    void answersLoginDirectoryItemsThenUpdatesClosesSnapshotsAndReissues()
    {
        launch(600);
        final EtaConsumer consumer = EtaConsumer.connect(source.port());
        closeables.add(consumer);
        final LoginRefresh login = consumer.login("sink-tester");
        assertEquals(StreamStates.OPEN, login.state().streamState());
        assertTrue(login.checkSolicited());
        assertEquals(1, login.features().supportBatchRequests());
        assertEquals(0, login.features().supportViewRequests());

        assertDirectory(consumer);

        final String[] names = {"AAA.N", "BBB.N", "CCC.N"};
        for (int i = 0; i < names.length; i++)
        {
            consumer.requestItem(10 + i, SERVICE_ID, names[i]);
        }
        for (int i = 0; i < names.length; i++)
        {
            final EtaMessage refresh = consumer.awaitMessage(10 + i);
            assertRefresh(refresh, 10 + i, StreamStates.OPEN, names[i]);
            assertEquals(0, refresh.uint(FieldIds.MDH_UPDSEQ));
            assertEquals(names[i], refresh.string(FieldIds.DSPLY_NAME));
            for (final int fid : new int[]{FieldIds.PROD_PERM, FieldIds.TRDPRC_1, FieldIds.BID, FieldIds.ASK,
                FieldIds.BIDSIZE, FieldIds.ASKSIZE, FieldIds.ACVOL_1})
            {
                assertTrue(refresh.has(fid), () -> "field " + fid + " in " + refresh);
            }
        }

        // updates: every item's counter runs 1, 2, 3... and some carry the origin time
        int timestamped = 0;
        final long[] lastSeq = new long[names.length];
        for (int round = 0; round < 10; round++)
        {
            for (int i = 0; i < names.length; i++)
            {
                final EtaMessage update = consumer.awaitMessage(10 + i);
                assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
                assertEquals(lastSeq[i] + 1, update.uint(FieldIds.MDH_UPDSEQ), update::toString);
                lastSeq[i]++;
                if (update.has(FieldIds.MDH_ORGTIM))
                {
                    timestamped++;
                    final long ageNs = System.nanoTime() - update.intValue(FieldIds.MDH_ORGTIM);
                    assertTrue(ageNs > 0 && ageNs < 30_000_000_000L, "origin time is this host's nanoTime");
                }
            }
        }
        assertTrue(timestamped > 0, "every 5th update carries MDH_ORGTIM");
        assertEquals(3, source.stats().openItems());

        // close BBB.N: its updates stop; a snapshot answers with one NonStreaming refresh and nothing after
        consumer.closeItem(11);
        MdTests.await("the close to be handled", () -> 1 == source.stats().closes());
        consumer.requestSnapshot(20, SERVICE_ID, "SNAP.N");
        final EtaMessage snapshot = consumer.awaitMessage(20);
        assertRefresh(snapshot, 20, StreamStates.NON_STREAMING, "SNAP.N");
        assertEquals(0, snapshot.uint(FieldIds.MDH_UPDSEQ));
        drain(consumer); // everything sent before the snapshot's refresh, stream 11's last updates included
        for (int i = 0; i < 20; i++)
        {
            assertEquals(MsgClasses.UPDATE, consumer.awaitMessage(10).msgClass());
        }
        assertNull(consumer.pollMessage(11, Duration.ZERO), "no update after the close");
        assertNull(consumer.pollMessage(20, Duration.ZERO), "nothing after a snapshot");
        assertEquals(2, source.stats().openItems());

        // reissue CCC.N: a solicited refresh with the current counter, and the updates go on from it
        long last = -1;
        consumer.requestItem(12, SERVICE_ID, "CCC.N");
        EtaMessage message;
        while (MsgClasses.REFRESH != (message = consumer.awaitMessage(12)).msgClass())
        {
            last = message.uint(FieldIds.MDH_UPDSEQ);
        }
        assertRefresh(message, 12, StreamStates.OPEN, "CCC.N");
        final long atRefresh = message.uint(FieldIds.MDH_UPDSEQ);
        assertTrue(atRefresh >= 10 && atRefresh >= last, "the counter continues: " + atRefresh + " after " + last);
        final EtaMessage next = consumer.awaitMessage(12);
        assertEquals(MsgClasses.UPDATE, next.msgClass());
        assertEquals(atRefresh + 1, next.uint(FieldIds.MDH_UPDSEQ));

        final InteractiveSourceStats stats = source.stats();
        assertEquals(5, stats.requests(), stats::toString);
        assertEquals(1, stats.reissues(), stats::toString);
        assertEquals(1, stats.snapshots(), stats::toString);
        assertEquals(5, stats.refreshesSent(), stats::toString);
        assertEquals(1, stats.connections(), stats::toString);
        assertEquals(1, stats.logins(), stats::toString);
        assertEquals(0, stats.rejected() + stats.malformed(), stats::toString);
        assertTrue(stats.updatesSent() >= 60, stats::toString);
    }

    /**
     * Updates are packed straight into the RIPC encoder's frame; a connection that does not pack gets each in a frame
     * of its own, the same bytes.
     */
    @ParameterizedTest(name = "packed {0}")
    @ValueSource(booleans = {true, false})
    void updatesArriveInOrderPackedOrNot(final boolean packOutbound)
    {
        launch(4000, packOutbound);
        final EtaConsumer consumer = consumer("updates");
        final String[] names = {"P1.N", "P2.N"};
        for (int i = 0; i < names.length; i++)
        {
            consumer.requestItem(60 + i, SERVICE_ID, names[i]);
            assertRefresh(consumer.awaitMessage(60 + i), 60 + i, StreamStates.OPEN, names[i]);
        }
        int timestamped = 0;
        for (int round = 1; round <= 200; round++)
        {
            for (int i = 0; i < names.length; i++)
            {
                final EtaMessage update = consumer.awaitMessage(60 + i);
                assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
                assertEquals(round, update.uint(FieldIds.MDH_UPDSEQ), update::toString);
                assertTrue(update.has(FieldIds.BID) && update.has(FieldIds.ACVOL_1), update::toString);
                timestamped += update.has(FieldIds.MDH_ORGTIM) ? 1 : 0;
            }
        }
        // every 5th update of the connection: P1's first few went out before P2 opened, so about 80 of these 400
        final int timestampedUpdates = timestamped;
        assertTrue(timestampedUpdates >= 60 && timestampedUpdates <= 100, () -> timestampedUpdates + " timestamped");
        assertEquals(0, source.stats().malformed(), () -> source.stats().toString());
    }

    @Test
    void batchRequestOpensEveryItemAndBatchCloseClosesThem()
    {
        launch(300);
        final EtaConsumer consumer = consumer("batch");
        consumer.requestBatch(30, SERVICE_ID, true, "B1.N", "B2.N", "B3.N");
        final EtaMessage batchStatus = consumer.awaitMessage(30);
        assertEquals(MsgClasses.STATUS, batchStatus.msgClass(), batchStatus::toString);
        assertEquals(StreamStates.CLOSED, batchStatus.streamState());
        for (int i = 0; i < 3; i++)
        {
            assertRefresh(consumer.awaitMessage(31 + i), 31 + i, StreamStates.OPEN, "B" + (i + 1) + ".N");
        }
        assertEquals(3, source.stats().openItems());
        assertEquals(1, source.stats().batchRequests());

        consumer.closeBatch(31, 31, 33);
        MdTests.await(() -> "batch close handled: " + source.stats(), () -> 2 == source.stats().closes());
        assertEquals(1, source.stats().openItems());

        // a batch of snapshots: NonStreaming refreshes, nothing left open
        consumer.requestBatch(40, SERVICE_ID, false, "S1.N", "S2.N");
        assertEquals(MsgClasses.STATUS, consumer.awaitMessage(40).msgClass());
        assertRefresh(consumer.awaitMessage(41), 41, StreamStates.NON_STREAMING, "S1.N");
        assertRefresh(consumer.awaitMessage(42), 42, StreamStates.NON_STREAMING, "S2.N");
        assertEquals(1, source.stats().openItems());
    }

    @Test
    void servesTheDictionariesAndRefusesOtherDomainsAndUnknownServices()
    {
        launch(0);
        final EtaConsumer consumer = consumer("admin");
        final DataDictionary downloaded = consumer.downloadDictionary(SERVICE_ID, 3, 4);
        assertEquals(DictionaryLoader.loadBundled().numberOfEntries(), downloaded.numberOfEntries(),
            "every field definition of the shipped dictionary");
        assertEquals(FieldIds.MDH_UPDSEQ, downloaded.entry(FieldIds.MDH_UPDSEQ).fid());

        consumer.channel().write((it) ->
        {
            final RequestMsg request = (RequestMsg)CodecFactory.createMsg();
            request.msgClass(MsgClasses.REQUEST);
            request.domainType(DomainTypes.MARKET_BY_ORDER);
            request.streamId(50);
            request.containerType(DataTypes.NO_DATA);
            request.flags(RequestMsgFlags.STREAMING);
            request.msgKey().applyHasServiceId();
            request.msgKey().serviceId(SERVICE_ID);
            request.msgKey().applyHasName();
            request.msgKey().name().data("BOOK.N");
            return request.encode(it);
        });
        final EtaMessage refused = consumer.awaitMessage(50);
        assertEquals(MsgClasses.STATUS, refused.msgClass(), refused::toString);
        assertEquals(DomainTypes.MARKET_BY_ORDER, refused.domainType());
        assertEquals(StreamStates.CLOSED, refused.streamState());
        assertEquals(StateCodes.NOT_FOUND, refused.code());

        consumer.requestItem(51, SERVICE_ID + 1, "AAA.N");
        final EtaMessage unknownService = consumer.awaitMessage(51);
        assertEquals(MsgClasses.STATUS, unknownService.msgClass(), unknownService::toString);
        assertEquals(StateCodes.SOURCE_UNKNOWN, unknownService.code());

        consumer.requestDirectory(52, Directory.ServiceFilterFlags.INFO, false, SERVICE_ID + 1);
        assertEquals(StateCodes.SOURCE_UNKNOWN, consumer.awaitMessage(52).code());
        assertEquals(0, source.stats().openItems());
        assertEquals(3, source.stats().rejected());
    }

    private static void assertDirectory(final EtaConsumer consumer)
    {
        consumer.requestDirectory(2, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        final EtaMessage directory = consumer.awaitMessage(2);
        assertEquals(MsgClasses.REFRESH, directory.msgClass(), directory::toString);
        assertEquals(List.of(SERVICE), directory.serviceNames());
        final Service service = directory.directoryRefresh().serviceList().get(0);
        assertEquals(SERVICE_ID, service.serviceId());
        assertTrue(service.info().capabilitiesList().contains((long)DomainTypes.MARKET_PRICE));
        assertEquals(1, service.state().serviceState());
        assertEquals(1, service.state().acceptingRequests());
        assertFalse(service.checkHasLoad(), "LOAD was not asked for");
    }

    private static void assertRefresh(
        final EtaMessage refresh, final int streamId, final int streamState, final String name)
    {
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(DomainTypes.MARKET_PRICE, refresh.domainType());
        assertEquals(streamId, refresh.streamId());
        assertEquals(streamState, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertTrue(0 != (refresh.flags() & RefreshMsgFlags.SOLICITED), refresh::toString);
        assertTrue(0 != (refresh.flags() & RefreshMsgFlags.REFRESH_COMPLETE), refresh::toString);
        assertEquals(SERVICE_ID, refresh.keyServiceId(), refresh::toString);
        assertEquals(name, refresh.keyName());
    }

    private static void drain(final EtaConsumer consumer)
    {
        for (int i = 0; i < 1_000_000 && null != consumer.poll(); i++)
        {
            MdTests.checkInterrupted("draining");
        }
    }
}
