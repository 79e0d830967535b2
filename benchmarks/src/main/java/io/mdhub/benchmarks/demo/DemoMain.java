package io.mdhub.benchmarks.demo;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

import io.mdhub.benchmarks.client.TestClient;
import io.mdhub.benchmarks.source.ItemUniverse;
import io.mdhub.common.concurrent.ToolShutdown;
import io.mdhub.common.latency.LatencySummary;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.analysis.RunGroup;
import io.mdhub.orderprobe.demo.OrdersDemo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub demo}: runs {@link Demo} and prints a line per second — updates in (source) and out (client),
 * items open, lost updates, end-to-end latency — until Ctrl-C or {@code --duration}, then a summary.
 */
@Command(
    name = "mdhub demo",
    mixinStandardHelpOptions = true,
    version = "mdhub demo (MDHub)",
    description = "The market data path in one JVM: backbone, distributor, p2p-server, source and test client.")
public final class DemoMain implements Callable<Integer>
{
    @Option(names = "--items", description = "Item universe (default ${DEFAULT-VALUE}).")
    int items = 100_000;

    @Option(names = "--rate", description = "Updates per second from the source (default ${DEFAULT-VALUE}).")
    long rate = 10_000;

    @Option(names = "--mounts", description = "Client connections (default ${DEFAULT-VALUE}).")
    int mounts = 1;

    @Option(names = "--fraction", description = "Share of the items each mount watches (default ${DEFAULT-VALUE}).")
    double fraction = 1.0;

    @Option(names = "--websocket-port", description = "The p2p-server's WebSocket API port and quote page " +
        "(default ${DEFAULT-VALUE}: any free port; -1 off).")
    int webSocketPort;

    @Option(names = "--json-mounts", description = "How many of the mounts speak the WebSocket API's JSON instead " +
        "of RSSL (default ${DEFAULT-VALUE}).")
    int jsonMounts;

    @Option(names = "--duration", description = "Seconds to run, 0 = until Ctrl-C (default ${DEFAULT-VALUE}).")
    long durationSeconds;

    @Option(names = "--backbone-channel", description = "Aeron channel of the backbone data stream, used by both " +
        "the distributor and the p2p-server (default: IPC), e.g. aeron:udp?endpoint=239.255.1.1:40456|interface=lo.")
    String dataChannel;

    @Option(names = "--backbone-control-channel", description = "Aeron channel of the backbone control stream, used " +
        "by both sides (default: the data channel).")
    String controlChannel;

    @Option(names = "--orders", description = "Run the order demo instead: an active/active order pair and the " +
        "order probe in this JVM, a short sweep of rates, the create-to-end table and the probe's report.")
    boolean orders;

    @Option(names = "--order-rates", split = ",", paramLabel = "N,...",
        description = "With --orders: orders per second, one run each (default ${DEFAULT-VALUE}).")
    List<Long> orderRates = new ArrayList<>(List.of(1000L, 2000L, 4000L, 6000L));

    @Option(names = "--order-warmup", paramLabel = "S",
        description = "With --orders: warm-up seconds per rate (default ${DEFAULT-VALUE}).")
    long orderWarmupSeconds = 5;

    @Option(names = "--order-seconds", paramLabel = "S",
        description = "With --orders: measured seconds per rate (default ${DEFAULT-VALUE}).")
    long orderSeconds = 10;

