package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import org.agrona.concurrent.status.CountersReader;

import io.mdhub.benchmarks.client.ClientStatsLine;
import io.mdhub.benchmarks.source.UpdatePacer;
import io.mdhub.common.net.LocalPorts;
import io.mdhub.common.status.MdCounters;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub bench throughput}: the published RMDS throughput tests on this machine (METHODOLOGY.md), every
 * component its own JVM, throughput-tuned (p2p-server timed flushes, caching off), the rate raised step by step
 * until data is lost, a consumer is disconnected, or the input falls behind the commanded rate:
 * <ul>
 * <li>{@code fanout} — Producer 50/50: many mounts ({@code --mounts}, 100 as published) each watching half of the
 * universe, so every update from the backbone goes to about half of them; input and aggregate output updates/s;</li>
 * <li>{@code fanout-json} — the same with {@code --json-mounts} of the mounts (half by default, spread among the
 * others) on the p2p-server's WebSocket API in JSON: the p2p-server's CPU per update out beside {@code fanout}'s at
 * the same rates gives the cost of a JSON update ({@link FanOutCpu});</li>
 * <li>{@code nofanout} — one consumer with the whole watchlist (100,000 items);</li>
 * <li>{@code distributor} — the standalone distributor: a pushing source into a distributor whose backbone a
 * p2p-server consumes as a sink; the highest rate the distributor takes without pushing back and the sink receives
 * whole (its {@code backbone-messages-in} and {@code backbone-gaps} counters).</li>
 * </ul>
 * Every run writes {@code report.md}, {@code results.csv} and {@code throughput.svg} ({@link ThroughputChart}), and
 * with a fan-out test {@code cpu.csv}, the p2p-server's CPU per step;
 * {@code --chart-from CSV --out SVG} draws the chart of a committed {@code results.csv} without running anything.
 */
@Command(
    name = "mdhub bench throughput",
    mixinStandardHelpOptions = true,
    version = "mdhub bench throughput (MDHub)",
    description = "Maximum sustained update rates: Producer 50/50 fan-out, no fan-out, standalone distributor; " +
        "report.md, results.csv and throughput.svg. --chart-from CSV --out SVG draws a results.csv without a run.")
public final class ThroughputBench implements Callable<Integer>
{
    private static final Pattern SOURCE_RATE = Pattern.compile("updates/s (\\d+),");
    /**
     * The source's rate while a consumer test's watchlist opens (or the first rate, if lower); each step sets its own.
     */
    private static final long OPENING_RATE = 10_000;
    private static final Pattern SKIPPED = Pattern.compile("skipped (\\d+)");

    private final List<FanOutCpu> cpuRows = new ArrayList<>();

    @Option(names = "--tests", split = ",", description = "fanout, fanout-json, nofanout, distributor (default " +
        "fanout, nofanout, distributor).")
    List<String> tests = List.of("fanout", "nofanout", "distributor");

    @Option(names = "--json-mounts", description = "Mounts of fanout-json on the WebSocket API's JSON (default: " +
        "half of --mounts).")
    int jsonMounts = -1;

    @Option(names = "--items", description = "Universe for nofanout and distributor (default ${DEFAULT-VALUE}).")
    int items = 100_000;

    @Option(names = "--fanout-items", description = "Universe of the fan-out test (default ${DEFAULT-VALUE}).")
    int fanoutItems = 10_000;

    @Option(names = "--mounts", description = "Fan-out mounts, each watching half (default ${DEFAULT-VALUE}).")
    int mounts = 100;

    @Option(names = "--rates", split = ",", description = "Input rates to step through (default 10k, 20k, 50k, " +
        "100k, 150k, 200k, 300k, 400k, 500k, 750k, 1M).")
    long[] rates = {10_000, 20_000, 50_000, 100_000, 150_000, 200_000, 300_000, 400_000, 500_000, 750_000, 1_000_000};

    @Option(names = "--step-seconds", description = "Measured seconds per rate (default ${DEFAULT-VALUE}).")
    int stepSeconds = 10;

    @Option(names = "--warmup-seconds", description = "Seconds before measuring each rate (default ${DEFAULT-VALUE}).")
    int warmupSeconds = 5;

    /** The fanout and nofanout tests' interactive source. */
    @CommandLine.Mixin
    SourceTickOption sourceTick = new SourceTickOption();

