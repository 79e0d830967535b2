package io.mdhub.benchmarks.chaos;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import io.mdhub.benchmarks.bench.BenchProcess;
import io.mdhub.benchmarks.bench.BenchProcesses;
import io.mdhub.benchmarks.bench.LatencyBench;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub chaos orders}: an active/active order pair under {@code orders-load}, one random kill -9 per round.
 * Each round is its own load run (its own client id and order ids, {@code --round-seconds} long), so a round's
 * figures are that round's alone: the fault strikes at a random moment of the load, the killed process is restarted
 * after a random short delay, the runner waits until the pair is whole (both servers SERVING and PAIRED with the
 * replication link up, partitions handed back), the load ends and drains, and {@code verify-orders} checks both
 * queues against every order acknowledged so far. A round fails when an acknowledged order is missing from a queue
 * or stored twice, when an order stays unanswered, when the pair is not whole within {@code --recovery-bound} of the
 * restart, or when a process the round did not kill exits; the pair is then made whole again (what died is started
 * again) before the next round.
 */
@Command(
    name = "orders",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Random kill -9 rounds against an order pair under load: per round a fault, the restart, the " +
        "time until the pair is whole, the load's figures and the verifier's; a table row per round, a report, " +
        "exit status 1 when any round lost, duplicated or did not recover.")
public final class OrdersChaos implements Callable<Integer>
{
    static final String NAME = "chaos orders";
    private static final long NS_PER_S = 1_000_000_000L;

    /**
     * What a round kills.
     */
    enum Fault
    {
        /** kill -9 server 0, restart it. */
        SERVER_0("server-0"),
        /** kill -9 server 1, restart it. */
        SERVER_1("server-1"),
        /** kill -9 one server, restart it; once it has caught up, the other. */
        BOTH("both"),
        /** kill -9 one server, restart it, kill it again as it catches up, restart it. */
        CATCH_UP("catch-up"),
        /** kill -9 the backbone daemon the servers are joined to, restart it. */
        BACKBONE("backbone");

        final String label;

        Fault(final String label)
        {
            this.label = label;
        }

        static Map<String, Fault> byLabel()
        {
            return ChaosRunOptions.byLabel(values(), (fault) -> fault.label);
        }
    }

    @CommandLine.Mixin
    ChaosRunOptions run = new ChaosRunOptions();

    @Option(names = "--rate", paramLabel = "N", description = "Orders per second (default ${DEFAULT-VALUE}).")
    long rate = 2000;

    @Option(names = "--round-seconds", paramLabel = "S",
        description = "Seconds of order creation per round (default ${DEFAULT-VALUE}).")
    long roundSeconds = 30;

    @Option(names = "--faults", split = ",", paramLabel = "NAME,...",
        description = "Faults to deal: server-0, server-1, both, catch-up, backbone (default: all).")
    List<String> faultNames = new ArrayList<>(Fault.byLabel().keySet());

    @Option(names = "--recovery-bound", paramLabel = "S",
        description = "Seconds from a restart until the pair must be whole again (default ${DEFAULT-VALUE}).")
    long recoveryBoundSeconds = 60;

