package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.mdhub.benchmarks.peers.PeerSystem;
import io.mdhub.common.config.LauncherJvmOptions;
import io.mdhub.common.net.LocalPorts;
import io.mdhub.common.ripc.RipcContext;
import io.mdhub.distributor.Distributor;
import io.mdhub.p2p.P2pServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub bench latency}: the published RMDS latency test on this machine (METHODOLOGY.md). Separate JVMs
 * for the backbone daemon, the interactive source, a distributor mounting it with its cache off, a p2p-server with
 * its cache off, and the test client with a 100,000-item watchlist; for each update rate the source is told the new
 * rate under one client holding the whole watchlist, the first seconds at the new rate are discarded (steady state)
 * and the rest measured from the client's interval histograms ({@code client.hlog});
 * the sweep stops at the first rate not sustained (loss, a failure, or under 95 % of the rate received).
 */
@Command(
    name = "mdhub bench latency",
    mixinStandardHelpOptions = true,
    version = "mdhub bench latency (MDHub)",
    description = "End-to-end latency sweep through source, distributor, backbone, p2p-server and client " +
        "(separate processes, caching off), reported beside the published RMDS curves.")
public final class LatencyBench implements Callable<Integer>
{
    private static final String DEFAULT_RATES =
        "1000,5000,10000,20000,30000,40000,50000,60000,70000,80000,90000,100000,150000,200000,250000,300000";
    /** Past the default rates, the sweep goes on in these steps up to the highest rate sustained... */
    private static final long OPEN_ENDED_STEP = 50_000;
    /** ...but no further than the published HS22 curve went. */
    private static final long OPEN_ENDED_LIMIT = 1_500_000;
    private static final int FLOOR_ROUND_TRIPS = 2_000;
    private static final long FLOOR_GAP_NS = 1_000_000L;
    private static final int MAX_FIFO_PRIORITY = 99;
    /**
     * Thread names (their starts, as the kernel keeps them: 15 characters) of the event loops that wake for every
     * update, per process, as the components name them.
     */
    private static final String SOURCE_EVENT_LOOP = RipcContext.EVENT_LOOP_THREAD_PREFIX;
    private static final String DISTRIBUTOR_EVENT_LOOP = Distributor.EVENT_LOOP_THREAD_PREFIX;
    private static final String CLIENT_EVENT_LOOP = RipcContext.EVENT_LOOP_THREAD_PREFIX;
    private static final String P2P_WORKER = P2pServer.WORKER_THREAD_PREFIX;
    /**
     * Aeron's name of the media driver's one agent thread in SHARED threading mode (the backbone daemon's default;
     * "[sender,receiver,driver-conductor]" cut to 15 characters). The servers' Aeron clients have no conductor
     * thread: their backbone loops run it.
     */
    private static final String DRIVER_AGENT = "[sender,receive";
    /**
     * The source's rate while the watchlist opens (or the first rate, if lower): 100,000 refreshes on top of a high
     * first rate kept two vCPUs so busy that the distributor fell silent and the start-up turned into rounds of
     * recovery; each step sets its own rate anyway.
     */
    private static final long OPENING_RATE = 1_000;
    /** Where the climb to a high first rate starts (see {@link #climbTo}), doubling... */
    private static final long CLIMB_START_RATE = 100_000;
    /** ...for this long each. */
    private static final int CLIMB_STEP_SECONDS = 3;

    @Option(names = "--items", description = "Watchlist size (default ${DEFAULT-VALUE}).")
    int items = 100_000;

    @Option(names = "--rates", split = ",", description = "Update rates to step through (default: 1k, 5k, 10k, " +
        "20k ... 100k, then 50k steps on until one is not sustained, at most 1.5M; given rates end the sweep at " +
        "the last of them or the first one not sustained; a first rate above 100k is climbed to through unmeasured " +
        "3 s steps that double from 100k).")
    long[] rates = Arrays.stream(DEFAULT_RATES.split(",")).mapToLong(Long::parseLong).toArray();

    @Option(names = "--step-seconds", description = "Measured seconds per rate (default ${DEFAULT-VALUE}).")
    int stepSeconds = 30;

    @Option(names = "--warmup-seconds", description = "Seconds discarded at each rate (default ${DEFAULT-VALUE}).")
    int warmupSeconds = 10;

    @Option(names = "--timestamp-every", description = "Every n-th update is timestamped (default ${DEFAULT-VALUE}: " +
        "a prime, so that the samples fall on every position of the source's bursts, one per tick " +
        "and a round number of updates each; every 10th update of bursts of 10 or 20 would always be the last of " +
        "one, the one that waits longest).")
    int timestampEvery = 11;

