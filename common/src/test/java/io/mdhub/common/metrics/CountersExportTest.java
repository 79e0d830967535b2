package io.mdhub.common.metrics;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(10)
class CountersExportTest
{
    private static final int CAPACITY = 8;

    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.METADATA_LENGTH * CAPACITY)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.COUNTER_LENGTH * CAPACITY)),
        StandardCharsets.US_ASCII, new CachedEpochClock(), 0);

    @Test
    void servesEveryCounterAsOneMBeanUntilClosed() throws Exception
    {
        final String source = "export-test-" + System.nanoTime();
        final ObjectName name = MBeans.objectName("Counters", source);
        counters.newCounter("p2p-updates-out: component=x", 20_001).setOrdered(9);
        counters.newCounter("p2p-items-open: component=x", 20_002).setOrdered(4);
        try (CountersExport ignored = CountersExport.start(counters, source, (typeId) -> true))
        {
            final CompositeData[] values = (CompositeData[])MBeans.server().getAttribute(name, "Counters");
            assertEquals(2, values.length);
            assertEquals("p2p-updates-out: component=x", values[0].get("label"));
            assertEquals(9L, values[0].get("value"));
            assertEquals(20_002, values[1].get("typeId"));
            assertEquals(4L, values[1].get("value"));
            assertTrue(MdMetrics.prometheus().scrape().contains("source=\"" + source + "\""));
        }
        assertFalse(MBeans.server().isRegistered(name));
        assertFalse(MdMetrics.prometheus().scrape().contains("source=\"" + source + "\""));
    }
}