    @Option(names = "--partitions", paramLabel = "N",
        description = "Partitions of the pair (default ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--server-jvm-opts", paramLabel = "OPTS",
        description = "JVM options of the order servers (default ${DEFAULT-VALUE}).")
    String serverJvmOpts = "-Xms256m -Xmx1g -XX:+UseParallelGC";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private long missingBefore;
    private long twiceBefore;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter console = spec.commandLine().getOut();
        final List<Fault> faults = ChaosReport.faults(faultNames, Fault.byLabel());
        if (!run.isValid() || rate < 1 || roundSeconds < 2 || recoveryBoundSeconds < 1 || partitions < 2)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rounds, --rate and --recovery-bound " +
                "must be positive, --round-seconds at least 2, --partitions at least 2");
        }
        final long runSeed = run.runSeed();
        final Path root = LatencyBench.checkoutRoot();
        final Path dir = run.reportDir(root, "orders");
        Files.createDirectories(dir);
        ChaosReport.printSeed(console, NAME, runSeed);
        final List<FaultPlan.Round<Fault>> plan = FaultPlan.plan(runSeed, run.rounds, faults);
        final ChaosTable table = new ChaosTable(OrderRound.COLUMNS);
        final Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("seed", runSeed);
        settings.put("rounds", run.rounds);
        settings.put("rate", rate);
        settings.put("round_seconds", roundSeconds);
        settings.put("faults", String.join(",", faultNames));
        settings.put("recovery_bound_s", recoveryBoundSeconds);
        int failed = 0;
        final List<String> opts = new ArrayList<>(BenchProcesses.jvmOptions(serverJvmOpts));
        opts.add(OrderPair.expectedOrders(rate * roundSeconds * run.rounds));
        final Path logs = Files.createDirectories(dir.resolve("logs"));
        try (BenchProcesses processes = new BenchProcesses(root, logs, List.of()))
        {
            final OrderPair pair = new OrderPair(processes, opts, partitions, faults.contains(Fault.BACKBONE));
            console.printf("%s: starting the pair%s; %d round(s) of %d s at %d orders/s, faults %s; logs in %s%n",
                NAME, pair.isOnBackbone() ? " on its backbone daemon" : "", run.rounds, roundSeconds, rate,
                String.join(",", faultNames), logs);
            console.flush();
            final boolean isWhole = pair.start(2 * recoveryBoundSeconds);
            if (!isWhole)
            {
                console.printf("%s: the pair did not become whole after its start%n", NAME);
            }
            failed = run.play(console, plan, table, isWhole, (round) -> tryRound(round, pair, processes, dir),
                this::notRun, () -> restore(pair, console));
        }
        return ChaosReport.finish(console, dir, NAME, settings, table, failed);
    }

    private OrderRound notRun(final FaultPlan.Round<Fault> round)
    {
        final OrderRound figures = new OrderRound();
        figures.round = round.round();
        figures.fault = round.fault().label;
        figures.loadFinished = true;
        figures.verifierFinished = true;
        figures.isWhole = true;
        figures.problems.add("not run: the pair could not be made whole");
        return figures;
    }

    /**
     * After a round that left the pair broken: start again whatever died and wait, twice the bound; if that fails
     * too, stop both servers and start them from their queues.
     *
     * @return true when the pair is whole again and the run can go on.
     */
    private boolean restore(final OrderPair pair, final PrintWriter console)
    {
        final List<String> problems = new ArrayList<>();
        final long boundNs = 2 * recoveryBoundSeconds * NS_PER_S;
        if (pair.awaitWhole(System.nanoTime() + boundNs, problems, true, new TreeSet<>(Set.of(0, 1))))
        {
            return true;
        }
        console.printf("%s: the pair is not whole; restarting both servers from their queues%n", NAME);
        console.flush();
        pair.server(0).close();
        pair.server(1).close();
        if (pair.isOnBackbone() && !pair.backbone().isAlive())
        {
            pair.startBackbone();
        }
        pair.startServer(0);
        pair.startServer(1);
        final boolean isWhole = pair.awaitWhole(System.nanoTime() + boundNs, problems, true, new TreeSet<>());
        if (!isWhole)
        {
            console.printf("%s: the pair could not be made whole; the remaining rounds are not run%n", NAME);
            console.flush();
        }
        return isWhole;
    }

    /**
     * A round that could not be carried out (a process that would not start) is a failed round, not the end of the
     * run: the pair is made whole again after it.
     */
    private OrderRound tryRound(
        final FaultPlan.Round<Fault> round, final OrderPair pair, final BenchProcesses processes, final Path dir)
        throws IOException, InterruptedException
    {
        try
        {
            return runRound(round, pair, processes, dir);
        }
        catch (final IllegalStateException | java.io.UncheckedIOException ex)
        {
            final OrderRound figures = notRun(round);
            figures.problems.set(0, "the round broke off: " + ChaosReport.firstLine(ex.getMessage()));
            figures.isWhole = false;
            return figures;
        }
    }


    private OrderRound runRound(
        final FaultPlan.Round<Fault> round, final OrderPair pair, final BenchProcesses processes, final Path dir)
        throws IOException, InterruptedException
    {
        final int n = round.round();
        final OrderRound figures = new OrderRound();
        figures.round = n;
        figures.fault = round.fault().label;
        figures.boundSeconds = recoveryBoundSeconds;
        final Path roundDir = Files.createDirectories(dir.resolve(String.format(Locale.ROOT, "round-%02d", n)));
        final Path acked = roundDir.resolve("acked.csv");
        final BenchProcess load = processes.start(String.format(Locale.ROOT, "orders-load-%02d", n),
            BenchProcesses.ORDER_PROBE_JAR, List.of("-Xmx512m"), "orders-load",
            "--rate", Long.toString(rate), "--duration", Long.toString(roundSeconds),
            "--servers", pair.ingress(), "--client-id", Long.toString(1000 + n),
            "--first-order-id", Long.toString(n * 1_000_000_000L + 1),
            "--drain-timeout", Long.toString(recoveryBoundSeconds), "--out", acked.toString());
        final long startMs;
        try
        {
            final Matcher start = load.awaitMatch(LoadOutput.START, 120);
            startMs = Long.parseLong(start.group(1));
        }
        catch (final IllegalStateException ex)
        {
            load.close();
            figures.problems.add("orders-load did not start: " + lastLine(load.tail()));
            // not looked at (a wait with a deadline of now never looks): the pair is checked by the restore that a
            // round not whole is followed by, and made whole again where it is not
            figures.isWhole = false;
            figures.loadFinished = true;
            figures.verifierFinished = true;
            return figures;
        }
        final long killMs = startMs + Math.round(round.killAt() * roundSeconds * 1000);
        sleepUntilMs(killMs);
        final FaultRun fault = new FaultRun(pair, round, recoveryBoundSeconds, figures.problems);
        fault.run();
        figures.fault = fault.label;
        figures.killAtS = (fault.firstKillMs - startMs) / 1000.0;
        figures.isWhole = fault.isWhole;
        figures.caughtUpS = fault.isWhole ? fault.longestRecoveryMs / 1000.0 : -1;

        figures.loadFinished = load.awaitExit(roundSeconds + 2 * recoveryBoundSeconds + 60);
        if (!figures.loadFinished)
        {
            load.kill();
        }
        figures.loadStatus = load.exitValue();
        final LoadOutput loadOutput = new LoadOutput(load.output());
        figures.sent = loadOutput.sent;
        figures.acked = loadOutput.acked;
        figures.unanswered = loadOutput.unresolved;
        figures.answeredTwice = loadOutput.reportedTwice;
        figures.loadFinished &= loadOutput.hasSummary;
        final long faultEndMs = fault.isWhole ? fault.wholeMs : System.currentTimeMillis();
        figures.worstMs = loadOutput.worstMs(fault.firstKillMs, faultEndMs);
        verify(pair, processes, dir, acked, n, figures);
        pair.deleteDiscardedQueues();
        return figures;
    }

    /**
     * Run verify-orders on both queues against every order acknowledged so far; what it finds missing or twice that
     * it did not find after the previous round is this round's.
     */
    private void verify(
        final OrderPair pair,
        final BenchProcesses processes,
        final Path dir,
        final Path acked,
        final int n,
        final OrderRound figures) throws IOException, InterruptedException
    {
        final Path all = dir.resolve("acked-all.csv");
        if (Files.exists(acked))
        {
            final List<String> lines = Files.readAllLines(acked, StandardCharsets.UTF_8);
            Files.write(all, lines.subList(Math.min(1, lines.size()), lines.size()), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        else if (!Files.exists(all))
        {
            Files.createFile(all);
        }
        final List<String> args = new ArrayList<>(List.of("verify-orders",
            "--queue", pair.queue(0).toString(), "--queue", pair.queue(1).toString(), "--acked", all.toString()));
        if (!figures.isWhole)
        {
            args.add("--allow-behind");
        }
        final BenchProcess verifier = processes.start(String.format(Locale.ROOT, "verify-orders-%02d", n),
            BenchProcesses.P2P_JAR, List.of("-Xmx1g"), args.toArray(new String[0]));
        figures.verifierFinished = verifier.awaitExit(300);
        if (!figures.verifierFinished)
        {
            verifier.kill();
            return;
        }
        final VerifierOutput result = new VerifierOutput(verifier.output());
        figures.verifierFinished = result.hasVerdict;
        final long missing = result.missing();
        final long twice = result.storedTwice();
        figures.lost = Math.max(0, missing - missingBefore);
        figures.duplicated = Math.max(0, twice - twiceBefore);
        missingBefore = Math.max(missingBefore, missing);
        twiceBefore = Math.max(twiceBefore, twice);
        figures.verifierProblems.addAll(result.otherProblems);
    }

    private static String lastLine(final String text)
    {
        final String stripped = text.strip();
        return stripped.substring(stripped.lastIndexOf('\n') + 1);
    }

    static void sleepUntilMs(final long epochMs)
    {
        final long waitMs = epochMs - System.currentTimeMillis();
        if (waitMs > 0)
        {
            OrderPair.sleepMs(waitMs);
        }
    }

    /**
     * One round's fault carried out: the kills, the restarts after the drawn delays, the waits until the pair is
     * whole; the moments noted.
     */
    static final class FaultRun
    {
        final OrderPair pair;
        final FaultPlan.Round<Fault> round;
        final long boundSeconds;
        final List<String> problems;
        String label;
        long firstKillMs;
        long wholeMs;
        long longestRecoveryMs;
        boolean isWhole;

        FaultRun(
            final OrderPair pair, final FaultPlan.Round<Fault> round, final long boundSeconds,
            final List<String> problems)
        {
            this.pair = pair;
            this.round = round;
            this.boundSeconds = boundSeconds;
            this.problems = problems;
            this.label = round.fault().label;
        }

        void run()
        {
            switch (round.fault())
            {
                case SERVER_0:
                    killAndRestart(0);
                    break;
                case SERVER_1:
                    killAndRestart(1);
                    break;
                case BOTH:
                    label = "both (" + round.victim() + " then " + (1 - round.victim()) + ")";
                    if (killAndRestart(round.victim()))
                    {
                        killAndRestart(1 - round.victim());
                    }
                    break;
                case CATCH_UP:
                    catchUp(round.victim());
                    break;
                case BACKBONE:
                    backbone();
                    break;
                default:
                    throw new IllegalStateException(round.fault().toString());
            }
        }

        private boolean killAndRestart(final int id)
        {
            kill(pair.server(id));
            OrderPair.sleepMs(round.downMs());
            final long restartMs = System.currentTimeMillis();
            pair.startServer(id);
            return awaitWhole(restartMs, new TreeSet<>(Set.of(id)));
        }

        private void catchUp(final int id)
        {
            kill(pair.server(id));
            OrderPair.sleepMs(round.downMs());
            final BenchProcess restarted = pair.startServer(id);
            boolean hadCaughtUp = false;
            try
            {
                restarted.awaitLine(OrderPair.CATCH_UP_BEGINS, boundSeconds);
                OrderPair.sleepMs(round.againMs() / 2);
                hadCaughtUp = restarted.output().contains(OrderPair.CAUGHT_UP);
            }
            catch (final IllegalStateException ex)
            {
                problems.add("server " + id + " did not begin its catch-up within " + boundSeconds + " s");
            }
            label = "catch-up " + id + (hadCaughtUp ? " (had caught up)" : "");
            restarted.kill();
            OrderPair.sleepMs(round.downMs());
            final long restartMs = System.currentTimeMillis();
            pair.startServer(id);
            awaitWhole(restartMs, new TreeSet<>(Set.of(id)));
        }

        private void backbone()
        {
            kill(pair.backbone());
            OrderPair.sleepMs(round.downMs());
            final long restartMs = System.currentTimeMillis();
            pair.startBackbone();
            awaitWhole(restartMs, new TreeSet<>());
        }

        private void kill(final BenchProcess process)
        {
            final long nowMs = System.currentTimeMillis();
            firstKillMs = 0 == firstKillMs ? nowMs : firstKillMs;
            process.kill();
        }

        private boolean awaitWhole(final long restartMs, final Set<Integer> restarted)
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(boundSeconds);
            isWhole = pair.awaitWhole(deadlineNs, problems, true, restarted);
            if (isWhole)
            {
                wholeMs = System.currentTimeMillis();
                longestRecoveryMs = Math.max(longestRecoveryMs, wholeMs - restartMs);
            }
            return isWhole;
        }
    }
}
