package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.backbone.protocol.BackbonePublication;
import io.mdhub.backbone.protocol.ControlPublisher;
import io.mdhub.backbone.protocol.RefreshFlags;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.cache.EtaMaps;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.distributor.RecordingBackboneListener.Event;

/**
 * The distributor on an embedded backbone (IPC): real ETA NIPs publish, a test-side adapter reads the data stream
 * and a test-side control publisher plays a p2p-server asking for items, refusals and recovery.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(30)
class DistributorBackboneTest
{
    private static final String CHANNEL = "aeron:ipc";
    private static final int DATA_STREAM = 2001;
    private static final int CONTROL_STREAM = 2002;
    private static final int SERVICE_ID = 1;
    private static final int SOLICITED_IMAGE =
        RefreshFlags.SOLICITED | RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE;
    private static final int RECOVERY_IMAGE = RefreshFlags.RECOVERY | RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE;

    @TempDir
    Path dir;

    private final EtaFieldLists fields = new EtaFieldLists();
    private final List<EtaNiProvider> providers = new ArrayList<>();
    private final CountersManager testCounters = new CountersManager(
        new UnsafeBuffer(new byte[16 * 1024]), new UnsafeBuffer(new byte[4 * 1024]));
    private final AtomicCounter testMalformed = testCounters.newCounter("malformed");
    private BackboneNode node;
    private Aeron aeron;
    private Distributor distributor;
    private RecordingBackboneListener data;
    private ControlPublisher control;

    @BeforeEach
    void launchBackbone()
    {
        launchBackbone(1024 * 1024);
    }

    private void launchBackbone(final int ipcTermLength)
    {
        CloseHelper.closeAll(aeron, node);
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(64 * 1024)
            .ipcTermBufferLength(ipcTermLength)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
    }

    @AfterEach
    void tearDown()
    {
        providers.forEach(EtaNiProvider::close);
        CloseHelper.closeAll(distributor, aeron, node);
    }

    private void launch(final Distributor.Context ctx)
    {
        ctx.providerPort(0).componentName("distributor-backbone-test").registerMBean(false);
        ctx.backbone()
            .channel(CHANNEL)
            .dataStreamId(DATA_STREAM)
            .controlStreamId(CONTROL_STREAM)
            .distributorId(7)
            .announceIntervalMs(20);
        distributor = Distributor.launch(ctx);
    }

    private void launchWithClient()
    {
        final Distributor.Context ctx = new Distributor.Context();
        ctx.backbone().aeron(aeron);
        launch(ctx);
    }

    private void subscribe()
    {
        final Subscription subscription = aeron.addSubscription(CHANNEL, DATA_STREAM);
        data = new RecordingBackboneListener(subscription, testMalformed);
        data.await("first announcement", (e) -> "announce".equals(e.type()));
    }

    private void controlPublisher()
    {
        final ExclusivePublication publication = aeron.addExclusivePublication(CHANNEL, CONTROL_STREAM);
        MdTests.await("control stream connected", publication::isConnected);
        control = new ControlPublisher(new BackbonePublication(publication, 3, testCounters.newCounter("bp")), 42);
    }

    private EtaNiProvider provider(final String serviceName)
    {
        final EtaNiProvider provider = EtaNiProvider.connect(distributor.port());
        providers.add(provider);
        provider.login("nip");
        provider.publishDirectory(SERVICE_ID, serviceName);
        return provider;
    }

    private byte[] image(final String name)
    {
        return fields.begin(1, 0).uint(1, 64).ascii(3, name).real(22, 12344, 12).real(25, 12346, 12).end();
    }

    private long counter(final String labelPrefix)
    {
        final long[] value = {-1};
        distributor.countersReader().forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (label.startsWith(labelPrefix))
            {
                value[0] = distributor.countersReader().getCounterValue(counterId);
            }
        });
        return value[0];
    }

    private static UnsafeBuffer ascii(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void liveDataCarriesConsecutiveSequencesTheProvidersBytesAndAnnouncements()
    {
        launchWithClient();
        subscribe();
        final long before = System.nanoTime();
        final EtaNiProvider nip = provider("NI_PUB");
        nip.refresh(-2, SERVICE_ID, "TRI.N", image("TRI"));
        final byte[] refreshBytes = nip.lastSent();
        final List<byte[]> updates = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            nip.update(-2, fields.begin(0, 0).real(22, 12345 + i, 12).end());
            updates.add(nip.lastSent());
        }

        final Event refresh = data.awaitData("refresh", 1).get(0);
        assertEquals(SERVICE_ID, refresh.serviceId());
        assertEquals(1, refresh.sequence());
        assertEquals(0, refresh.requestId());
        assertEquals(DomainTypes.MARKET_PRICE, refresh.domainType());
        assertEquals(RefreshFlags.CLEAR_CACHE | RefreshFlags.COMPLETE, refresh.flags(), "unsolicited, one part");
        assertEquals("TRI.N", refresh.name());
        assertArrayEquals(refreshBytes, refresh.rwf(), "the provider's refresh unchanged");
        assertTrue(refresh.originNs() >= before && refresh.originNs() <= System.nanoTime());
        final List<Event> published = data.awaitData("update", 3);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(refresh.handle(), published.get(i).handle());
            assertEquals(2 + i, published.get(i).sequence(), "consecutive per-service sequence");
            assertArrayEquals(updates.get(i), published.get(i).rwf(), "update " + i + " unchanged");
        }
        final Event announced = data.await("announcement after the updates",
            (e) -> "service".equals(e.type()) && 4 == e.lastSequence());
        assertEquals("NI_PUB", announced.name());
        assertEquals(SERVICE_ID, announced.serviceId());
        assertTrue(announced.isUp());
        assertEquals(1, announced.itemCount());
        assertEquals(1L << DomainTypes.MARKET_PRICE, announced.capabilities());

        nip.closeItem(-2, "gone");
        final Event closed = data.awaitData("status", 1).get(0);
        assertEquals(refresh.handle(), closed.handle());
        assertEquals(5, closed.sequence());
        assertEquals(StreamStates.CLOSED, closed.streamState());
        assertArrayEquals(nip.lastSent(), closed.rwf(), "the provider's Closed status, once");
        data.await("announcement with no items", (e) -> "service".equals(e.type()) && 0 == e.itemCount() &&
            5 == e.lastSequence());
        assertEquals(1, data.data("status").size(), "no second Closed status for the dropped item");
    }

    @Test
    void itemRequestsAreAnsweredFromTheCacheOrRefused()
    {
        launchWithClient();
        subscribe();
        controlPublisher();
        final EtaNiProvider nip = provider("NI_PUB");
        final byte[] image = image("TRI");
        nip.refresh(-2, SERVICE_ID, "TRI.N", image);
        final Map<Integer, byte[]> expected = new LinkedHashMap<>(EtaFieldLists.decode(image));
        final byte[] update = fields.begin(0, 0).real(22, 99999, 12).ascii(3, "UPDATED").end();
        nip.update(-2, update);
        expected.putAll(EtaFieldLists.decode(update));
        final int handle = data.awaitData("refresh", 1).get(0).handle();
        data.awaitData("update", 1);

        final UnsafeBuffer name = ascii("TRI.N");
        assertTrue(control.requestItem(77, SERVICE_ID, DomainTypes.MARKET_PRICE, true, name, 0, 5) > 0);
        final Event answer = data.await("solicited refresh", (e) -> 77 == e.requestId());
        assertEquals("refresh", answer.type());
        assertEquals(handle, answer.handle());
        assertEquals(SOLICITED_IMAGE, answer.flags());
        assertEquals("TRI.N", answer.name());
        assertEquals(3, answer.sequence(), "the answer takes the service's next sequence");

        final DecodeIterator it = EtaNiProvider.decodeIterator(answer.rwf());
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        assertEquals(MsgClasses.REFRESH, msg.msgClass());
        final RefreshMsg refresh = (RefreshMsg)msg;
        assertTrue(refresh.checkSolicited() && refresh.checkRefreshComplete() && refresh.checkClearCache());
        assertEquals(SERVICE_ID, refresh.msgKey().serviceId());
        assertEquals("TRI.N", refresh.msgKey().name().toString());
        final Map<Integer, byte[]> actual = EtaFieldLists.decode(it);
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(actual.keySet()));
        expected.forEach((fid, value) -> assertArrayEquals(value, actual.get(fid), "fid " + fid));

        assertTrue(control.requestItem(78, SERVICE_ID, DomainTypes.MARKET_PRICE, true, ascii("NOPE.N"), 0, 6) > 0);
        final Event notFound = data.await("refusal of an unknown item", (e) -> 78 == e.requestId());
        assertRefusal(notFound, SERVICE_ID, StreamStates.CLOSED_RECOVER, StateCodes.NOT_FOUND, "item not found");
        assertEquals(4, notFound.sequence());

        assertTrue(control.requestItem(79, 999, DomainTypes.MARKET_PRICE, true, name, 0, 5) > 0);
        assertRefusal(data.await("refusal of an unknown service", (e) -> 79 == e.requestId()), 999,
            StreamStates.CLOSED, StateCodes.SOURCE_UNKNOWN, "service not found");

        assertTrue(control.requestItem(80, SERVICE_ID, DomainTypes.MARKET_BY_ORDER, true, name, 0, 5) > 0);
        assertRefusal(data.await("refusal of another domain", (e) -> 80 == e.requestId()), SERVICE_ID,
            StreamStates.CLOSED_RECOVER, StateCodes.NOT_FOUND, "item not found");

        final long[] answered = distributor.onEventLoop(
            (directory) -> new long[] {distributor.backbone().requestsAnswered(),
                distributor.backbone().requestsRefused()});
        assertArrayEquals(new long[] {1, 3}, answered);
    }

    @Test
    void aMapItemIsImagedAndAGoneItemIsRefusedInItsOwnDomainOnRecovery()
    {
        launchWithClient();
        subscribe();
        controlPublisher();
        final EtaNiProvider nip = provider("NI_PUB");
        final byte[] level = fields.begin(0, 0).real(3427, 10000, 12).real(3430, 500, 14).end();
        final byte[] book = new EtaMaps().begin().add("100B", level).end();
        nip.refresh(-2, DomainTypes.MARKET_BY_PRICE, SERVICE_ID, "TRI.N",
            RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE, DataTypes.MAP, book);
        nip.refresh(-3, SERVICE_ID, "TRI.N", image("TRI"));
        final List<Event> refreshes = data.awaitData("refresh", 2);
        assertEquals(DomainTypes.MARKET_BY_PRICE, refreshes.get(0).domainType());
        assertEquals(DomainTypes.MARKET_PRICE, refreshes.get(1).domainType());
        assertTrue(refreshes.get(0).handle() != refreshes.get(1).handle(), "one name, two domains: two items");

        final UnsafeBuffer name = ascii("TRI.N");
        assertTrue(control.requestItem(81, SERVICE_ID, DomainTypes.MARKET_BY_PRICE, true, name, 0, 5) > 0);
        final Event answer = data.await("the book from the cache", (e) -> 81 == e.requestId());
        assertEquals("refresh", answer.type());
        assertEquals(refreshes.get(0).handle(), answer.handle());
        assertEquals(DomainTypes.MARKET_BY_PRICE, answer.domainType());
        assertEquals(Map.of("100B", EtaMaps.fields(level)), EtaMaps.decodePayload(answer.rwf()).fieldsByKey());

        nip.closeItem(-2, "book gone");
        final Event closed = data.awaitData("status", 1).get(0);
        assertEquals(refreshes.get(0).handle(), closed.handle());
        assertTrue(control.requestRecovery(SERVICE_ID, closed.handle(), DomainTypes.MARKET_BY_PRICE, 2) > 0);
        final Event gone = data.await("the refusal of the gone item", (e) -> "status".equals(e.type()) &&
            closed.handle() == e.handle() && closed.sequence() < e.sequence());
        final StatusMsg status = (StatusMsg)EtaNiProvider.decode(gone.rwf());
        assertEquals(DomainTypes.MARKET_BY_PRICE, status.domainType(), "the item's own domain, not MarketPrice");
        assertEquals(StreamStates.CLOSED, status.state().streamState());
        assertEquals(StateCodes.NOT_FOUND, status.state().code());
        assertEquals("item no longer published", status.state().text().toString());
    }

    private static void assertRefusal(
        final Event event, final int serviceId, final int streamState, final int code, final String text)
    {
        assertEquals("status", event.type());
        assertEquals(serviceId, event.serviceId());
        assertEquals(-1, event.handle());
        assertEquals(streamState, event.streamState());
        assertEquals(DataStates.SUSPECT, event.dataState());
        final StatusMsg status = (StatusMsg)EtaNiProvider.decode(event.rwf());
        assertEquals(MsgClasses.STATUS, status.msgClass());
        assertEquals(streamState, status.state().streamState());
        assertEquals(DataStates.SUSPECT, status.state().dataState());
        assertEquals(code, status.state().code());
        assertEquals(text, status.state().text().toString());
    }

    @Test
    void recoveryResendsEveryImageOfTheServiceInBatchesAndOneItemOnRequest()
    {
        final Distributor.Context ctx = new Distributor.Context();
        ctx.backbone().aeron(aeron).recoveryBatch(4);
        launch(ctx);
        subscribe();
        controlPublisher();
        final EtaNiProvider nip = provider("NI_PUB");
        final int items = 30;
        for (int i = 0; i < items; i++)
        {
            nip.refresh(-2 - i, SERVICE_ID, "ITEM" + i, image("I" + i));
        }
        final List<Event> live = data.awaitData("refresh", items);

        assertTrue(control.requestRecovery(SERVICE_ID, -1, 3) > 0);
        final List<Event> all = data.awaitData("refresh", 2 * items);
        final Set<Integer> handles = new HashSet<>();
        for (int i = items; i < 2 * items; i++)
        {
            final Event image = all.get(i);
            assertEquals(RECOVERY_IMAGE, image.flags());
            assertEquals(0, image.requestId());
            assertEquals(i + 1, image.sequence());
            assertTrue(handles.add(image.handle()), "each item once");
            final RefreshMsg refresh = (RefreshMsg)EtaNiProvider.decode(image.rwf());
            assertEquals(image.name(), refresh.msgKey().name().toString());
        }
        assertEquals(live.stream().map(Event::handle).collect(java.util.stream.Collectors.toSet()), handles);

        final Event one = live.get(7);
        assertTrue(control.requestRecovery(SERVICE_ID, one.handle(), DomainTypes.MARKET_PRICE, 60) > 0);
        final Event resent = data.awaitData("refresh", 2 * items + 1).get(2 * items);
        assertEquals(one.handle(), resent.handle());
        assertEquals("ITEM7", resent.name());
        assertEquals(RECOVERY_IMAGE, resent.flags());
        assertEquals(2 * items + 1, resent.sequence());
        MdTests.await("recoveries counted", () -> items + 1 == counter("backbone-recoveries:"));
    }

    @Test
    void providerLossAnnouncesTheServiceDownAndTurnsItsItemsSuspect()
    {
        launchWithClient();
        subscribe();
        final EtaNiProvider nip = provider("NI_PUB");
        nip.refresh(-2, SERVICE_ID, "A.N", image("A"));
        nip.refresh(-3, SERVICE_ID, "B.N", image("B"));
        final List<Event> refreshes = data.awaitData("refresh", 2);
        data.await("service up", (e) -> "service".equals(e.type()) && e.isUp());
        nip.close();

        final List<Event> statuses = data.awaitData("status", 2);
        final Set<Integer> handles = new HashSet<>();
        for (final Event status : statuses)
        {
            assertEquals(StreamStates.OPEN, status.streamState());
            assertEquals(DataStates.SUSPECT, status.dataState());
            handles.add(status.handle());
        }
        assertEquals(Set.of(refreshes.get(0).handle(), refreshes.get(1).handle()), handles);
        final Event down = data.await("service down", (e) -> "service".equals(e.type()) && !e.isUp());
        assertEquals("NI_PUB", down.name());
        assertEquals(4, down.lastSequence());
        assertEquals(2, down.itemCount(), "stale items stay cached");
    }

    @Test
    void publishingWithoutSubscribersIsCountedAndALateP2pServerRecoversByRequest()
    {
        final Distributor.Context ctx = new Distributor.Context();
        ctx.backbone().aeronDirectoryName(node.aeronDirectoryName());
        launch(ctx);
        final EtaNiProvider nip = provider("NI_PUB");
        nip.refresh(-2, SERVICE_ID, "TRI.N", image("TRI"));
        nip.update(-2, fields.begin(0, 0).real(22, 1, 12).end());
        MdTests.await("not-connected drops counted",
            () -> 2 == counter("distributor-messages-dropped: reason=backbone-not-connected"));

        subscribe();
        controlPublisher();
        assertTrue(control.requestItem(5, SERVICE_ID, DomainTypes.MARKET_PRICE, true, ascii("TRI.N"), 0, 5) > 0);
        final Event answer = data.await("solicited refresh", (e) -> 5 == e.requestId());
        assertEquals(SOLICITED_IMAGE, answer.flags());
        assertEquals(3, answer.sequence(), "sequences kept counting while nobody listened");
        nip.update(-2, fields.begin(0, 0).real(22, 2, 12).end());
        assertEquals(4, data.awaitData("update", 1).get(0).sequence());
        assertEquals(0, counter("distributor-messages-dropped: reason=backbone-pending-full"));
    }

    @Test
    void aP2pServerJoiningAfterDataPassedOverHearsTheLastSequencesAtOnce()
    {
        // an interval far beyond the test's deadline: only an early announcement can arrive in time
        final Distributor.Context ctx = new Distributor.Context();
        ctx.providerPort(0).componentName("distributor-backbone-test").registerMBean(false);
        ctx.backbone().aeron(aeron).channel(CHANNEL).dataStreamId(DATA_STREAM).controlStreamId(CONTROL_STREAM)
            .distributorId(7).announceIntervalMs(60_000);
        distributor = Distributor.launch(ctx);
        final EtaNiProvider nip = provider("NI_PUB");
        nip.refresh(-2, SERVICE_ID, "TRI.N", image("TRI"));
        nip.update(-2, fields.begin(0, 0).real(22, 1, 12).end());
        MdTests.await("not-connected drops counted",
            () -> 2 == counter("distributor-messages-dropped: reason=backbone-not-connected"));

        final long joinedNs = System.nanoTime();
        data = new RecordingBackboneListener(aeron.addSubscription(CHANNEL, DATA_STREAM), testMalformed);
        final Event announced = data.await("announcement with the sequences passed over",
            (e) -> "service".equals(e.type()) && "NI_PUB".equals(e.name()));
        final long waitedMs = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - joinedNs);
        assertTrue(waitedMs < 3000, "announced on joining, not after the 6 s early gap: " + waitedMs + " ms");
        assertEquals(2, announced.lastSequence());
        nip.update(-2, fields.begin(0, 0).real(22, 2, 12).end());
        assertEquals(3, data.awaitData("update", 1).get(0).sequence());
    }

    @Test
    void malformedControlMessagesAreCountedAndP2pServersAreTracked()
    {
        launchWithClient();
        subscribe();
        final ExclusivePublication raw = aeron.addExclusivePublication(CHANNEL, CONTROL_STREAM);
        MdTests.await("control stream connected", raw::isConnected);
        // a fresh image may still answer ADMIN_ACTION or BACK_PRESSURED once connected: offer until taken
        final UnsafeBuffer garbage = new UnsafeBuffer(new byte[] {1, 2, 3});
        MdTests.await("garbage offered", () -> raw.offer(garbage) > 0);
        MdTests.await("malformed counted", () -> 1 == counter("backbone-malformed: stream=control"));

        control = new ControlPublisher(new BackbonePublication(raw, 3, testCounters.newCounter("bp")), 42);
        assertTrue(control.announce(1L, 10, System.nanoTime()) > 0);
        MdTests.await("p2p-server tracked",
            () -> 1 == distributor.onEventLoop((directory) -> distributor.backbone().p2pServerCount()));
        assertTrue(control.closeItem(SERVICE_ID, 1) > 0);
        MdTests.await("close counted",
            () -> 1 == distributor.onEventLoop((directory) -> distributor.backbone().itemCloses()));
        MdTests.await("p2p-server expired after five silent intervals",
            () -> 0 == distributor.onEventLoop((directory) -> distributor.backbone().p2pServerCount()));
    }

    @Test
    void withoutClientOrDirectoryTheDistributorRunsWithoutBackboneAndSettingsAreValidated()
    {
        distributor = Distributor.launch(new Distributor.Context().providerPort(0).registerMBean(false));
        assertNull(distributor.backbone());
        distributor.close();
        distributor = null;

        final Distributor.Context sameStreams = new Distributor.Context().providerPort(0).registerMBean(false);
        sameStreams.backbone().aeron(aeron).dataStreamId(5).controlStreamId(5);
        assertThrows(IllegalArgumentException.class, () -> Distributor.launch(sameStreams));
        final Distributor.Context badIdle = new Distributor.Context().providerPort(0).registerMBean(false);
        badIdle.backbone().aeron(aeron).idleMinNs(1000).idleMaxNs(10);
        assertThrows(IllegalArgumentException.class, () -> Distributor.launch(badIdle));
        // the loop runs its Aeron client's conductor: idle longer than a second and the client could time out
        final Distributor.Context longIdle = new Distributor.Context().providerPort(0).registerMBean(false);
        longIdle.backbone().aeron(aeron).idleMaxNs(2_000_000_000L);
        assertThrows(IllegalArgumentException.class, () -> Distributor.launch(longIdle));
        final Distributor.Context disabled = new Distributor.Context().providerPort(0).registerMBean(false);
        disabled.backbone().aeron(aeron).enabled(false);
        distributor = Distributor.launch(disabled);
        assertNull(distributor.backbone());
    }
}
