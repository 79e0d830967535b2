package io.mdhub.common.metrics;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mdhub.common.test.InterruptAfter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(10)
class CountersCollectorTest
{
    private static final int GAUGE_TYPE_ID = 20_001;
    private static final int TOTAL_TYPE_ID = 20_002;
    private static final int AERON_TYPE_ID = 1;
    private static final int CAPACITY = 16;

    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.METADATA_LENGTH * CAPACITY)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.COUNTER_LENGTH * CAPACITY)),
        StandardCharsets.US_ASCII, new CachedEpochClock(), 0);
    private final CountersCollector collector = new CountersCollector();
    private final PrometheusMeterRegistry registry = MdMetrics.newPrometheusRegistry(collector);

    @AfterEach
    void after()
    {
        registry.close();
    }

    private String scrape()
    {
        return registry.scrape("text/plain; version=0.0.4; charset=utf-8");
    }

    @Test
    void namesEachFamilyAfterTheLabelAndTagsItsKeyValueWords()
    {
        collector.add(counters, "mdhub-p2p", (typeId) -> TOTAL_TYPE_ID == typeId);
        counters.newCounter("p2p-updates-out: component=mdhub-p2p", TOTAL_TYPE_ID).setOrdered(7);
        counters.newCounter("p2p-items-open: component=mdhub-p2p", GAUGE_TYPE_ID).setOrdered(3);
        counters.newCounter("order-acked component=server-0", TOTAL_TYPE_ID).setOrdered(2);

        final String text = scrape();
        assertTrue(text.contains("# TYPE mdhub_p2p_updates_out_total counter"), text);
        assertTrue(text.contains("mdhub_p2p_updates_out_total{component=\"mdhub-p2p\",source=\"mdhub-p2p\"} 7"), text);
        assertTrue(text.contains("# TYPE mdhub_p2p_items_open gauge"), text);
        assertTrue(text.contains("mdhub_p2p_items_open{component=\"mdhub-p2p\",source=\"mdhub-p2p\"} 3"), text);
        assertTrue(text.contains("mdhub_order_acked_total{component=\"server-0\",source=\"mdhub-p2p\"} 2"), text);
    }

    @Test
    void readsValuesAtEachScrape()
    {
        collector.add(counters, "c", (typeId) -> false);
        final AtomicCounter counter = counters.newCounter("backbone-gaps: stream=data", GAUGE_TYPE_ID);
        counter.setOrdered(1);
        assertTrue(scrape().contains("mdhub_backbone_gaps{source=\"c\",stream=\"data\"} 1"));
        counter.setOrdered(42);
        assertTrue(scrape().contains("mdhub_backbone_gaps{source=\"c\",stream=\"data\"} 42"));
    }

    @Test
    void keepsOtherWordsAsDetailAndTellsEqualSeriesApartByCounterId()
    {
        collector.add(counters, "aeron", (typeId) -> TOTAL_TYPE_ID == typeId);
        final AtomicCounter first = counters.newCounter("snd-pos: 12 1001 aeron:ipc", AERON_TYPE_ID);
        final AtomicCounter second = counters.newCounter("snd-pos: 12 1001 aeron:ipc", AERON_TYPE_ID);
        counters.newCounter("Bytes sent", AERON_TYPE_ID).setOrdered(5);
        counters.newCounter("backbone-gaps component=mdhub-p2p", TOTAL_TYPE_ID).setOrdered(1);

        final String text = scrape();
        assertTrue(text.contains("aeron_snd_pos{detail=\"12 1001 aeron:ipc\",id=\"" + first.id() +
            "\",source=\"aeron\"} 0"), text);
        assertTrue(text.contains("id=\"" + second.id() + "\""), text);
        assertTrue(text.contains("aeron_bytes_sent{source=\"aeron\"} 5"), text);
        assertTrue(text.contains("mdhub_backbone_gaps_total{component=\"mdhub-p2p\",source=\"aeron\"} 1"),
            "a client's counter in the driver is named as MDHub's: " + text);
    }

    @Test
    void aFamilyWithAnyGaugeIsAGauge()
    {
        collector.add(counters, "c", (typeId) -> TOTAL_TYPE_ID == typeId);
        counters.newCounter("mixed: kind=total", TOTAL_TYPE_ID);
        counters.newCounter("mixed: kind=level", GAUGE_TYPE_ID);
        final String text = scrape();
        assertTrue(text.contains("# TYPE mdhub_mixed gauge"), text);
        assertFalse(text.contains("mdhub_mixed_total"), text);
    }

    @Test
    void aRemovedSourceIsNoLongerRead()
    {
        final Object handle = collector.add(counters, "gone", (typeId) -> false);
        counters.newCounter("p2p-items-open: component=x", GAUGE_TYPE_ID);
        assertTrue(scrape().contains("mdhub_p2p_items_open"));
        collector.remove(handle);
        assertFalse(scrape().contains("mdhub_p2p_items_open"));
        assertTrue(scrape().contains("jvm_memory_used_bytes"), "the JVM's meters stay");
    }

    @Test
    void parsesLabels()
    {
        final CountersCollector.ParsedLabel parsed =
            CountersCollector.ParsedLabel.parse("backbone-recoveries: images-resent component=p2p worker=1 id=9");
        assertEquals("backbone_recoveries", parsed.name);
        assertEquals(java.util.List.of("component", "worker"), parsed.keys);
        assertEquals("images-resent id=9", parsed.detail.toString(), "reserved keys stay in the detail");
    }
}
