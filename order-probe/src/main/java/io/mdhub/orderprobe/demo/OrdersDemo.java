package io.mdhub.orderprobe.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.agrona.IoUtil;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.orderprobe.analysis.LatencyStats;
import io.mdhub.orderprobe.analysis.ProbeReport;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.analysis.RunGroup;
import io.mdhub.orderprobe.probe.OrderProbe;
import io.mdhub.p2p.order.OrderService;

/**
 * The order service and its probe in one JVM on embedded defaults: an embedded media driver (IPC), an active/active
 * pair of order servers (4 partitions, synchronous replication, Chronicle write-behind queues in a temporary
 * directory), and one probe with 4 publishing threads swept over a few rates. Prints the create-to-end table and
 * writes the probe's full report.
 */
public final class OrdersDemo
{
    private static final int INGRESS_STREAM = 3001;
    private static final int PEER_STREAM = 3002;
    private static final int RESPONSE_STREAM = 3100;

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
        BackboneNode node = null;
        Aeron aeron = null;
        final OrderService[] servers = new OrderService[2];
        try
        {
            node = BackboneNode.launch(new BackboneNode.Context()
                .aeronDirectoryName(work.resolve("aeron").toString())
                .dirDeleteOnShutdown(true));
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
            final int[] fences = {freePort(), freePort()};
            for (int id = 0; id < 2; id++)
            {
                servers[id] = OrderService.launch(new OrderService.Context()
                    .serverId(id)
                    .partitions(4)
                    .ingressChannel("aeron:ipc").ingressStreamId(INGRESS_STREAM + 10 * id)
                    .peerChannel("aeron:ipc").peerStreamId(PEER_STREAM + 10 * id)
                    .peerRemoteChannel("aeron:ipc").peerRemoteStreamId(PEER_STREAM + 10 * (1 - id))
                    .fence("localhost:" + fences[id], "localhost:" + fences[1 - id])
                    .queueDir(work.resolve("queue-" + id).toString())
                    .aeron(aeron));
            }
            out.printf("mdhub-demo --orders: order pair up (2 servers, 4 partitions, synchronous replication, IPC); " +
                "probe A with 4 publishing threads, %d s warm-up + %d s measured per rate%n", warmupSeconds,
                durationSeconds);
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
                    .client(new OrderClient.Context()
                        .aeronDirectoryName(node.aeronDirectoryName())
                        .servers("aeron:ipc@" + INGRESS_STREAM + ",aeron:ipc@" + (INGRESS_STREAM + 10))
                        .responseChannel("aeron:ipc")
                        .responseStreamId(RESPONSE_STREAM))
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
            CloseHelper.quietCloseAll(servers[0], servers[1], aeron, node);
            IoUtil.delete(work.toFile(), true);
        }
    }

    private static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free port for an order server's fence", ex);
        }
    }
}