    @CommandLine.Mixin
    SourceTickOption sourceTick = new SourceTickOption();

    /**
     * The heap whole and touched from the start: a 100,000-item watchlist opens without a collection, where a 256 MB
     * initial heap collected twice while it opened (0.3-0.75 s young pauses copying the new items into heap pages
     * touched for the first time, long enough for the p2p-server to count the distributor silent).
     */
    @Option(names = "--jvm-opts", description = "JVM options for every process, space separated " +
        "(default ${DEFAULT-VALUE}).")
    String jvmOpts = "-Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:+UseParallelGC -XX:+UseTransparentHugePages";

    @Option(names = "--p2p-busy-poll", description = "The p2p-server worker's busy-polling idle strategy (yield, " +
        "spin, noop: a core spent on the worker), or off: the worker sleeps until the backbone's doorbell wakes it, " +
        "as the p2p-server does by default (default ${DEFAULT-VALUE}).")
    String p2pBusyPoll = "off";

    @Option(names = "--caches", description = "on: the distributor's route and the p2p-server keep item images, " +
        "as they do by default; off: both pass updates through without them, as the published RMDS tests ran " +
        "(default ${DEFAULT-VALUE}).")
    String caches = "on";

    @Option(names = "--peers", split = ",", paramLabel = "PEER", description = "Also run these pub/sub systems " +
        "through the same rates, items, update size, pacing and timestamps, after MDHub, each from its server " +
        "binary on the PATH (skipped with a line when absent): redis (redis-server, Jedis), nats (nats-server, " +
        "jnats); relay, relay2 (the floors of one and two tcp-relay processes); mdhub-eta (MDHub on its defaults " +
        "between an ETA non-interactive provider and an ETA consumer).")
    List<String> peers = new ArrayList<>();

    @Option(names = "--pin", description = "Pin the processes to CPUs (taskset): the p2p-server and the test client " +
        "on the last CPU, source, distributor and backbone on the others. On a small host the busy-polling worker " +
        "then hands each update to the client on its own core, not by waking another one (default ${DEFAULT-VALUE}).")
    boolean pin;

    @Option(names = "--realtime", paramLabel = "<priority>", description = "Run the event-driven threads of the " +
        "path (the distributor's and the client's event loops, and the backbone's driver agent) under the real-time " +
        "FIFO policy at this priority (chrt; 1-99, needs root or CAP_SYS_NICE), so a woken thread takes its CPU at " +
        "once from ordinary threads, the kernel's memory reclaim among them, and the source's event loop one " +
        "priority lower, so the load never holds a CPU the path needs (at 1: ordinary); 0 leaves every thread " +
        "ordinary (default ${DEFAULT-VALUE}). The busy-polling p2p-server worker always stays ordinary.")
    int realtimePriority;

    @Option(names = "--out", description = "Report directory (default target/bench-latency-<time>).")
    Path out;

