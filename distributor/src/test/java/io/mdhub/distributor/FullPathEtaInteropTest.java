package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
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

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaDictionaries;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * Real ETA 3.9.1.0 applications at both ends of the whole path: an ETA non-interactive provider publishes into the
 * distributor, the distributor publishes onto the Aeron backbone (embedded driver), and the p2p-server (fed through
 * {@link BackboneItemSourceFactory}) serves ETA consumers, which decode every field with the type the data
 * dictionary gives it and check exact values: a level-1 image of mixed field types, updates over several items in
 * order, snapshots, batch requests, a dictionary download, and the current image for a late second consumer. The
 * servers are shared by the tests of the class; each test publishes its own items and opens its own consumers.
 */
@ExtendWith(EtaTransportExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InterruptAfter(60)
class FullPathEtaInteropTest
{
    private static final int NIP_SERVICE_ID = 1;
    private static final String SERVICE_NAME = "NI_PUB";
    private static final Duration QUIET = Duration.ofMillis(300);

    private FullPathServers servers;
    private Distributor distributor;
    private P2pServer p2p;
    private EtaNiProvider provider;
    private final List<EtaConsumer> consumers = new ArrayList<>();
    private int nextProviderStream = -2;
    private int itemsPublished;

    @BeforeAll
    void launch(@TempDir final Path dir)
    {
        servers = FullPathServers.launch(dir, "full-path");
        distributor = servers.distributor();
        p2p = servers.p2p();
    }

    @AfterEach
    void closeConsumers()
    {
        consumers.forEach(EtaConsumer::close);
        consumers.clear();
        if (null != provider)
        {
            provider.service();
        }
    }

    @AfterAll
    void close()
    {
        CloseHelper.closeAll(provider, servers);
    }

    // ------------------------------------------------------------------ the tests

    @Test
    void refreshCarriesEveryLevel1FieldWithItsExactValue()
    {
        final Level1 item = new Level1("LEVEL ONE INC", 12344, 12346);
        publish("L1.N", item);
        final Consumer consumer = consumer("level1");

        consumer.eta.requestItem(5, consumer.serviceId, "L1.N");
        final EtaMessage refresh = consumer.eta.awaitMessage(5);
        assertRefresh(refresh, 5, StreamStates.OPEN, consumer.serviceId, "L1.N");
        item.assertIn(refresh);
        assertTrue(provider.service(), "the provider stayed connected");
    }

    @Test
    void updatesArriveInOrderNoneLostOverSeveralItems()
    {
        final String[] names = {"U1.N", "U2.N", "U3.N"};
        final int[] providerStreams = new int[names.length];
        for (int k = 0; k < names.length; k++)
        {
            providerStreams[k] = publish(names[k], new Level1("UPDATES " + k, 10_000 * (k + 1), 10_000 * (k + 1) + 2));
        }
        final Consumer consumer = consumer("updates");
        for (int k = 0; k < names.length; k++)
        {
            consumer.eta.requestItem(11 + k, consumer.serviceId, names[k]);
        }
        for (int k = 0; k < names.length; k++)
        {
            assertRefresh(consumer.eta.awaitMessage(11 + k), 11 + k, StreamStates.OPEN, consumer.serviceId, names[k]);
        }

        final int updates = 300;
        final EtaFieldLists fields = new EtaFieldLists();
        for (int seq = 1; seq <= updates; seq++)
        {
            for (int k = 0; k < names.length; k++)
            {
                provider.update(providerStreams[k], fields.begin(0, 0)
                    .uint(FieldIds.MDH_UPDSEQ, seq)
                    .real(FieldIds.BID, 10_000L * (k + 1) + seq, RealHints.EXPONENT_2)
                    .real(FieldIds.ACVOL_1, 1_000_000L + 100L * seq, RealHints.EXPONENT0)
                    .time(FieldIds.TRDTIM_1, 10, seq / 60, seq % 60, k)
                    .end());
            }
        }
        for (int seq = 1; seq <= updates; seq++)
        {
            for (int k = 0; k < names.length; k++)
            {
                final EtaMessage update = consumer.eta.awaitMessage(11 + k);
                assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
                assertEquals(List.of(FieldIds.MDH_UPDSEQ, FieldIds.BID, FieldIds.ACVOL_1, FieldIds.TRDTIM_1),
                    update.fieldIds(), update::toString);
                assertEquals(seq, update.uint(FieldIds.MDH_UPDSEQ), () -> "in order, none lost: " + update);
                assertEquals(10_000L * (k + 1) + seq, update.mantissa(FieldIds.BID));
                assertEquals(RealHints.EXPONENT_2, update.hint(FieldIds.BID));
                assertEquals(1_000_000L + 100L * seq, update.mantissa(FieldIds.ACVOL_1));
                assertEquals(RealHints.EXPONENT0, update.hint(FieldIds.ACVOL_1));
                assertEquals(LocalTime.of(10, seq / 60, seq % 60, k * 1_000_000), update.time(FieldIds.TRDTIM_1));
            }
        }
        for (int k = 0; k < names.length; k++)
        {
            assertNull(consumer.eta.pollMessage(11 + k, QUIET), "no duplicate and no other message");
        }
    }

    @Test
    void snapshotIsOneNonStreamingRefreshAndNothingAfterIt()
    {
        final Level1 watched = new Level1("WATCHED", 5000, 5010);
        final int watchedStream = publish("SNAP1.N", watched);
        final Level1 unwatched = new Level1("UNWATCHED", 7000, 7010);
        final int unwatchedStream = publish("SNAP2.N", unwatched);
        final Consumer consumer = consumer("snapshots");
        final EtaFieldLists fields = new EtaFieldLists();

        // a snapshot of an item the consumer also streams: the image includes the update already seen
        consumer.eta.requestItem(21, consumer.serviceId, "SNAP1.N");
        watched.assertIn(consumer.eta.awaitMessage(21));
        watched.bid = 5001;
        provider.update(watchedStream, fields.begin(0, 0).real(FieldIds.BID, 5001, RealHints.EXPONENT_2).end());
        assertEquals(5001, consumer.eta.awaitMessage(21).mantissa(FieldIds.BID));
        consumer.eta.requestSnapshot(22, consumer.serviceId, "SNAP1.N");
        final EtaMessage snapshot = consumer.eta.awaitMessage(22);
        assertRefresh(snapshot, 22, StreamStates.NON_STREAMING, consumer.serviceId, "SNAP1.N");
        watched.assertIn(snapshot);
        provider.update(watchedStream, fields.begin(0, 0).real(FieldIds.BID, 5002, RealHints.EXPONENT_2).end());
        assertEquals(5002, consumer.eta.awaitMessage(21).mantissa(FieldIds.BID), "the streaming request updates");
        assertNull(consumer.eta.pollMessage(22, QUIET), "nothing after the snapshot");

        // a snapshot of an item nobody watches
        consumer.eta.requestSnapshot(23, consumer.serviceId, "SNAP2.N");
        final EtaMessage only = consumer.eta.awaitMessage(23);
        assertRefresh(only, 23, StreamStates.NON_STREAMING, consumer.serviceId, "SNAP2.N");
        unwatched.assertIn(only);
        consumer.eta.requestItem(24, consumer.serviceId, "SNAP2.N");
        unwatched.assertIn(consumer.eta.awaitMessage(24));
        provider.update(unwatchedStream, fields.begin(0, 0).real(FieldIds.ASK, 7011, RealHints.EXPONENT_2).end());
        assertEquals(7011, consumer.eta.awaitMessage(24).mantissa(FieldIds.ASK));
        assertNull(consumer.eta.pollMessage(23, QUIET), "nothing after the snapshot");
    }

    @Test
    void batchRequestGivesOneRefreshPerItemOnTheStreamsAfterTheBatchStream()
    {
        final String[] names = {"B1.N", "B2.N", "B3.N"};
        final Level1[] items = new Level1[names.length];
        final int[] providerStreams = new int[names.length];
        for (int k = 0; k < names.length; k++)
        {
            items[k] = new Level1("BATCH ITEM " + k, 300 + k, 400 + k);
            providerStreams[k] = publish(names[k], items[k]);
        }
        final Consumer consumer = consumer("batch");

        consumer.eta.requestBatch(40, consumer.serviceId, true, names);
        final EtaMessage batch = consumer.eta.awaitMessage(40);
        assertEquals(MsgClasses.STATUS, batch.msgClass(), batch::toString);
        assertEquals(StreamStates.CLOSED, batch.streamState(), "the batch stream itself is closed");
        for (int k = 0; k < names.length; k++)
        {
            final EtaMessage refresh = consumer.eta.awaitMessage(41 + k);
            assertRefresh(refresh, 41 + k, StreamStates.OPEN, consumer.serviceId, names[k]);
            items[k].assertIn(refresh);
        }
        final EtaFieldLists fields = new EtaFieldLists();
        for (int k = 0; k < names.length; k++)
        {
            provider.update(providerStreams[k],
                fields.begin(0, 0).real(FieldIds.BID, 900 + k, RealHints.EXPONENT_2).end());
        }
        for (int k = 0; k < names.length; k++)
        {
            final EtaMessage next = consumer.eta.awaitMessage(41 + k);
            assertEquals(MsgClasses.UPDATE, next.msgClass(), () -> "one refresh per item, then updates: " + next);
            assertEquals(900 + k, next.mantissa(FieldIds.BID));
        }
        assertNull(consumer.eta.pollMessage(40, QUIET), "nothing more on the batch stream");
        assertNull(consumer.eta.pollMessage(41 + names.length, Duration.ZERO), "no stream beyond the batch");

        // a snapshot batch: non-streaming refreshes with the current images
        items[0].bid = 900;
        items[1].bid = 901;
        consumer.eta.requestBatch(50, consumer.serviceId, false, names[0], names[1]);
        assertEquals(StreamStates.CLOSED, consumer.eta.awaitMessage(50).streamState());
        for (int k = 0; k < 2; k++)
        {
            final EtaMessage refresh = consumer.eta.awaitMessage(51 + k);
            assertRefresh(refresh, 51 + k, StreamStates.NON_STREAMING, consumer.serviceId, names[k]);
            items[k].assertIn(refresh);
        }
    }

    @Test
    void downloadedDictionaryLoadsIntoEtaAndDecodesTheRefresh()
    {
        final Level1 item = new Level1("DICTIONARY", 2200, 2210);
        publish("DICT.N", item);
        final Consumer consumer = consumer("dictionary");

        final DataDictionary downloaded = CodecFactory.createDataDictionary();
        consumer.eta.requestDictionary(61, consumer.serviceId, "RWFFld");
        for (final EtaMessage part : consumer.eta.awaitDictionary(61, downloaded, true))
        {
            assertEquals(StreamStates.NON_STREAMING, part.streamState(), part::toString);
        }
        consumer.eta.requestDictionary(62, consumer.serviceId, "RWFEnum");
        for (final EtaMessage part : consumer.eta.awaitDictionary(62, downloaded, false))
        {
            assertEquals(StreamStates.NON_STREAMING, part.streamState(), part::toString);
        }
        final DataDictionary shipped = EtaDictionaries.bundled();
        assertEquals(shipped.numberOfEntries(), downloaded.numberOfEntries());
        assertEquals(shipped.enumTableCount(), downloaded.enumTableCount());
        for (final int fid : item.fieldIds())
        {
            assertNotNull(downloaded.entry(fid), () -> "field " + fid + " downloaded");
            assertEquals(shipped.entry(fid).acronym().toString(), downloaded.entry(fid).acronym().toString());
            assertEquals(shipped.entry(fid).rwfType(), downloaded.entry(fid).rwfType());
        }

        consumer.eta.dictionary(downloaded);
        consumer.eta.requestItem(63, consumer.serviceId, "DICT.N");
        final EtaMessage refresh = consumer.eta.awaitMessage(63);
        assertRefresh(refresh, 63, StreamStates.OPEN, consumer.serviceId, "DICT.N");
        item.assertIn(refresh);
        assertEquals("NYS", refresh.enumDisplay(FieldIds.RDN_EXCHID), "enum display from the downloaded tables");
        assertEquals("USD", refresh.enumDisplay(FieldIds.CURRENCY));
        assertEquals(DataTypes.DATE, refresh.rwfType(FieldIds.TRADE_DATE));
    }

    @Test
    void aSecondConsumerOfAWatchedItemGetsTheCurrentImage()
    {
        final Level1 item = new Level1("IMAGE", 1000, 1010);
        final int providerStream = publish("IMG.N", item);
        final Consumer first = consumer("first");
        first.eta.requestItem(71, first.serviceId, "IMG.N");
        item.assertIn(first.eta.awaitMessage(71));

        final EtaFieldLists fields = new EtaFieldLists();
        item.bid = 1001;
        item.tradeTime = LocalTime.of(16, 0, 1, 5_000_000);
        provider.update(providerStream, fields.begin(0, 0)
            .real(FieldIds.BID, item.bid, RealHints.EXPONENT_2)
            .time(FieldIds.TRDTIM_1, 16, 0, 1, 5)
            .end());
        item.displayName = "IMAGE ITEM WITH A LONGER NAME"; // outgrows its cache slot
        item.volume = 1_600_000;
        item.high = 1020L; // a field the refresh did not have
        provider.update(providerStream, fields.begin(0, 0)
            .rmtes(FieldIds.DSPLY_NAME, item.displayName)
            .real(FieldIds.ACVOL_1, item.volume, RealHints.EXPONENT0)
            .real(FieldIds.HIGH_1, item.high, RealHints.EXPONENT_2)
            .end());
        item.netChange = -9L; // blank in the refresh, now set
        item.last = null; // set in the refresh, now blank
        item.currency = 978;
        provider.update(providerStream, fields.begin(0, 0)
            .real(FieldIds.NETCHNG_1, -9, RealHints.EXPONENT_2)
            .blank(FieldIds.TRDPRC_1)
            .enumValue(FieldIds.CURRENCY, 978)
            .end());
        for (int i = 0; i < 3; i++)
        {
            assertEquals(MsgClasses.UPDATE, first.eta.awaitMessage(71).msgClass(), "the first consumer's updates");
        }

        final Consumer second = consumer("second");
        second.eta.requestItem(81, second.serviceId, "IMG.N");
        final EtaMessage image = second.eta.awaitMessage(81);
        assertRefresh(image, 81, StreamStates.OPEN, second.serviceId, "IMG.N");
        item.assertIn(image);

        provider.update(providerStream, fields.begin(0, 0).real(FieldIds.ASK, 1011, RealHints.EXPONENT_2).end());
        for (final EtaMessage next : List.of(first.eta.awaitMessage(71), second.eta.awaitMessage(81)))
        {
            assertEquals(MsgClasses.UPDATE, next.msgClass(), () -> "no second refresh for either: " + next);
            assertEquals(List.of(FieldIds.ASK), next.fieldIds());
            assertEquals(1011, next.mantissa(FieldIds.ASK));
        }
    }

    // ------------------------------------------------------------------ helpers

    private EtaNiProvider provider()
    {
        if (null == provider)
        {
            provider = EtaNiProvider.connect(distributor.port());
            provider.login("eta-nip");
            provider.publishDirectory(NIP_SERVICE_ID, SERVICE_NAME);
        }
        return provider;
    }

    /**
     * Publish an item's refresh and wait until the distributor caches it (the consumer's request takes another
     * path, which could overtake the provider's refresh).
     *
     * @return the provider's stream for the item.
     */
    private int publish(final String name, final Level1 image)
    {
        final int streamId = nextProviderStream--;
        provider().refresh(streamId, NIP_SERVICE_ID, name, image.refresh());
        final int expected = ++itemsPublished;
        MdTests.await(() -> "the distributor to cache " + name,
            () -> expected == distributor.onEventLoop(ServiceDirectory::itemCount));
        return streamId;
    }

    /**
     * A logged-in ETA consumer of the p2p-server that has seen the provider's service in the source directory (the
     * p2p-server learns services from the distributor's announcements).
     */
    private Consumer consumer(final String user)
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        consumers.add(eta);
        eta.channel().serviceAlongside(provider().channel());
        assertEquals(StreamStates.OPEN, eta.login(user).state().streamState());
        final Service service = FullPathServers.awaitService(eta, SERVICE_NAME);
        assertTrue(service.info().capabilitiesList().contains((long)DomainTypes.MARKET_PRICE));
        return new Consumer(eta, service.serviceId());
    }

    private static void assertRefresh(
        final EtaMessage refresh, final int streamId, final int streamState, final int serviceId, final String name)
    {
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(DomainTypes.MARKET_PRICE, refresh.domainType());
        assertEquals(streamId, refresh.streamId());
        assertEquals(streamState, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertTrue(refresh.isSolicited(), refresh::toString);
        assertTrue(refresh.isRefreshComplete(), refresh::toString);
        assertEquals(serviceId, refresh.keyServiceId(), refresh::toString);
        assertEquals(name, refresh.keyName());
    }

    /**
     * An ETA consumer and the id it found the provider's service under.
     */
    private static final class Consumer
    {
        final EtaConsumer eta;
        final int serviceId;

        Consumer(final EtaConsumer eta, final int serviceId)
        {
            this.eta = eta;
            this.serviceId = serviceId;
        }
    }

    /**
     * The expected level-1 image of an item: one field of every common RWF type (UINT, INT, REAL with several hints,
     * ENUM, DATE, TIME, RMTES), one blank, all from MDHub's dictionary. Tests change it as they publish updates and
     * check a received image against it field by field.
     */
    private static final class Level1
    {
        final long permission = 4321;
        String displayName;
        final int exchange = 2; // NYS
        Long last = 12345L;
        Long netChange;
        int currency = 840; // USD
        final LocalDate tradeDate = LocalDate.of(2025, 3, 14);
        LocalTime tradeTime = LocalTime.of(15, 59, 58, 123_000_000);
        long bid;
        long ask;
        long volume = 1_500_000;
        Long high;
        final long originTime = -123_456_789L;

        Level1(final String displayName, final long bid, final long ask)
        {
            this.displayName = displayName;
            this.bid = bid;
            this.ask = ask;
        }

        /**
         * @return the refresh's FieldList, encoded with ETA.
         */
        byte[] refresh()
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

        Set<Integer> fieldIds()
        {
            final Set<Integer> fids = new TreeSet<>(List.of(FieldIds.PROD_PERM, FieldIds.DSPLY_NAME,
                FieldIds.RDN_EXCHID, FieldIds.TRDPRC_1, FieldIds.NETCHNG_1, FieldIds.CURRENCY, FieldIds.TRADE_DATE,
                FieldIds.TRDTIM_1, FieldIds.BID, FieldIds.ASK, FieldIds.ACVOL_1, FieldIds.MDH_ORGTIM));
            if (null != high)
            {
                fids.add(FieldIds.HIGH_1);
            }
            return fids;
        }

        void assertIn(final EtaMessage image)
        {
            assertEquals(MsgClasses.REFRESH, image.msgClass(), image::toString);
            assertEquals(fieldIds(), new TreeSet<>(image.fieldIds()), () -> "every field, no other: " + image);
            assertEquals(permission, image.uint(FieldIds.PROD_PERM));
            assertEquals(displayName, image.rmtes(FieldIds.DSPLY_NAME));
            assertEquals(exchange, image.enumValue(FieldIds.RDN_EXCHID));
            assertReal(image, FieldIds.TRDPRC_1, last, RealHints.EXPONENT_2);
            assertReal(image, FieldIds.NETCHNG_1, netChange, RealHints.EXPONENT_2);
            assertEquals(currency, image.enumValue(FieldIds.CURRENCY));
            assertEquals(tradeDate, image.date(FieldIds.TRADE_DATE));
            assertEquals(tradeTime, image.time(FieldIds.TRDTIM_1));
            assertReal(image, FieldIds.BID, bid, RealHints.EXPONENT_2);
            assertReal(image, FieldIds.ASK, ask, RealHints.EXPONENT_2);
            assertReal(image, FieldIds.ACVOL_1, volume, RealHints.EXPONENT0);
            if (null != high)
            {
                assertReal(image, FieldIds.HIGH_1, high, RealHints.EXPONENT_2);
            }
            assertEquals(originTime, image.intValue(FieldIds.MDH_ORGTIM));
        }

        private static void assertReal(final EtaMessage image, final int fid, final Long mantissa, final int hint)
        {
            if (null == mantissa)
            {
                assertTrue(image.isBlank(fid), () -> fid + " blank in " + image);
                return;
            }
            assertFalse(image.isBlank(fid), () -> fid + " not blank in " + image);
            assertEquals(mantissa.longValue(), image.mantissa(fid), () -> "field " + fid + " in " + image);
            assertEquals(hint, image.hint(fid), () -> "hint of " + fid + " in " + image);
        }
    }
}