    @Option(names = "--report", paramLabel = "DIR",
        description = "With --orders: report directory (default ${DEFAULT-VALUE}).")
    Path reportDir = Path.of("reports", "orders-demo");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private static boolean isStopRequested(final ToolShutdown shutdown)
    {
        try
        {
            return shutdown.await(0);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /**
     * @return the names of the universe's first items, comma separated, for the quote page's address.
     */
    private static String firstItems(final int count)
    {
        final ItemUniverse universe = ItemUniverse.generated(count);
        return java.util.stream.IntStream.range(0, count).mapToObj(universe::nameString)
            .collect(java.util.stream.Collectors.joining(","));
    }

    private Demo.Settings settings()
    {
        final Demo.Settings settings = new Demo.Settings().items(items).rate(rate).mounts(mounts).fraction(fraction)
            .webSocketPort(webSocketPort).jsonMounts(jsonMounts);
        if (null != dataChannel)
        {
            final String control = null != controlChannel ? controlChannel : dataChannel;
            settings.channels(dataChannel, control, dataChannel, control);
        }
        return settings;
    }

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        if (orders)
        {
            try (ToolShutdown shutdown = ToolShutdown.install("mdhub-demo"))
            {
                final List<RunGroup> runs = OrdersDemo.run(out, orderRates, orderWarmupSeconds, orderSeconds,
                    reportDir, () -> isStopRequested(shutdown));
                return runs.stream().allMatch((r) -> 0 == r.sum(ProbeRun.FAILED)) ? 0 : 1;
            }
        }
        out.printf("mdhub-demo: starting backbone, distributor, p2p-server; publishing %d items at %d updates/s%n",
            items, rate);
        out.flush();
        final Histogram latency = new Histogram(3);
        TestClient.Totals totals;
        long published;
        long requested;
        final long startNs = System.nanoTime();
        try (ToolShutdown shutdown = ToolShutdown.install("mdhub-demo");
            Demo demo = Demo.launch(settings()))
        {
            out.printf("mdhub-demo: distributor port %d, p2p-server port %d; client opening %d items%n",
                demo.distributor().port(), demo.p2p().port(), demo.client().itemsRequested());
            if (demo.p2p().webSocketPort() > 0)
            {
                out.printf("mdhub-demo: WebSocket API ws://127.0.0.1:%d/WebSocket, quote page " +
                    "http://127.0.0.1:%d/?items=%s%n", demo.p2p().webSocketPort(), demo.p2p().webSocketPort(),
                    firstItems(Math.min(items, 3)));
            }
            out.flush();
            final long endNs = durationSeconds > 0 ? startNs + TimeUnit.SECONDS.toNanos(durationSeconds) :
                Long.MAX_VALUE;
            long lastIn = demo.source().stats().updatesSent();
            TestClient.Totals last = demo.client().totals();
            while (System.nanoTime() < endNs && !shutdown.await(1000))
            {
                final long in = demo.source().stats().updatesSent();
                final TestClient.Totals now = demo.client().totals();
                final Histogram interval = demo.client().latencyInterval();
                latency.add(interval);
                out.printf("demo: updates/s in %d out %d | items open %d/%d | statuses %d | lost %d | " +
                    "latency p50 %.1f us p99 %.1f us max %.1f us%n", in - lastIn, now.updates - last.updates,
                    now.itemsOpen, demo.client().itemsRequested(), now.statuses, now.lostUpdates,
                    interval.getValueAtPercentile(50) / 1000.0, interval.getValueAtPercentile(99) / 1000.0,
                    interval.getMaxValue() / 1000.0);
                out.flush();
                lastIn = in;
                last = now;
            }
            totals = demo.client().totals();
            published = demo.source().stats().updatesSent();
            requested = demo.client().itemsRequested();
        }

        out.printf("mdhub-demo: published %d updates, client received %d updates, %d refreshes and %d statuses, " +
            "items open %d, lost %d, out of order %d%n", published, totals.updates, totals.refreshes,
            totals.statuses, totals.itemsOpen, totals.lostUpdates, totals.outOfOrder);
        final LatencySummary summary = new LatencySummary("rate").add(Long.toString(rate), latency);
        out.println(summary.header());
        out.println(summary.csvLine(0));
        out.flush();
        // a demo in which some item never opened did not show the path working either
        final boolean allOpen = totals.itemsOpen == requested;
        return 0 == totals.lostUpdates && null == totals.failure && allOpen ? 0 : 1;
    }
}
