package io.mdhub.benchmarks.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mdhub.orderprobe.analysis.LatencyStats;
import io.mdhub.orderprobe.analysis.RunGroup;

/**
 * Each configuration's create-to-end mean, p95 and CPU per order divided by the {@code tcp_floor}'s of the same rate
 * and repeat, and the median of those ratios over the repeats: a claim against the floor is a ratio of runs made
 * close together, not of two sweeps an hour apart. A repeat where either side fell behind the rate has no CPU ratio
 * (its CPU is not a cost per order).
 */
final class FloorRatios
{
    private static final String FLOOR = "tcp_floor";

    private final Map<String, List<double[]>> ratiosByRow = new LinkedHashMap<>();

    private FloorRatios()
    {
    }

    /**
     * @param groups   every run of the bench, a group per configuration, rate and repeat.
     * @param cpuByRun each run's CPU accounting, by label.
     * @return the ratios of every configuration that has a floor run beside it.
     */
    static FloorRatios of(final List<RunGroup> groups, final Map<String, RunCpu> cpuByRun)
    {
        final FloorRatios ratios = new FloorRatios();
        final Map<String, RunGroup> floorByRateAndRun = new LinkedHashMap<>();
        for (final RunGroup group : groups)
        {
            if (FLOOR.equals(group.configuration()))
            {
                floorByRateAndRun.put(group.totalRate() + " " + repeatOf(group.label()), group);
            }
        }
        for (final RunGroup group : groups)
        {
            final RunGroup floor = floorByRateAndRun.get(group.totalRate() + " " + repeatOf(group.label()));
            if (FLOOR.equals(group.configuration()) || null == floor)
            {
                continue;
            }
            final LatencyStats stats = group.createToEnd();
            final LatencyStats floorStats = floor.createToEnd();
            final RunCpu cpu = cpuByRun.get(group.label());
            final RunCpu floorCpu = cpuByRun.get(floor.label());
            final double cpuRatio = null == cpu || null == floorCpu || cpu.isBehind() || floorCpu.isBehind() ?
                Double.NaN : cpu.cpuUsPerOrder() / floorCpu.cpuUsPerOrder();
            ratios.ratiosByRow
                .computeIfAbsent(group.configuration() + " " + group.totalRate(), (k) -> new ArrayList<>())
                .add(new double[] {stats.meanUs() / floorStats.meanUs(), stats.p95Us() / floorStats.p95Us(), cpuRatio});
        }
        return ratios;
    }

    /**
     * @param label a run's label, {@code "<configuration> <rate>/s run <n>"}.
     * @return its repeat number.
     */
    static String repeatOf(final String label)
    {
        return label.substring(label.lastIndexOf(' ') + 1);
    }

    /**
     * @param values the repeats' ratios, NaN for none.
     * @return their median, NaN when there is none.
     */
    static double median(final List<Double> values)
    {
        final List<Double> known = new ArrayList<>();
        for (final double value : values)
        {
            if (!Double.isNaN(value))
            {
                known.add(value);
            }
        }
        if (known.isEmpty())
        {
            return Double.NaN;
        }
        Collections.sort(known);
        final int middle = known.size() / 2;
        return 1 == known.size() % 2 ? known.get(middle) : (known.get(middle - 1) + known.get(middle)) / 2;
    }

    /**
     * @return a Markdown table, a row per configuration and rate: each repeat's ratio and their median; empty when
     * no run had a floor beside it.
     */
    String describe()
    {
        if (ratiosByRow.isEmpty())
        {
            return "";
        }
        final StringBuilder text = new StringBuilder("Ratios to tcp_floor of the same rate and repeat (each repeat, " +
            "then the median):\n\n| configuration and rate | mean | p95 | CPU per order |\n|---|---|---|---|\n");
        for (final Map.Entry<String, List<double[]>> row : ratiosByRow.entrySet())
        {
            text.append("| ").append(row.getKey()).append("/s");
            for (int metric = 0; metric < 3; metric++)
            {
                final List<Double> values = new ArrayList<>();
                for (final double[] ratios : row.getValue())
                {
                    values.add(ratios[metric]);
                }
                text.append(" | ");
                for (final double value : values)
                {
                    text.append(format(value)).append(", ");
                }
                text.setLength(text.length() - 2);
                text.append(" → **").append(format(median(values))).append("**");
            }
            text.append(" |\n");
        }
        return text.toString();
    }

    private static String format(final double value)
    {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.2f", value);
    }
}
