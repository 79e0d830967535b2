package io.mdhub.benchmarks.chaos;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.mdhub.benchmarks.bench.BenchProcess;
import io.mdhub.benchmarks.bench.BenchProcesses;
import io.mdhub.benchmarks.bench.LatencyBench;
import io.mdhub.benchmarks.client.ClientFaultLine;
import io.mdhub.benchmarks.client.ClientStatsLine;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub chaos md}: the market data path (backbone daemon, distributor, p2p-server, source, test client,
 * each its own JVM) under a steady update rate, one random kill -9 per round: the killed process is restarted after
 * a random short delay (the source too after a distributor restart, as it has no reconnect of its own), and the test
 * client's report says when its first item went Suspect, when every item was Ok again, how many updates went missing
 * without a Suspect first, and how many streams were closed. A round fails when an update was skipped silently, a
 * stream was closed, the data stopped without a Suspect, or the consumer was not whole again with updates flowing
 * by {@code --recovery-bound} after the round's first 15 s (or after the restart, when later); whatever a round left
 * dead is then started again, and if that does not make the path whole, the whole path is.
 */
@Command(
    name = "md",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Random kill -9 rounds against the market data path under a consumer that checks every update: " +
        "per round a fault, the restart, time to Suspect and to recovered, updates skipped silently, streams " +
        "closed; a table row per round, a report, exit status 1 when any round failed.")
public final class MdChaos implements Callable<Integer>
{
    static final String NAME = "chaos md";
    private static final long QUIET_FROM_MS = 2000;
    private static final long QUIET_SPAN_MS = 3000;
    private static final long WATCH_AFTER_KILL_MS = 15_000;

    /**
     * What a round kills.
     */
    enum Fault
    {
        /** The source (a non-interactive provider). */
        SOURCE("source", MdPath.SOURCE),
        /** The distributor (and so the source's connection; the source is started again after it). */
        DISTRIBUTOR("distributor", MdPath.DISTRIBUTOR),
        /** The p2p-server: the client reconnects to it once it is back. */
        P2P("p2p", MdPath.P2P),
        /** The backbone daemon under the distributor and the p2p-server. */
        BACKBONE("backbone", MdPath.BACKBONE);

        final String label;
        final String component;

        Fault(final String label, final String component)
        {
            this.label = label;
            this.component = component;
        }

        static Map<String, Fault> byLabel()
        {
            return ChaosRunOptions.byLabel(values(), (fault) -> fault.label);
        }
    }

    @CommandLine.Mixin
    ChaosRunOptions run = new ChaosRunOptions();

    @Option(names = "--items", paramLabel = "N",
        description = "Items published and watched (default ${DEFAULT-VALUE}).")
    int items = 1000;

    @Option(names = "--rate", paramLabel = "N", description = "Updates per second over all items " +
        "(default ${DEFAULT-VALUE}).")
    long rate = 5000;

    @Option(names = "--mounts", paramLabel = "N",
        description = "Consumer connections of the test client, each watching every item (default ${DEFAULT-VALUE}).")
    int mounts = 1;

    @Option(names = "--faults", split = ",", paramLabel = "NAME,...",
        description = "Faults to deal: source, distributor, p2p, backbone (default: all).")
    List<String> faultNames = new ArrayList<>(Fault.byLabel().keySet());