    @Option(names = "--reference-dir", description = "Where the published CSVs are (default ../shared/reference " +
        "beside the checkout; the report omits them when absent).")
    Path referenceDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Pin the processes (see --pin).
     *
     * @return how they are placed, for the report.
     */
    private String pin(final BenchProcesses processes)
    {
        final int cpus = Runtime.getRuntime().availableProcessors();
        if (cpus < 2)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--pin needs at least 2 CPUs: " + cpus);
        }
        final String last = Integer.toString(cpus - 1);
        final String others = otherCpus();
        processes.pin("p2p", last).pin("client", last)
            .pin("source", others).pin("distributor", others).pin("backbone", others);
        return "p2p-server and client pinned to CPU " + last + ", the others to " + cpuList(others);
    }

    /**
     * With --pin, once the watchlist is open: only the p2p-server's worker and the client's event loop stay on the
     * last CPU; every other thread of those two JVMs joins the other processes.
     *
     * @return what was moved, for the report.
     */
    private String leaveTheHotThreadsAlone(final BenchProcess p2p, final BenchProcess client)
        throws IOException, InterruptedException
    {
        final String others = otherCpus();
        final int moved = BenchProcesses.moveAllBut(p2p, P2P_WORKER, others) +
            BenchProcesses.moveAllBut(client, CLIENT_EVENT_LOOP, others);
        return "once the watchlist was open, " + moved + " other threads of p2p-server and client moved to " +
            cpuList(others) + ", leaving the worker and the client's event loop alone";
    }

    private static String cpuList(final String cpus)
    {
        return (cpus.contains("-") ? "CPUs " : "CPU ") + cpus;
    }

    private static String otherCpus()
    {
        final int cpus = Runtime.getRuntime().availableProcessors();
        return 2 == cpus ? "0" : "0-" + (cpus - 2);
    }

    /**
     * Raise the path's event-driven threads (see --realtime); they exist once the watchlist is open. Besides the event
     * loops that handle every update, whatever they wait for goes too. The backbone's driver agent: it moves an IPC
     * publication's limit as its subscriber reads, so if FIFO event loops kept it off its CPU the distributor would be
     * back-pressured into silence (items Suspect, the route lost). The JVMs' VM and collector threads stay ordinary:
     * raised, they compete with the event loops for the same CPUs and make the median worse at low rates, and a
     * collector kept off its CPU by FIFO threads turns a young collection into seconds.
     * <p>
     * The source, the load, runs one priority below the path it loads, ordinary at priority 1. FIFO threads of one
     * priority never preempt each other, and at the same priority as the distributor on the same CPU the source
     * once ran 936 ms without a break (`perf sched timehist`, climbing to 1,000,000/s). The distributor waited for
     * its CPU all that time, the p2p-server counted it silent, and the recoveries repeated the stall three times.
     * One priority lower, the distributor takes the CPU as soon as the source's data wakes it.
     *
     * @return what was raised, for the report.
     */
    private String realtime(
        final BenchProcess backbone,
        final BenchProcess source,
        final BenchProcess distributor,
        final BenchProcess client) throws IOException, InterruptedException
    {
        final int eventLoops = BenchProcesses.realtime(distributor, DISTRIBUTOR_EVENT_LOOP, realtimePriority) +
            BenchProcesses.realtime(client, CLIENT_EVENT_LOOP, realtimePriority);
        final int driverAgents = BenchProcesses.realtime(backbone, DRIVER_AGENT, realtimePriority);
        final int sourcePriority = realtimePriority - 1;
        final String sourcePlace;
        if (sourcePriority > 0)
        {
            final int sourceLoops = BenchProcesses.realtime(source, SOURCE_EVENT_LOOP, sourcePriority);
            sourcePlace = "the source's event loop (" + sourceLoops + ") one below (" + sourcePriority + ")";
        }
        else
        {
            sourcePlace = "the source's event loop ordinary";
        }
        return "the event loops of distributor and client (" + eventLoops + " threads) and the backbone's driver " +
            "agent (" + driverAgents + ") under SCHED_FIFO " + realtimePriority + ", " + sourcePlace;
    }

    private String[] p2pArgs(final String aeronDir, final int consumerPort)
    {
        final List<String> args = new ArrayList<>(List.of("--aeron-dir", aeronDir,
            "--port", Integer.toString(consumerPort),
            "-D", "mdhub.p2p.max.items=" + Math.max(items, 100_000)));
        if (!isCaching())
        {
            args.addAll(List.of("-D", "mdhub.p2p.cache.enabled=false"));
        }
        if (!"off".equals(p2pBusyPoll))
        {
            args.addAll(List.of("-D", "mdhub.p2p.backbone.busy.poll=" + p2pBusyPoll, "-D", "mdhub.spin.cores=1"));
        }
        return args.toArray(new String[0]);
    }

    private void validateOptions()
    {
        if (realtimePriority < 0 || realtimePriority > MAX_FIFO_PRIORITY)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--realtime must be 0 (off) or a FIFO priority 1-" + MAX_FIFO_PRIORITY + ": " + realtimePriority);
        }
        sourceTick.checked(spec.commandLine());
        if (!"on".equals(caches) && !"off".equals(caches))
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--caches must be on or off: " + caches);
        }
        for (final String peer : peers)
        {
            try
            {
                PeerSystem.of(peer);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.ParameterException(spec.commandLine(), "--peers: " + ex.getMessage());
            }
        }
    }

    private boolean isCaching()
    {
        return "on".equals(caches);
    }

    /**
     * @return MDHub's name in the report, with what differs from its defaults.
     */
    private String mdhubLabel()
    {
        final List<String> changed = new ArrayList<>();
        if (!isCaching())
        {
            changed.add("caches off");
        }
        if (!"off".equals(p2pBusyPoll))
        {
            changed.add("busy poll " + p2pBusyPoll);
        }
        if (pin)
        {
            changed.add("pinned");
        }
        if (realtimePriority > 0)
        {
            changed.add("SCHED_FIFO");
        }
        return changed.isEmpty() ? "MDHub (defaults)" : "MDHub (" + String.join(", ", changed) + ")";
    }

    @Override
    public Integer call() throws Exception
    {
        validateOptions();
        final PrintWriter console = spec.commandLine().getOut();
        final Path root = checkoutRoot();
        final Path dir = BenchProcesses.reportDir(root, out, "latency");
        Files.createDirectories(dir);
        final List<String> jvm = BenchProcesses.jvmOptions(jvmOpts);
        final String floor = LoopbackFloor.measure(FLOOR_ROUND_TRIPS, FLOOR_GAP_NS); // before any process runs
        console.println("bench latency: " + floor);
        final int sourcePort = LocalPorts.unused();
        final int consumerPort = LocalPorts.unused();
        final List<SystemRow> mdhubRows = new ArrayList<>();
        final List<String> cpuRows = new ArrayList<>();
        final LatencySteps steps = new LatencySteps(warmupSeconds, stepSeconds, timestampEvery);
        final RateSweep sweep = new RateSweep(rates, !spec.commandLine().getParseResult().hasMatchedOption("--rates"),
            OPEN_ENDED_STEP, OPEN_ENDED_LIMIT);
        final String mdhub = mdhubLabel();
        String placement = null;
        try (BenchProcesses processes = new BenchProcesses(root, dir, jvm))
        {
            final String aeronDir = processes.memoryDir("aeron").toString();
            if (pin)
            {
                placement = pin(processes);
            }
            final BenchProcess backbone =
                processes.start("backbone", BenchProcesses.BACKBONE_JAR, "--aeron-dir", aeronDir);
            backbone.awaitLine("mdhub-backbone ready", 60);
            final BenchProcess source = processes.start("source", BenchProcesses.BENCH_JAR, "source", "--interactive",
                "--port", Integer.toString(sourcePort), "--rate", Long.toString(Math.min(rates[0], OPENING_RATE)),
                "--timestamp-every", Integer.toString(timestampEvery), "--tick-us", Long.toString(sourceTick.tickUs));
            source.awaitLine("interactive, listening", 60);
            final BenchProcess distributor = processes.start("distributor", BenchProcesses.DISTRIBUTOR_JAR,
                "--aeron-dir", aeronDir, "--port", Integer.toString(LocalPorts.unused()),
                "--route", "127.0.0.1:" + sourcePort, "--route-cache", Boolean.toString(isCaching()));
            final BenchProcess p2p = processes.start("p2p", BenchProcesses.P2P_JAR, p2pArgs(aeronDir, consumerPort));
            distributor.awaitLine("mdhub-distributor ready", 60);
            p2p.awaitLine("mdhub-p2p ready", 60);
            console.printf("bench latency: %d items, rates %s, %d s warm-up + %d s measured per rate, source ticks " +
                "of %d us, report in %s%n", items, Arrays.toString(rates), warmupSeconds, stepSeconds,
                sourceTick.tickUs, dir);
            console.println(LatencyRow.CSV_HEADER);
            console.flush();

            // one client for the whole sweep, as the published runs changed the rate under a running watchlist
            final Path hlog = dir.resolve("client.hlog");
            final BenchProcess client = processes.start("client", BenchProcesses.BENCH_JAR, "client",
                "--port", Integer.toString(consumerPort), "--service", "MDH_SINK", "--items", Integer.toString(items),
                "--hlog", hlog.toString());
            client.awaitLine("open " + items + "/" + items, 300);
            processes.collectGarbage(); // the start-up's survivors tenured before the first measurement
            if (pin)
            {
                placement = placement + "; " + leaveTheHotThreadsAlone(p2p, client);
            }
            if (realtimePriority > 0)
            {
                final String raised = realtime(backbone, source, distributor, client);
                placement = null == placement ? raised : placement + "; " + raised;
            }
            // the collection stopped each process for up to a second on two cores, longer than the p2p-server waits
            // for a silent distributor: the items may be Suspect and recovering; the sweep starts on a whole watchlist
            TestClients.awaitWholeWatchlist(client);
            climbTo(source, client, rates[0], console);
            sweep.run((rate) ->
            {
                final SystemRow row = steps.measure("mdhub", rate, source, client, hlog,
                    new StepCpu(List.of(backbone, source, distributor, p2p, client)), cpuRows, console);
                mdhubRows.add(new SystemRow(mdhub, row.row(), row.cpuUsPerUpdate()));
                return row.row();
            }, console, mdhub);
        }
        final List<List<SystemRow>> peerRows = runPeers(root, dir, jvm, sweep, steps, cpuRows, console);
        final List<LatencyRow> rows = mdhubRows.stream().map(SystemRow::row).toList();
        final Path references = null != referenceDir ? referenceDir : root.getParent().resolve("shared/reference");
        StepCpu.write(dir.resolve("cpu.csv"), cpuRows);
        final String polling = ("off".equals(p2pBusyPoll) ? "worker and distributor woken by the backbone's " +
            "doorbells (mdhub.p2p.backbone.wake, mdhub.distributor.backbone.wake in --jvm-opts say otherwise)" :
            "worker busy-polling with the " + p2pBusyPoll + " idle strategy") +
            (null == placement ? "" : "; " + placement);
        LatencyReport.write(dir, "bin/mdhub bench latency " + String.join(" ", spec.commandLine().getParseResult()
            .originalArgs()), machine() + ".\n\nJVM options of every process: `" +
            String.join(" ", LauncherJvmOptions.NO_PERIODIC_SAFEPOINTS) + " " + jvmOpts + "`.\n\nReference: " +
            floor, sourceTick.tickUs, isCaching(), polling, mdhubRows, peerRows,
            ReferenceCurve.read("RMDS HS22 10GbE (2009)", references.resolve("rmds_latency_hs22_rrcp_10gbe.csv")),
            ReferenceCurve.read("RMDS SLERT InfiniBand (2008)",
                references.resolve("rmds_latency_slert_infiniband.csv")));
        console.printf("bench latency: report %s%n", dir.resolve("report.md"));
        console.flush();
        return rows.isEmpty() ? 1 : 0;
    }

    /**
     * The peers of {@code --peers}, one after another, each with processes of its own.
     */
    private List<List<SystemRow>> runPeers(
        final Path root,
        final Path dir,
        final List<String> jvm,
        final RateSweep sweep,
        final LatencySteps steps,
        final List<String> cpuRows,
        final PrintWriter console) throws Exception
    {
        final List<List<SystemRow>> peerRows = new ArrayList<>();
        for (final String name : peers)
        {
            final PeerSweep peer = PeerSweep.find(PeerSystem.of(name), console);
            if (null != peer)
            {
                try (BenchProcesses processes = new BenchProcesses(root, dir, jvm))
                {
                    peerRows.add(peer.run(processes, dir, items, Math.min(rates[0], OPENING_RATE),
                        sourceTick.tickUs, timestampEvery, sweep, steps, cpuRows, console));
                }
            }
        }
        return peerRows;
    }

    /**
     * Climb to a high first rate through unmeasured steps that double from 100,000/s, a few seconds each, then wait
     * for the watchlist to be whole again. A jump from the opening rate straight to a rate near a million a second
     * meets cold compiled code in every process: the distributor falls tens to hundreds of milliseconds behind, the
     * p2p-server counts it silent, and the recoveries that follow keep it behind for the rest of the step. A sweep
     * that starts low climbs through its own steps.
     */
    private void climbTo(final BenchProcess source, final BenchProcess client, final long firstRate,
        final PrintWriter console)
        throws InterruptedException
    {
        if (firstRate <= CLIMB_START_RATE)
        {
            return;
        }
        for (long rate = CLIMB_START_RATE; rate < firstRate; rate *= 2)
        {
            console.printf("bench latency: climbing to the first rate, %d updates/s for %d s (not measured)%n", rate,
                CLIMB_STEP_SECONDS);
            console.flush();
            source.send("ur " + rate);
            Thread.sleep(TimeUnit.SECONDS.toMillis(CLIMB_STEP_SECONDS));
        }
        source.send("ur " + firstRate);
        TestClients.awaitWholeWatchlist(client);
    }

    /**
     * @return the checkout this jar was built in (the jar, or the classes directory, sits in
     * {@code <root>/benchmarks/target}).
     * @throws URISyntaxException when the code source is not a file.
     */
    public static Path checkoutRoot() throws URISyntaxException
    {
        final Path jar = Paths.get(LatencyBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return jar.toAbsolutePath().getParent().getParent().getParent();
    }

    static String machine()
    {
        String model = "unknown CPU";
        try
        {
            model = Files.readAllLines(Paths.get("/proc/cpuinfo")).stream().filter((l) -> l.startsWith("model name"))
                .map((l) -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse(model);
        }
        catch (final IOException ex)
        {
            // not Linux: the model stays unknown
        }
        return String.format(Locale.ROOT, "%s, %d CPUs, %d MiB max heap of this JVM, Java %s, %s %s", model,
            Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
            System.getProperty("java.version"), System.getProperty("os.name"), System.getProperty("os.version"));
    }
}