    @Option(names = "--jvm-opts", description = "JVM options for every process (default ${DEFAULT-VALUE}).")
    String jvmOpts = "-Xms256m -Xmx2g -XX:+UseParallelGC -XX:+UseTransparentHugePages";

    @Option(names = "--out", description = "Report directory (default target/bench-throughput-<time>); with " +
        "--chart-from, the SVG file to write.")
    Path out;

    @Option(names = "--chart-from", paramLabel = "CSV", description = "Run nothing: draw the chart of this " +
        "results.csv into the SVG file --out names.")
    Path chartFrom;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * One measured step.
     *
     * @param test      which test.
     * @param rate      commanded input updates/s.
     * @param input     input updates/s achieved by the source.
     * @param output    aggregate updates/s received by the consumers; the distributor test: item messages/s the
     *                  sink p2p-server took from the backbone.
     * @param lost      updates missing at the consumers; the distributor test: sequence gaps the sink detected.
     * @param sustained no loss, no failure, the watchlist whole and quiet (no item closed or Suspect, no refresh) in
     *                  every measured second, input within 5 % of the rate, output at least 95 % of what the
     *                  watchlists make of the input; the distributor test: input within 5 % of the rate, at most
     *                  0.1 % of the window's updates skipped by the source, no gap at the sink and 97 % of the input
     *                  received there.
     */
    record Step(String test, long rate, long input, long output, long lost, boolean sustained)
    {
        static final String CSV_HEADER = "test,rate_per_s,input_ups,output_ups,output_per_input,lost,sustained";

