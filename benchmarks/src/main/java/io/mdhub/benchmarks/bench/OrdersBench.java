package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mdhub.benchmarks.orders.HazelcastMember;
import io.mdhub.benchmarks.orders.HazelcastTarget;
import io.mdhub.benchmarks.orders.ProbeOnlyTarget;
import io.mdhub.benchmarks.orders.TcpFloorServer;
import io.mdhub.benchmarks.orders.TcpFloorTarget;
import io.mdhub.common.net.LocalPorts;
import io.mdhub.orderprobe.analysis.LatencyStats;
import io.mdhub.orderprobe.analysis.ProbeReport;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.analysis.RunGroup;
import io.mdhub.orderprobe.probe.OrderProbe;
import io.mdhub.orderprobe.probe.ProbeMain;
import io.mdhub.p2p.order.OrderServiceConfiguration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub bench orders}: the published GemCache procedure with the order probe, every process its own JVM on
 * this host — configurations of one server without replication, one, two and three active/active pairs, one probe
 * per server (4 publishing threads each), total rates stepped up and then onward until the mean create-to-end passes
 * 1 ms, a fixed warm-up and measurement window per run, each run repeated. Servers run their pause recorders and
 * expose them over JMX on loopback; the probes read them at the end of every run. Output: every run directory, the
 * probe report over all of them ({@code report.html}, {@code report.txt}, {@code summary.csv}) and {@code report.md}
 * with the two-server rows beside the published ones.
 * <p>
 * Two references measured in the same run put the pair's figures in proportion, with the same probes (two, as
 * for {@code two_server}) submitting through other {@link io.mdhub.orderprobe.probe.OrderTarget}s, started from the
 * bench jar: {@code tcp_floor}, the transport floor of this host — client to primary to backup and back over plain
 * blocking sockets, nothing stored ({@link TcpFloorServer}); and {@code hazelcast}, what a user might pick instead —
 * two embedded Hazelcast members holding the orders in a map with one synchronous backup, each probe a Hazelcast
 * client ({@link HazelcastMember}, {@link HazelcastTarget}).
 * <p>
 * Every run also accounts for the CPU of every process of the configuration ({@link RunCpu}): sampled as its
 * measured window starts and just before it ends, divided by the orders created in between; printed with the run,
 * in {@code report.md}, in {@code cpu.csv} beside each run's probe directories and in {@code cpu.csv} under
 * {@code --out} for all runs.
 */
@Command(
    name = "mdhub bench orders",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "The published order latency procedure (GemCache with the STAC Order Probe) on this host: " +
        "configurations, one probe per server, a sweep of total rates, warm-up and measurement per run, repeats; " +
        "GC pauses of every process traced; report with charts.")
public final class OrdersBench implements Callable<Integer>
{
    private static final long MEAN_LIMIT_US = 1000;
    private static final String TCP_FLOOR = "tcp_floor";
    private static final String HAZELCAST = "hazelcast";
    private static final String PROBE_ONLY = "probe_only";
    /** The references run two servers and two probes, as two_server. */
    private static final int REFERENCE_SERVERS = 2;
    private static final String LOOPBACK = "127.0.0.1";
    private static final long SERVER_READY_SECONDS = 120;
    /** How long a probe may take to print its window: its publishers' readiness (30 s) and the JVM's start. */
    private static final long WINDOW_WAIT_SECONDS = 120;
    /** The second CPU sample is taken this long before the window ends, at most, while every process still runs. */
    private static final long SAMPLE_BEFORE_END_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final Pattern WINDOW = Pattern.compile(Pattern.quote(ProbeMain.MEASURING) + "(\\d+) to (\\d+)");
    /** Hazelcast's phone-home off, as it reads it from the environment; its configuration turns it off too. */
    private static final Map<String, String> HAZELCAST_ENV = Map.of("HZ_PHONE_HOME_ENABLED", "false");
    /** The same as a system property, for the members and the probes' clients. */
    private static final String HAZELCAST_NO_PHONE_HOME = "-Dhazelcast.phone.home.enabled=false";
    /** Besides the jar's module flags: what a Hazelcast member reads its process and OS metrics through. */
    private static final List<String> HAZELCAST_MEMBER_OPENS = List.of(
        "--add-opens=java.management/sun.management=ALL-UNNAMED",
        "--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED");
    private static final int PARTITIONS = 4;

