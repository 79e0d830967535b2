package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What every process of a {@code bench latency} step cost over its measured window, per update the source was
 * commanded to send in it: CPU time from {@code /proc} ({@link ProcessCpu}) sampled as the window starts and as it
 * ends, and context switches. A latency beside the CPU it took: two systems with the same median may need very
 * different shares of the host to reach it.
 */
final class StepCpu
{
    /** CSV header of {@link #csv}. */
    static final String CSV_HEADER = "update_rate_per_s,process,cpu_us_per_update,switches_per_update,cores";

    private final Map<String, ProcessCpu.Sample> start = new LinkedHashMap<>();
    private final Map<String, ProcessCpu.Usage> usage = new LinkedHashMap<>();
    private final List<BenchProcess> processes;
    private long startNs;
    private long windowNs;

    /**
     * @param processes the run's processes, sampled in this order.
     */
    StepCpu(final List<BenchProcess> processes)
    {
        this.processes = processes;
    }

    /**
     * Sample every process as the window starts.
     */
    void start()
    {
        startNs = System.nanoTime();
        for (final BenchProcess process : processes)
        {
            final ProcessCpu.Sample sample = ProcessCpu.sample(process.pid());
            if (null != sample)
            {
                start.put(process.name(), sample);
            }
        }
    }

    /**
     * Sample every process again as the window ends.
     */
    void end()
    {
        windowNs = System.nanoTime() - startNs;
        for (final BenchProcess process : processes)
        {
            final ProcessCpu.Sample first = start.get(process.name());
            final ProcessCpu.Sample last = ProcessCpu.sample(process.pid());
            if (null != first && null != last)
            {
                usage.put(process.name(), ProcessCpu.between(first, last));
            }
        }
    }

    /**
     * @param updates the updates the source was commanded to send in the window.
     * @return one line: µs of CPU per update per process, their sum, and the cores busy.
     */
    String describe(final long updates)
    {
        final StringBuilder line = new StringBuilder("cpu per update:");
        long total = 0;
        for (final Map.Entry<String, ProcessCpu.Usage> entry : usage.entrySet())
        {
            total += entry.getValue().cpuNs();
            line.append(String.format(Locale.ROOT, " %s %.2f us,", entry.getKey(),
                perUpdateUs(entry.getValue().cpuNs(), updates)));
        }
        return line.append(String.format(Locale.ROOT, " in all %.2f us on %.2f cores", perUpdateUs(total, updates),
            cores(total))).toString();
    }

    /**
     * @param process a process's name.
     * @return its CPU per second of the window, ns (0 when it was not sampled).
     */
    long cpuNsPerSecond(final String process)
    {
        final ProcessCpu.Usage used = usage.get(process);
        return null == used || 0 == windowNs ? 0 : Math.round(used.cpuNs() * 1e9 / windowNs);
    }

    /**
     * @param updates the updates commanded in the window.
     * @return µs of CPU per update of every process together.
     */
    double totalUsPerUpdate(final long updates)
    {
        long total = 0;
        for (final ProcessCpu.Usage used : usage.values())
        {
            total += used.cpuNs();
        }
        return perUpdateUs(total, updates);
    }

    /**
     * @param rate    the step's commanded rate.
     * @param updates the updates commanded in the window.
     * @return CSV rows, one per process and one for all of them ({@code all}).
     */
    List<String> csv(final long rate, final long updates)
    {
        final List<String> rows = new ArrayList<>();
        long totalCpu = 0;
        long totalSwitches = 0;
        for (final Map.Entry<String, ProcessCpu.Usage> entry : usage.entrySet())
        {
            final ProcessCpu.Usage used = entry.getValue();
            totalCpu += used.cpuNs();
            totalSwitches += used.switches();
            rows.add(row(rate, entry.getKey(), used.cpuNs(), used.switches(), updates));
        }
        rows.add(row(rate, "all", totalCpu, totalSwitches, updates));
        return rows;
    }

    /**
     * @param file the CSV file.
     * @param rows the rows of every step ({@link #csv}).
     * @throws IOException when it cannot be written.
     */
    static void write(final Path file, final List<String> rows) throws IOException
    {
        final List<String> lines = new ArrayList<>(List.of(CSV_HEADER));
        lines.addAll(rows);
        Files.write(file, lines);
    }

    private String row(final long rate, final String process, final long cpuNs, final long switches,
        final long updates)
    {
        return String.format(Locale.ROOT, "%d,%s,%.3f,%.4f,%.3f", rate, process, perUpdateUs(cpuNs, updates),
            0 == updates ? Double.NaN : switches / (double)updates, cores(cpuNs));
    }

    private static double perUpdateUs(final long cpuNs, final long updates)
    {
        return 0 == updates ? Double.NaN : cpuNs / 1000.0 / updates;
    }

    private double cores(final long cpuNs)
    {
        return windowNs <= 0 ? Double.NaN : cpuNs / (double)windowNs;
    }
}
