package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.mdhub.common.cache.CachedImage;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.cache.EtaMaps;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.p2p.P2pServer;

/**
 * Items of domains other than MarketPrice over the whole path, with real ETA 3.9.1.0 applications at both ends: an
 * ETA non-interactive provider publishes a MarketByPrice item (domain 8, a Map of FieldLists keyed by price with
 * summary data) and a MarketPrice item of the same name into the distributor, which caches both (two items: its cache
 * is keyed by domain and name) and publishes them on the Aeron backbone; ETA consumers of the p2p-server request both.
 * The MarketByPrice refresh — answered from the distributor's Map image, which already took ADD, UPDATE and DELETE
 * updates — carries exactly the entries a model of the provider's actions expects; updates arrive in order with the
 * provider's entries; a second consumer opening the item after more updates gets a refresh equal to the current state
 * (from the p2p-server's own Map image). An item whose payload the caches cannot image is refused with a status
 * saying why.
 */
@ExtendWith(EtaTransportExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InterruptAfter(60)
class FullPathMapDomainEtaInteropTest
{
    private static final int NIP_SERVICE_ID = 1;
    private static final String SERVICE_NAME = "NI_BOOKS";
    private static final Duration QUIET = Duration.ofMillis(300);
    private static final int ORDER_PRC = 3427;
    private static final int ORDER_SIDE = 3428;
    private static final int ORDER_SIZE = 3430;
    private static final int NO_ORD = 3432;
    private static final int QUOTIM_MS = 3855;

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
        servers = FullPathServers.launch(dir, "map-domain");
        distributor = servers.distributor();
        p2p = servers.p2p();
        provider = EtaNiProvider.connect(distributor.port());
        provider.login("eta-nip-books");
        provider.publishDirectory(NIP_SERVICE_ID, SERVICE_NAME, (long)DomainTypes.MARKET_PRICE,
            (long)DomainTypes.MARKET_BY_PRICE, (long)DomainTypes.MARKET_BY_ORDER);
    }

    @AfterEach
    void closeConsumers()
    {
        consumers.forEach(EtaConsumer::close);
        consumers.clear();
        provider.service();
    }

    @AfterAll
    void close()
    {
        CloseHelper.closeAll(provider, servers);
    }

    // ------------------------------------------------------------------ the tests

    @Test
    void marketByPriceAndMarketPriceOfOneNameAreTwoItemsWithExactImagesAndUpdatesInOrder()
    {
        final String name = "BOOK.L";
        final EtaFieldLists fields = new EtaFieldLists();
        final EtaMaps maps = new EtaMaps();
        final Book book = new Book();

        // the MarketPrice item of the name
        final byte[] level1 = fields.begin(1, 0)
            .rmtes(FieldIds.DSPLY_NAME, "BOOK PLC")
            .real(FieldIds.BID, 10_000, RealHints.EXPONENT_2)
            .real(FieldIds.ASK, 10_100, RealHints.EXPONENT_2)
            .end();
        final Map<Integer, String> marketPrice = EtaMaps.fields(level1);
        final int mpStream = publish(name, DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, level1);

        // the MarketByPrice item of the same name: summary data, key field id, three price levels
        final byte[] summary = fields.begin(0, 0).enumValue(FieldIds.CURRENCY, 826).uint(QUOTIM_MS, 1_000).end();
        final EtaMaps refresh = maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, ORDER_PRC, summary, false);
        book.add(refresh, "100.00B", level(fields, 10_000, 1, 500, 3));
        book.add(refresh, "99.50B", level(fields, 9_950, 1, 200, 1));
        book.add(refresh, "101.00A", level(fields, 10_100, 2, 700, 4));
        final int mbpStream = publish(name, DomainTypes.MARKET_BY_PRICE, DataTypes.MAP, refresh.end());

        // updates before anyone asks: the distributor's image takes them (ADD, UPDATE merging fields, DELETE)
        final EtaMaps first = maps.begin();
        book.add(first, "100.50A", level(fields, 10_050, 2, 100, 1));
        book.update(first, "100.00B", fields.begin(0, 0).real(ORDER_SIZE, 800, RealHints.EXPONENT0).uint(NO_ORD, 5)
            .time(FieldIds.TRDTIM_1, 9, 30, 1, 250).end());
        book.delete(first, "99.50B");
        final long updatesBefore = distributor.onEventLoop((d) -> d.service(NIP_SERVICE_ID).updatesIn().get());
        provider.update(mbpStream, DomainTypes.MARKET_BY_PRICE, DataTypes.MAP, first.end());
        MdTests.await(() -> "the distributor to apply the update",
            () -> updatesBefore + 1 == distributor.onEventLoop((d) -> d.service(NIP_SERVICE_ID).updatesIn().get()));

        final Consumer consumer = consumer("books");
        consumer.eta.requestItem(5, DomainTypes.MARKET_BY_PRICE, consumer.serviceId, name, true);
        consumer.eta.requestItem(6, DomainTypes.MARKET_PRICE, consumer.serviceId, name, true);

        final EtaMessage mbpRefresh = consumer.eta.awaitMessage(5);
        assertRefresh(mbpRefresh, DomainTypes.MARKET_BY_PRICE, DataTypes.MAP, 5, consumer.serviceId, name);
        final EtaMaps.Decoded image = EtaMaps.decodePayload(mbpRefresh.bytes());
        book.assertImage(image);
        assertEquals(DataTypes.BUFFER, image.keyPrimitiveType);
        assertEquals(ORDER_PRC, image.keyFieldId, "the key field id of the provider's refresh");
        assertArrayEquals(summary, image.summary, "the summary data of the provider's refresh");

        final EtaMessage mpRefresh = consumer.eta.awaitMessage(6);
        assertRefresh(mpRefresh, DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, 6, consumer.serviceId, name);
        assertEquals(marketPrice, EtaMaps.fields(fieldListOf(mpRefresh)));

        // updates in order, each with exactly the provider's entries; MarketPrice updates interleaved
        final int rounds = 40;
        final List<List<String>> sent = publishUpdates(rounds, mbpStream, mpStream, book, marketPrice);
        for (int seq = 1; seq <= rounds; seq++)
        {
            final EtaMessage update = consumer.eta.awaitMessage(5);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(DomainTypes.MARKET_BY_PRICE, update.domainType());
            assertEquals(DataTypes.MAP, update.containerType());
            Book.assertEntries(sent.get(seq - 1), EtaMaps.decodePayload(update.bytes()));

            final EtaMessage quote = consumer.eta.awaitMessage(6);
            assertEquals(MsgClasses.UPDATE, quote.msgClass(), quote::toString);
            assertEquals(DomainTypes.MARKET_PRICE, quote.domainType());
            assertEquals(10_000 + seq, quote.mantissa(FieldIds.BID), "in order, none lost");
        }

        // a second consumer: the current state of both items (the book from the p2p-server's own Map image)
        final long fromCacheBefore = p2p.context().counters().cacheRefreshes().get();
        final Consumer second = consumer("books-late");
        second.eta.requestItem(15, DomainTypes.MARKET_BY_PRICE, second.serviceId, name, true);
        final EtaMessage lateRefresh = second.eta.awaitMessage(15);
        assertRefresh(lateRefresh, DomainTypes.MARKET_BY_PRICE, DataTypes.MAP, 15, second.serviceId, name);
        book.assertImage(EtaMaps.decodePayload(lateRefresh.bytes()));
        assertEquals(fromCacheBefore + 1, p2p.context().counters().cacheRefreshes().get(),
            "answered from the p2p-server's cache");
        second.eta.requestItem(16, DomainTypes.MARKET_PRICE, second.serviceId, name, true);
        final EtaMessage lateQuote = second.eta.awaitMessage(16);
        assertRefresh(lateQuote, DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, 16, second.serviceId, name);
        assertEquals(marketPrice, EtaMaps.fields(fieldListOf(lateQuote)));

        // and one more update reaches both, as an update
        final EtaMaps last = maps.begin();
        final List<String> lastSent = book.start();
        book.delete(last, "100.00B");
        provider.update(mbpStream, DomainTypes.MARKET_BY_PRICE, DataTypes.MAP, last.end());
        for (final EtaMessage next : List.of(consumer.eta.awaitMessage(5), second.eta.awaitMessage(15)))
        {
            assertEquals(MsgClasses.UPDATE, next.msgClass(), () -> "no second refresh for either: " + next);
            Book.assertEntries(lastSent, EtaMaps.decodePayload(next.bytes()));
        }
        assertNull(consumer.eta.pollMessage(6, QUIET), "nothing more on the MarketPrice stream");
        assertNull(second.eta.pollMessage(16, Duration.ZERO), "nothing more on the MarketPrice stream");
        assertTrue(provider.service(), "the provider stayed connected");
    }

    @Test
    void aPayloadTheCachesCannotImageIsRefusedWithTheReason()
    {
        final String name = "ELEMENTS.L";
        final byte[] unimageable = new EtaMaps().begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, -1, null, false).end();
        // a refresh whose payload is a Map would be imaged: announce it as opaque data instead
        publish(name, DomainTypes.MARKET_BY_ORDER, DataTypes.OPAQUE, unimageable);

        final Consumer consumer = consumer("refused");
        consumer.eta.requestItem(7, DomainTypes.MARKET_BY_ORDER, consumer.serviceId, name, true);
        final EtaMessage status = consumer.eta.awaitMessage(7);
        assertEquals(MsgClasses.STATUS, status.msgClass(), status::toString);
        assertEquals(DomainTypes.MARKET_BY_ORDER, status.domainType());
        assertEquals(StreamStates.CLOSED, status.streamState(), status::toString);
        assertEquals(DataStates.SUSPECT, status.dataState());
        assertEquals(StateCodes.NONE, status.code());
        assertEquals(CachedImage.OTHER_CONTAINER_TEXT, status.text());

        // the same name in MarketPrice is another item, which the cache does not hold: it waits for its provider
        consumer.eta.requestItem(8, DomainTypes.MARKET_PRICE, consumer.serviceId, name, true);
        final EtaMessage waiting = consumer.eta.awaitMessage(8);
        assertEquals(MsgClasses.STATUS, waiting.msgClass(), waiting::toString);
        assertEquals(StreamStates.OPEN, waiting.streamState());
        assertEquals(DataStates.SUSPECT, waiting.dataState());
        assertEquals("waiting for the provider to publish the item", waiting.text(), waiting::toString);
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Publish rounds of updates: per round a MarketByPrice update (ADD a level, UPDATE one, DELETE an older one) and a
     * MarketPrice update (BID = 10,000 + round).
     *
     * @return the entries of each MarketByPrice update, in order.
     */
    private List<List<String>> publishUpdates(
        final int rounds, final int mbpStream, final int mpStream, final Book book, final Map<Integer, String> quotes)
    {
        final EtaFieldLists fields = new EtaFieldLists();
        final EtaMaps maps = new EtaMaps();
        final List<List<String>> sent = new ArrayList<>();
        for (int seq = 1; seq <= rounds; seq++)
        {
            final EtaMaps update = maps.begin();
            sent.add(book.start());
            final String key = (100 + seq) + ".00A";
            book.add(update, key, level(fields, 10_000 + 100 * seq, 2, seq, seq));
            book.update(update, "100.00B", fields.begin(0, 0).uint(NO_ORD, 5 + seq).end());
            if (seq > 2)
            {
                book.delete(update, (100 + seq - 2) + ".00A");
            }
            provider.update(mbpStream, DomainTypes.MARKET_BY_PRICE, DataTypes.MAP, update.end());
            final byte[] quote = fields.begin(0, 0).real(FieldIds.BID, 10_000 + seq, RealHints.EXPONENT_2).end();
            quotes.putAll(EtaMaps.fields(quote));
            provider.update(mpStream, quote);
        }
        return sent;
    }

    private static byte[] level(
        final EtaFieldLists fields, final long price, final int side, final long size, final long orders)
    {
        return fields.begin(0, 0)
            .real(ORDER_PRC, price, RealHints.EXPONENT_2)
            .enumValue(ORDER_SIDE, side)
            .real(ORDER_SIZE, size, RealHints.EXPONENT0)
            .uint(NO_ORD, orders)
            .end();
    }

    private static byte[] fieldListOf(final EtaMessage message)
    {
        final com.refinitiv.eta.codec.Msg msg = EtaNiProvider.decode(message.bytes());
        final com.refinitiv.eta.codec.Buffer body = msg.encodedDataBody();
        final byte[] out = new byte[body.length()];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = body.data().get(body.position() + i);
        }
        return out;
    }

    /**
     * Publish an item's single-part refresh and wait until the distributor caches it.
     *
     * @return the provider's stream for the item.
     */
    private int publish(final String name, final int domainType, final int containerType, final byte[] payload)
    {
        final int streamId = nextProviderStream--;
        provider.refresh(streamId, domainType, NIP_SERVICE_ID, name,
            RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE, containerType, payload);
        final int expected = ++itemsPublished;
        MdTests.await(() -> "the distributor to cache " + name + " in domain " + domainType,
            () -> expected == distributor.onEventLoop(ServiceDirectory::itemCount));
        return streamId;
    }

    private Consumer consumer(final String user)
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        consumers.add(eta);
        eta.channel().serviceAlongside(provider.channel());
        assertEquals(StreamStates.OPEN, eta.login(user).state().streamState());
        final Service service = FullPathServers.awaitService(eta, SERVICE_NAME);
        return new Consumer(eta, service.serviceId());
    }

    private static void assertRefresh(
        final EtaMessage refresh,
        final int domainType,
        final int containerType,
        final int streamId,
        final int serviceId,
        final String name)
    {
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(domainType, refresh.domainType(), refresh::toString);
        assertEquals(containerType, refresh.containerType(), refresh::toString);
        assertEquals(streamId, refresh.streamId());
        assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
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
     * The expected order book: what the provider's actions make of it (key to field id to value bytes), and the
     * entries of the message being built (action, key, payload in hex), to check what a consumer receives.
     */
    private static final class Book
    {
        final Map<String, Map<Integer, String>> levels = new TreeMap<>();
        List<String> current = new ArrayList<>();

        /**
         * @return the entries of the next message, as {@link #assertEntries} compares them.
         */
        List<String> start()
        {
            current = new ArrayList<>();
            return current;
        }

        void add(final EtaMaps map, final String key, final byte[] fieldList)
        {
            map.add(key, fieldList);
            levels.put(key, EtaMaps.fields(fieldList));
            current.add(MapEntryActions.ADD + " " + key + " " + EtaMaps.hex(fieldList));
        }

        void update(final EtaMaps map, final String key, final byte[] fieldList)
        {
            map.update(key, fieldList);
            levels.computeIfAbsent(key, (k) -> new TreeMap<>()).putAll(EtaMaps.fields(fieldList));
            current.add(MapEntryActions.UPDATE + " " + key + " " + EtaMaps.hex(fieldList));
        }

        void delete(final EtaMaps map, final String key)
        {
            map.delete(key);
            levels.remove(key);
            current.add(MapEntryActions.DELETE + " " + key + " ");
        }

        /**
         * @param image a refresh's Map: every entry an ADD, exactly the current levels.
         */
        void assertImage(final EtaMaps.Decoded image)
        {
            for (final EtaMaps.Entry entry : image.entries)
            {
                assertEquals(MapEntryActions.ADD, entry.action, image::toString);
            }
            assertEquals(levels, image.fieldsByKey(), image::toString);
            assertEquals(levels.size(), image.entries.size());
        }

        /**
         * @param expected the entries the provider sent in one update.
         * @param received that update's Map as a consumer got it.
         */
        static void assertEntries(final List<String> expected, final EtaMaps.Decoded received)
        {
            final List<String> got = new ArrayList<>();
            for (final EtaMaps.Entry entry : received.entries)
            {
                got.add(entry.action + " " + entry.key + " " + EtaMaps.hex(entry.payload));
            }
            assertEquals(expected, got, "the provider's entries, in order");
        }
    }
}
