package io.mdhub.benchmarks.chaos;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import picocli.CommandLine.Option;

/**
 * The options every chaos command shares: how many rounds, from which seed, for how long at most, and where the
 * report goes (a picocli mixin).
 */
final class ChaosRunOptions
{
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
     * @return a deadline for {@link #isPastEnd}: now plus the minutes.
     */
    long endNs()
    {
        return System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
    }

    /**
     * @param endNs from {@link #endNs()}.
     * @return true when a time limit was set and has passed: start no more rounds.
     */
    boolean isPastEnd(final long endNs)
    {
        return minutes > 0 && System.nanoTime() - endNs > 0;
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
