package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

import io.mdhub.common.metrics.CountersMetricsBridge;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.metrics.MdMetrics;
import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The RIPC counters reach JMX the way every MDHub component's do: off-heap counters, walked by the metrics bridge,
 * published as Micrometer meters under the {@code io.mdhub} domain. Running totals (disconnects) become counters,
 * levels (active connections) gauges, as {@link MdCounters#isMonotonic(int)} says.
 */
@InterruptAfter(20)
class RipcMetricsTest
{
    private final MBeanServer mbeanServer = MBeans.server();

    @Test
    void disconnectsAndActiveConnectionsAreVisibleOverJmx() throws Exception
    {
        final String source = "ripc-metrics-test-" + System.nanoTime();
        final MeterRegistry registry = MdMetrics.registry(); // the process-wide one, as components use it
        final RipcServer server = RipcServer.launch(new RipcServer.Context()
            .port(MdTests.unusedPort())
            .componentName("metrics-test"));
        final CountersMetricsBridge bridge = new CountersMetricsBridge(
            registry, server.context().countersManager(), source, MdCounters::isMonotonic);
        try
        {
            bridge.poll();
            final ObjectName active = single("gauges", source, "ripc-connections-active");
            final ObjectName badHandshakes = single("meters", source, "reason_bad-handshake");

            try (RawRipcPeer peer = new RawRipcPeer(server.port()))
            {
                MdTests.await("the connection to count as active",
                    () -> 1.0 == number(active, "Value"));
                peer.send(hex("00 05 ff ff ff")); // a 5-byte "connect request": far below the minimum length
                MdTests.await("the server to drop the peer", peer::isClosedByServer);
            }

            MdTests.await(() -> "bad-handshake disconnect on JMX, now " + number(badHandshakes, "Count"),
                () -> 1.0 == number(badHandshakes, "Count"));
            MdTests.await("no active connections left", () -> 0.0 == number(active, "Value"));
            assertEquals(0.0, number(single("meters", source, "reason_ping-timeout"), "Count"));
        }
        finally
        {
            bridge.close();
            server.close();
        }
    }

    private ObjectName single(final String type, final String source, final String nameFragment) throws Exception
    {
        final Set<ObjectName> names = mbeanServer.queryNames(new ObjectName("io.mdhub:type=" + type + ",*"), null);
        names.removeIf((name) -> !name.getKeyProperty("name").contains(".source." + source) ||
            !name.getKeyProperty("name").contains(nameFragment));
        assertEquals(1, names.size(), () -> type + " matching " + nameFragment + ": " + names);
        return names.iterator().next();
    }

    private double number(final ObjectName name, final String attribute)
    {
        try
        {
            return ((Number)mbeanServer.getAttribute(name, attribute)).doubleValue();
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(name.toString(), ex);
        }
    }
}
