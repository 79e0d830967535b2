package io.mdhub.common.metrics;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.jmx.JmxMeterRegistry;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(10)
class CountersMetricsBridgeTest
{
    private static final int TYPE_ID = 20_001;
    private static final int MONOTONIC_TYPE_ID = 20_002;
    private static final int CAPACITY = 16;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.METADATA_LENGTH * CAPACITY)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.COUNTER_LENGTH * CAPACITY)),
        StandardCharsets.US_ASCII, clock, 0);
    private final MBeanServer mbeanServer = MBeans.server();
    private JmxMeterRegistry registry;
    private CountersMetricsBridge bridge;
    private String source;

    @BeforeEach
    void before()
    {
        registry = MdMetrics.newJmxRegistry();
        source = "test" + System.nanoTime();
        bridge = new CountersMetricsBridge(registry, counters, source, (typeId) -> MONOTONIC_TYPE_ID == typeId);
    }

    @AfterEach
    void after()
    {
        bridge.close();
        registry.close();
    }

    @Test
    void exportsCountersAsGaugesTaggedWithLabelParts() throws Exception
    {
        final AtomicCounter bytesIn = counters.newCounter("bytes-in: session=7 peer=127.0.0.1:4000", TYPE_ID);
        bytesIn.setOrdered(42);

        assertEquals(1, bridge.poll());
        assertEquals(0, bridge.poll(), "second walk finds nothing new");

        final Gauge gauge = registry.find(CountersMetricsBridge.METER_NAME)
            .tag("source", source)
            .tag("id", Integer.toString(bytesIn.id()))
            .tag("typeId", Integer.toString(TYPE_ID))
            .tag("label", "bytes-in: session=7 peer=127.0.0.1:4000")
            .tag("session", "7")
            .tag("peer", "127.0.0.1:4000")
            .gauge();
        assertNotNull(gauge);
        assertEquals(42.0, gauge.value());

        bytesIn.increment();
        assertEquals(43.0, gauge.value(), "values are read live");

        final ObjectName jmxName = jmxName("gauges", bytesIn.id());
        assertEquals("io.mdhub", jmxName.getDomain());
        assertEquals(43.0, ((Number)mbeanServer.getAttribute(jmxName, "Value")).doubleValue());
        assertTrue(
            jmxName.getKeyProperty("name").contains("bytes-in_session_7_peer_127.0.0.1_4000"), jmxName::toString);

        bytesIn.close();
        assertEquals(1, bridge.poll());
        assertNull(registry.find(CountersMetricsBridge.METER_NAME).tag("source", source).meter());
        assertTrue(jmxNames("gauges").isEmpty(), "MBean removed with the counter");
    }

    @Test
    void meterReadAfterCloseReturnsTheLastValueWithoutTouchingTheCounters()
    {
        final AtomicInteger reads = new AtomicInteger();
        final CountersReader spy = new CountersReader(counters.metaDataBuffer(), counters.valuesBuffer())
        {
            @Override
            public long getCounterValue(final int counterId)
            {
                reads.incrementAndGet();
                return super.getCounterValue(counterId);
            }
        };
        final String spySource = source + "-spy";
        final CountersMetricsBridge spyBridge = new CountersMetricsBridge(registry, spy, spySource, (typeId) -> false);
        final AtomicCounter level = counters.newCounter("level", TYPE_ID);
        level.setOrdered(7);
        spyBridge.poll();
        final Gauge gauge = registry.find(CountersMetricsBridge.METER_NAME).tag("source", spySource).gauge();
        assertNotNull(gauge);
        assertEquals(7.0, gauge.value());

        spyBridge.close(); // from now on the counters' memory may be freed at any time
        final int readsAtClose = reads.get();
        level.setOrdered(8);
        assertEquals(7.0, gauge.value(), "a racing read after close gets the last value");
        assertEquals(readsAtClose, reads.get(), "and never touches the reader");
    }

    @Test
    void exportsMonotonicTypesAsFunctionCounters() throws Exception
    {
        final AtomicCounter errors = counters.newCounter("errors", MONOTONIC_TYPE_ID);
        errors.setOrdered(5);
        bridge.poll();

        final FunctionCounter counter = registry.find(CountersMetricsBridge.METER_NAME)
            .tag("source", source)
            .functionCounter();
        assertNotNull(counter);
        assertEquals(5.0, counter.count());
        errors.increment();
        assertEquals(6.0, counter.count());

        final ObjectName jmxName = jmxName("meters", errors.id());
        assertEquals(6L, ((Number)mbeanServer.getAttribute(jmxName, "Count")).longValue());
    }

    @Test
    void replacesMeterWhenSlotIsReusedByAnotherCounter()
    {
        final AtomicCounter first = counters.newCounter("first", TYPE_ID);
        bridge.poll();
        first.close();
        final AtomicCounter second = counters.newCounter("second", TYPE_ID);
        assertEquals(first.id(), second.id(), "free-to-reuse timeout is 0, so the slot is reused");
        second.setOrdered(9);

        assertEquals(2, bridge.poll(), "one removed, one added");
        assertNull(registry.find(CountersMetricsBridge.METER_NAME).tag("label", "first").meter());
        assertEquals(9.0, registry.find(CountersMetricsBridge.METER_NAME).tag("label", "second").gauge().value());
        assertEquals(1, bridge.meterCount());
    }

    @Test
    void closeRemovesEveryMeter()
    {
        counters.newCounter("a", TYPE_ID);
        counters.newCounter("b", TYPE_ID);
        bridge.poll();
        assertEquals(2, bridge.meterCount());
        assertEquals(2, jmxNames("gauges").size());

        bridge.close();
        assertEquals(0, bridge.meterCount());
        assertTrue(registry.find(CountersMetricsBridge.METER_NAME).tag("source", source).meters().isEmpty());
        assertTrue(jmxNames("gauges").isEmpty());
        assertEquals(0, bridge.poll(), "a closed bridge does nothing");
    }

    @Test
    void pollsOnScheduledManagementThread()
    {
        final ScheduledExecutorService scheduler = MdMetrics.newScheduler("test-metrics");
        try
        {
            bridge.schedule(scheduler, 10);
            final AtomicCounter counter = counters.newCounter("late", TYPE_ID);
            MdTests.await("meter for a counter allocated after scheduling",
                () -> null != registry.find(CountersMetricsBridge.METER_NAME).tag("label", "late").gauge());
            counter.close();
            MdTests.await("meter removed after the counter was freed",
                () -> null == registry.find(CountersMetricsBridge.METER_NAME).tag("label", "late").gauge());
        }
        finally
        {
            bridge.close();
            scheduler.shutdownNow();
        }
    }

    @Test
    void processRegistryUsesMdhubDomain()
    {
        final Gauge gauge = Gauge.builder("mdhub.test.singleton", () -> 3.0).register(MdMetrics.registry());
        try
        {
            assertEquals(1, mbeanServer.queryNames(null, null).stream()
                .filter((name) -> "io.mdhub".equals(name.getDomain()))
                .filter((name) -> name.getKeyProperty("name").startsWith("mdhubTestSingleton"))
                .count());
        }
        finally
        {
            MdMetrics.registry().remove(gauge);
        }
    }

    private ObjectName jmxName(final String type, final int counterId)
    {
        final Set<ObjectName> names = jmxNames(type);
        return names.stream()
            .filter((name) -> name.getKeyProperty("name").contains(".id." + counterId + "."))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no MBean for counter " + counterId + " in " + names));
    }

    private Set<ObjectName> jmxNames(final String type)
    {
        try
        {
            final Set<ObjectName> names = mbeanServer.queryNames(new ObjectName("io.mdhub:type=" + type + ",*"), null);
            names.removeIf((name) -> !name.getKeyProperty("name").contains(".source." + source));
            return names;
        }
        catch (final javax.management.MalformedObjectNameException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
