package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.mdhub.benchmarks.client.TestClient;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The benchmarks' test client pointed straight at the interactive source: every mount finds the service, opens its
 * items, and the per-item counters of the updates that follow show no loss and no reordering, while the embedded
 * timestamps give latency samples. Proves the update layout works with the loss and latency checker.
 */
@InterruptAfter(60)
class InteractiveSourceTestClientTest
{
    private static final int ITEMS = 500;
    private static final int MOUNTS = 2;

    @Test
    void testClientOpensEveryItemAndSeesNoLoss()
    {
        try (InteractiveSource source = InteractiveSource.launch(new InteractiveSource.Context()
                .port(0)
                .componentName("sink-client-test")
                .rate(5000)
                .timestampEvery(10));
            TestClient client = TestClient.launch(new TestClient.Context()
                .port(source.port())
                .serviceName(InteractiveSource.Context.SERVICE_NAME_DEFAULT)
                .itemCount(ITEMS)
                .mounts(MOUNTS)))
        {
            MdTests.await(() -> "every item open: " + client.totals().itemsOpen + " " + source.stats(),
                () -> ITEMS * MOUNTS == client.totals().itemsOpen);
            assertEquals(ITEMS * MOUNTS, source.stats().openItems());
            final long startUpdates = client.totals().updates;
            MdTests.await(() -> "updates to flow: " + client.totals().updates + " " + source.stats(),
                () -> client.totals().updates >= startUpdates + 5 * ITEMS * MOUNTS);
            source.rate(0);

            final TestClient.Totals totals = client.totals();
            assertNull(totals.failure, totals.failure);
            assertEquals(0, totals.lostUpdates, "lost updates");
            assertEquals(0, totals.outOfOrder, "out of order");
            assertEquals(0, totals.malformed, "malformed");
            assertEquals(0, totals.statuses, "statuses");
            assertEquals(ITEMS * MOUNTS, totals.refreshes);
            assertTrue(client.latencyInterval().getTotalCount() > 0, "latency samples from MDH_ORGTIM");
            assertEquals(MOUNTS, source.stats().logins());
            assertEquals(ITEMS * MOUNTS, source.stats().requests());
        }
    }
}
