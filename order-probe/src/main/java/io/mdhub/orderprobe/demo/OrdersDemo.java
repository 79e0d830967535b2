package io.mdhub.orderprobe.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

import org.agrona.IoUtil;

import io.mdhub.common.order.client.OrderClient;
import io.mdhub.orderprobe.analysis.LatencyStats;
import io.mdhub.orderprobe.analysis.ProbeReport;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.analysis.RunGroup;
import io.mdhub.orderprobe.probe.OrderProbe;

/**
 * The order service and its probe in one JVM on embedded defaults: an active/active pair of order servers on loopback
 * TCP (4 partitions, synchronous replication, Chronicle write-behind queues in a temporary directory), and one probe
 * with 4 publishing threads swept over a few rates. Prints the create-to-end table and writes the probe's full
 * report.
 */
public final class OrdersDemo
{

    private OrdersDemo()
    {
    }

    /**
     * Run the sweep.
     *
     * @param out             where the lines go.
     * @param rates           orders per second, one run each.
     * @param warmupSeconds   warm-up per rate.
     * @param durationSeconds measured seconds per rate.
     * @param reportDir       where the report goes.
     * @param stop            true ends the sweep early.
     * @return the runs made.
     * @throws IOException          when a run or the report cannot be written.
     * @throws InterruptedException when interrupted.
     */
    public static List<RunGroup> run(
        final PrintWriter out,
        final List<Long> rates,
        final long warmupSeconds,
        final long durationSeconds,
        final Path reportDir,
        final BooleanSupplier stop) throws IOException, InterruptedException
    {
        final Path work = Files.createTempDirectory("mdhub-orders-demo");
        try (InProcessOrderPair pair = new InProcessOrderPair(work, true))
        {
            out.printf("mdhub-demo --orders: order pair up (2 servers, 4 partitions, synchronous replication, " +
                "loopback TCP); probe A with 4 publishing threads, %d s warm-up + %d s measured per rate%n",
                warmupSeconds, durationSeconds);
            out.flush();
            final List<ProbeRun> runs = new ArrayList<>();
            long firstOrderId = 1;
            for (final long rate : rates)
            {
                if (stop.getAsBoolean())
                {
                    break;
                }
                final ProbeRun run = new OrderProbe(new OrderProbe.Settings()
                    .probeId("A")
                    .configuration("two_server")
                    .rate(rate)
                    .warmupSeconds(warmupSeconds)
                    .durationSeconds(durationSeconds)
                    .publishers(4)
                    .firstOrderId(firstOrderId)
                    .client(new OrderClient.Context().servers(pair.servers()))
                    .out(reportDir.resolve("runs").resolve("rate-" + rate)))
                    .run(stop);
                firstOrderId += rate * (warmupSeconds + durationSeconds) + 1;
                runs.add(run);
                final LatencyStats stats = RunGroup.group(List.of(run), 1_000_000L).get(0).createToEnd();
                out.printf(Locale.ROOT, "orders: %6d/s  create-to-end mean %8.1f us  median %8.1f us  p95 %8.1f us" +
                    "  p99 %9.1f us  max %9.1f us  (%d orders, %s failed)%n", rate, stats.meanUs(), stats.medianUs(),
                    stats.p95Us(), stats.p99Us(), stats.maxUs(), run.orders(), run.property(ProbeRun.FAILED));
                out.flush();
            }
            final List<RunGroup> groups = RunGroup.group(runs, 1_000_000L);
            out.print(ProbeReport.write(groups, reportDir));
            out.printf("mdhub-demo --orders: report in %s (report.html)%n", reportDir.toAbsolutePath());
            out.flush();
            return groups;
        }
        finally
        {
            IoUtil.delete(work.toFile(), true);
        }
    }
}