    @Option(names = "--configurations", split = ",", paramLabel = "NAME,...",
        description = "one_server, two_server, four_server, six_server; tcp_floor: client to primary " +
            "to backup and back over plain blocking sockets, nothing stored, the transport floor of this host; " +
            "hazelcast: two Hazelcast members, the orders in a map with a synchronous backup; " +
            "probe_only: the probes alone, every order acknowledged as it is submitted, no server " +
            "(default ${DEFAULT-VALUE}).")
    List<String> configurations = new ArrayList<>(List.of("one_server", "two_server", "four_server", "six_server"));

    @Option(names = "--rates", split = ",", paramLabel = "N,...",
        description = "Total orders/s of all probes together (default ${DEFAULT-VALUE}).")
    List<Long> rates = new ArrayList<>(List.of(200L, 500L, 1000L, 2000L, 4000L, 6000L, 8000L, 10000L, 12000L));

    @Option(names = "--extend-step", paramLabel = "N",
        description = "After the listed rates, go on in steps of N orders/s until the mean passes 1 ms " +
            "(0 = no; default ${DEFAULT-VALUE}).")
    long extendStep = 4000;

    @Option(names = "--max-rate", paramLabel = "N",
        description = "Highest total rate tried (default ${DEFAULT-VALUE}).")
    long maxRate = 60_000;

    @Option(names = "--warmup", paramLabel = "S", description = "Warm-up seconds per run (default ${DEFAULT-VALUE}).")
    long warmupSeconds = 30;

    @Option(names = "--duration", paramLabel = "S",
        description = "Measured seconds per run (default ${DEFAULT-VALUE}).")
    long durationSeconds = 60;

    @Option(names = "--repeat", paramLabel = "N", description = "Runs per rate (default ${DEFAULT-VALUE}).")
    int repeat = 2;

    @Option(names = "--interleave", description = "Take the configurations in turn at each rate and repeat, each " +
        "started afresh for its one run, so that the runs compared are minutes apart, not a configuration's whole " +
        "sweep; past the listed rates only those still within 1 ms go on.")
    boolean interleave;

    @Option(names = "--publishers", paramLabel = "N", description = "Publishing threads per probe " +
        "(default ${DEFAULT-VALUE}).")
    int publishers = 4;

    @Option(names = "--probe-idle", paramLabel = "STRATEGY",
        description = "How a probe publisher waits for an order to send: handoff (parked until the creation " +
            "thread hands it one) or an idle strategy to poll with (default ${DEFAULT-VALUE}).")
    String probeIdle = "handoff";

    @Option(names = "--creation-timer-slack-ns", paramLabel = "NS",
        description = "Timer slack of each probe's creation thread (default ${DEFAULT-VALUE}; 0 keeps the " +
            "inherited 50 us, and orders are then created late by it).")
    long creationTimerSlackNs = OrderProbe.DEFAULT_CREATION_TIMER_SLACK_NS;

    @Option(names = "--spike-us", paramLabel = "US", description = "Spike threshold of the report " +
        "(default ${DEFAULT-VALUE}).")
    long spikeUs = 1000;

    @Option(names = "--server-jvm-opts", paramLabel = "OPTS",
        description = "JVM options of the order servers (default ${DEFAULT-VALUE}); unless they set " +
        "mdhub.order.expected.orders, the servers are sized for the orders of the whole sweep.")
    // not pre-touched: an order server allocates nothing per order, so a pre-touched heap stays cold, and a host
    // that reclaims cold memory (DAMON) spends whole milliseconds of a CPU at a time on it (operations.md)
    String serverJvmOpts = "-Xms256m -Xmx1g -XX:+UseParallelGC";

    @Option(names = "--probe-jvm-opts", paramLabel = "OPTS",
        description = "JVM options of the probes (default ${DEFAULT-VALUE}).")
    String probeJvmOpts = "-Xms512m -Xmx512m -XX:+UseParallelGC";

