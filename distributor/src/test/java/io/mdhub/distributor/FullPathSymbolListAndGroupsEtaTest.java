package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
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
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

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
 * Symbol lists and item groups over the whole path (ETA non-interactive provider, distributor, Aeron backbone,
 * p2p-server, ETA consumers), as an ADS application sees them.
 * <ul>
 *     <li>Symbol lists (domain 10) are served like any other item: a Map keyed by ASCII names with no entry data, or
 *     keyed by BUFFER names with FieldList entries; the consumer gets the whole list, then the provider's ADD and
 *     DELETE updates; a late consumer gets the current list from the caches. The directory's Capabilities list
 *     domain 10.</li>
 *     <li>Item groups: the provider's refreshes put items in groups; a directory update with the GROUP filter turns
 *     the items of one group Open/Suspect (with the provider's text) and back to Ok, and a merge moves a group's
 *     items into another, whose later status reaches them all; a ClosedRecover group status closes and drops the
 *     group's items. A consumer asking for INFO|STATE|GROUP gets a valid directory.</li>
 * </ul>
 */
@ExtendWith(EtaTransportExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InterruptAfter(60)
class FullPathSymbolListAndGroupsEtaTest
{
    private static final int NIP_SERVICE_ID = 1;
    private static final String SERVICE_NAME = "NI_LISTS";
    private static final Duration QUIET = Duration.ofMillis(300);
    private static final int PROV_SYMB = 3422;
    private static final byte[] GROUP_1 = {1, 0};
    private static final byte[] GROUP_2 = {2, 0};

    private FullPathServers servers;
    private Distributor distributor;
    private P2pServer p2p;
    private EtaNiProvider provider;
    private final List<EtaConsumer> consumers = new ArrayList<>();
    private final EtaFieldLists fields = new EtaFieldLists();
    private int nextProviderStream = -2;
    private int itemsPublished;

    @BeforeAll
    void launch(@TempDir final Path dir)
    {
        servers = FullPathServers.launch(dir, "lists");
        distributor = servers.distributor();
        p2p = servers.p2p();
        provider = EtaNiProvider.connect(distributor.port());
        provider.login("eta-nip-lists");
        provider.publishDirectory(NIP_SERVICE_ID, SERVICE_NAME, (long)DomainTypes.MARKET_PRICE,
            (long)DomainTypes.SYMBOL_LIST);
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

    // ------------------------------------------------------------------ symbol lists

    @Test
    void aSymbolListOfAsciiNamesIsServedWholeThenUpdatedAndALateConsumerGetsTheCurrentList()
    {
        final String name = "0#.INDEX";
        final EtaMaps maps = new EtaMaps();
        final Names list = new Names();
        final EtaMaps refresh = maps.begin(DataTypes.ASCII_STRING, DataTypes.NO_DATA, -1, null, false);
        for (final String symbol : List.of("AAA.N", "BBB.N", "CCC.N", "DDD.N"))
        {
            list.add(refresh, symbol, null);
        }
        final int stream = publish(name, DomainTypes.SYMBOL_LIST, DataTypes.MAP, refresh.end(), null);

        final Consumer consumer = consumer("lists");
        assertTrue(consumer.capabilities.contains((long)DomainTypes.SYMBOL_LIST),
            "the directory lists SymbolList: " + consumer.capabilities);
        consumer.eta.requestItem(5, DomainTypes.SYMBOL_LIST, consumer.serviceId, name, true);
        final EtaMessage whole = consumer.eta.awaitMessage(5);
        assertRefresh(whole, DomainTypes.SYMBOL_LIST, 5, consumer.serviceId, name);
        final EtaMaps.Decoded image = EtaMaps.decodePayload(whole.bytes());
        assertEquals(DataTypes.ASCII_STRING, image.keyPrimitiveType);
        assertEquals(DataTypes.NO_DATA, image.containerType);
        list.assertImage(image);

        // names added and deleted: each update reaches the consumer with exactly the provider's entries
        final List<List<String>> sent = new ArrayList<>();
        for (int round = 1; round <= 5; round++)
        {
            final EtaMaps update = maps.begin(DataTypes.ASCII_STRING, DataTypes.NO_DATA, -1, null, false);
            sent.add(list.start());
            list.add(update, "NEW" + round + ".N", null);
            if (round % 2 == 1)
            {
                list.delete(update, 1 == round ? "BBB.N" : "NEW" + (round - 1) + ".N");
            }
            provider.update(stream, DomainTypes.SYMBOL_LIST, DataTypes.MAP, update.end());
        }
        for (final List<String> expected : sent)
        {
            final EtaMessage update = consumer.eta.awaitMessage(5);
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(DomainTypes.SYMBOL_LIST, update.domainType());
            Names.assertEntries(expected, EtaMaps.decodePayload(update.bytes()));
        }

        // a late consumer: the current list (adds and deletes applied), from the caches
        final Consumer late = consumer("lists-late");
        late.eta.requestItem(9, DomainTypes.SYMBOL_LIST, late.serviceId, name, true);
        final EtaMessage current = late.eta.awaitMessage(9);
        assertRefresh(current, DomainTypes.SYMBOL_LIST, 9, late.serviceId, name);
        list.assertImage(EtaMaps.decodePayload(current.bytes()));

        // a snapshot too
        late.eta.requestItem(10, DomainTypes.SYMBOL_LIST, late.serviceId, name, false);
        final EtaMessage snapshot = late.eta.awaitMessage(10);
        assertEquals(MsgClasses.REFRESH, snapshot.msgClass(), snapshot::toString);
        list.assertImage(EtaMaps.decodePayload(snapshot.bytes()));
        assertTrue(provider.service(), "the provider stayed connected");
    }

    @Test
    void aSymbolListWithFieldListEntriesKeepsEachNamesFields()
    {
        final String name = "0#BOOKS";
        final EtaMaps maps = new EtaMaps();
        final Names list = new Names();
        final EtaMaps refresh = maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, -1, null, false);
        list.add(refresh, "X.L", fields.begin(0, 0).ascii(PROV_SYMB, "X1").end());
        list.add(refresh, "Y.L", fields.begin(0, 0).ascii(PROV_SYMB, "Y1").end());
        final int stream = publish(name, DomainTypes.SYMBOL_LIST, DataTypes.MAP, refresh.end(), null);

        final Consumer consumer = consumer("books");
        consumer.eta.requestItem(5, DomainTypes.SYMBOL_LIST, consumer.serviceId, name, true);
        final EtaMessage whole = consumer.eta.awaitMessage(5);
        assertRefresh(whole, DomainTypes.SYMBOL_LIST, 5, consumer.serviceId, name);
        list.assertImage(EtaMaps.decodePayload(whole.bytes()));

        final EtaMaps update = maps.begin(DataTypes.BUFFER, DataTypes.FIELD_LIST, -1, null, false);
        final List<String> expected = list.start();
        list.add(update, "Z.L", fields.begin(0, 0).ascii(PROV_SYMB, "Z1").end());
        list.update(update, "X.L", fields.begin(0, 0).ascii(PROV_SYMB, "X2").end());
        list.delete(update, "Y.L");
        provider.update(stream, DomainTypes.SYMBOL_LIST, DataTypes.MAP, update.end());
        final EtaMessage received = consumer.eta.awaitMessage(5);
        assertEquals(MsgClasses.UPDATE, received.msgClass(), received::toString);
        Names.assertEntries(expected, EtaMaps.decodePayload(received.bytes()));

        final Consumer late = consumer("books-late");
        late.eta.requestItem(6, DomainTypes.SYMBOL_LIST, late.serviceId, name, true);
        final EtaMessage current = late.eta.awaitMessage(6);
        assertRefresh(current, DomainTypes.SYMBOL_LIST, 6, late.serviceId, name);
        list.assertImage(EtaMaps.decodePayload(current.bytes()));
    }

    // ------------------------------------------------------------------ item groups

    @Test
    void aGroupStatusReachesEveryItemOfTheGroupAndAMergeMovesTheItems()
    {
        final int streamA = publish("GA.N", DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, quote(100), GROUP_1);
        publish("GB.N", DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, quote(200), GROUP_1);
        publish("GC.N", DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, quote(300), GROUP_2);
        assertArrayEquals(GROUP_1, groupOf("GA.N"), "the group id of the provider's refresh");
        assertArrayEquals(GROUP_2, groupOf("GC.N"));

        final Consumer consumer = consumer("groups");
        final int[] streams = {5, 6, 7};
        final String[] names = {"GA.N", "GB.N", "GC.N"};
        for (int i = 0; i < streams.length; i++)
        {
            consumer.eta.requestItem(streams[i], consumer.serviceId, names[i]);
            assertEquals(MsgClasses.REFRESH, consumer.eta.awaitMessage(streams[i]).msgClass());
        }

        // group 1 goes Suspect: A and B only, with the provider's text
        provider.publishGroup(NIP_SERVICE_ID, GROUP_1, StreamStates.OPEN, DataStates.SUSPECT, "feed line down", null);
        assertStatus(consumer.eta.awaitMessage(5), DataStates.SUSPECT, "feed line down");
        assertStatus(consumer.eta.awaitMessage(6), DataStates.SUSPECT, "feed line down");
        assertNull(consumer.eta.pollMessage(7, QUIET), "C is in another group");
        assertEquals(DataStates.SUSPECT, (int)distributor.onEventLoop((d) -> item(d, "GA.N").dataState()));

        // and recovers
        provider.publishGroup(NIP_SERVICE_ID, GROUP_1, StreamStates.OPEN, DataStates.OK, "feed line up", null);
        assertStatus(consumer.eta.awaitMessage(5), DataStates.OK, "feed line up");
        assertStatus(consumer.eta.awaitMessage(6), DataStates.OK, "feed line up");
        assertNull(consumer.eta.pollMessage(7, Duration.ZERO));

        // updates still flow
        provider.update(streamA, fields.begin(0, 0).real(FieldIds.BID, 101, RealHints.EXPONENT_2).end());
        final EtaMessage update = consumer.eta.awaitMessage(5);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(101L, update.mantissa(FieldIds.BID));

        // group 1 merges into group 2: nothing to tell the consumer; a status of group 2 then reaches A, B and C
        provider.publishGroup(NIP_SERVICE_ID, GROUP_1, 0, 0, null, GROUP_2);
        MdTests.await(() -> "the merge", () -> Arrays.equals(GROUP_2, groupOf("GB.N")));
        assertNull(consumer.eta.pollMessage(5, QUIET), "a merge alone says nothing to consumers");
        provider.publishGroup(NIP_SERVICE_ID, GROUP_2, StreamStates.OPEN, DataStates.SUSPECT, "group 2 stale", null);
        for (final int stream : streams)
        {
            assertStatus(consumer.eta.awaitMessage(stream), DataStates.SUSPECT, "group 2 stale");
        }
        provider.publishGroup(NIP_SERVICE_ID, GROUP_1, StreamStates.OPEN, DataStates.SUSPECT, "old group", null);
        assertNull(consumer.eta.pollMessage(5, QUIET), "group 1 has no items left");
        provider.publishGroup(NIP_SERVICE_ID, GROUP_2, StreamStates.OPEN, DataStates.OK, "group 2 ok", null);
        for (final int stream : streams)
        {
            assertStatus(consumer.eta.awaitMessage(stream), DataStates.OK, "group 2 ok");
        }

        // a late consumer gets the items from the caches again, Ok
        final Consumer late = consumer("groups-late");
        late.eta.requestItem(8, late.serviceId, "GB.N");
        final EtaMessage refresh = late.eta.awaitMessage(8);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertTrue(provider.service(), "the provider stayed connected");
    }

    @Test
    void aClosingGroupStatusClosesAndDropsEveryItemOfTheGroup()
    {
        final byte[] group = {3, 0};
        publish("GX.N", DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, quote(500), group);
        publish("GY.N", DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, quote(600), group);
        publish("GZ.N", DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, quote(700), null);
        final Consumer consumer = consumer("groups-closed");
        final int[] streams = {5, 6, 7};
        final String[] names = {"GX.N", "GY.N", "GZ.N"};
        for (int i = 0; i < streams.length; i++)
        {
            consumer.eta.requestItem(streams[i], consumer.serviceId, names[i]);
            assertEquals(MsgClasses.REFRESH, consumer.eta.awaitMessage(streams[i]).msgClass());
        }

        provider.publishGroup(NIP_SERVICE_ID, group, StreamStates.CLOSED_RECOVER, DataStates.SUSPECT, "gone", null);
        for (final int stream : new int[] {5, 6})
        {
            final EtaMessage status = consumer.eta.awaitMessage(stream);
            assertEquals(MsgClasses.STATUS, status.msgClass(), status::toString);
            assertEquals(StreamStates.CLOSED_RECOVER, status.streamState(), status::toString);
            assertEquals("gone", status.text());
        }
        itemsPublished -= 2;
        MdTests.await(() -> "the distributor to drop the group's items",
            () -> itemsPublished == distributor.onEventLoop(ServiceDirectory::itemCount));
        assertNull(consumer.eta.pollMessage(5, QUIET), "one Closed status per item");
        assertNull(consumer.eta.pollMessage(6, Duration.ZERO));
        assertNull(consumer.eta.pollMessage(7, Duration.ZERO), "the item outside the group is untouched");
        assertTrue(provider.service(), "the provider stayed connected");
    }

    @Test
    void aConsumerAskingForTheGroupFilterGetsAValidDirectory()
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        consumers.add(eta);
        eta.channel().serviceAlongside(provider.channel());
        assertEquals(StreamStates.OPEN, eta.login("directory-groups").state().streamState());
        int directoryStream = 2;
        while (true)
        {
            eta.requestDirectory(directoryStream, Directory.ServiceFilterFlags.INFO |
                Directory.ServiceFilterFlags.STATE | Directory.ServiceFilterFlags.GROUP);
            final EtaMessage directory = eta.awaitMessage(directoryStream);
            assertEquals(MsgClasses.REFRESH, directory.msgClass(), directory::toString);
            final Service service = find(directory.directoryRefresh().serviceList());
            if (null != service)
            {
                assertEquals(1, service.state().serviceState(), "the service is up");
                assertTrue(service.groupStateList().isEmpty(), "the GROUP filter is answered empty");
                break;
            }
            directoryStream++;
            MdTests.idle(() -> SERVICE_NAME + " in the p2p-server's directory");
        }
        // a group status of the provider changes nothing on the consumer's directory stream
        provider.publishGroup(NIP_SERVICE_ID, new byte[] {9, 9}, StreamStates.OPEN, DataStates.SUSPECT, "x", null);
        final EtaMessage next = eta.pollMessage(directoryStream, QUIET);
        if (null != next)
        {
            assertEquals(MsgClasses.UPDATE, next.msgClass(), next::toString);
            next.directoryUpdate();
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void assertStatus(final EtaMessage status, final int dataState, final String text)
    {
        assertEquals(MsgClasses.STATUS, status.msgClass(), status::toString);
        assertEquals(StreamStates.OPEN, status.streamState(), status::toString);
        assertEquals(dataState, status.dataState(), status::toString);
        assertEquals(text, status.text());
    }

    private byte[] quote(final long bid)
    {
        return fields.begin(1, 0)
            .real(FieldIds.BID, bid, RealHints.EXPONENT_2)
            .real(FieldIds.ASK, bid + 1, RealHints.EXPONENT_2)
            .end();
    }

    private byte[] groupOf(final String name)
    {
        return distributor.onEventLoop((d) -> item(d, name).groupId());
    }

    private static CachedItem item(final ServiceDirectory directory, final String name)
    {
        final ItemCache cache = directory.service(NIP_SERVICE_ID).cache();
        final byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        return cache.item(cache.handle(DomainTypes.MARKET_PRICE, new UnsafeBuffer(bytes), 0, bytes.length));
    }

    /**
     * Publish an item's single-part refresh and wait until the distributor caches it.
     *
     * @return the provider's stream for the item.
     */
    private int publish(
        final String name, final int domainType, final int containerType, final byte[] payload, final byte[] group)
    {
        final int streamId = nextProviderStream--;
        provider.refresh(streamId, domainType, NIP_SERVICE_ID, name,
            RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE, containerType, payload, group);
        final int expected = ++itemsPublished;
        MdTests.await(() -> "the distributor to cache " + name,
            () -> expected == distributor.onEventLoop(ServiceDirectory::itemCount));
        return streamId;
    }

    private static Service find(final List<Service> services)
    {
        for (final Service service : services)
        {
            if (service.checkHasInfo() && SERVICE_NAME.equals(service.info().serviceName().toString()))
            {
                return service;
            }
        }
        return null;
    }

    private Consumer consumer(final String user)
    {
        final EtaConsumer eta = EtaConsumer.connect(p2p.port());
        consumers.add(eta);
        eta.channel().serviceAlongside(provider.channel());
        assertEquals(StreamStates.OPEN, eta.login(user).state().streamState());
        final Service service = FullPathServers.awaitService(eta, SERVICE_NAME);
        return new Consumer(eta, service.serviceId(), service.info().capabilitiesList());
    }

    private static void assertRefresh(
        final EtaMessage refresh, final int domainType, final int streamId, final int serviceId, final String name)
    {
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(domainType, refresh.domainType(), refresh::toString);
        assertEquals(DataTypes.MAP, refresh.containerType(), refresh::toString);
        assertEquals(streamId, refresh.streamId());
        assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertTrue(refresh.isSolicited(), refresh::toString);
        assertTrue(refresh.isRefreshComplete(), refresh::toString);
        assertEquals(serviceId, refresh.keyServiceId(), refresh::toString);
        assertEquals(name, refresh.keyName());
    }

    /**
     * An ETA consumer, the id it found the provider's service under and the service's Capabilities.
     */
    private static final class Consumer
    {
        final EtaConsumer eta;
        final int serviceId;
        final List<Long> capabilities;

        Consumer(final EtaConsumer eta, final int serviceId, final List<Long> capabilities)
        {
            this.eta = eta;
            this.serviceId = serviceId;
            this.capabilities = new ArrayList<>(capabilities);
        }
    }

    /**
     * The expected symbol list: name to entry payload (hex; empty for no data), and the entries of the message being
     * built (action, name, payload in hex).
     */
    private static final class Names
    {
        final Map<String, String> names = new LinkedHashMap<>();
        List<String> current = new ArrayList<>();

        List<String> start()
        {
            current = new ArrayList<>();
            return current;
        }

        void add(final EtaMaps map, final String name, final byte[] payload)
        {
            map.entry(MapEntryActions.ADD, name, null, payload);
            names.put(name, null == payload ? "" : EtaMaps.hex(payload));
            current.add(MapEntryActions.ADD + " " + name + " " + names.get(name));
        }

        void update(final EtaMaps map, final String name, final byte[] payload)
        {
            map.update(name, payload);
            names.put(name, EtaMaps.hex(payload)); // one field per entry here: the update replaces it
            current.add(MapEntryActions.UPDATE + " " + name + " " + EtaMaps.hex(payload));
        }

        void delete(final EtaMaps map, final String name)
        {
            map.delete(name);
            names.remove(name);
            current.add(MapEntryActions.DELETE + " " + name + " ");
        }

        /**
         * @param image a refresh's Map: every entry an ADD, exactly the current names and their payloads.
         */
        void assertImage(final EtaMaps.Decoded image)
        {
            final Map<String, String> got = new LinkedHashMap<>();
            for (final EtaMaps.Entry entry : image.entries)
            {
                assertEquals(MapEntryActions.ADD, entry.action, image::toString);
                got.put(entry.key, EtaMaps.hex(entry.payload));
            }
            assertEquals(new TreeMap<>(names), new TreeMap<>(got), image::toString);
            assertEquals(names.size(), image.entries.size(), image::toString);
        }

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
