package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What every process of one {@code bench orders} run cost over its measured window, per order: CPU time, context
 * switches and threads of the servers and the probes, sampled with {@link ProcessCpu} as the window starts and again
 * just before it ends, divided by the orders created between the two samples. CPU per order is the cost that latency
 * alone hides: two configurations with the same latency at a rate may need very different shares of the host to get it.
 * <p>
 * The figures mean what they say only where the configuration kept up with the rate, so that about as many orders
 * were served in the window as were created in it. Where it did not, the CPU of the window went to fewer orders (a
 * backlog, partly from the warm-up, whose orders the probes do not keep); such a run is marked
 * {@link #isBehind() behind}: fewer than {@value #KEPT_UP_PERCENT} % of the orders created in the window were also
 * answered in it.
 */
final class RunCpu
{
    /** CSV header of {@link #writeCsv}. */
    static final String CSV_HEADER = "run,process,role,pid,cpu_ns,cpu_from_ticks,tick_cpu_ns,voluntary_switches," +
        "involuntary_switches,threads_start,threads_end,threads_ended,window_ns,orders,answered,cpu_us_per_order," +
        "switches_per_order";
    /** A run kept up when at least this share of the orders created in the window was answered in it. */
    static final int KEPT_UP_PERCENT = 95;
    /** The report's column titles for {@link #markdownCells()}. */
    static final String MARKDOWN_HEADER = "CPU µs/order | servers µs | probes µs | cores | ctx sw/order | threads";
    /** After the CPU per order of a run that fell {@link #isBehind() behind} the rate. */
    static final String BEHIND_MARK = " (behind)";
    /** Cells of a run with no accounting. */
    static final String MARKDOWN_EMPTY = " |  |  |  |  | ";
    private static final double NS_PER_US = 1000.0;

    /**
     * What a process is to the run.
     */
    enum Role
    {
        /** An order server, or a server of a reference. */
        SERVER("servers"),
        /** An order probe. */
        PROBE("probes");

        private final String plural;

        Role(final String plural)
        {
            this.plural = plural;
        }

        String plural()
        {
            return plural;
        }
    }

    /**
     * A process to account for.
     *
     * @param role its role.
     * @param name its name in the bench.
     * @param pid  its process id.
     */
    record Watched(Role role, String name, long pid)
    {
    }

    /**
     * A process and what it cost.
     *
     * @param process the process.
     * @param usage   its cost over the window.
     */
    record Entry(Watched process, ProcessCpu.Usage usage)
    {
    }

    /**
     * The two samples of every process, taken as the window starts and as it ends.
     */
    static final class Window
    {
        private final List<Watched> processes;
        private final List<ProcessCpu.Sample> starts = new ArrayList<>();
        private final List<ProcessCpu.Sample> ends = new ArrayList<>();
        private long startEpochNs;
        private long endEpochNs;

        private Window(final List<Watched> processes)
        {
            this.processes = List.copyOf(processes);
        }

        /**
         * Sample every process now.
         *
         * @param processes the run's processes.
         * @return the window, started.
         */
        static Window start(final List<Watched> processes)
        {
            final Window window = new Window(processes);
            window.startEpochNs = sampleAll(window.processes, window.starts);
            return window;
        }

        /**
         * Sample every process again.
         */
        void end()
        {
            endEpochNs = sampleAll(processes, ends);
        }

        /**
         * @return when the first samples were taken, ns since the epoch (the middle of the sampling).
         */
        long startEpochNs()
        {
            return startEpochNs;
        }

        /**
         * @return when the second samples were taken.
         */
        long endEpochNs()
        {
            return endEpochNs;
        }

        /**
         * @param orders   orders created between the two samples.
         * @param answered of these, those answered before the second sample.
         * @return the run's accounting (processes not running at either sample left out).
         */
        RunCpu account(final long orders, final long answered)
        {
            final List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < processes.size(); i++)
            {
                if (null != starts.get(i) && null != ends.get(i))
                {
                    entries.add(new Entry(processes.get(i), ProcessCpu.between(starts.get(i), ends.get(i))));
                }
            }
            return new RunCpu(entries, endEpochNs - startEpochNs, orders, answered);
        }

        private static long sampleAll(final List<Watched> processes, final List<ProcessCpu.Sample> samples)
        {
            final long before = epochNowNs();
            for (final Watched process : processes)
            {
                samples.add(ProcessCpu.sample(process.pid()));
            }
            return before + (epochNowNs() - before) / 2;
        }
    }

    private final List<Entry> entries;
    private final long windowNs;
    private final long orders;
    private final long answered;

    /**
     * @param entries  every process and what it cost.
     * @param windowNs time between the samples.
     * @param orders   orders created between them.
     * @param answered of these, those answered before the second sample.
     */
    RunCpu(final List<Entry> entries, final long windowNs, final long orders, final long answered)
    {
        this.entries = List.copyOf(entries);
        this.windowNs = windowNs;
        this.orders = orders;
        this.answered = answered;
    }

    /**
     * @return the processes and what each cost.
     */
    List<Entry> entries()
    {
        return entries;
    }

    /**
     * @return orders created in the window.
     */
    long orders()
    {
        return orders;
    }

    /**
     * @return of the orders created in the window, those answered in it.
     */
    long answered()
    {
        return answered;
    }

    /**
     * @return whether the configuration fell behind the rate in the window: fewer than {@value #KEPT_UP_PERCENT} %
     * of the orders created in it were answered in it, and the figures per order are not its cost per order.
     */
    boolean isBehind()
    {
        return answered * 100 < orders * KEPT_UP_PERCENT;
    }

    /**
     * @return CPU µs per order, all processes.
     */
    double cpuUsPerOrder()
    {
        return perOrder(cpuNs(null)) / NS_PER_US;
    }

    /**
     * @param role a role.
     * @return CPU µs per order of the processes of that role, NaN when the run has none.
     */
    double cpuUsPerOrder(final Role role)
    {
        return has(role) ? perOrder(cpuNs(role)) / NS_PER_US : Double.NaN;
    }

    /**
     * @return the CPUs the processes kept busy together, on average over the window.
     */
    double cores()
    {
        return windowNs > 0 ? cpuNs(null) / (double)windowNs : Double.NaN;
    }

    /**
     * @return context switches (voluntary and involuntary) per order, all processes.
     */
    double switchesPerOrder()
    {
        long switches = 0;
        for (final Entry entry : entries)
        {
            switches += entry.usage().switches();
        }
        return perOrder(switches);
    }

    /**
     * @return the threads of each process at the end of the window by role, with the count at the start where it
     * differed: {@code servers 41, 41 · probes 30→31, 30}.
     */
    String threads()
    {
        final StringBuilder text = new StringBuilder();
        for (final Role role : Role.values())
        {
            if (!has(role))
            {
                continue;
            }
            text.append(text.length() > 0 ? " · " : "").append(role.plural()).append(' ');
            boolean isFirst = true;
            for (final Entry entry : entries)
            {
                if (role == entry.process().role())
                {
                    final ProcessCpu.Usage usage = entry.usage();
                    text.append(isFirst ? "" : ", ").append(usage.threadsAtStart() == usage.threadsAtEnd() ? "" :
                        usage.threadsAtStart() + "→").append(usage.threadsAtEnd());
                    isFirst = false;
                }
            }
        }
        return text.toString();
    }

    /**
     * @return one line for the console.
     */
    String describe()
    {
        return String.format(Locale.ROOT, "cpu %.1f us/order (servers %s, probes %s) on %.2f cores, " +
            "%.1f ctx switches/order, threads: %s%s", cpuUsPerOrder(), format(cpuUsPerOrder(Role.SERVER)),
            format(cpuUsPerOrder(Role.PROBE)), cores(), switchesPerOrder(),
            threads(), isBehind() ? String.format(Locale.ROOT, " [BEHIND the rate: %d of the %d orders created in " +
            "the window answered in it; not a cost per order]", answered, orders) : "");
    }

    /**
     * @return the report's cells, in the order of {@link #MARKDOWN_HEADER}, without the outer bars; a run that fell
     * behind has its CPU per order marked {@value #BEHIND_MARK}.
     */
    String markdownCells()
    {
        return String.format(Locale.ROOT, "%.1f%s | %s | %s | %.2f | %.1f | %s", cpuUsPerOrder(),
            isBehind() ? BEHIND_MARK : "", format(cpuUsPerOrder(Role.SERVER)), format(cpuUsPerOrder(Role.PROBE)),
            cores(), switchesPerOrder(), threads());
    }

    /**
     * Write a line per process and one for all of them.
     *
     * @param file  the CSV file.
     * @param label the run's label.
     * @throws IOException when it cannot be written.
     */
    void writeCsv(final Path file, final String label) throws IOException
    {
        final StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        long cpuNs = 0;
        long voluntary = 0;
        long involuntary = 0;
        long statNs = 0;
        int threadsStart = 0;
        int threadsEnd = 0;
        int ended = 0;
        for (final Entry entry : entries)
        {
            final ProcessCpu.Usage usage = entry.usage();
            csv.append(row(label, entry.process().name(), entry.process().role().name().toLowerCase(Locale.ROOT),
                Long.toString(entry.process().pid()), usage));
            cpuNs += usage.cpuNs();
            voluntary += usage.voluntary();
            involuntary += usage.involuntary();
            statNs += usage.statCpuNs();
            threadsStart += usage.threadsAtStart();
            threadsEnd += usage.threadsAtEnd();
            ended += usage.threadsEnded();
        }
        csv.append(row(label, "all", "all", "", new ProcessCpu.Usage(cpuNs, statNs, voluntary, involuntary,
            threadsStart, threadsEnd, ended, false)));
        Files.writeString(file, csv, StandardCharsets.UTF_8);
    }

    private String row(
        final String label, final String name, final String role, final String pid, final ProcessCpu.Usage usage)
    {
        return String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%b,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.3f,%.3f%n", label, name,
            role, pid, usage.cpuNs(), usage.fromTicks(), usage.statCpuNs(), usage.voluntary(), usage.involuntary(),
            usage.threadsAtStart(), usage.threadsAtEnd(), usage.threadsEnded(), windowNs, orders, answered,
            perOrder(usage.cpuNs()) / NS_PER_US, perOrder(usage.switches()));
    }

    private boolean has(final Role role)
    {
        for (final Entry entry : entries)
        {
            if (role == entry.process().role())
            {
                return true;
            }
        }
        return false;
    }

    private long cpuNs(final Role role)
    {
        long ns = 0;
        for (final Entry entry : entries)
        {
            ns += null == role || role == entry.process().role() ? entry.usage().cpuNs() : 0;
        }
        return ns;
    }

    private double perOrder(final long value)
    {
        return orders > 0 ? value / (double)orders : Double.NaN;
    }

    private static String format(final double value)
    {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static long epochNowNs()
    {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