    @Option(names = "--out", paramLabel = "DIR", description = "Report directory (default target/bench-orders-<time>).")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Each run's CPU accounting, by run label. */
    private final Map<String, RunCpu> cpuByRun = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter console = spec.commandLine().getOut();
        final Path root = LatencyBench.checkoutRoot();
        final Path dir = BenchProcesses.reportDir(root, out, "orders");
        // every name checked before the first run, not after hours of earlier configurations
        final int[] servers = configurations.stream().mapToInt(this::serversOf).toArray();
        Files.createDirectories(dir);
        final List<ProbeRun> runs = new ArrayList<>();
        int failures = 0;
        if (interleave)
        {
            failures += runInterleaved(servers, root, dir, runs, console);
        }
        else
        {
            for (int c = 0; c < servers.length; c++)
            {
                final String configuration = configurations.get(c);
                failures += runConfiguration(configuration, servers[c], root, dir.resolve(configuration), runs,
                    console);
            }
        }
        final Path reportDir = dir.resolve("report");
        final List<RunGroup> groups = RunGroup.group(runs, spikeUs * 1000);
        console.print(ProbeReport.write(groups, reportDir));
        final String ratios = FloorRatios.of(groups, cpuByRun).describe();
        console.print(ratios);
        writeMarkdown(dir, groups, ratios);
        writeCpuCsv(dir);
        console.printf("bench orders: %d run(s), report %s and %s%n", groups.size(), reportDir.resolve("report.html"),
            dir.resolve("report.md"));
        console.flush();
        return 0 == failures && !runs.isEmpty() ? 0 : 1;
    }

    /**
     * Orders one server will hold by the end of the listed rates and one extension step: a server keeps every order
     * of its pair (as primary or backup) for as long as it lives, and the servers live through the sweep. Sized for
     * them at start, no partition's table of sequence position blocks is copied to a larger one inside a run.
     *
     * @return the value for {@code mdhub.order.expected.orders}: 10 % over the sweep, at least the default, at
     * most the largest a server takes.
     */
    static long expectedOrdersPerServer(
        final List<Long> rates, final int servers, final long extendStep, final long secondsPerRun, final int repeat)
    {
        final int pairs = Math.max(1, servers / 2);
        long total = 0;
        long highest = 0;
        for (final long rate : rates)
        {
            total += rate;
            highest = Math.max(highest, rate);
        }
        if (extendStep > 0)
        {
            total += highest + extendStep;
        }
        final long orders = (long)(1.1 * total / pairs * secondsPerRun * repeat);
        return Math.min(OrderServiceConfiguration.EXPECTED_ORDERS_MAX,
            Math.max(OrderServiceConfiguration.EXPECTED_ORDERS_DEFAULT, orders));
    }

    private long sweepOrdersPerServer(final int servers)
    {
        return expectedOrdersPerServer(rates, servers, extendStep, warmupSeconds + durationSeconds, repeat);
    }

    private boolean isSizedByUser()
    {
        return serverJvmOpts.contains(OrderServiceConfiguration.EXPECTED_ORDERS_PROP_NAME);
    }

    private int serversOf(final String configuration)
    {
        switch (configuration)
        {
            case "one_server":
                return 1;
            case "two_server":
                return 2;
            case "four_server":
                return 4;
            case "six_server":
                return 6;
            case TCP_FLOOR:
            case HAZELCAST:
            case PROBE_ONLY:
                return REFERENCE_SERVERS;
            default:
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown configuration: " +
                    configuration + " (one_server, two_server, four_server, six_server, " +
                    TCP_FLOOR + ", " + HAZELCAST + ", " + PROBE_ONLY + ")");
        }
    }

    private int runConfiguration(
        final String configuration,
        final int servers,
        final Path root,
        final Path dir,
        final List<ProbeRun> runs,
        final PrintWriter console) throws Exception
    {
        Files.createDirectories(dir);
        int failures = 0;
        try (BenchProcesses processes = new BenchProcesses(root, dir, List.of()))
        {
            final Deployment deployment = deploy(configuration, servers, processes, console);
            final List<Long> sweep = new ArrayList<>(rates);
            for (int i = 0; i < sweep.size(); i++)
            {
                final long total = sweep.get(i);
                double meanUs = 0;
                for (int run = 1; run <= repeat; run++)
                {
                    final RunOutcome outcome =
                        runOnce(processes, deployment, configuration, dir, total, run, runs, console);
                    failures += outcome.failures();
                    meanUs = Math.max(meanUs, outcome.meanUs());
                    deployment.betweenRuns.run();
                }
                if (i == sweep.size() - 1 && extendStep > 0 && meanUs <= MEAN_LIMIT_US && total + extendStep <= maxRate)
                {
                    sweep.add(total + extendStep); // onward until the mean passes 1 ms, as published
                }
            }
        }
        return failures;
    }

    /**
     * Every rate and repeat runs each configuration in turn, each deployed afresh for that one run and stopped after
     * it: a drift of the host over the sweep (another tenant, the memory reclaimer) then falls on every
     * configuration of a repeat alike. Past the listed rates, only the configurations still within 1 ms go on.
     */
    private int runInterleaved(
        final int[] servers, final Path root, final Path dir, final List<ProbeRun> runs, final PrintWriter console)
        throws Exception
    {
        int failures = 0;
        final List<Long> sweep = new ArrayList<>(rates);
        final List<String> active = new ArrayList<>(configurations);
        for (int i = 0; i < sweep.size() && !active.isEmpty(); i++)
        {
            final long total = sweep.get(i);
            final Map<String, Double> meanUs = new LinkedHashMap<>();
            for (int run = 1; run <= repeat; run++)
            {
                for (final String configuration : active)
                {
                    final Path configurationDir = dir.resolve(configuration);
                    final Path logs =
                        Files.createDirectories(configurationDir.resolve("processes-" + total + "-" + run));
                    try (BenchProcesses processes = new BenchProcesses(root, logs, List.of()))
                    {
                        final Deployment deployment = deploy(
                            configuration, servers[configurations.indexOf(configuration)], processes, console);
                        final RunOutcome outcome = runOnce(
                            processes, deployment, configuration, configurationDir, total, run, runs, console);
                        failures += outcome.failures();
                        meanUs.merge(configuration, outcome.meanUs(), Math::max);
                        deployment.betweenRuns.run();
                    }
                }
            }
            if (i == sweep.size() - 1 && extendStep > 0 && total + extendStep <= maxRate)
            {
                active.removeIf((name) -> meanUs.getOrDefault(name, Double.MAX_VALUE) > MEAN_LIMIT_US);
                if (!active.isEmpty())
                {
                    sweep.add(total + extendStep);
                }
            }
        }
        return failures;
    }

    private Deployment deploy(
        final String configuration, final int servers, final BenchProcesses processes, final PrintWriter console)
        throws IOException
    {
        final Deployment deployment = TCP_FLOOR.equals(configuration) ? deployTcpFloor(processes) :
            HAZELCAST.equals(configuration) ? deployHazelcast(processes) :
            PROBE_ONLY.equals(configuration) ? deployProbeOnly() :
            deployOrderServers(processes, configuration, servers);
        console.printf("bench orders: %s up (%s); probes: %d, %d publishers each%n", configuration,
            deployment.description, deployment.probes, publishers);
        console.flush();
        return deployment;
    }

    /**
     * What one run of one configuration at one rate came to.
     *
     * @param failures 1 if a probe made no run, else 0.
     * @param meanUs   the create-to-end mean of its probes' runs together (0 when none made one).
     */
    private record RunOutcome(int failures, double meanUs)
    {
    }

    /**
     * One run of one configuration at one rate: its probes' runs join {@code runs}.
     */
    private RunOutcome runOnce(
        final BenchProcesses processes,
        final Deployment deployment,
        final String configuration,
        final Path dir,
        final long total,
        final int run,
        final List<ProbeRun> runs,
        final PrintWriter console) throws Exception
    {
        final String label = configuration + " " + total + "/s run " + run;
        final List<ProbeRun> made = runProbes(processes, deployment, dir, label, total, run, console);
        runs.addAll(made);
        double meanUs = 0;
        if (!made.isEmpty())
        {
            final LatencyStats stats = RunGroup.group(made, spikeUs * 1000).get(0).createToEnd();
            meanUs = stats.meanUs();
            final RunCpu cpu = cpuByRun.get(label);
            console.printf(Locale.ROOT, "bench orders: %s %6d/s run %d: create-to-end mean %8.1f us " +
                "median %8.1f us p95 %9.1f us max %10.1f us (%d orders); %s%n", configuration, total, run,
                stats.meanUs(), stats.medianUs(), stats.p95Us(), stats.maxUs(), stats.count(),
                null == cpu ? "cpu not accounted" : cpu.describe());
            console.flush();
        }
        return new RunOutcome(made.size() == deployment.probes ? 0 : 1, meanUs);
    }

    /**
     * The MDHub configurations: the order servers (no backbone: clients, peers and fences speak TCP).
     */
    private Deployment deployOrderServers(final BenchProcesses processes, final String configuration, final int servers)
        throws IOException
    {
        final int slots = Math.max(2, servers);
        final int[] ingress = new int[slots];
        final int[] peer = new int[slots];
        final int[] fence = new int[slots];
        final int[] jmx = new int[slots];
        for (int s = 0; s < slots; s++)
        {
            ingress[s] = LocalPorts.unused();
            peer[s] = LocalPorts.unused();
            fence[s] = LocalPorts.unused();
            jmx[s] = LocalPorts.unused();
        }
        final StringBuilder clientServers = new StringBuilder();
        final List<String> serverJmx = new ArrayList<>();
        for (int s = 0; s < slots; s++)
        {
            clientServers.append(0 == s ? "" : ",").append(LOOPBACK).append(':').append(ingress[s]);
            if (s < servers)
            {
                serverJmx.add(LOOPBACK + ":" + jmx[s]);
            }
        }
        final Deployment deployment = new Deployment(servers, BenchProcesses.ORDER_PROBE_JAR);
        for (int s = 0; s < servers; s++)
        {
            deployment.servers.add(startServer(processes, s, servers, ingress, peer, fence, jmx));
        }
        for (final BenchProcess server : deployment.servers)
        {
            server.awaitLine("mdhub-p2p ready", SERVER_READY_SECONDS);
        }
        for (int s = 1; s < servers; s += 2)
        {
            deployment.servers.get(s).awaitLine("(handed over", SERVER_READY_SECONDS); // each pair has settled
        }
        deployment.targetArgs = (p) -> List.of("--servers", clientServers.toString(),
            "--server-jmx", String.join(",", serverJmx));
        deployment.description = String.format(Locale.ROOT, "%d server(s), each sized for %s orders", servers,
            isSizedByUser() ? "the --server-jvm-opts' " : String.format(Locale.ROOT, "%,d",
            sweepOrdersPerServer(servers)));
        return deployment;
    }

    /**
     * The TCP floor: its backup, then its primary, the probes' {@code tcp-floor} target to the primary.
     */
    private Deployment deployTcpFloor(final BenchProcesses processes) throws IOException
    {
        final int backupPort = LocalPorts.unused();
        final int primaryPort = LocalPorts.unused();
        final Deployment deployment = new Deployment(REFERENCE_SERVERS, BenchProcesses.BENCH_JAR);
        final BenchProcess backup = processes.start("tcp-floor-backup", BenchProcesses.BENCH_JAR,
            split(serverJvmOpts), "tcp-floor-server", "--role", "backup", "--host", LOOPBACK,
            "--port", Integer.toString(backupPort));
        backup.awaitLine(TcpFloorServer.READY, SERVER_READY_SECONDS);
        final BenchProcess primary = processes.start("tcp-floor-primary", BenchProcesses.BENCH_JAR,
            split(serverJvmOpts), "tcp-floor-server", "--role", "primary", "--host", LOOPBACK,
            "--port", Integer.toString(primaryPort), "--backup", LOOPBACK + ":" + backupPort);
        primary.awaitLine(TcpFloorServer.READY, SERVER_READY_SECONDS);
        deployment.servers.addAll(List.of(primary, backup));
        deployment.targetArgs = (p) -> List.of("--target", TcpFloorTarget.NAME,
            "--target-option", TcpFloorTarget.PRIMARY + "=" + LOOPBACK + ":" + primaryPort);
        deployment.description = "primary and backup, blocking sockets, every publisher its own connection";
        return deployment;
    }

    /**
     * The probes alone, as many as the references run, each order acknowledged as submitted: the probe's own cost.
     */
    private static Deployment deployProbeOnly()
    {
        final Deployment deployment = new Deployment(REFERENCE_SERVERS, BenchProcesses.BENCH_JAR);
        deployment.targetArgs = (p) -> List.of("--target", ProbeOnlyTarget.NAME);
        deployment.description = "no server: every order acknowledged on its publisher's thread as it is submitted";
        return deployment;
    }

    /**
     * The Hazelcast pair: two members, the probes' {@code hazelcast} target (a client per probe) to both; the map is
     * emptied between runs, so a long sweep fits the members' heaps.
     */
    private Deployment deployHazelcast(final BenchProcesses processes) throws IOException
    {
        final int[] ports = {LocalPorts.unused(), LocalPorts.unused()};
        final String clusterName = HazelcastMember.CLUSTER_NAME_DEFAULT + "-" + ProcessHandle.current().pid();
        final Deployment deployment = new Deployment(REFERENCE_SERVERS, BenchProcesses.BENCH_JAR);
        final List<String> opts = new ArrayList<>(split(serverJvmOpts));
        opts.add(HAZELCAST_NO_PHONE_HOME);
        opts.addAll(HAZELCAST_MEMBER_OPENS);
        for (int m = 0; m < ports.length; m++)
        {
            deployment.servers.add(processes.start("hazelcast-member-" + m, BenchProcesses.BENCH_JAR, opts,
                HAZELCAST_ENV, "hazelcast-member", "--port", Integer.toString(ports[m]),
                "--members", ports[0] + "," + ports[1], "--cluster-name", clusterName));
        }
        for (final BenchProcess member : deployment.servers)
        {
            member.awaitLine(HazelcastMember.READY, SERVER_READY_SECONDS);
        }
        deployment.probeJvmOpts.add(HAZELCAST_NO_PHONE_HOME);
        deployment.probeEnv.putAll(HAZELCAST_ENV);
        deployment.targetArgs = (p) -> List.of("--target", HazelcastTarget.NAME,
            "--target-option", HazelcastTarget.MEMBERS + "=" + LOOPBACK + ":" + ports[0] + "," + LOOPBACK + ":" +
            ports[1],
            "--target-option", HazelcastTarget.CLUSTER + "=" + clusterName);
        final BenchProcess first = deployment.servers.get(0);
        final int[] clears = {0};
        deployment.betweenRuns = () ->
        {
            clears[0]++;
            first.send("clear " + clears[0]);
            first.awaitLine(HazelcastMember.CLEARED + " " + clears[0] + ":", SERVER_READY_SECONDS);
        };
        deployment.description = "2 members, map '" + HazelcastMember.MAP + "' with 1 synchronous backup, a client " +
            "per probe";
        return deployment;
    }

    private BenchProcess startServer(
        final BenchProcesses processes,
        final int s,
        final int servers,
        final int[] ingress,
        final int[] peer,
        final int[] fence,
        final int[] jmx)
    {
        final int id = s % 2;
        final int mate = s - id + (1 - id);
        final List<String> opts = new ArrayList<>(split(serverJvmOpts));
        if (!isSizedByUser())
        {
            opts.add("-D" + OrderServiceConfiguration.EXPECTED_ORDERS_PROP_NAME + "=" +
                sweepOrdersPerServer(servers));
        }
        opts.addAll(List.of(
            "-Dmdhub.order.enabled=true",
            "-Dmdhub.p2p.market.data.enabled=false",
            "-Dmdhub.order.server.id=" + id,
            "-Dmdhub.order.partitions=" + PARTITIONS,
            "-Dmdhub.order.address=" + LOOPBACK + ":" + ingress[s],
            "-Dmdhub.order.peer.address=" + LOOPBACK + ":" + peer[s],
            "-Dmdhub.order.peer.remote.address=" + LOOPBACK + ":" + peer[mate],
            "-Dmdhub.order.fence.address=localhost:" + fence[s],
            "-Dmdhub.order.peer.fence.address=localhost:" + fence[mate],
            "-Dmdhub.order.queue.dir=" + processes.memoryDir("queue-" + s),
            "-Dmdhub.p2p.component.name=order-server-" + s,
            "-Dcom.sun.management.jmxremote.port=" + jmx[s],
            "-Dcom.sun.management.jmxremote.rmi.port=" + jmx[s],
            "-Dcom.sun.management.jmxremote.host=127.0.0.1",
            "-Djava.rmi.server.hostname=127.0.0.1",
            "-Dcom.sun.management.jmxremote.authenticate=false",
            "-Dcom.sun.management.jmxremote.ssl=false"));
        if (1 == servers)
        {
            // no replication: the server never has a peer and serves every partition alone from the start
            opts.addAll(List.of("-Dmdhub.order.startup.peer.wait=0ms", "-Dmdhub.order.startup.force.alone=true"));
        }
        return processes.start("order-server-" + s, BenchProcesses.P2P_JAR, opts);
    }

    private List<ProbeRun> runProbes(
        final BenchProcesses processes,
        final Deployment deployment,
        final Path dir,
        final String label,
        final long total,
        final int run,
        final PrintWriter console) throws Exception
    {
        final Map<String, BenchProcess> probes = new LinkedHashMap<>();
        final Map<String, Path> outs = new LinkedHashMap<>();
        final Path runsDir = dir.resolve("runs").resolve(total + "-" + run);
        final String configuration = label.substring(0, label.indexOf(' '));
        for (int p = 0; p < deployment.probes; p++)
        {
            final String id = String.valueOf((char)('A' + p));
            final Path runDir = runsDir.resolve(id);
            outs.put(id, runDir);
            final List<String> args = new ArrayList<>(List.of("probe",
                "--rate", Long.toString(Math.max(1, total / deployment.probes)),
                "--total-rate", Long.toString(total),
                "--warmup", Long.toString(warmupSeconds),
                "--duration", Long.toString(durationSeconds),
                "--publishers", Integer.toString(publishers),
                "--probe-id", id,
                "--configuration", configuration,
                "--label", label,
                "--client-id-base", Long.toString(1_000_000L * (run * 100L + p + 1) + total),
                "--idle", probeIdle,
                "--creation-timer-slack-ns", Long.toString(creationTimerSlackNs),
                "--spike-us", Long.toString(spikeUs),
                "--out", runDir.toString()));
            args.addAll(deployment.targetArgs.apply(p));
            final List<String> opts = new ArrayList<>(split(probeJvmOpts));
            opts.addAll(deployment.probeJvmOpts);
            probes.put(id, processes.start("probe-" + id + "-" + total + "-" + run, deployment.probeJar, opts,
                deployment.probeEnv, args.toArray(new String[0])));
        }
        final RunCpu.Window window = sampleWindow(deployment, probes, console);
        final List<ProbeRun> made = new ArrayList<>();
        for (final Map.Entry<String, BenchProcess> probe : probes.entrySet())
        {
            if (!probe.getValue().awaitExit(warmupSeconds + durationSeconds + 180))
            {
                continue;
            }
            final Path runDir = outs.get(probe.getKey());
            if (Files.exists(runDir.resolve(ProbeRun.PROPERTIES_FILE)))
            {
                made.add(ProbeRun.load(runDir));
            }
        }
        if (null != window && !made.isEmpty())
        {
            final long[] counts = ordersInWindow(made, window.startEpochNs(), window.endEpochNs());
            final RunCpu cpu = window.account(counts[0], counts[1]);
            cpu.writeCsv(runsDir.resolve("cpu.csv"), label);
            cpuByRun.put(label, cpu);
        }
        return made;
    }

    /**
     * Wait for every probe's measured window, then sample every process of the run as the window starts (the last
     * probe's start) and again just before it ends (the first probe's end).
     *
     * @return the sampled window, or null when a probe never said its window (it failed: its run is reported so).
     */
    private RunCpu.Window sampleWindow(
        final Deployment deployment, final Map<String, BenchProcess> probes, final PrintWriter console)
    {
        long startEpochNs = Long.MIN_VALUE;
        long endEpochNs = Long.MAX_VALUE;
        final List<RunCpu.Watched> watched = new ArrayList<>();
        for (final BenchProcess server : deployment.servers)
        {
            watched.add(new RunCpu.Watched(RunCpu.Role.SERVER, server.name(), server.pid()));
        }
        for (final BenchProcess probe : probes.values())
        {
            try
            {
                final Matcher window = probe.awaitMatch(WINDOW, WINDOW_WAIT_SECONDS);
                startEpochNs = Math.max(startEpochNs, Long.parseLong(window.group(1)));
                endEpochNs = Math.min(endEpochNs, Long.parseLong(window.group(2)));
            }
            catch (final IllegalStateException ex)
            {
                console.printf("bench orders: no CPU accounting for this run: %s%n", ex.getMessage());
                console.flush();
                return null;
            }
            watched.add(new RunCpu.Watched(RunCpu.Role.PROBE, probe.name(), probe.pid()));
        }
        sleepUntilEpochNs(startEpochNs);
        final RunCpu.Window window = RunCpu.Window.start(watched);
        sleepUntilEpochNs(endEpochNs - Math.min(SAMPLE_BEFORE_END_NS, (endEpochNs - startEpochNs) / 10));
        window.end();
        return window;
    }

    /**
     * @return {orders created in the window, of these the ones answered in it}.
     */
    private static long[] ordersInWindow(final List<ProbeRun> runs, final long fromEpochNs, final long toEpochNs)
    {
        long created = 0;
        long answered = 0;
        for (final ProbeRun run : runs)
        {
            final long[] create = run.createEpochNs();
            final long[] end = run.endEpochNs();
            for (int i = 0; i < create.length; i++)
            {
                if (create[i] >= fromEpochNs && create[i] < toEpochNs)
                {
                    created++;
                    answered += end[i] < toEpochNs ? 1 : 0;
                }
            }
        }
        return new long[] {created, answered};
    }

    private static void sleepUntilEpochNs(final long epochNs)
    {
        long waitNs;
        while ((waitNs = epochNs - epochNowNs()) > 0)
        {
            LockSupport.parkNanos(waitNs);
        }
    }

    private static long epochNowNs()
    {
        final java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private static List<String> split(final String opts)
    {
        return opts.isBlank() ? List.of() : Arrays.asList(opts.trim().split("\\s+"));
    }

    private void writeMarkdown(final Path dir, final List<RunGroup> groups, final String ratios) throws IOException
    {
        final Map<Long, double[]> published = new LinkedHashMap<>();
        published.put(200L, new double[] {285, 245, 331, 389});
        published.put(500L, new double[] {283, 244, 295, 319});
        published.put(1000L, new double[] {318, 248, 294, 318});
        published.put(2000L, new double[] {410, 256, 314, 353});
        published.put(4000L, new double[] {720, 276, 432, 796});
        published.put(6000L, new double[] {987, 281, 711, 5986});
        published.put(8000L, new double[] {1550, 300, 3188, 11110});
        published.put(10000L, new double[] {2799, 325, 9786, 15485});
        published.put(12000L, new double[] {4435, 390, 15190, 19706});
        final StringBuilder md = new StringBuilder("# bench orders\n\nMachine: ").append(LatencyBench.machine())
            .append("\n\ncreate-to-end, µs. Published two_server rows from `shared/reference/gemcache_orders.csv`. ")
            .append("CPU, context switches and threads of every process of the run over its measured window ")
            .append("(servers and probes), per order created in it; ")
            .append("\"").append(RunCpu.BEHIND_MARK.strip()).append("\": the configuration fell behind the rate, ")
            .append("fewer than ").append(RunCpu.KEPT_UP_PERCENT).append(" % of those orders were answered in the ")
            .append("window, and the figures are not its cost per order.\n\n")
            .append("| run | orders | mean | median | p90 | p95 | p99 | max | spikes (unexplained) | ")
            .append(RunCpu.MARKDOWN_HEADER).append(" | published mean | published p95 |\n")
            .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
        for (final RunGroup group : groups)
        {
            final LatencyStats s = group.createToEnd();
            final double[] ref = "two_server".equals(group.configuration()) ? published.get(group.totalRate()) : null;
            final long unexplained = group.episodes().stream().filter((e) -> e.isUnexplained()).count();
            final RunCpu cpu = cpuByRun.get(group.label());
            md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %d (%d) | %s " +
                "| %s | %s |%n", group.label(), s.count(), s.meanUs(), s.medianUs(), s.p90Us(), s.p95Us(), s.p99Us(),
                s.maxUs(), group.episodes().size(), unexplained,
                null == cpu ? RunCpu.MARKDOWN_EMPTY : cpu.markdownCells(),
                null == ref ? "" : String.format("%.0f", ref[0]), null == ref ? "" : String.format("%.0f", ref[3])));
        }
        md.append('\n').append(ratios);
        Files.writeString(dir.resolve("report.md"), md, StandardCharsets.UTF_8);
    }

    /**
     * Every run's accounting for all its processes, a line per run: {@code cpu.csv} under the report directory.
     */
    private void writeCpuCsv(final Path dir) throws IOException
    {
        final StringBuilder csv = new StringBuilder("run,orders,answered,behind,cpu_us_per_order," +
            "servers_cpu_us_per_order,probes_cpu_us_per_order,cores,switches_per_order," +
            "threads\n");
        for (final Map.Entry<String, RunCpu> run : cpuByRun.entrySet())
        {
            final RunCpu cpu = run.getValue();
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%b,%.3f,%.3f,%.3f,%.3f,%.3f,%s%n", run.getKey(),
                cpu.orders(), cpu.answered(), cpu.isBehind(), cpu.cpuUsPerOrder(),
                cpu.cpuUsPerOrder(RunCpu.Role.SERVER), cpu.cpuUsPerOrder(RunCpu.Role.PROBE), cpu.cores(),
                cpu.switchesPerOrder(), cpu.threads()));
        }
        Files.writeString(dir.resolve("cpu.csv"), csv, StandardCharsets.UTF_8);
    }

    /**
     * What one configuration runs: its server processes, and how its probes
     * are started and told where to submit.
     */
    private static final class Deployment
    {
        final int probes;
        final String probeJar;
        final List<BenchProcess> servers = new ArrayList<>();
        final List<String> probeJvmOpts = new ArrayList<>();
        final Map<String, String> probeEnv = new LinkedHashMap<>();
        IntFunction<List<String>> targetArgs;
        Runnable betweenRuns = () -> {};
        String description;

        Deployment(final int probes, final String probeJar)
        {
            this.probes = probes;
            this.probeJar = probeJar;
        }
    }
}
