package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.ema.access.ElementList;
import com.refinitiv.ema.access.EmaFactory;
import com.refinitiv.ema.access.FieldEntry;
import com.refinitiv.ema.access.FieldList;
import com.refinitiv.ema.access.OmmArray;
import com.refinitiv.ema.access.OmmReal;
import com.refinitiv.ema.access.OmmState;
import com.refinitiv.ema.access.ReqMsg;
import com.refinitiv.ema.rdm.EmaRdm;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.ema.EmaMessage;
import io.mdhub.common.test.ema.EmaTestConsumer;
import io.mdhub.common.test.ema.EmaTestNiProvider;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * Real EMA 3.9.1.0 applications, configured with EMA's defaults except where to connect, over MDHub's whole path: an
 * EMA non-interactive provider (and an ETA one) publish into the distributor, the distributor publishes onto the
 * Aeron backbone (embedded driver), and the p2p-server (fed through {@link BackboneItemSourceFactory}) serves EMA
 * consumers, which log in, read the source directory, download the data dictionary from the p2p-server and run their
 * watchlist as any LSEG application does, and ETA consumers. Every value is checked exactly with the type the
 * receiving application's dictionary gives it. The servers and providers are shared by the tests of the class; each
 * test publishes its own items and opens its own consumers. Beyond streaming: batch + view next to a full consumer
 * of the same item, and an on-stream post acknowledged to the poster and published to another consumer.
 */