        String csv()
        {
            return String.format(Locale.ROOT, "%s,%d,%d,%d,%.1f,%d,%b", test, rate, input, output,
                0 == input ? 0.0 : (double)output / input, lost, sustained);
        }
    }

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter console = spec.commandLine().getOut();
        if (null != chartFrom)
        {
            return chartFrom(console);
        }
        final Path root = LatencyBench.checkoutRoot();
        final Path dir = BenchProcesses.reportDir(root, out, "throughput");
        Files.createDirectories(dir);
        final List<String> jvm = BenchProcesses.jvmOptions(jvmOpts);
        final List<Step> steps = new ArrayList<>();
        sourceTick.checked(spec.commandLine());
        console.println(Step.CSV_HEADER);
        console.flush();
        for (final String test : tests)
        {
            if (!ThroughputChart.SERIES.containsKey(test))
            {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown test: " + test);
            }
            runTest(test, root, dir.resolve(test), jvm, steps, console);
        }
        writeReport(dir, steps);
        if (!steps.isEmpty())
        {
            ThroughputChart.write(steps, dir.resolve("throughput.svg"));
        }
        console.printf("bench throughput: report %s%n", dir.resolve("report.md"));
        console.flush();
        return steps.isEmpty() ? 1 : 0;
    }

    /**
     * {@code --chart-from CSV --out SVG}: the chart of a committed run, drawn again without running it.
     */
    int chartFrom(final PrintWriter console) throws IOException
    {
        if (null == out)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--chart-from needs --out SVG");
        }
        ThroughputChart.write(ThroughputChart.read(chartFrom), out);
        console.printf("bench throughput: chart of %s in %s%n", chartFrom, out);
        console.flush();
        return 0;
    }

    private void runTest(
        final String test,
        final Path root,
        final Path dir,
        final List<String> jvm,
        final List<Step> steps,
        final PrintWriter console) throws Exception
    {
        Files.createDirectories(dir);
        final boolean isDistributorTest = "distributor".equals(test);
        final boolean isFanout = test.startsWith("fanout");
        final int universe = isFanout ? fanoutItems : items;
        final int sourcePort = LocalPorts.unused();
        final int consumerPort = LocalPorts.unused();
        final int webSocketPort = "fanout-json".equals(test) ? LocalPorts.unused() : -1;
        try (BenchProcesses processes = new BenchProcesses(root, dir, jvm))
        {
            final String aeronDir = processes.memoryDir("aeron").toString();
            final BenchProcess backbone =
                processes.start("backbone", BenchProcesses.BACKBONE_JAR, "--aeron-dir", aeronDir);
            backbone.awaitLine("mdhub-backbone ready", 60);
            final BenchProcess distributor;
            BenchProcess source = null;
            if (isDistributorTest)
            {
                distributor = processes.start("distributor", BenchProcesses.DISTRIBUTOR_JAR, "--aeron-dir", aeronDir,
                    "--port", Integer.toString(sourcePort));
            }
            else
            {
                source = processes.start("source", BenchProcesses.BENCH_JAR, "source", "--interactive",
                    "--port", Integer.toString(sourcePort), "--rate", Long.toString(Math.min(rates[0], OPENING_RATE)),
                    "--tick-us", Long.toString(sourceTick.tickUs));
                source.awaitLine("interactive, listening", 60);
                distributor = processes.start("distributor", BenchProcesses.DISTRIBUTOR_JAR, "--aeron-dir", aeronDir,
                    "--port", Integer.toString(LocalPorts.unused()), "--route", "127.0.0.1:" + sourcePort,
                    "--route-cache", "false");
            }
            final BenchProcess p2p = processes.start("p2p", BenchProcesses.P2P_JAR, "--aeron-dir", aeronDir,
                "--port", Integer.toString(consumerPort),
                "-D", "mdhub.p2p.cache.enabled=false", "-D", "mdhub.p2p.flush.profile=throughput",
                "-D", "mdhub.p2p.max.items=" + Math.max(universe, 100_000),
                "-D", "mdhub.p2p.max.items.per.consumer=" + Math.max(universe, 100_000),
                "-D", "mdhub.p2p.websocket.port=" + webSocketPort);
            distributor.awaitLine("mdhub-distributor ready", 60);
            p2p.awaitLine("mdhub-p2p ready", 60);
            if (isDistributorTest)
            {
                // a burst of 100 ms at the highest rate: a source that was not scheduled for a moment catches up
                // instead of dropping, so only a distributor that keeps pushing back makes the source fall short
                final long maxBurst = Math.min(1_000_000,
                    Math.max(UpdatePacer.MAX_BURST_DEFAULT, LongStream.of(rates).max().orElse(0) / 10));
                source = processes.start("source", BenchProcesses.BENCH_JAR, "source",
                    "--port", Integer.toString(sourcePort), "--items", Integer.toString(universe),
                    "--rate", Long.toString(rates[0]), "--max-burst", Long.toString(maxBurst));
                source.awaitLine("source: refreshes " + universe + ",", 120);
            }
            // the distributor test's sink has no consumers: what it received is read from its backbone counters;
            // the other tests keep one client, and so one open watchlist, for the whole sweep
            try (DriverCounters sink = isDistributorTest ? DriverCounters.open(Path.of(aeronDir)) : null;
                BenchProcess client = isDistributorTest ? null :
                    openWatchlist(test, processes, consumerPort, webSocketPort, universe))
            {
                for (final long rate : rates)
                {
                    source.send("ur " + rate);
                    final Step step = isDistributorTest ? distributorStep(source, sink, rate) :
                        consumerStep(test, client, source, isFanout ? p2p : null, rate);
                    steps.add(step);
                    console.println(step.csv());
                    console.flush();
                    if (!step.sustained())
                    {
                        break;
                    }
                }
            }
        }
    }

    /**
     * Start the test's client with no end of its own and wait until its whole watchlist is open: with the caches off
     * every watch is a fresh refresh from the source, so the watchlist opens at {@link #OPENING_RATE} at most and the
     * steps then change the rate under it, as the published runs did; a client started per step would measure its
     * refresh storm at the step's rate instead (at a few hundred thousand a second the p2p-server drops it as a slow
     * consumer).
     */
    private BenchProcess openWatchlist(
        final String test,
        final BenchProcesses processes,
        final int consumerPort,
        final int webSocketPort,
        final int universe)
    {
        final boolean isFanout = test.startsWith("fanout");
        final BenchProcess client = processes.start("client", BenchProcesses.BENCH_JAR, "client",
            "--port", Integer.toString(consumerPort), "--service", "MDH_SINK", "--items", Integer.toString(universe),
            "--mounts", Integer.toString(isFanout ? mounts : 1), "--fraction", isFanout ? "0.5" : "1.0",
            "--duration", "0", "--websocket-port", Integer.toString(webSocketPort),
            "--json-mounts", Integer.toString(webSocketPort > 0 ? jsonMounts() : 0));
        TestClients.awaitWholeWatchlist(client);
        return client;
    }

    private int jsonMounts()
    {
        return jsonMounts < 0 ? mounts / 2 : Math.min(jsonMounts, mounts);
    }

    /**
     * One rate under the running client: wait out the warm-up and the step, then judge the client's and the source's
     * lines of those seconds; in a fan-out test, also the p2p-server's CPU over the measured seconds.
     */
    private Step consumerStep(
        final String test,
        final BenchProcess client,
        final BenchProcess source,
        final BenchProcess p2p,
        final long rate) throws InterruptedException
    {
        final int clientFrom = client.output().length();
        final int sourceFrom = source.output().length();
        final long lostBefore = TestClients.lostSoFar(client.output());
        final StepCpu cpu = new StepCpu(null == p2p ? List.of() : List.of(p2p));
        Thread.sleep(TimeUnit.SECONDS.toMillis(warmupSeconds));
        cpu.start();
        Thread.sleep(TimeUnit.SECONDS.toMillis(stepSeconds));
        cpu.end();
        // one more second for the last report line of the window
        Thread.sleep(TimeUnit.SECONDS.toMillis(1));
        final String clientOutput = client.output().substring(clientFrom);
        final Step step = consumerStep(test, rate, clientOutput, source.output().substring(sourceFrom), lostBefore,
            client.isAlive());
        if (null != p2p)
        {
            final long jsonOutput = mean(measured(ClientStatsLine.allJson(clientOutput)));
            cpuRows.add(new FanOutCpu(test, rate, step.input(), step.output() - jsonOutput, jsonOutput,
                cpu.cpuNsPerSecond(p2p.name()), step.sustained()));
        }
        return step;
    }

    /**
     * Judge one consumer-test rate from the report lines of the client (updates received, cumulative loss, the
     * watchlist whole and quiet in each measured second) and of the source (updates sent), each from the start of the
     * step's warm-up on.
     *
     * @param test          fanout, fanout-json or nofanout.
     * @param rate          commanded input updates/s.
     * @param clientOutput  the client's output since the step began.
     * @param sourceOutput  the source's output since the step began.
     * @param lostBefore    the client's cumulative lost updates when the step began.
     * @param isClientAlive whether the client process still runs.
     * @return the step.
     */
    Step consumerStep(
        final String test,
        final long rate,
        final String clientOutput,
        final String sourceOutput,
        final long lostBefore,
        final boolean isClientAlive)
    {
        final List<ClientStatsLine> window = measured(ClientStatsLine.all(clientOutput));
        final long input = mean(measured(values(SOURCE_RATE, sourceOutput)));
        final long received = mean(window.stream().map(ClientStatsLine::updatesPerSecond).toList());
        final boolean isAlive = isClientAlive && !clientOutput.contains("a mount failed");
        final long lostUpdates = isAlive ? TestClients.lostSoFar(clientOutput) - lostBefore : -1;
        // a Suspect item, a refresh (a recovery) or a closed item in the window is a component that fell behind
        final boolean isWhole =
            window.size() == stepSeconds && window.stream().allMatch(ClientStatsLine::isWholeAndQuiet);
        // every update must also reach its watchers: half the mounts each (fan-out), or the one mount; a client that
        // gets less than 95 % of that falls behind the rate, even before its server disconnects it as a slow consumer
        final double expectedRatio = test.startsWith("fanout") ? mounts * 0.5 : 1.0;
        return new Step(test, rate, input, received, lostUpdates, isAlive && isWhole && 0 == lostUpdates &&
            input >= rate * 0.95 && received >= input * expectedRatio * 0.95);
    }

    /**
     * @param lines once-a-second lines from the start of a step's warm-up on.
     * @return those of the measured seconds.
     */
    private <T> List<T> measured(final List<T> lines)
    {
        final int size = lines.size();
        return lines.subList(Math.min(size, warmupSeconds), Math.min(size, warmupSeconds + stepSeconds));
    }

    private Step distributorStep(final BenchProcess source, final DriverCounters sink, final long rate)
        throws InterruptedException
    {
        final int from = source.output().length();
        Thread.sleep(1000L * warmupSeconds);
        final CountersReader counters = sink.counters();
        final long takenBefore = MdCounters.sum(counters, MdCounters.BACKBONE_MESSAGES_IN_TYPE_ID);
        final long gapsBefore = MdCounters.sum(counters, MdCounters.BACKBONE_GAPS_TYPE_ID);
        Thread.sleep(1000L * stepSeconds);
        final long taken = MdCounters.sum(counters, MdCounters.BACKBONE_MESSAGES_IN_TYPE_ID) - takenBefore;
        final long gaps = MdCounters.sum(counters, MdCounters.BACKBONE_GAPS_TYPE_ID) - gapsBefore;
        // every fan-out worker of the sink reads the whole stream and counts it
        final int readers = Math.max(1, MdCounters.count(counters, MdCounters.BACKBONE_MESSAGES_IN_TYPE_ID));
        final long received = taken / readers / stepSeconds;
        final String lines = source.output().substring(from);
        final long input = mean(measured(values(SOURCE_RATE, lines)));
        // the source's running count at the end of the warm-up (a line a second), then at the end of the step
        final List<Long> skips = values(SKIPPED, lines);
        final int last = skips.size() - 1;
        final int warmedUp = Math.min(last, Math.max(0, warmupSeconds - 1));
        final long skipped = last < 0 ? 0 : skips.get(last) - skips.get(warmedUp);
        // the source drops updates only when it fell more than a burst behind (the distributor pushed back, or the
        // source was not scheduled): in the measured window at most 0.1 % of its updates is noise on a shared box,
        // more is the distributor falling behind
        final boolean isKeepingUp = skipped <= rate * stepSeconds / 1000;
        // what the distributor took must also have reached the sink, in sequence: the sink's window and the source's
        // per-second lines are read a few milliseconds apart, hence the 3 % allowance
        final boolean isDelivered = 0 == gaps && received >= input * 0.97;
        return new Step("distributor", rate, input, received, gaps, input >= rate * 0.95 && isKeepingUp && isDelivered);
    }

    private static List<Long> values(final Pattern pattern, final String text)
    {
        final Matcher line = pattern.matcher(text);
        final List<Long> values = new ArrayList<>();
        while (line.find())
        {
            values.add(Long.parseLong(line.group(1)));
        }
        return values;
    }

    private static long mean(final List<Long> values)
    {
        return Math.round(values.stream().mapToLong(Long::longValue).average().orElse(0));
    }

    private void writeReport(final Path dir, final List<Step> steps) throws IOException
    {
        final StringBuilder csv = new StringBuilder(Step.CSV_HEADER).append('\n');
        steps.forEach((step) -> csv.append(step.csv()).append('\n'));
        Files.writeString(dir.resolve("results.csv"), csv);
        final StringBuilder md = new StringBuilder("# MDHub throughput\n\n");
        md.append("Command: `bin/mdhub bench throughput ")
            .append(String.join(" ", spec.commandLine().getParseResult().originalArgs())).append("`\n\n");
        md.append("Machine: ").append(LatencyBench.machine()).append("\n\n");
        md.append("| test | highest sustained input updates/s | output updates/s there | output/input |\n");
        md.append("|---|---:|---:|---:|\n");
        for (final String test : tests)
        {
            Step best = null;
            for (final Step step : steps)
            {
                if (step.test().equals(test) && step.sustained())
                {
                    best = step;
                }
            }
            if (null != best)
            {
                md.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f |%n", test, best.input(), best.output(),
                    0 == best.input() ? 0.0 : (double)best.output() / best.input()));
            }
            else
            {
                md.append("| ").append(test).append(" | none sustained | | |\n");
            }
        }
        md.append("\n![output against input](throughput.svg)\n");
        md.append("\nEvery step:\n\n```\n").append(csv).append("```\n");
        if (!cpuRows.isEmpty())
        {
            final StringBuilder cpuCsv = new StringBuilder(FanOutCpu.CSV_HEADER).append('\n');
            cpuRows.forEach((row) -> cpuCsv.append(row.csv()).append('\n'));
            Files.writeString(dir.resolve("cpu.csv"), cpuCsv);
            md.append("\n## The p2p-server's CPU per update out, RSSL and JSON mounts\n\n")
                .append(FanOutCpu.jsonCostTable(cpuRows))
                .append("\nEvery fan-out step (cpu.csv):\n\n```\n").append(cpuCsv).append("```\n");
        }
        Files.writeString(dir.resolve("report.md"), md);
    }
}
