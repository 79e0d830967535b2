package io.mdhub.benchmarks.client;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;

import io.mdhub.benchmarks.source.ItemUniverse;
import io.mdhub.common.concurrent.ToolShutdown;
import io.mdhub.common.latency.IntervalLogWriter;
import io.mdhub.common.latency.LatencySummary;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub client}: open an item universe on a p2p-server over one or many mounts, print a line per second,
 * and at the end a summary with the latency table in the columns of the published reference results.
 */
@Command(
    name = "mdhub client",
    mixinStandardHelpOptions = true,
    version = "mdhub client (MDHub)",
    description = "Test client: opens items on a p2p-server, counts, checks for loss and measures latency.")
public final class TestClientMain implements Callable<Integer>
{
    @Option(names = "--host", description = "p2p-server host (default ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--port", description = "p2p-server consumer port (default ${DEFAULT-VALUE}).")
    int port = 14002;

    @Option(names = "--servers", paramLabel = "HOST:PORT,...",
        description = "p2p-servers to spread the mounts over and fail over along (round robin); instead of " +
        "--host/--port. A mount whose connection ends moves to the next server and re-opens its items.")
    String servers;

    @Option(names = "--failover", description = "Fail over (reconnect, to the same server when it is the only one) " +
        "instead of ending when a connection is lost; on by default with a --servers list.")
    boolean failover;

    @Option(names = "--json-mounts", description = "How many of the mounts speak the WebSocket API's JSON " +
        "(tr_json2) to --websocket-port instead of RSSL (default ${DEFAULT-VALUE}).")
    int jsonMounts;

    @Option(names = "--websocket-port", description = "The p2p-server's WebSocket API port, for --json-mounts.")
    int webSocketPort = -1;

    @Option(names = "--service", description = "Service name (default ${DEFAULT-VALUE}).")
    String service = "NI_PUB";

    @Option(names = "--items", description = "Generated universe size (default ${DEFAULT-VALUE}).")
    int items = 100_000;

    @Option(names = "--item-file", description = "Item names, one per line (instead of --items).")
    Path itemFile;

    @Option(names = "--mounts", description = "Connections (default ${DEFAULT-VALUE}).")
    int mounts = 1;

    @Option(names = "--fraction", description = "Share of the universe each mount watches (default ${DEFAULT-VALUE}).")
    double fraction = 1.0;

    @Option(names = "--headers-only", description = "Decode message headers only: no loss check, no latency.")
    boolean headersOnly;

    @Option(names = "--duration", description = "Seconds to run, 0 = until Ctrl-C (default ${DEFAULT-VALUE}).")
    long durationSeconds;

    @Option(names = "--warmup-seconds",
        description = "Latency of the first seconds is not counted (steady state only; default ${DEFAULT-VALUE}).")
    long warmupSeconds;

    @Option(names = "--hlog", description = "Also write a latency interval histogram per second to this .hlog " +
        "file (HdrHistogram log format, nanoseconds, tag end-to-end).")
    Path hlog;

    @Option(names = "--csv", description = "Also write the latency summary to this CSV file.")
    Path csv;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        final TestClient.Context ctx = new TestClient.Context()
            .host(host)
            .port(port)
            .serviceName(service)
            .itemCount(items)
            .mounts(mounts)
            .fraction(fraction)
            .checkSequence(!headersOnly)
            .servers(servers)
            .failover(failover)
            .jsonMounts(jsonMounts)
            .webSocketPort(webSocketPort);
        if (null != itemFile)
        {
            ctx.items(ItemUniverse.fromFile(itemFile));
        }

        final Histogram total = new Histogram(3);
        TestClient.Totals totals;
        try (ToolShutdown shutdown = ToolShutdown.install("mdhub-client");
            TestClient client = TestClient.launch(ctx))
        {
            out.printf("mdhub-client: %d mount(s) watching %d items in all on %s:%d (%s)%n",
                mounts, client.itemsRequested(), host, port, service);
            out.flush();
            final long startNs = System.nanoTime();
            long lastMs = System.currentTimeMillis();
            final IntervalLogWriter hlogWriter = null == hlog ? null :
                new IntervalLogWriter(hlog.toFile(), lastMs, "MDHub test client: end-to-end latency, nanoseconds");
            final long endNs = durationSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(durationSeconds) :
                Long.MAX_VALUE;
            TestClient.Totals last = client.totals();
            while (System.nanoTime() < endNs && !shutdown.await(1000))
            {
                final TestClient.Totals now = client.totals();
                final Histogram interval = client.latencyInterval();
                if (System.nanoTime() - startNs >= TimeUnit.SECONDS.toNanos(warmupSeconds))
                {
                    total.add(interval); // the warm-up's samples are dropped: the summary is steady state
                }
                final long nowMs = System.currentTimeMillis();
                if (null != hlogWriter)
                {
                    hlogWriter.write("end-to-end", interval, lastMs, nowMs);
                }
                lastMs = nowMs;
                out.println(new ClientStatsLine(
                    now.refreshes - last.refreshes, now.updates - last.updates, now.statuses - last.statuses,
                    now.itemsOpen, client.itemsRequested(), now.itemsSuspect, now.recoveries, now.lostUpdates)
                    .format(interval) + " | " + client.faults().format() +
                    (jsonMounts > 0 ? " | " + ClientStatsLine.formatJson(now.jsonUpdates - last.jsonUpdates) : ""));
                out.flush();
                last = now;
                if (null != now.failure)
                {
                    out.println("mdhub-client: a mount failed: " + now.failure);
                    break;
                }
            }
            totals = client.totals();
            CloseHelper.close(hlogWriter);
        }

        out.printf("mdhub-client: refreshes %d, updates %d, statuses %d, items open %d, closed %d, lost %d, " +
            "out of order %d, malformed %d, suspect now %d, recovered %d (longest %d ms), failovers %d, " +
            "skipped silently %d%n",
            totals.refreshes, totals.updates, totals.statuses, totals.itemsOpen, totals.itemsClosed,
            totals.lostUpdates, totals.outOfOrder, totals.malformed, totals.itemsSuspect, totals.recoveries,
            TimeUnit.NANOSECONDS.toMillis(totals.maxRecoveryNs), totals.failovers, totals.skippedSilently);
        final LatencySummary summary = new LatencySummary("run").add("end-to-end", total);
        out.println(summary.header());
        out.println(summary.csvLine(0));
        out.flush();
        if (null != csv)
        {
            summary.writeCsv(csv, "MDHub test client: end-to-end latency (embedded timestamps), microseconds");
        }
        return null == totals.failure && 0 == totals.lostUpdates ? 0 : 1;
    }

}