@ExtendWith(EtaTransportExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InterruptAfter(60)
class FullPathEmaTest
{
    private static final String EMA_SERVICE = "EMA_NI_PUB";
    private static final int EMA_SERVICE_ID = 2;
    private static final String ETA_SERVICE = "ETA_NI_PUB";
    private static final int ETA_SERVICE_ID = 1;
    private static final Duration QUIET = Duration.ofMillis(300);
    private static final int E_2 = OmmReal.MagnitudeType.EXPONENT_NEG_2;
    private static final int E0 = OmmReal.MagnitudeType.EXPONENT_0;

    private FullPathServers servers;
    private Distributor distributor;
    private P2pServer p2p;
    private EtaNiProvider etaProvider;
    private EmaTestNiProvider emaProvider;
    private final List<EtaConsumer> etaConsumers = new ArrayList<>();
    private final List<EmaTestConsumer> emaConsumers = new ArrayList<>();
    private int nextEtaProviderStream = -2;
    private int itemsPublished;

    @BeforeAll
    void launch(@TempDir final Path dir)
    {
        servers = FullPathServers.launch(dir, "full-path-ema");
        distributor = servers.distributor();
        p2p = servers.p2p();

        emaProvider = EmaTestNiProvider.connect(distributor.port(), EMA_SERVICE, EMA_SERVICE_ID);
        etaProvider = EtaNiProvider.connect(distributor.port());
        etaProvider.login("eta-nip");
        etaProvider.publishDirectory(ETA_SERVICE_ID, ETA_SERVICE);

        // an EMA consumer's initialisation needs a service to download the dictionary from: wait for both
        etaConsumer("directory-check", EMA_SERVICE);
        etaConsumer("directory-check", ETA_SERVICE);
        closeConsumers();
    }

    @AfterEach
    void closeConsumers()
    {
        try
        {
            CloseHelper.closeAll(emaConsumers);
            CloseHelper.closeAll(etaConsumers);
        }
        finally
        {
            emaConsumers.clear();
            etaConsumers.clear();
            if (null != etaProvider)
            {
                etaProvider.service();
            }
        }
    }

    @AfterAll
    void close()
    {
        CloseHelper.closeAll(emaProvider, etaProvider, servers);
    }

    // ------------------------------------------------------------------ (a) EMA provider -> ETA consumer

    @Test
    void emaNiProviderPublishesAndAnEtaConsumerSeesExactValues()
    {
        final Level1 item = new Level1("EMA NIP LEVEL ONE", 12344, 12346);
        final long handle = publishEma("EA1.N", item);
        final EtaItemConsumer consumer = etaConsumer("eta-a", EMA_SERVICE);

        consumer.eta.requestItem(5, consumer.serviceId, "EA1.N");
        final EtaMessage refresh = consumer.eta.awaitMessage(5);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertTrue(refresh.isSolicited(), refresh::toString);
        assertTrue(refresh.isRefreshComplete(), refresh::toString);
        assertEquals(consumer.serviceId, refresh.keyServiceId());
        assertEquals("EA1.N", refresh.keyName());
        item.assertIn(refresh);

        final int updates = 200;
        for (int seq = 1; seq <= updates; seq++)
        {
            emaProvider.update(handle, fields(
                entry().uintValue(FieldIds.MDH_UPDSEQ, seq),
                real(FieldIds.BID, 12_344L + seq, E_2),
                entry().time(FieldIds.TRDTIM_1, 11, seq / 60, seq % 60, 7)));
        }
        for (int seq = 1; seq <= updates; seq++)
        {
            final EtaMessage update = consumer.eta.awaitMessage(5);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(List.of(FieldIds.MDH_UPDSEQ, FieldIds.BID, FieldIds.TRDTIM_1), update.fieldIds(),
                update::toString);
            assertEquals(seq, update.uint(FieldIds.MDH_UPDSEQ), () -> "in order, none lost: " + update);
            assertEquals(12_344L + seq, update.mantissa(FieldIds.BID));
            assertEquals(RealHints.EXPONENT_2, update.hint(FieldIds.BID));
            assertEquals(LocalTime.of(11, seq / 60, seq % 60, 7_000_000), update.time(FieldIds.TRDTIM_1));
        }
        assertNull(consumer.eta.pollMessage(5, QUIET), "no duplicate and no other message");
        final List<String> logins = emaProvider.loginMessages();
        assertEquals(1, logins.size(), logins::toString);
        assertTrue(logins.get(0).startsWith("refresh Open / Ok"), () -> "the EMA provider's login: " + logins);
    }

    // ------------------------------------------------------------------ (b) ETA provider -> EMA consumer

    @Test
    void emaConsumerWithDefaultsGetsTheExactImageAndEveryUpdateInOrder()
    {
        final Level1 item = new Level1("ETA NIP TO EMA", 5000, 5010);
        final int providerStream = publishEta("EB1.N", item);
        final EmaTestConsumer ema = emaConsumer("ema-b");
        final long login = ema.registerClient(EmaFactory.createReqMsg().domainType(EmaRdm.MMT_LOGIN));
        final EmaMessage loginRefresh = ema.awaitRefresh(login);
        assertEquals(OmmState.StreamState.OPEN, loginRefresh.streamState(), loginRefresh::toString);
        assertEquals(OmmState.DataState.OK, loginRefresh.dataState(), loginRefresh::toString);

        final long handle = ema.registerClient(EmaFactory.createReqMsg().serviceName(ETA_SERVICE).name("EB1.N"));
        final EmaMessage refresh = ema.awaitRefresh(handle);
        assertRefresh(refresh, OmmState.StreamState.OPEN, ETA_SERVICE, "EB1.N");
        item.assertIn(refresh);
        assertEquals("NYS", refresh.enumDisplay(FieldIds.RDN_EXCHID), "enum display from the downloaded tables");
        assertEquals("USD", refresh.enumDisplay(FieldIds.CURRENCY));
        assertEquals("MDH_ORGTIM", refresh.field(FieldIds.MDH_ORGTIM).name(), "MDHub's own fields downloaded");

        final int updates = 300;
        final EtaFieldLists fields = new EtaFieldLists();
        for (int seq = 1; seq <= updates; seq++)
        {
            etaProvider.update(providerStream, fields.begin(0, 0)
                .uint(FieldIds.MDH_UPDSEQ, seq)
                .real(FieldIds.BID, 5000L + seq, RealHints.EXPONENT_2)
                .real(FieldIds.ACVOL_1, 1_000_000L + 100L * seq, RealHints.EXPONENT0)
                .time(FieldIds.TRDTIM_1, 10, seq / 60, seq % 60, 3)
                .end());
        }
        for (int seq = 1; seq <= updates; seq++)
        {
            final EmaMessage update = ema.awaitUpdate(handle);
            assertEquals(List.of(FieldIds.MDH_UPDSEQ, FieldIds.BID, FieldIds.ACVOL_1, FieldIds.TRDTIM_1),
                update.fieldIds(), update::toString);
            assertEquals("EB1.N", update.name(), update::toString);
            assertEquals(seq, update.uint(FieldIds.MDH_UPDSEQ), () -> "in order, none lost: " + update);
            assertEquals(new EmaMessage.Real(5000L + seq, E_2),
                update.real(FieldIds.BID));
            assertEquals(new EmaMessage.Real(1_000_000L + 100L * seq, E0),
                update.real(FieldIds.ACVOL_1));
            assertEquals(LocalTime.of(10, seq / 60, seq % 60, 3_000_000), update.time(FieldIds.TRDTIM_1));
        }
        ema.pollNone(handle, QUIET);
        assertEquals(List.of(), ema.callbackFailures());
    }

    // ------------------------------------------------------------------ (c) batch

    @Test
    void emaBatchRequestGivesEveryItemItsRefreshOnItsOwnHandle()
    {
        final String[] names = {"EC1.N", "EC2.N", "EC3.N"};
        final Level1[] items = new Level1[names.length];
        final long[] providerHandles = new long[names.length];
        for (int k = 0; k < names.length; k++)
        {
            items[k] = new Level1("EMA BATCH ITEM " + k, 300 + k, 400 + k);
            providerHandles[k] = publishEma(names[k], items[k]);
        }
        final EmaTestConsumer ema = emaConsumer("ema-c");

        final long batchHandle = ema.registerClient(EmaFactory.createReqMsg()
            .serviceName(EMA_SERVICE)
            .payload(batch(names)));
        final long[] handles = new long[names.length];
        final Set<Long> distinct = new HashSet<>();
        for (int k = 0; k < names.length; k++)
        {
            handles[k] = ema.awaitHandle(names[k]);
            assertNotEquals(batchHandle, handles[k], "each item of the batch has its own handle");
            assertTrue(distinct.add(handles[k]), "each item of the batch has its own handle");
            final EmaMessage refresh = ema.awaitRefresh(handles[k]);
            assertRefresh(refresh, OmmState.StreamState.OPEN, EMA_SERVICE, names[k]);
            items[k].assertIn(refresh);
        }

        for (int k = 0; k < names.length; k++)
        {
            emaProvider.update(providerHandles[k], fields(real(FieldIds.BID, 900 + k, E_2)));
        }
        for (int k = 0; k < names.length; k++)
        {
            final EmaMessage update = ema.awaitUpdate(handles[k]);
            assertEquals(List.of(FieldIds.BID), update.fieldIds(), update::toString);
            assertEquals(900 + k, update.mantissa(FieldIds.BID), "one refresh per item, then its updates");
            ema.pollNone(handles[k], Duration.ZERO);
        }
        final EmaMessage closed = ema.awaitStatus(batchHandle);
        assertEquals(OmmState.StreamState.CLOSED, closed.streamState(), () -> "the batch's own stream: " + closed);
        assertEquals(OmmState.DataState.OK, closed.dataState(), closed::toString);
        assertEquals("Stream closed for batch", closed.statusText(), closed::toString);
        ema.pollNone(batchHandle, QUIET);
        assertEquals(List.of(), ema.callbackFailures());
    }

    // ------------------------------------------------------------------ (d) snapshots

    @Test
    void emaSnapshotGetsOneNonStreamingRefreshAndNothingAfterIt()
    {
        final Level1 watched = new Level1("EMA WATCHED", 5000, 5010);
        final long watchedHandle = publishEma("ED1.N", watched);
        final Level1 unwatched = new Level1("EMA UNWATCHED", 7000, 7010);
        final long unwatchedHandle = publishEma("ED2.N", unwatched);
        final EmaTestConsumer ema = emaConsumer("ema-d");

        // a snapshot of an item nobody watches
        final long snapshot = ema.registerClient(snapshotOf(EMA_SERVICE, "ED2.N"));
        final EmaMessage only = ema.awaitRefresh(snapshot);
        assertRefresh(only, OmmState.StreamState.NON_STREAMING, EMA_SERVICE, "ED2.N");
        unwatched.assertIn(only);
        emaProvider.update(unwatchedHandle, fields(real(FieldIds.ASK, 7011, E_2)));
        ema.pollNone(snapshot, QUIET);

        // a snapshot of an item the same consumer streams: its watchlist shares the stream
        final long streaming = ema.registerClient(EmaFactory.createReqMsg().serviceName(EMA_SERVICE).name("ED1.N"));
        final EmaMessage image = ema.awaitRefresh(streaming);
        assertRefresh(image, OmmState.StreamState.OPEN, EMA_SERVICE, "ED1.N");
        watched.assertIn(image);
        watched.bid = 5001;
        emaProvider.update(watchedHandle, fields(real(FieldIds.BID, 5001, E_2)));
        assertEquals(5001, ema.awaitUpdate(streaming).mantissa(FieldIds.BID));
        final long snapshotOfWatched = ema.registerClient(snapshotOf(EMA_SERVICE, "ED1.N"));
        final EmaMessage current = ema.awaitRefresh(snapshotOfWatched);
        assertRefresh(current, OmmState.StreamState.NON_STREAMING, EMA_SERVICE, "ED1.N");
        watched.assertIn(current);
        emaProvider.update(watchedHandle, fields(real(FieldIds.BID, 5002, E_2)));
        final EmaMessage next = ema.awaitMessage(streaming);
        assertEquals(EmaMessage.Kind.UPDATE, next.kind(), () -> "the streaming request only updates: " + next);
        assertEquals(5002, next.mantissa(FieldIds.BID));
        ema.pollNone(snapshotOfWatched, QUIET);
        ema.pollNone(streaming, Duration.ZERO);
        assertEquals(List.of(), ema.callbackFailures());
    }

    // ------------------------------------------------------------------ (e) batch + view

    @Test
    void emaBatchWithViewGetsOnlyTheViewFieldsWhileAFullConsumerGetsAll()
    {
        final String[] names = {"EE1.N", "EE2.N"};
        final Level1[] items = new Level1[names.length];
        final long[] providerHandles = new long[names.length];
        for (int k = 0; k < names.length; k++)
        {
            items[k] = new Level1("EMA VIEW ITEM " + k, 600 + k, 700 + k);
            providerHandles[k] = publishEma(names[k], items[k]);
        }
        final EmaTestConsumer viewer = emaConsumer("ema-e-view");
        final EmaTestConsumer full = emaConsumer("ema-e-full");

        final ElementList batchWithView = batch(names);
        final OmmArray viewFields = EmaFactory.createOmmArray();
        viewFields.add(EmaFactory.createOmmArrayEntry().intValue(FieldIds.BID));
        viewFields.add(EmaFactory.createOmmArrayEntry().intValue(FieldIds.ASK));
        batchWithView.add(EmaFactory.createElementEntry().uintValue(EmaRdm.ENAME_VIEW_TYPE, 1));
        batchWithView.add(EmaFactory.createElementEntry().array(EmaRdm.ENAME_VIEW_DATA, viewFields));
        final long batchHandle = viewer.registerClient(EmaFactory.createReqMsg()
            .serviceName(EMA_SERVICE)
            .payload(batchWithView));
        final long[] viewHandles = new long[names.length];
        for (int k = 0; k < names.length; k++)
        {
            viewHandles[k] = viewer.awaitHandle(names[k]);
            assertNotEquals(batchHandle, viewHandles[k]);
            final EmaMessage refresh = viewer.awaitRefresh(viewHandles[k]);
            assertRefresh(refresh, OmmState.StreamState.OPEN, EMA_SERVICE, names[k]);
            assertEquals(Set.of(FieldIds.BID, FieldIds.ASK), new HashSet<>(refresh.fieldIds()),
                () -> "only the view's fields: " + refresh);
            assertEquals(new EmaMessage.Real(items[k].bid, E_2),
                refresh.real(FieldIds.BID));
            assertEquals(new EmaMessage.Real(items[k].ask, E_2),
                refresh.real(FieldIds.ASK));
        }
        final long fullHandle = full.registerClient(EmaFactory.createReqMsg().serviceName(EMA_SERVICE).name(names[0]));
        final EmaMessage fullRefresh = full.awaitRefresh(fullHandle);
        assertRefresh(fullRefresh, OmmState.StreamState.OPEN, EMA_SERVICE, names[0]);
        items[0].assertIn(fullRefresh);

        for (int k = 0; k < names.length; k++)
        {
            // in the view and beyond it; beyond it only; one view field and one beyond
            emaProvider.update(providerHandles[k], fields(
                real(FieldIds.BID, 610 + k, E_2),
                real(FieldIds.ASK, 710 + k, E_2),
                real(FieldIds.BIDSIZE, 5, E0),
                real(FieldIds.ACVOL_1, 1_600_000, E0)));
            emaProvider.update(providerHandles[k], fields(real(FieldIds.BIDSIZE, 6, E0)));
            emaProvider.update(providerHandles[k], fields(
                real(FieldIds.BID, 620 + k, E_2),
                real(FieldIds.ASKSIZE, 7, E0)));
        }
        for (int k = 0; k < names.length; k++)
        {
            final EmaMessage both = viewer.awaitUpdate(viewHandles[k]);
            assertEquals(List.of(FieldIds.BID, FieldIds.ASK), both.fieldIds(), () -> "only the view's: " + both);
            assertEquals(610 + k, both.mantissa(FieldIds.BID));
            assertEquals(710 + k, both.mantissa(FieldIds.ASK));
            final EmaMessage bidOnly = viewer.awaitUpdate(viewHandles[k]);
            assertEquals(List.of(FieldIds.BID), bidOnly.fieldIds(),
                () -> "an update with none of the view's fields is not sent; the next carries only BID: " + bidOnly);
            assertEquals(620 + k, bidOnly.mantissa(FieldIds.BID));
            viewer.pollNone(viewHandles[k], QUIET);
        }
        assertEquals(List.of(FieldIds.BID, FieldIds.ASK, FieldIds.BIDSIZE, FieldIds.ACVOL_1),
            full.awaitUpdate(fullHandle).fieldIds(), "the full consumer gets every field");
        assertEquals(List.of(FieldIds.BIDSIZE), full.awaitUpdate(fullHandle).fieldIds());
        assertEquals(List.of(FieldIds.BID, FieldIds.ASKSIZE), full.awaitUpdate(fullHandle).fieldIds());
        full.pollNone(fullHandle, QUIET);
    }

    // ------------------------------------------------------------------ (f) on-stream post

    @Test
    void emaOnStreamPostIsAckedAndReachesAnotherConsumer()
    {
        final Level1 item = new Level1("EMA POSTED ITEM", 8000, 8010);
        publishEma("EF1.N", item);
        final EmaTestConsumer poster = emaConsumer("ema-f-poster");
        final EmaTestConsumer watcher = emaConsumer("ema-f-watcher");
        final long posterHandle = poster.registerClient(
            EmaFactory.createReqMsg().serviceName(EMA_SERVICE).name("EF1.N"));
        item.assertIn(poster.awaitRefresh(posterHandle));
        final long watcherHandle = watcher.registerClient(
            EmaFactory.createReqMsg().serviceName(EMA_SERVICE).name("EF1.N"));
        item.assertIn(watcher.awaitRefresh(watcherHandle));

        final long postId = 7;
        poster.submit(EmaFactory.createPostMsg()
            .postId(postId)
            .serviceName(EMA_SERVICE)
            .name("EF1.N")
            .solicitAck(true)
            .complete(true)
            .payload(EmaFactory.createUpdateMsg().payload(fields(real(FieldIds.BID, 8001, E_2)))),
            posterHandle);

        final EmaMessage ack = poster.awaitAck(posterHandle);
        assertEquals(postId, ack.ackId(), ack::toString);
        assertEquals(-1, ack.nackCode(), () -> "an ack, not a NAK: " + ack);
        final EmaMessage posted = watcher.awaitUpdate(watcherHandle);
        assertEquals(List.of(FieldIds.BID), posted.fieldIds(), posted::toString);
        assertEquals(new EmaMessage.Real(8001, E_2), posted.real(FieldIds.BID));
        watcher.pollNone(watcherHandle, QUIET);
    }

    // ------------------------------------------------------------------ helpers

    private static FieldList fields(final FieldEntry... entries)
    {
        final FieldList fields = EmaFactory.createFieldList();
        for (final FieldEntry entry : entries)
        {
            fields.add(entry);
        }
        return fields;
    }

    private static FieldEntry entry()
    {
        return EmaFactory.createFieldEntry();
    }

    private static FieldEntry real(final int fid, final long mantissa, final int magnitudeType)
    {
        return EmaFactory.createFieldEntry().real(fid, mantissa, magnitudeType);
    }

    private static ElementList batch(final String... names)
    {
        final OmmArray itemList = EmaFactory.createOmmArray();
        for (final String name : names)
        {
            itemList.add(EmaFactory.createOmmArrayEntry().ascii(name));
        }
        final ElementList batch = EmaFactory.createElementList();
        batch.add(EmaFactory.createElementEntry().array(EmaRdm.ENAME_BATCH_ITEM_LIST, itemList));
        return batch;
    }

    private static ReqMsg snapshotOf(final String serviceName, final String name)
    {
        return EmaFactory.createReqMsg().serviceName(serviceName).name(name).interestAfterRefresh(false);
    }

    /**
     * Publish an item's refresh with the EMA provider and wait until the distributor caches it (a consumer's request
     * takes another path, which could overtake the provider's refresh).
     *
     * @return the EMA provider's handle of the item.
     */
    private long publishEma(final String name, final Level1 image)
    {
        final long handle = emaProvider.refresh(name, image.emaRefresh());
        awaitCached(name);
        return handle;
    }

    /**
     * Publish an item's refresh with the ETA provider and wait until the distributor caches it.
     *
     * @return the ETA provider's stream of the item.
     */
    private int publishEta(final String name, final Level1 image)
    {
        final int streamId = nextEtaProviderStream--;
        etaProvider.refresh(streamId, ETA_SERVICE_ID, name, image.etaRefresh());
        awaitCached(name);
        return streamId;
    }

    private void awaitCached(final String name)
    {
        final int expected = ++itemsPublished;
        MdTests.await(() -> "the distributor to cache " + name + " (the EMA provider's login: " +
            emaProvider.loginMessages() + ")",
            () -> expected == distributor.onEventLoop(ServiceDirectory::itemCount));
    }

    /**
     * An EMA consumer of the p2p-server with EMA's defaults; it keeps the ETA provider's channel serviced while the
     * test waits on it.
     */
    private EmaTestConsumer emaConsumer(final String user)
    {
        final EmaTestConsumer consumer = EmaTestConsumer.connect("127.0.0.1", p2p.port(), user);
        emaConsumers.add(consumer);
        return consumer.whileWaiting(etaProvider::service);
    }

    /**
     * A logged-in ETA consumer of the p2p-server that has seen a provider's service in the source directory (the
     * p2p-server learns services from the distributor's announcements).
     */
    private EtaItemConsumer etaConsumer(final String user, final String serviceName)
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        etaConsumers.add(eta);
        eta.channel().serviceAlongside(etaProvider.channel());
        assertEquals(StreamStates.OPEN, eta.login(user).state().streamState());
        int directoryStream = 2;
        while (true)
        {
            eta.requestDirectory(directoryStream, Directory.ServiceFilterFlags.INFO |
                Directory.ServiceFilterFlags.STATE, false, -1);
            final EtaMessage directory = eta.awaitMessage(directoryStream);
            assertEquals(MsgClasses.REFRESH, directory.msgClass(), directory::toString);
            for (final Service service : directory.directoryRefresh().serviceList())
            {
                if (service.checkHasInfo() && serviceName.equals(service.info().serviceName().toString()))
                {
                    assertEquals(1, service.state().serviceState(), "the service is up");
                    assertTrue(service.info().capabilitiesList().contains((long)DomainTypes.MARKET_PRICE));
                    return new EtaItemConsumer(eta, service.serviceId());
                }
            }
            directoryStream++;
            MdTests.idle(() -> serviceName + " in the p2p-server's directory (the EMA provider's login: " +
                emaProvider.loginMessages() + ")");
        }
    }

    private static void assertRefresh(
        final EmaMessage refresh, final int streamState, final String serviceName, final String name)
    {
        assertEquals(EmaMessage.Kind.REFRESH, refresh.kind(), refresh::toString);
        assertEquals(EmaRdm.MMT_MARKET_PRICE, refresh.domainType(), refresh::toString);
        assertEquals(streamState, refresh.streamState(), refresh::toString);
        assertEquals(OmmState.DataState.OK, refresh.dataState(), refresh::toString);
        assertTrue(refresh.solicited(), refresh::toString);
        assertTrue(refresh.complete(), refresh::toString);
        assertEquals(serviceName, refresh.serviceName(), refresh::toString);
        assertEquals(name, refresh.name(), refresh::toString);
    }

    /**
     * An ETA consumer and the id it found a provider's service under.
     */
    private static final class EtaItemConsumer
    {
        final EtaConsumer eta;
        final int serviceId;

        EtaItemConsumer(final EtaConsumer eta, final int serviceId)
        {
            this.eta = eta;
            this.serviceId = serviceId;
        }
    }

    /**
     * The expected level-1 image of an item: one field of every common RWF type (UINT, INT, REAL with several hints,
     * ENUM, DATE, TIME, RMTES) and one blank, all from MDHub's dictionary. It encodes itself with ETA or with EMA
     * and checks a received image field by field as an ETA or an EMA application decodes it.
     */
    private static final class Level1
    {
        final long permission = 4321;
        final String displayName;
        final int exchange = 2; // NYS
        final long last = 12345L;
        final int currency = 840; // USD
        final LocalDate tradeDate = LocalDate.of(2025, 3, 14);
        final LocalTime tradeTime = LocalTime.of(15, 59, 58, 123_000_000);
        long bid;
        final long ask;
        final long volume = 1_500_000;
        final long originTime = -123_456_789L;

        Level1(final String displayName, final long bid, final long ask)
        {
            this.displayName = displayName;
            this.bid = bid;
            this.ask = ask;
        }

        byte[] etaRefresh()
        {
            return new EtaFieldLists().begin(1, 0)
                .uint(FieldIds.PROD_PERM, permission)
                .rmtes(FieldIds.DSPLY_NAME, displayName)
                .enumValue(FieldIds.RDN_EXCHID, exchange)
                .real(FieldIds.TRDPRC_1, last, RealHints.EXPONENT_2)
                .blank(FieldIds.NETCHNG_1)
                .enumValue(FieldIds.CURRENCY, currency)
                .date(FieldIds.TRADE_DATE, tradeDate.getYear(), tradeDate.getMonthValue(), tradeDate.getDayOfMonth())
                .time(FieldIds.TRDTIM_1, tradeTime.getHour(), tradeTime.getMinute(), tradeTime.getSecond(),
                    tradeTime.getNano() / 1_000_000)
                .real(FieldIds.BID, bid, RealHints.EXPONENT_2)
                .real(FieldIds.ASK, ask, RealHints.EXPONENT_2)
                .real(FieldIds.ACVOL_1, volume, RealHints.EXPONENT0)
                .intValue(FieldIds.MDH_ORGTIM, originTime)
                .end();
        }

        FieldList emaRefresh()
        {
            return fields(
                entry().uintValue(FieldIds.PROD_PERM, permission),
                entry().rmtes(FieldIds.DSPLY_NAME,
                    ByteBuffer.wrap(displayName.getBytes(StandardCharsets.US_ASCII))),
                entry().enumValue(FieldIds.RDN_EXCHID, exchange),
                real(FieldIds.TRDPRC_1, last, E_2),
                entry().codeReal(FieldIds.NETCHNG_1),
                entry().enumValue(FieldIds.CURRENCY, currency),
                entry().date(FieldIds.TRADE_DATE, tradeDate.getYear(),
                    tradeDate.getMonthValue(), tradeDate.getDayOfMonth()),
                entry().time(FieldIds.TRDTIM_1, tradeTime.getHour(), tradeTime.getMinute(),
                    tradeTime.getSecond(), tradeTime.getNano() / 1_000_000),
                real(FieldIds.BID, bid, E_2),
                real(FieldIds.ASK, ask, E_2),
                real(FieldIds.ACVOL_1, volume, E0),
                entry().intValue(FieldIds.MDH_ORGTIM, originTime));
        }

        Set<Integer> fieldIds()
        {
            return new TreeSet<>(List.of(FieldIds.PROD_PERM, FieldIds.DSPLY_NAME, FieldIds.RDN_EXCHID,
                FieldIds.TRDPRC_1, FieldIds.NETCHNG_1, FieldIds.CURRENCY, FieldIds.TRADE_DATE, FieldIds.TRDTIM_1,
                FieldIds.BID, FieldIds.ASK, FieldIds.ACVOL_1, FieldIds.MDH_ORGTIM));
        }

        void assertIn(final EtaMessage image)
        {
            assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
            assertEquals(fieldIds(), new TreeSet<>(image.fieldIds()), () -> "every field, no other: " + image);
            assertEquals(permission, image.uint(FieldIds.PROD_PERM));
            assertEquals(displayName, image.rmtes(FieldIds.DSPLY_NAME));
            assertEquals(exchange, image.enumValue(FieldIds.RDN_EXCHID));
            assertEquals(last, image.mantissa(FieldIds.TRDPRC_1));
            assertEquals(RealHints.EXPONENT_2, image.hint(FieldIds.TRDPRC_1));
            assertTrue(image.isBlank(FieldIds.NETCHNG_1), image::toString);
            assertEquals(currency, image.enumValue(FieldIds.CURRENCY));
            assertEquals(tradeDate, image.date(FieldIds.TRADE_DATE));
            assertEquals(tradeTime, image.time(FieldIds.TRDTIM_1));
            assertEquals(bid, image.mantissa(FieldIds.BID));
            assertEquals(RealHints.EXPONENT_2, image.hint(FieldIds.BID));
            assertEquals(ask, image.mantissa(FieldIds.ASK));
            assertEquals(RealHints.EXPONENT_2, image.hint(FieldIds.ASK));
            assertEquals(volume, image.mantissa(FieldIds.ACVOL_1));
            assertEquals(RealHints.EXPONENT0, image.hint(FieldIds.ACVOL_1));
            assertEquals(originTime, image.intValue(FieldIds.MDH_ORGTIM));
        }

        void assertIn(final EmaMessage image)
        {
            assertEquals(EmaMessage.Kind.REFRESH, image.kind(), image::toString);
            assertEquals(fieldIds(), new TreeSet<>(image.fieldIds()), () -> "every field, no other: " + image);
            assertEquals(permission, image.uint(FieldIds.PROD_PERM));
            assertEquals(displayName, image.rmtes(FieldIds.DSPLY_NAME));
            assertEquals(exchange, image.enumValue(FieldIds.RDN_EXCHID));
            assertEquals(new EmaMessage.Real(last, E_2), image.real(FieldIds.TRDPRC_1));
            assertTrue(image.isBlank(FieldIds.NETCHNG_1), image::toString);
            assertEquals(currency, image.enumValue(FieldIds.CURRENCY));
            assertEquals(tradeDate, image.date(FieldIds.TRADE_DATE));
            assertEquals(tradeTime, image.time(FieldIds.TRDTIM_1));
            assertEquals(new EmaMessage.Real(bid, E_2), image.real(FieldIds.BID));
            assertEquals(new EmaMessage.Real(ask, E_2), image.real(FieldIds.ASK));
            assertEquals(new EmaMessage.Real(volume, E0), image.real(FieldIds.ACVOL_1));
            assertEquals(originTime, image.intValue(FieldIds.MDH_ORGTIM));
        }
    }
}