    @Option(names = "--recovery-bound", paramLabel = "S",
        description = "Seconds, after a round's first 15 s or its restart if later, until every item must be Ok and " +
            "updating again (default ${DEFAULT-VALUE}).")
    long recoveryBoundSeconds = 30;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter console = spec.commandLine().getOut();
        final List<Fault> faults = ChaosReport.faults(faultNames, Fault.byLabel());
        if (!run.isValid() || items < 1 || rate < 1 || mounts < 1 || recoveryBoundSeconds < 1)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--rounds, --items, --rate, --mounts and --recovery-bound must be positive");
        }
        final long runSeed = run.runSeed();
        final Path root = LatencyBench.checkoutRoot();
        final Path dir = run.reportDir(root, "md");
        Files.createDirectories(dir);
        ChaosReport.printSeed(console, NAME, runSeed);
        final List<FaultPlan.Round<Fault>> plan = FaultPlan.plan(runSeed, run.rounds, faults);
        final ChaosTable table = new ChaosTable(MdRound.COLUMNS);
        final Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("seed", runSeed);
        settings.put("rounds", run.rounds);
        settings.put("items", items);
        settings.put("rate", rate);
        settings.put("mounts", mounts);
        settings.put("faults", String.join(",", faultNames));
        settings.put("recovery_bound_s", recoveryBoundSeconds);
        int failed = 0;
        final Path logs = Files.createDirectories(dir.resolve("logs"));
        try (BenchProcesses processes = new BenchProcesses(root, logs, List.of()))
        {
            final MdPath path = new MdPath(processes, items, rate, mounts);
            console.printf("%s: starting backbone, distributor, p2p-server, source (%d items, %d updates/s) and " +
                "client (%d mount(s)); %d round(s), faults %s; logs in %s%n", NAME, items, rate, mounts, run.rounds,
                String.join(",", faultNames), logs);
            console.flush();
            path.start();
            final boolean isWhole =
                awaitWhole(path, System.nanoTime() + TimeUnit.SECONDS.toNanos(2 * recoveryBoundSeconds));
            if (!isWhole)
            {
                console.printf("%s: the client did not get every item Ok and updating after the start%n", NAME);
            }
            failed = run.play(console, plan, table, isWhole, (round) -> runRound(round, path), this::notRun,
                () -> restore(path, console));
            path.stopAll();
        }
        return ChaosReport.finish(console, dir, NAME, settings, table, failed);
    }

    private MdRound notRun(final FaultPlan.Round<Fault> round)
    {
        final MdRound figures = new MdRound();
        figures.round = round.round();
        figures.fault = round.fault().label;
        figures.toRecoveredMs = 0;
        figures.problems.add("not run: the path could not be made whole");
        return figures;
    }

    private MdRound runRound(final FaultPlan.Round<Fault> round, final MdPath path)
    {
        final MdRound figures = new MdRound();
        figures.round = round.round();
        figures.fault = round.fault().label;
        figures.boundSeconds = recoveryBoundSeconds;
        final BenchProcess client = path.get(MdPath.CLIENT);
        final int offset = client.output().length();
        final List<ClientFaultLine> before = ClientFaultLine.all(client.output());
        final ClientFaultLine atStart = before.isEmpty() ? new ClientFaultLine(0, 0, 0, 0) :
            before.get(before.size() - 1);
        OrderPair.sleepMs(QUIET_FROM_MS + Math.round(round.killAt() * QUIET_SPAN_MS));

        final long killMs = System.currentTimeMillis();
        path.get(round.fault().component).kill();
        OrderPair.sleepMs(round.downMs());
        try
        {
            restartAfter(round.fault(), path, figures);
        }
        catch (final IllegalStateException ex)
        {
            figures.problems.add("a restart failed: " + ChaosReport.firstLine(ex.getMessage()));
        }
        final long restartMs = System.currentTimeMillis();
        figures.downS = (restartMs - killMs) / 1000.0;
        final BenchProcess watching = path.get(MdPath.CLIENT);
        final int from = watching == client ? offset : 0;
        // a fault may show well after the restart: the backbone's clients notice a dead daemon only after their
        // driver timeout (10 s; meanwhile IPC data still flows through the shared log buffers), so every round is
        // watched for that long after the kill before it is judged, and then until the client is whole again
        while (System.currentTimeMillis() < killMs + WATCH_AFTER_KILL_MS)
        {
            read(watching.output().substring(from), killMs, restartMs, figures);
            OrderPair.sleepMs(100);
        }
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(recoveryBoundSeconds);
        while (System.nanoTime() - deadlineNs < 0)
        {
            if (read(watching.output().substring(from), killMs, restartMs, figures))
            {
                break;
            }
            OrderPair.sleepMs(100);
        }
        read(watching.output().substring(from), killMs, restartMs, figures);
        for (final String dead : path.dead())
        {
            // died after its restart, or after the others came back (a server that outlives its backbone daemon for
            // a driver timeout, then exits): the next round must not start without it
            figures.problems.add(dead + " exited (status " + exitValue(path, dead) + ") after the " +
                round.fault().label + " was restarted");
        }
        if (watching == client)
        {
            figures.skippedSilently -= atStart.skippedSilently();
            figures.streamsClosed -= atStart.streamsClosed();
        }
        return figures;
    }

    /**
     * Start again what the fault killed, and what it took down with it: after the distributor, the source (a
     * non-interactive provider ends with its connection, as it has no reconnect); anything else found dead is a
     * problem of the round and started again too.
     */
    private static void restartAfter(final Fault fault, final MdPath path, final MdRound figures)
    {
        path.start(fault.component);
        if (Fault.DISTRIBUTOR == fault)
        {
            awaitExit(path.get(MdPath.SOURCE));
        }
        for (final String dead : path.dead())
        {
            if (!(Fault.DISTRIBUTOR == fault && MdPath.SOURCE.equals(dead)))
            {
                figures.problems.add(dead + " exited (status " + exitValue(path, dead) + ") after the " +
                    fault.label + " was killed");
            }
            path.start(dead);
        }
    }

    private static int exitValue(final MdPath path, final String component)
    {
        final BenchProcess process = path.get(component);
        return null == process ? -1 : process.exitValue();
    }

    private static void awaitExit(final BenchProcess process)
    {
        try
        {
            process.awaitExit(10);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Read the client's lines since the kill into the round's figures.
     *
     * @return true once the client is whole again: a line after the restart with every item open, none Suspect and
     * updates flowing.
     */
    static boolean read(final String output, final long killMs, final long restartMs, final MdRound figures)
    {
        long suspectFromMs = 0;
        long allOkMs = 0;
        boolean isWhole = false;
        boolean hadStall = false;
        ClientFaultLine lastFaults = null;
        for (final String line : output.split("\n"))
        {
            final ClientStatsLine stats = ClientStatsLine.parse(line);
            final ClientFaultLine faults = ClientFaultLine.parse(line);
            if (null == stats || null == faults)
            {
                continue;
            }
            lastFaults = faults;
            hadStall |= 0 == stats.updatesPerSecond();
            if (0 == suspectFromMs && faults.suspectFromMs() >= killMs)
            {
                suspectFromMs = faults.suspectFromMs();
            }
            allOkMs = faults.allOkMs();
            isWhole = stats.itemsOpen() == stats.itemsRequested() && 0 == stats.itemsSuspect() &&
                stats.updatesPerSecond() > 0 && (0 == suspectFromMs || allOkMs >= suspectFromMs);
        }
        if (null != lastFaults)
        {
            figures.skippedSilently = lastFaults.skippedSilently();
            figures.streamsClosed = lastFaults.streamsClosed();
        }
        figures.hadStall = hadStall;
        figures.toSuspectMs = 0 == suspectFromMs ? -1 : suspectFromMs - killMs;
        final long nowMs = System.currentTimeMillis();
        final boolean isRecovered = isWhole && nowMs >= restartMs;
        if (isRecovered && 0 == figures.firstWholeMs)
        {
            figures.firstWholeMs = nowMs;
        }
        // recovered at the last item's Ok when one went Suspect; else when the client's line first said so (to 1 s)
        figures.toRecoveredMs =
            !isRecovered ? -1 : 0 != suspectFromMs ? allOkMs - killMs : figures.firstWholeMs - killMs;
        return isRecovered;
    }

    /**
     * After a failed round: start whatever is dead and wait for the client; if it is still not whole, stop the whole
     * path and start it again.
     *
     * @return true when the run can go on.
     */
    private boolean restore(final MdPath path, final PrintWriter console)
    {
        try
        {
            for (final String dead : path.dead())
            {
                path.start(dead);
            }
            if (awaitWhole(path, System.nanoTime() + TimeUnit.SECONDS.toNanos(recoveryBoundSeconds)))
            {
                return true;
            }
            console.printf("%s: the client is not whole; restarting the whole path%n", NAME);
            console.flush();
            path.stopAll();
            path.start();
            if (awaitWhole(path, System.nanoTime() + TimeUnit.SECONDS.toNanos(2 * recoveryBoundSeconds)))
            {
                return true;
            }
        }
        catch (final IllegalStateException ex)
        {
            console.printf("%s: %s%n", NAME, ChaosReport.firstLine(ex.getMessage()));
        }
        console.printf("%s: the path could not be made whole; the remaining rounds are not run%n", NAME);
        console.flush();
        return false;
    }

    /**
     * Wait for a client line, printed from now on, with every item open, none Suspect and updates flowing.
     */
    private static boolean awaitWhole(final MdPath path, final long deadlineNs)
    {
        final BenchProcess client = path.get(MdPath.CLIENT);
        final int from = client.output().length();
        while (System.nanoTime() - deadlineNs < 0 && client.isAlive())
        {
            final List<ClientStatsLine> lines = ClientStatsLine.all(client.output().substring(from));
            if (!lines.isEmpty())
            {
                final ClientStatsLine last = lines.get(lines.size() - 1);
                if (last.itemsOpen() == last.itemsRequested() && 0 == last.itemsSuspect() &&
                    last.updatesPerSecond() > 0)
                {
                    return true;
                }
            }
            OrderPair.sleepMs(200);
        }
        return false;
    }

}
