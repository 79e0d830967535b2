package io.mdhub.benchmarks.chaos;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import picocli.CommandLine.Option;

/**
 * The options every chaos command shares: how many rounds, from which seed, for how long at most, and where the
 * report goes (a picocli mixin); and the round loop they drive.
 */
final class ChaosRunOptions
{
    /**
     * Carries out one round of the plan.
     *
     * @param <F> the kind of fault.
     */
    @FunctionalInterface
    interface RoundRunner<F>
    {
        /**
         * @param round the round's draw.
         * @return its figures.
         * @throws Exception when it cannot go on; the run ends.
         */
        ChaosRound run(FaultPlan.Round<F> round) throws Exception;
    }

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds (default ${DEFAULT-VALUE}).")
    int rounds = 20;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the faults, their moments and delays " +
        "(default: a new one, printed).")
    Long seed;

    @Option(names = "--minutes", paramLabel = "M",
        description = "Start no round after M minutes (0, the default: no limit; a soak sets many rounds and this).")
    long minutes;

    @Option(names = "--out", paramLabel = "DIR",
        description = "Report directory (default target/chaos-<command>-<date-time>).")
    Path out;

    /**
     * @return true when the rounds and minutes make sense.
     */
    boolean isValid()
    {
        return rounds >= 1 && minutes >= 0;
    }

    /**
     * @return the seed asked for, or a new one.
     */
    long runSeed()
    {
        return null != seed ? seed : FaultPlan.newSeed();
    }

    /**
     * @param root    the checkout.
     * @param command the command's short name ("md", "orders").
     * @return the report directory asked for, or {@code target/chaos-<command>-<date-time>} of the checkout.
     */
    Path reportDir(final Path root, final String command)
    {
        return null != out ? out : root.resolve("target").resolve("chaos-" + command + "-" +
            LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    /**
     * Play the rounds in order, the table's header first and a row printed as each round ends, until the plan or the
     * minutes run out. A round that left the system broken is followed by {@code restore}; once that fails, the
     * remaining rounds are tabled as {@code notRun}.
     *
     * @param console where the rows go.
     * @param plan    the rounds.
     * @param table   gets a row per round.
     * @param isWhole whether the system came up whole; if not, no round is run.
     * @param run     carries out a round.
     * @param notRun  the figures of a round that could not be run.
     * @param restore makes the system whole again; false when it could not.
     * @param <F>     the kind of fault.
     * @return how many rounds failed.
     */
    <F> int play(
        final PrintWriter console,
        final List<FaultPlan.Round<F>> plan,
        final ChaosTable table,
        final boolean isWhole,
        final RoundRunner<F> run,
        final Function<FaultPlan.Round<F>, ChaosRound> notRun,
        final BooleanSupplier restore) throws Exception
    {
        console.println(table.header());
        console.flush();
        final long endNs = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
        boolean canGoOn = isWhole;
        int failed = 0;
        for (final FaultPlan.Round<F> round : plan)
        {
            if (minutes > 0 && System.nanoTime() - endNs > 0)
            {
                break; // the time limit has passed: start no more rounds
            }
            final ChaosRound figures = canGoOn ? run.run(round) : notRun.apply(round);
            table.add(figures.cells());
            failed += figures.verdict().isOk() ? 0 : 1;
            console.println(table.row(table.rows().size() - 1));
            console.flush();
            if (canGoOn && figures.leftBroken())
            {
                canGoOn = restore.getAsBoolean();
            }
        }
        return failed;
    }

    /**
     * @param values a fault enum's values.
     * @param label  a fault's name on the command line.
     * @param <F>    the fault type.
     * @return the faults by name, in declaration order.
     */
    static <F> Map<String, F> byLabel(final F[] values, final Function<F, String> label)
    {
        final Map<String, F> all = new LinkedHashMap<>();
        for (final F fault : values)
        {
            all.put(label.apply(fault), fault);
        }
        return all;
    }
}
