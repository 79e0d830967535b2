package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.rdm.UpdateEventTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.distributor.RecordingDistributorListener.Event;

/**
 * The distributor against real ETA 3.9.1.0 non-interactive providers: login, directory, item refresh, updates,
 * status, the cache image, several providers, and bad input that must affect only the peer that sent it.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(20)
class DistributorTest
{
    private static final int NIP_SERVICE_ID = 1;

    private final RecordingDistributorListener listener = new RecordingDistributorListener();
    private final EtaFieldLists fields = new EtaFieldLists();
    private final List<EtaNiProvider> providers = new ArrayList<>();
    private Distributor distributor;

    @AfterEach
    void tearDown()
    {
        providers.forEach(EtaNiProvider::close);
        if (null != distributor)
        {
            distributor.close();
        }
    }

    private void launch(final int maxItemsPerService)
    {
        distributor = Distributor.launch(new Distributor.Context()
            .providerPort(0)
            .componentName("distributor-test")
            .maxItemsPerService(maxItemsPerService)
            .listener(listener));
    }

    private EtaNiProvider provider(final String user, final int serviceId, final String serviceName)
    {
        final EtaNiProvider provider = EtaNiProvider.connect(distributor.port());
        providers.add(provider);
        provider.login(user);
        provider.publishDirectory(serviceId, serviceName);
        return provider;
    }

    private byte[] level1Image()
    {
        return fields.begin(1, 0).uint(1, 64).ascii(3, "LAB ITEM").real(22, 12344, 12).real(25, 12346, 12)
            .blank(11).end();
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

    @Test
    void nipPublishesAndTheListenerReceivesExactlyTheEventsInOrder()
    {
        launch(100);
        final EtaNiProvider nip = provider("nip1", NIP_SERVICE_ID, "NI_PUB");
        nip.refresh(-2, NIP_SERVICE_ID, "TRI.N", level1Image());
        final byte[] refreshBytes = nip.lastSent();
        final List<byte[]> updates = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            nip.update(-2, fields.begin(0, 0).real(22, 12345 + i, 12).end());
            updates.add(nip.lastSent());
        }
        nip.closeItem(-2, "item dropped");
        final byte[] statusBytes = nip.lastSent();

        final List<Event> events = listener.await(7);
        assertEquals("service,refresh,update,update,update,status,dropped", listener.types());

        final Event service = events.get(0);
        assertEquals(NIP_SERVICE_ID, service.serviceId(), "the provider's id is kept when free");
        assertEquals("NI_PUB", service.name());
        assertEquals(1, service.a(), "up");
        assertEquals(1, service.b(), "accepting requests");

        final Event refresh = events.get(1);
        final int handle = refresh.itemHandle();
        assertEquals(NIP_SERVICE_ID, refresh.serviceId());
        assertEquals(DomainTypes.MARKET_PRICE, refresh.a());
        assertEquals(RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE,
            refresh.b() & (RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE));
        assertEquals("TRI.N", refresh.name());
        assertArrayEquals(refreshBytes, refresh.rwf(), "the provider's refresh is passed on unchanged");
        for (int i = 0; i < 3; i++)
        {
            final Event update = events.get(2 + i);
            assertEquals(handle, update.itemHandle());
            assertEquals(UpdateEventTypes.QUOTE, update.b());
            assertArrayEquals(updates.get(i), update.rwf(), "update " + i + " passed on unchanged");
        }
        final Event status = events.get(5);
        assertEquals(handle, status.itemHandle());
        assertEquals(StreamStates.CLOSED, status.a());
        assertArrayEquals(statusBytes, status.rwf());
        assertEquals(handle, events.get(6).itemHandle());

        assertEquals(0, (int)distributor.onEventLoop((directory) -> directory.service("NI_PUB").cache().size()));
        assertEquals(3, counter("distributor-service-updates-in: service=NI_PUB"));
        assertEquals(0, counter("distributor-service-items: service=NI_PUB"));
    }

    @Test
    void cacheImageAfterUpdatesEqualsTheExpectedFieldsAndEtaDecodesTheCachedRefresh()
    {
        launch(100);
        final EtaNiProvider nip = provider("nip1", NIP_SERVICE_ID, "NI_PUB");
        final byte[] image = level1Image();
        nip.refresh(-2, NIP_SERVICE_ID, "TRI.N", image);
        final Map<Integer, byte[]> expected = new LinkedHashMap<>(EtaFieldLists.decode(image));
        final Random random = new Random(11);
        final int updates = 200;
        for (int i = 0; i < updates; i++)
        {
            final byte[] update = fields.begin(0, 0).real(22, random.nextInt(1_000_000), 12)
                .real(25 + random.nextInt(3), random.nextLong() >> random.nextInt(60), 12)
                .ascii(3, "N".repeat(random.nextInt(30))).end();
            nip.update(-2, update);
            expected.putAll(EtaFieldLists.decode(update));
        }
        listener.await(2 + updates);

        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
        final int length = distributor.onEventLoop((directory) ->
        {
            final ItemCache cache = directory.service("NI_PUB").cache();
            final int handle = cache.handle(DomainTypes.MARKET_PRICE, new UnsafeBuffer("TRI.N".getBytes()), 0, 5);
            return cache.encodeRefresh(handle, 5, 77, true, out, 0, out.capacity());
        });
        assertTrue(length > 0, () -> "encodeRefresh: " + CodecReturnCodes.toString(length));
        final byte[] bytes = new byte[length];
        out.getBytes(0, bytes);

        final DecodeIterator it = EtaNiProvider.decodeIterator(bytes);
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        assertEquals(MsgClasses.REFRESH, msg.msgClass());
        final RefreshMsg refresh = (RefreshMsg)msg;
        assertEquals(5, refresh.streamId());
        assertTrue(refresh.checkSolicited());
        assertTrue(refresh.checkRefreshComplete());
        assertTrue(refresh.checkClearCache());
        assertEquals(StreamStates.OPEN, refresh.state().streamState());
        assertEquals(DataStates.OK, refresh.state().dataState());
        assertTrue(refresh.checkHasQos());
        assertEquals(QosTimeliness.REALTIME, refresh.qos().timeliness());
        assertEquals(QosRates.TICK_BY_TICK, refresh.qos().rate());
        assertEquals(77, refresh.msgKey().serviceId());
        assertEquals("TRI.N", refresh.msgKey().name().toString());
        assertEquals(1, refresh.msgKey().nameType());
        final Map<Integer, byte[]> actual = EtaFieldLists.decode(it);
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(actual.keySet()));
        expected.forEach((fid, value) -> assertArrayEquals(value, actual.get(fid), "fid " + fid));
    }

    @Test
    void twoProvidersWithDifferentServicesAndACollidingServiceIdAreRenumbered()
    {
        launch(100);
        final EtaNiProvider a = provider("a", NIP_SERVICE_ID, "NI_PUB");
        listener.awaitNext("service");
        final EtaNiProvider b = provider("b", NIP_SERVICE_ID, "NI_PUB2");
        final Event serviceB = listener.awaitNext("service");
        assertEquals("NI_PUB2", serviceB.name());
        assertEquals(2, serviceB.serviceId(), "colliding provider id 1 gets the next free id");

        a.refresh(-2, NIP_SERVICE_ID, "A.N", level1Image());
        final Event refreshA = listener.awaitNext("refresh");
        assertEquals(1, refreshA.serviceId());
        assertArrayEquals(a.lastSent(), refreshA.rwf());

        b.refresh(-2, NIP_SERVICE_ID, "B.N", level1Image());
        final Event refreshB = listener.awaitNext("refresh");
        assertEquals(2, refreshB.serviceId());
        assertNotEquals(refreshA.itemHandle(), refreshB.itemHandle());
        final RefreshMsg sentB = (RefreshMsg)EtaNiProvider.decode(b.lastSent());
        final RefreshMsg passedB = (RefreshMsg)EtaNiProvider.decode(refreshB.rwf());
        assertEquals(2, passedB.msgKey().serviceId(), "the key carries the distributor's service id");
        assertEquals("B.N", passedB.msgKey().name().toString());
        assertEquals(sentB.streamId(), passedB.streamId());
        assertEquals(sentB.flags(), passedB.flags());
        assertArrayEquals(payload(b.lastSent()), payload(refreshB.rwf()), "payload copied unchanged");

        b.update(-2, fields.begin(0, 0).real(22, 1, 14).end());
        final Event updateB = listener.awaitNext("update");
        assertEquals(2, updateB.serviceId());
        assertArrayEquals(b.lastSent(), updateB.rwf(), "updates carry no key: passed on unchanged");

        final String[] services = distributor.mxBean().getServices();
        assertEquals(2, services.length);
        assertTrue(services[1].contains("name=NI_PUB2") && services[1].contains("items=1"), services[1]);
        assertEquals(2, distributor.mxBean().getConnections().length);
        assertEquals(2, distributor.mxBean().getItemCount());
    }

    private static byte[] payload(final byte[] rwf)
    {
        final Msg msg = EtaNiProvider.decode(rwf);
        final byte[] body = new byte[msg.encodedDataBody().length()];
        for (int i = 0; i < body.length; i++)
        {
            body[i] = msg.encodedDataBody().data().get(msg.encodedDataBody().position() + i);
        }
        return body;
    }

    @Test
    void consumerRoleLoginIsRejectedWithAClosedStatusAndDisconnected()
    {
        launch(100);
        final EtaNiProvider consumer = EtaNiProvider.connect(distributor.port());
        providers.add(consumer);
        consumer.sendLogin("consumer", false);
        final Msg msg = EtaNiProvider.decode(consumer.awaitMessage());
        assertEquals(MsgClasses.STATUS, msg.msgClass());
        assertEquals(DomainTypes.LOGIN, msg.domainType());
        final StatusMsg status = (StatusMsg)msg;
        assertEquals(StreamStates.CLOSED, status.state().streamState());
        assertEquals(DataStates.SUSPECT, status.state().dataState());
        assertTrue(status.state().text().toString().contains("provider logins only"), status.state().text()::toString);
        consumer.awaitClosed();
        MdTests.await("login rejected counted", () -> 1 == counter("distributor-logins-rejected:"));
        assertEquals(1, counter("distributor-disconnects: reason=login-rejected"));
        assertTrue(listener.events.isEmpty());
    }

    @Test
    void malformedRwfDisconnectsOnlyTheBadPeerWhileAHealthyNipKeepsPublishing()
    {
        launch(100);
        final EtaNiProvider healthy = provider("healthy", NIP_SERVICE_ID, "NI_PUB");
        healthy.refresh(-2, NIP_SERVICE_ID, "TRI.N", level1Image());
        listener.await(2);

        final EtaNiProvider bad = provider("bad", 2, "BAD_PUB");
        listener.awaitNext("service");
        listener.awaitNext("service");
        listener.awaitNext("refresh");
        // header length 0x40 runs past the end of a 12-byte message
        bad.sendRaw(new byte[] {0x00, 0x40, 0x04, 0x06, (byte)0xff, (byte)0xff, (byte)0xff, (byte)0xfe, 0, 0, 0, 0});
        bad.awaitClosed();
        MdTests.await("malformed-rwf disconnect", () -> 1 == counter("distributor-disconnects: reason=malformed-rwf"));

        final EtaNiProvider badFields = provider("bad-fields", 3, "BAD_FIELDS");
        listener.awaitNext("service");
        // a FieldList that announces 5 entries but holds 1
        badFields.refresh(-3, 3, "X.N", new byte[] {0x08, 0x00, 0x05, 0x00, 0x16, 0x02, 0x0e, 0x01});
        badFields.awaitClosed();
        MdTests.await("malformed-field-list disconnect",
            () -> 1 == counter("distributor-disconnects: reason=malformed-field-list"));

        assertStillPublishes(healthy);
    }

    /**
     * The provider's update on its stream -2 reaches the listener and its connection is up: bad input from another
     * peer cost it nothing.
     */
    private void assertStillPublishes(final EtaNiProvider healthy)
    {
        healthy.update(-2, fields.begin(0, 0).real(22, 99, 14).end());
        final byte[] sent = healthy.lastSent();
        MdTests.await("the healthy NIP's update", () -> listener.events.stream()
            .anyMatch((e) -> "update".equals(e.type()) && java.util.Arrays.equals(sent, e.rwf())));
        assertTrue(healthy.service(), "healthy NIP still connected");
    }

    @Test
    void itemForAServiceTheProviderDidNotAnnounceGetsAClosedStatus()
    {
        launch(100);
        final EtaNiProvider nip = provider("nip1", NIP_SERVICE_ID, "NI_PUB");
        nip.refresh(-5, 99, "NOPE.N", level1Image());
        final StatusMsg status = (StatusMsg)EtaNiProvider.decode(nip.awaitMessage());
        assertEquals(-5, status.streamId());
        assertEquals(StreamStates.CLOSED, status.state().streamState());
        assertEquals(StateCodes.SOURCE_UNKNOWN, status.state().code());
        assertTrue(status.state().text().toString().contains("directory"), status.state().text()::toString);
        MdTests.await("counted", () -> 1 == counter("distributor-items-rejected: reason=unknown-service"));

        nip.refresh(-6, NIP_SERVICE_ID, "TRI.N", level1Image());
        assertEquals("TRI.N", listener.awaitNext("refresh").name(), "the connection stays usable");
    }

    @Test
    void itemBeyondTheServiceLimitGetsTooManyItems()
    {
        launch(2);
        final EtaNiProvider nip = provider("nip1", NIP_SERVICE_ID, "NI_PUB");
        nip.refresh(-2, NIP_SERVICE_ID, "A.N", level1Image());
        nip.refresh(-3, NIP_SERVICE_ID, "B.N", level1Image());
        nip.refresh(-4, NIP_SERVICE_ID, "C.N", level1Image());
        final StatusMsg status = (StatusMsg)EtaNiProvider.decode(nip.awaitMessage());
        assertEquals(-4, status.streamId());
        assertEquals(StreamStates.CLOSED, status.state().streamState());
        assertEquals(13, status.state().code(), "TOO_MANY_ITEMS");
        MdTests.await("counted", () -> 1 == counter("distributor-items-rejected: reason=too-many-items"));
        listener.await(3);
        assertEquals("service,refresh,refresh", listener.types());

        nip.update(-4, fields.begin(0, 0).real(22, 1, 14).end());
        nip.update(-2, fields.begin(0, 0).real(22, 2, 14).end());
        listener.await(4);
        assertEquals("service,refresh,refresh,update", listener.types(), "updates on the refused stream dropped");
    }

    @Test
    void providerDisconnectTakesItsServiceDownAndTurnsItsItemsSuspect()
    {
        launch(100);
        final EtaNiProvider nip = provider("nip1", NIP_SERVICE_ID, "NI_PUB");
        nip.refresh(-2, NIP_SERVICE_ID, "A.N", level1Image());
        nip.refresh(-3, NIP_SERVICE_ID, "B.N", level1Image());
        listener.await(3);
        nip.close();

        final List<Event> events = listener.await(6);
        assertEquals("service,refresh,refresh,service,status,status", listener.types());
        assertEquals(0, events.get(3).a(), "service down");
        for (int i = 4; i < 6; i++)
        {
            final Event status = events.get(i);
            assertEquals(StreamStates.OPEN, status.a());
            assertEquals(DataStates.SUSPECT, status.b());
            final StatusMsg msg = (StatusMsg)EtaNiProvider.decode(status.rwf());
            assertEquals(StreamStates.OPEN, msg.state().streamState());
            assertEquals(DataStates.SUSPECT, msg.state().dataState());
        }
        assertEquals(2, distributor.mxBean().getItemCount(), "stale items stay cached");
        assertTrue(distributor.mxBean().getServices()[0].contains("state=down"));

        // the service comes back on a new connection and re-publishes one item: same service id, same handle
        listener.events.clear();
        final EtaNiProvider again = provider("nip1", NIP_SERVICE_ID, "NI_PUB");
        again.refresh(-9, NIP_SERVICE_ID, "A.N", level1Image());
        final List<Event> back = listener.await(2);
        assertEquals("service,refresh", listener.types());
        assertEquals(1, back.get(0).serviceId());
        assertEquals(1, back.get(0).a(), "service up again");
        assertEquals(events.get(1).itemHandle(), back.get(1).itemHandle(), "A.N keeps its handle");
        final boolean aFreshBStale = distributor.onEventLoop((directory) ->
        {
            final ItemCache cache = directory.service(1).cache();
            final CachedItem a = cache.item(events.get(1).itemHandle());
            final CachedItem b = cache.item(events.get(2).itemHandle());
            return a.hasOwner() && DataStates.OK == a.dataState() && !b.hasOwner() &&
                DataStates.SUSPECT == b.dataState();
        });
        assertTrue(aFreshBStale, "A.N fresh again, B.N still stale");
        assertFalse(listener.types().contains("dropped"));
    }

    @Test
    void aProviderThatStopsReadingIsDisconnectedAsSlowOnceItsOutputPassesTheLimit()
    {
        distributor = Distributor.launch(new Distributor.Context()
            .providerPort(0)
            .componentName("distributor-test")
            .providerMaxOutputBytes(64 * 1024)
            .listener(listener));
        final EtaNiProvider healthy = provider("healthy", NIP_SERVICE_ID, "NI_PUB");
        healthy.refresh(-2, NIP_SERVICE_ID, "TRI.N", level1Image());
        listener.await(2);

        // every refresh for a service it never announced earns a status it never reads: first the socket buffers
        // fill (a few MB on loopback), then the distributor's own output, up to the limit
        final EtaNiProvider deaf = provider("deaf", 2, "DEAF_PUB");
        final byte[] image = level1Image();
        final long deadlineNs = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        int sent = 0;
        try
        {
            while (0 == counter("distributor-disconnects: reason=slow-provider") && sent < 1_000_000 &&
                System.nanoTime() - deadlineNs < 0)
            {
                deaf.refresh(-(3 + (sent % 1000)), 99, "NOPE.N", image);
                sent++;
            }
        }
        catch (final AssertionError ex)
        {
            // the write failed: the distributor closed the connection
        }
        final int refreshesSent = sent;
        MdTests.await(() -> "slow-provider disconnect after " + refreshesSent + " refreshes",
            () -> 1 == counter("distributor-disconnects: reason=slow-provider"));
        // a status takes at most 512 bytes: the limit cannot be passed with fewer answers than this
        assertTrue(counter("distributor-items-rejected: reason=unknown-service") >= 64 * 1024 / 512,
            "the statuses that filled the output were answers to refused items");

        assertStillPublishes(healthy);
    }

    @Test
    void anItemRefreshedOnASecondStreamLivesOnThatStreamAlone()
    {
        launch(100);
        final EtaNiProvider nip = provider("nip1", NIP_SERVICE_ID, "NI_PUB");
        nip.refresh(-2, NIP_SERVICE_ID, "TRI.N", level1Image());
        nip.refresh(-3, NIP_SERVICE_ID, "TRI.N", level1Image());
        final List<Event> events = listener.await(3);
        assertEquals(events.get(1).itemHandle(), events.get(2).itemHandle(), "one item, refreshed twice");

        // closing the stream it left must not drop it; updates on its new stream still reach the backbone
        nip.closeItem(-2, "old stream");
        nip.update(-3, fields.begin(0, 0).real(22, 77, 14).end());
        final byte[] update = nip.lastSent();
        MdTests.await("the update on the item's new stream", () -> listener.events.stream()
            .anyMatch((e) -> "update".equals(e.type()) && java.util.Arrays.equals(update, e.rwf())));
        assertFalse(listener.types().contains("dropped"), listener::types);
        assertEquals(1, distributor.mxBean().getItemCount());

        // its new stream ends it
        nip.closeItem(-3, "done");
        assertEquals(events.get(1).itemHandle(), listener.awaitNext("dropped").itemHandle(), "TRI.N ends");
        MdTests.await("no item left", () -> 0 == distributor.mxBean().getItemCount());
    }

    @Test
    void aConnectionThatNeverLogsInIsClosedAtTheLoginTimeoutAndItsSlotIsFreed()
    {
        distributor = Distributor.launch(new Distributor.Context()
            .providerPort(0)
            .componentName("distributor-test")
            .maxProviders(2)
            .loginTimeoutNs(TimeUnit.MILLISECONDS.toNanos(300))
            .listener(listener));
        final EtaNiProvider healthy = provider("healthy", NIP_SERVICE_ID, "NI_PUB");
        healthy.refresh(-2, NIP_SERVICE_ID, "TRI.N", level1Image());
        listener.await(2);

        // handshakes (ETA pings it), never logs in: holds the second and last slot until the timeout
        final EtaNiProvider silent = EtaNiProvider.connect(distributor.port());
        providers.add(silent);
        silent.awaitClosed();
        MdTests.await("login-timeout disconnect", () -> 1 == counter("distributor-disconnects: reason=login-timeout"));

        final EtaNiProvider late = provider("late", 2, "LATE_PUB");
        late.refresh(-2, 2, "LATE.N", level1Image());
        MdTests.await("the late provider's refresh", () -> listener.events.stream()
            .anyMatch((e) -> "refresh".equals(e.type()) && "LATE.N".equals(e.name())));
        assertEquals(0, counter("distributor-disconnects: reason=too-many-providers"));
        assertStillPublishes(healthy); // logged in before its deadline: never timed out
        assertEquals(1, counter("distributor-disconnects: reason=login-timeout"));
    }

    @Test
    void aLoginWithKilobytesOfAttributesIsAcceptedAndTheProviderPublishes()
    {
        launch(100);
        final EtaNiProvider provider = EtaNiProvider.connect(distributor.port());
        providers.add(provider);
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(1);
        request.userName().data("attributes");
        request.applyHasRole();
        request.role(Login.RoleTypes.PROV);
        request.applyHasAttrib();
        request.attrib().applyHasApplicationName();
        request.attrib().applicationName().data("a".repeat(2000));
        request.attrib().applyHasPosition();
        request.attrib().position().data("p".repeat(2000));
        provider.send(request::encode);

        final Msg msg = EtaNiProvider.decode(provider.awaitMessage());
        assertEquals(MsgClasses.REFRESH, msg.msgClass());
        assertEquals(DomainTypes.LOGIN, msg.domainType());
        assertEquals(StreamStates.OPEN, ((RefreshMsg)msg).state().streamState());
        provider.publishDirectory(NIP_SERVICE_ID, "NI_PUB");
        provider.refresh(-2, NIP_SERVICE_ID, "TRI.N", level1Image());
        listener.await(2);
        assertStillPublishes(provider);
        assertEquals(0, counter("distributor-disconnects: reason=undecodable-admin"));
    }
}
