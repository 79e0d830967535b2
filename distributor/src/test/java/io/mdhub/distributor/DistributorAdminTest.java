package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.RefreshMsgFlags;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.metrics.CountersMetricsBridge;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.metrics.MdMetrics;
import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.distributor.RecordingDistributorListener.Event;

/**
 * Multi-part refreshes, directory updates, undecodable directories, the Context rules and the JMX view (MXBean and
 * counters through the metrics bridge), with real ETA NIPs.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(20)
class DistributorAdminTest
{
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

    private void launch(final String name)
    {
        distributor = Distributor.launch(new Distributor.Context()
            .providerPort(0)
            .componentName(name)
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

    @Test
    void multiPartRefreshClearsOnTheFirstPartAndCompletesOnTheLast()
    {
        launch("distributor-admin-test");
        final EtaNiProvider nip = provider("nip", 1, "NI_PUB");
        nip.refresh(-2, 1, "TRI.N", fields.begin(1, 0).real(22, 1, 14).real(25, 2, 14).end());
        final byte[] part1 = fields.begin(1, 0).real(6, 3, 14).uint(1, 64).end();
        nip.refresh(-2, 1, "TRI.N", RefreshMsgFlags.CLEAR_CACHE, part1);
        final byte[] part2 = fields.begin(0, 0).real(22, 4, 14).real(6, 5, 14).end();
        nip.refresh(-2, 1, "TRI.N", 0, part2);
        final byte[] part3 = fields.begin(0, 0).real(25, 6, 14).end();
        nip.refresh(-2, 1, "TRI.N", RefreshMsgFlags.REFRESH_COMPLETE, part3);

        final List<Event> events = listener.await(5);
        assertEquals("service,refresh,refresh,refresh,refresh", listener.types());
        assertEquals(RefreshMsgFlags.CLEAR_CACHE, events.get(2).b() & 0x140);
        assertEquals(0, events.get(3).b() & 0x140);
        assertEquals(RefreshMsgFlags.REFRESH_COMPLETE, events.get(4).b() & 0x140);

        final Map<Integer, byte[]> expected = new LinkedHashMap<>(EtaFieldLists.decode(part1));
        expected.putAll(EtaFieldLists.decode(part2));
        expected.putAll(EtaFieldLists.decode(part3));
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(1024);
        final int length = distributor.onEventLoop((directory) ->
        {
            final ItemCache cache = directory.service(1).cache();
            final CachedItem item = cache.item(events.get(1).itemHandle());
            return item.isRefreshComplete() ? cache.encodeRefresh(item.handle(), 3, 1, true, out, 0,
                out.capacity()) : -100;
        });
        assertTrue(length > 0, "refresh complete and encoded: " + length);
        final byte[] bytes = new byte[length];
        out.getBytes(0, bytes);
        final var it = EtaNiProvider.decodeIterator(bytes);
        final Msg msg = CodecFactory.createMsg();
        msg.decode(it);
        final Map<Integer, byte[]> actual = EtaFieldLists.decode(it);
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(actual.keySet()), "32 and 22 gone, 6 kept");
        expected.forEach((fid, value) -> assertArrayEquals(value, actual.get(fid)));
    }

    /**
     * Two providers publish one service: it is up while either reports it up. One of them going down leaves it up;
     * it goes down when both report it down, or when the one reporting it up leaves.
     */
    @Test
    void aServiceOfTwoProvidersIsUpWhileEitherReportsItUp()
    {
        launch("distributor-admin-test");
        final EtaNiProvider a = provider("a", 1, "NI_PUB");
        assertEquals(1, listener.awaitNext("service").a());
        final EtaNiProvider b = provider("b", 1, "NI_PUB");
        assertEquals(1, listener.awaitNext("service").a(), "b joins it up");

        b.publishServiceState(1, 0, 0);
        a.refresh(-2, 1, "TRI.N", new EtaFieldLists().begin(1, 0).uint(1, 64).end()); // a marker after b's report
        listener.awaitNext("refresh");
        assertTrue(listener.events.stream().noneMatch((e) -> "service".equals(e.type())), listener::types);
        assertTrue(distributor.mxBean().getServices()[0].contains("state=up"), distributor.mxBean().getServices()[0]);

        a.publishServiceState(1, 0, 0);
        final Event down = listener.awaitNext("service");
        assertEquals(0, down.a(), "both report it down");
        assertEquals(0, down.b());

        b.publishServiceState(1, 1, 1);
        assertEquals(1, listener.awaitNext("service").a(), "b brings it back");
        b.close();
        final Event afterB = listener.awaitNext("service");
        assertEquals(0, afterB.a(), "b, the one provider reporting it up, left");
    }

    @Test
    void directoryUpdateChangesServiceStateAndUndecodableDirectoryDisconnectsThePeer()
    {
        launch("distributor-admin-test");
        final EtaNiProvider nip = provider("nip", 1, "NI_PUB");
        listener.awaitNext("service");
        nip.publishServiceState(1, 0, 0);
        final Event down = listener.awaitNext("service");
        assertEquals(1, down.serviceId());
        assertEquals(0, down.a());
        assertEquals(0, down.b());
        nip.publishServiceState(1, 1, 1);
        assertEquals(1, listener.awaitNext("service").a());

        final EtaNiProvider bad = EtaNiProvider.connect(distributor.port());
        providers.add(bad);
        bad.login("bad");
        final byte[] directory = EtaNiProvider.encode((it) -> EtaNiProvider.directoryRefresh(2, "X").encode(it));
        // the RWF header stays valid (RWF has no total length); the Map payload is cut short
        bad.sendRaw(java.util.Arrays.copyOf(directory, directory.length - 20));
        bad.awaitClosed();
        MdTests.await("undecodable-admin disconnect",
            () -> 1 == counter("distributor-disconnects: reason=undecodable-admin"));
        assertEquals(1, distributor.mxBean().getServices().length, "nothing of the bad directory applied");
    }

    @Test
    void messagesBeforeTheLoginDisconnect()
    {
        launch("distributor-admin-test");
        final EtaNiProvider early = EtaNiProvider.connect(distributor.port());
        providers.add(early);
        early.publishDirectory(1, "NI_PUB");
        early.awaitClosed();
        MdTests.await("not-logged-in disconnect", () -> 1 == counter("distributor-disconnects: reason=not-logged-in"));
        assertTrue(listener.events.isEmpty());
    }

    @Test
    void mxBeanAndCountersAreVisibleOverJmx() throws Exception
    {
        final String name = "distributor-jmx-" + System.nanoTime();
        launch(name);
        final MBeanServer server = MBeans.server();
        final ObjectName objectName = MBeans.objectName("Distributor", name);
        assertTrue(server.isRegistered(objectName));
        final CountersMetricsBridge bridge = new CountersMetricsBridge(
            MdMetrics.registry(), distributor.countersReader(), name, MdCounters::isMonotonic);
        try
        {
            final EtaNiProvider nip = provider("nip", 1, "NI_PUB");
            nip.refresh(-2, 1, "TRI.N", fields.begin(0, 0).real(22, 1, 14).end());
            nip.update(-2, fields.begin(0, 0).real(22, 2, 14).end());
            listener.await(3);

            final String[] services = (String[])server.getAttribute(objectName, "Services");
            assertEquals(1, services.length);
            assertTrue(services[0].contains("name=NI_PUB") && services[0].contains("items=1") &&
                services[0].contains("state=up"), services[0]);
            final String[] connections = (String[])server.getAttribute(objectName, "Connections");
            assertEquals(1, connections.length);
            assertTrue(connections[0].contains("user=nip"), connections[0]);

            bridge.poll();
            final ObjectName updates = single(server, "meters", name, "distributor-service-updates-in");
            MdTests.await("updates counted on JMX", () -> 1.0 == number(server, updates, "Count"));
            final ObjectName items = single(server, "gauges", name, "distributor-service-items");
            assertEquals(1.0, number(server, items, "Value"));

            final long connectionId = Long.parseLong(connections[0].split(" ")[0].substring(3));
            assertEquals(Boolean.TRUE, server.invoke(objectName, "dropConnection",
                new Object[] {connectionId}, new String[] {long.class.getName()}));
            nip.awaitClosed();
            assertEquals(2, listener.awaitNext("status").b(), "the item turned suspect");
            assertTrue(distributor.mxBean().getServices()[0].contains("state=down"));
            assertEquals(1, counter("distributor-disconnects: reason=operator"));
            assertEquals(Boolean.FALSE, server.invoke(objectName, "dropConnection",
                new Object[] {connectionId}, new String[] {long.class.getName()}));
        }
        finally
        {
            bridge.close();
        }
        distributor.close();
        distributor = null;
        assertTrue(!server.isRegistered(objectName), "unregistered on close");
    }

    @Test
    void contextRejectsOutOfRangeSettings()
    {
        assertThrows(IllegalArgumentException.class,
            () -> Distributor.launch(new Distributor.Context().maxItemsPerService(0).registerMBean(false)));
        assertThrows(IllegalArgumentException.class,
            () -> Distributor.launch(new Distributor.Context().maxServices(70_000).registerMBean(false)));
        assertThrows(IllegalArgumentException.class,
            () -> Distributor.launch(new Distributor.Context().providerPort(70_000).registerMBean(false)));
        assertThrows(IllegalArgumentException.class,
            () -> Distributor.launch(new Distributor.Context().componentName("").registerMBean(false)));
        final Distributor.Context ctx = new Distributor.Context().providerPort(0).registerMBean(false);
        try (Distributor launched = Distributor.launch(ctx))
        {
            assertThrows(IllegalStateException.class, () -> ctx.maxProviders(3));
            assertTrue(launched.port() > 0);
            assertEquals(DistributorConfiguration.PROVIDER_PORT_DEFAULT, new Distributor.Context().providerPort());
            assertEquals(0, launched.mxBean().getItemCount());
        }
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

    private static ObjectName single(
        final MBeanServer server, final String type, final String source, final String fragment) throws Exception
    {
        final Set<ObjectName> names = server.queryNames(new ObjectName("io.mdhub:type=" + type + ",*"), null);
        names.removeIf((n) -> !n.getKeyProperty("name").contains(".source." + source) ||
            !n.getKeyProperty("name").contains(fragment));
        assertEquals(1, names.size(), () -> type + " matching " + fragment + ": " + names);
        return names.iterator().next();
    }

    private static double number(final MBeanServer server, final ObjectName name, final String attribute)
    {
        try
        {
            return ((Number)server.getAttribute(name, attribute)).doubleValue();
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(name.toString(), ex);
        }
    }
}
