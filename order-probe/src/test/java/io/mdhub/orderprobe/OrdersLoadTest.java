package io.mdhub.orderprobe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.order.FakeOrderPair;
import picocli.CommandLine;

/**
 * The load tool against a fake server pair over loopback TCP.
 */
@InterruptAfter(60)
class OrdersLoadTest
{
    @TempDir
    Path dir;

    private FakeOrderPair pair;

    @BeforeEach
    void launch()
    {
        pair = new FakeOrderPair(4);
    }

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(pair);
        System.getProperties().stringPropertyNames().stream()
            .filter((key) -> key.startsWith("mdhub.order.client."))
            .forEach(System::clearProperty);
    }

    @Test
    void theCommandAcksEveryOrderAndWritesTheCsv() throws Exception
    {
        final Path csv = dir.resolve("acked.csv");
        final StringWriter output = new StringWriter();
        final int status = new CommandLine(new OrdersLoadMain()).setOut(new PrintWriter(output)).execute(
            "--rate", "500", "--duration", "2",
            "--servers", pair.servers(), "--client-id", "42", "--out", csv.toString());

        assertEquals(0, status, output.toString());
        assertTrue(output.toString().contains("orders-load: complete"), output.toString());
        assertTrue(output.toString().contains("create-to-end,"), output.toString());
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(OrderOutcomes.CSV_HEADER, lines.get(0));
        assertEquals(1001, lines.size());
        checkCsv(lines, 42, 1000);
    }

    @Test
    void aFailoverMidRunLosesNothing() throws Exception
    {
        pair.call(() -> pair.setPrimaryForAll(0));
        try (OrderClient client = OrderClient.connect(context(43).ackTimeoutMs(2_000)))
        {
            final OrdersLoad load = new OrdersLoad(client, new FixNewOrderSingles(305),
                new OrdersLoad.Settings().rate(1000).durationSeconds(3), new BackoffIdleStrategy());
            final boolean[] isFailedOver = {false};
            final OrdersLoad.Totals totals = load.run(new PrintWriter(System.out), () ->
            {
                if (!isFailedOver[0] && pair.server(0).receivedCount() >= 1000)
                {
                    isFailedOver[0] = true;
                    pair.call(() -> pair.failover(0));
                }
                return false;
            });

            System.out.printf("failover: acked %d duplicates %d resends %d losses %d%n", totals.acked,
                totals.duplicates, client.resendCount(), client.serverLossCount());
            assertTrue(isFailedOver[0]);
            assertTrue(totals.isComplete(), () -> "unresolved " + totals.unresolved());
            assertEquals(3000, totals.acked);
            assertEquals(0, totals.doubleOutcomes);
            assertTrue(client.serverLossCount() >= 1);
            assertTrue(pair.server(1).receivedCount() >= 1900, "the survivor took the rest");

            final Path csv = dir.resolve("failover.csv");
            assertEquals(3000, load.outcomes().writeAckedCsv(csv, client.clientId()));
            checkCsv(Files.readAllLines(csv), 43, 3000);
        }
    }

    @Test
    void unansweredOrdersMakeTheRunIncomplete()
    {
        pair.call(() ->
        {
            pair.server(0).dropNext(1_000_000);
            pair.server(1).dropNext(1_000_000);
        });
        try (OrderClient client = OrderClient.connect(context(44)))
        {
            final OrdersLoad load = new OrdersLoad(client, new FixNewOrderSingles(305),
                new OrdersLoad.Settings().rate(100).durationSeconds(1).drainTimeoutSeconds(1),
                new BackoffIdleStrategy());
            final OrdersLoad.Totals totals = load.run(new PrintWriter(System.out), () -> false);
            assertFalse(totals.isComplete());
            assertEquals(100, totals.created);
            assertEquals(100, totals.unresolved());
            assertEquals(100, totals.inFlight);
        }
    }

    @Test
    void anUnknownToolIsAUsageError()
    {
        assertEquals(2, OrderProbeMain.run(new String[] {"frobnicate"}));
        assertEquals(2, OrderProbeMain.run(new String[0]));
    }

    private OrderClient.Context context(final long clientId)
    {
        return new OrderClient.Context()
            .clientId(clientId)
            .servers(pair.servers());
    }

    private static void checkCsv(final List<String> lines, final long clientId, final int orders)
    {
        final Set<Long> orderIds = new HashSet<>();
        final Map<String, Set<Long>> sequences = new HashMap<>();
        for (final String line : lines.subList(1, lines.size()))
        {
            final String[] columns = line.split(",");
            assertEquals(5, columns.length, line);
            assertEquals(clientId, Long.parseLong(columns[0]));
            assertTrue(orderIds.add(Long.parseLong(columns[1])), "order twice: " + line);
            assertTrue(sequences.computeIfAbsent(columns[2], (p) -> new HashSet<>()).add(Long.parseLong(columns[4])),
                "sequence twice: " + line);
        }
        assertEquals(orders, orderIds.size());
        for (long orderId = 1; orderId <= orders; orderId++)
        {
            assertTrue(orderIds.contains(orderId), "missing order " + orderId);
        }
        for (final Map.Entry<String, Set<Long>> partition : sequences.entrySet())
        {
            final int count = partition.getValue().size();
            for (long sequence = 1; sequence <= count; sequence++)
            {
                assertTrue(partition.getValue().contains(sequence), "gap at " + sequence + " in " + partition.getKey());
            }
        }
    }
}
