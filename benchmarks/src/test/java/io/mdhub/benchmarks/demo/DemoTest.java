package io.mdhub.benchmarks.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.benchmarks.client.TestClient;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The market data path end to end in one JVM — source (NIP) → distributor → Aeron backbone → p2p-server → test
 * client — over real loopback RSSL connections: every item opens, every update arrives in order by the source's
 * per-item counters, and end-to-end latency is measured from the embedded timestamps.
 */
@InterruptAfter(90)
class DemoTest
{
    private static final int ITEMS = 500;

    @TempDir
    Path dir;

    @Test
    void everyItemOpensAndNoUpdateIsLostFromSourceToClient()
    {
        final Histogram latency = new Histogram(3);
        try (Demo demo = Demo.launch(new Demo.Settings()
            .items(ITEMS)
            .rate(2000)
            .mounts(2)
            .fraction(0.5)
            .aeronDirectory(dir.resolve("aeron").toString())))
        {
            MdTests.await(() -> "every item open and 4000 updates at the client: " + describe(demo.client()),
                () -> demo.client().totals().itemsOpen == ITEMS && demo.client().totals().updates >= 4000);
            latency.add(demo.client().latencyInterval());

            final TestClient.Totals totals = demo.client().totals();
            assertNull(totals.failure);
            assertEquals(0, totals.lostUpdates, "per-item update counters have no gap");
            assertEquals(0, totals.outOfOrder);
            assertEquals(0, totals.malformed);
            assertEquals(0, totals.statuses, "no item went Suspect or closed: no gap, no recovery on the way");
            assertEquals(ITEMS, totals.refreshes, "one image per watched item (two mounts, half each)");
            assertTrue(latency.getTotalCount() > 0, "timestamped updates measured end to end");
        }
    }

    @Test
    void jsonMountsOverTheWebSocketApiGetEveryUpdateBesideRsslMounts()
    {
        try (Demo demo = Demo.launch(new Demo.Settings()
            .items(ITEMS)
            .rate(2000)
            .mounts(4)
            .fraction(0.5)
            .jsonMounts(2)
            .webSocketPort(0)
            .aeronDirectory(dir.resolve("aeron").toString())))
        {
            // four windows of 250 items starting every 125: every item in two of them, one RSSL and one JSON
            MdTests.await(() -> "every watch open and 4000 updates at the JSON mounts: " + describe(demo.client()),
                () -> demo.client().totals().itemsOpen == 2 * ITEMS && demo.client().totals().jsonUpdates >= 4000);
            final Histogram latency = demo.client().latencyInterval();

            final TestClient.Totals totals = demo.client().totals();
            assertNull(totals.failure);
            assertEquals(0, totals.lostUpdates, "per-item update counters have no gap, RSSL or JSON");
            assertEquals(0, totals.outOfOrder);
            assertEquals(0, totals.malformed, "every JSON message parsed");
            assertEquals(0, totals.statuses);
            assertEquals(2 * ITEMS, totals.refreshes, "one image per watch");
            final long rssl = totals.updates - totals.jsonUpdates;
            assertTrue(Math.abs(rssl - totals.jsonUpdates) < 0.2 * totals.updates,
                () -> "both kinds see about the same updates: RSSL " + rssl + ", JSON " + totals.jsonUpdates);
            assertTrue(latency.getTotalCount() > 0, "timestamped updates measured end to end");
        }
    }

    @Test
    void producerFiftyFiftyFansEveryUpdateOutToTenMounts()
    {
        final int items = 10_000;
        try (Demo demo = Demo.launch(new Demo.Settings()
            .items(items)
            .rate(2000)
            .mounts(20)
            .fraction(0.5)
            .aeronDirectory(dir.resolve("aeron").toString())))
        {
            // 20 windows of 5,000 items starting every 500 items: every item is in exactly 10 of them
            MdTests.await(() -> "all watches open: " + describe(demo.client()),
                () -> demo.client().totals().itemsOpen == 20L * items / 2);
            final long inStart = demo.source().stats().updatesSent();
            final long outStart = demo.client().totals().updates;
            MdTests.await("2,000 more updates from the source",
                () -> demo.source().stats().updatesSent() >= inStart + 2000);
            final long in = demo.source().stats().updatesSent() - inStart;
            MdTests.await(() -> "output to reach 10 x " + in + ": " + describe(demo.client()),
                () -> demo.client().totals().updates - outStart >= 10 * in);

            final TestClient.Totals totals = demo.client().totals();
            assertNull(totals.failure, "no mount was disconnected");
            assertEquals(0, totals.lostUpdates);
            assertEquals(0, totals.outOfOrder);
            assertEquals(0, totals.statuses, "no item went Suspect or closed");
            for (final io.mdhub.p2p.DisconnectReason reason : io.mdhub.p2p.DisconnectReason.values())
            {
                assertEquals(0, demo.p2p().context().counters().disconnects(reason).get(), reason::toString);
            }
            assertTrue(demo.p2p().context().counters().cacheRefreshes().get() > 0,
                "later watchers of an item were answered from the p2p-server's cache");
        }
    }

    @Test
    void aHeadersOnlyClientCountsEveryUpdateWithoutReadingTheirFields()
    {
        try (Demo demo = Demo.launch(new Demo.Settings()
            .items(ITEMS)
            .rate(2000)
            .aeronDirectory(dir.resolve("aeron").toString()));
            TestClient headersOnly = TestClient.launch(new TestClient.Context()
                .port(demo.p2p().port())
                .itemCount(ITEMS)
                .checkSequence(false)))
        {
            MdTests.await(() -> "every item open and 2000 updates: " + describe(headersOnly),
                () -> headersOnly.totals().itemsOpen == ITEMS && headersOnly.totals().updates >= 2000);
            final TestClient.Totals totals = headersOnly.totals();
            assertNull(totals.failure);
            assertEquals(0, totals.malformed);
            assertEquals(0, totals.statuses);
            assertEquals(0, headersOnly.latencyInterval().getTotalCount(), "no field read, so no timestamp found");
            assertTrue(demo.client().latencyInterval().getTotalCount() > 0, "the decoding client found them");
        }
    }

    private static String describe(final TestClient client)
    {
        final TestClient.Totals totals = client.totals();
        return "open " + totals.itemsOpen + ", updates " + totals.updates + ", lost " + totals.lostUpdates +
            ", failure " + totals.failure;
    }
}
