package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.mdhub.common.net.LocalPorts;

/**
 * What an idle host of MDHub costs: the backbone daemon, a distributor and a p2p-server started from their jars on
 * their defaults with nothing connected, left to settle, then measured over a window thread by thread from
 * {@code /proc} (CPU time from each thread's schedstat, wake-ups from its context switches). An idle process's CPU
 * is its count of wake-ups, so the report lists each thread that woke with how often and what it cost.
 */
@Command(name = "idle", mixinStandardHelpOptions = true,
    description = "Idle CPU of backbone daemon, distributor and p2p-server on their defaults, nothing connected: " +
        "CPU and wake-ups per process and per thread over a window, a report and idle.csv.")
public final class IdleBench implements Callable<Integer>
{
    /** The acceptance bound: the three processes of a host together, in percent of one core. */
    static final double TARGET_PERCENT_OF_A_CORE = 1.0;
    /** Threads that woke less often than this, and used less CPU than {@link #MIN_THREAD_PERCENT}, are not listed. */
    private static final double MIN_WAKEUPS_PER_SECOND = 0.05;
    private static final double MIN_THREAD_PERCENT = 0.0005;
    /** The row of a process's CPU its live threads' files do not hold (see {@link #perThread}). */
    static final String ENDED_OR_UNSPLIT = "(threads ended in the window)";
    /** The threads that do the servers' own work: the driver's agent and the backbone loops (kernel names). */
    private static final List<String> LOOP_THREADS = List.of("[sender,receive", "distributor-", "p2p-worker-");

    @Spec
    CommandSpec spec;

    @Option(names = "--settle-seconds", description = "Wait after start before the window: start-up work (JIT, " +
        "class loading, first announcements) is over by then (default ${DEFAULT-VALUE}).")
    int settleSeconds = 60;

    @Option(names = "--window-seconds", description = "The measured window (default ${DEFAULT-VALUE}).")
    int windowSeconds = 20;

    @Option(names = "--jvm-opts", description = "JVM options of every process, after the launcher's own " +
        "(default \"${DEFAULT-VALUE}\", what bin/mdhub adds besides them).")
    String jvmOpts = "-XX:+UseTransparentHugePages";

    @Option(names = "--out", description = "Report directory (default target/bench-idle-<time>).")
    Path out;

    /**
     * One thread's share of the window.
     *
     * @param process           the process's role.
     * @param thread            the thread's name as the kernel keeps it (15 characters).
     * @param percentOfACore    CPU over the window, percent of one core.
     * @param wakeupsPerSecond  voluntary context switches per second: it blocked and was woken.
     */
    record ThreadIdle(String process, String thread, double percentOfACore, double wakeupsPerSecond)
    {
    }

    @Override
    public Integer call() throws Exception
    {
        if (settleSeconds < 0 || windowSeconds <= 0)
        {
            throw new IllegalArgumentException("need --settle-seconds >= 0 and --window-seconds > 0");
        }
        final PrintWriter console = spec.commandLine().getOut();
        final Path root = LatencyBench.checkoutRoot();
        final Path dir = BenchProcesses.reportDir(root, out, "idle");
        Files.createDirectories(dir);
        final List<String> jvm = BenchProcesses.jvmOptions(jvmOpts);
        final List<ThreadIdle> threads = new ArrayList<>();
        try (BenchProcesses processes = new BenchProcesses(root, dir, jvm))
        {
            final List<BenchProcess> measured =
                processes.startMdhub("", LocalPorts.unused(), LocalPorts.unused());
            console.printf("bench idle: backbone, distributor and p2p-server up; settling %d s, then measuring %d s%n",
                settleSeconds, windowSeconds);
            console.flush();
            TimeUnit.SECONDS.sleep(settleSeconds);
            final List<ProcessCpu.Sample> first = new ArrayList<>();
            for (final BenchProcess process : measured)
            {
                final ProcessCpu.Sample sample = ProcessCpu.sample(process.pid());
                if (null == sample)
                {
                    throw new IllegalStateException(process.name() + " ended while settling; see " +
                        dir.resolve(process.name() + ".log"));
                }
                first.add(sample);
            }
            final long startNs = System.nanoTime();
            TimeUnit.SECONDS.sleep(windowSeconds);
            for (int i = 0; i < measured.size(); i++)
            {
                final BenchProcess process = measured.get(i);
                final ProcessCpu.Sample last = ProcessCpu.sample(process.pid());
                if (null == last)
                {
                    throw new IllegalStateException(process.name() + " ended during the window; see " +
                        dir.resolve(process.name() + ".log"));
                }
                threads.addAll(perThread(process, first.get(i), last, System.nanoTime() - startNs));
            }
        }
        final String report = report(threads);
        console.print(report);
        console.flush();
        Files.writeString(dir.resolve("report.md"), "# MDHub idle\n\nCommand: `bin/mdhub bench idle --settle-seconds " +
            settleSeconds + " --window-seconds " + windowSeconds + "`. Machine: " + LatencyBench.machine() + ".\n\n" +
            "![idle CPU by process](idle.png)\n\n" + report, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("idle.csv"), csv(threads), StandardCharsets.UTF_8);
        chart(threads, dir.resolve("idle.png"));
        console.println("bench idle: report in " + dir);
        return 0;
    }

    /**
     * A row per thread alive at the end of the window, and one more for what the threads' own files no longer hold:
     * threads that ended within the window (the JIT's come and go), or a kernel without schedstat; the process's
     * total comes from {@link ProcessCpu#between}, which falls back on the process's clock ticks for both.
     */
    private static List<ThreadIdle> perThread(
        final BenchProcess process, final ProcessCpu.Sample first, final ProcessCpu.Sample last, final long windowNs)
    {
        final List<ThreadIdle> rows = new ArrayList<>();
        final double seconds = windowNs / 1e9;
        final Map<Long, String> names = process.threads();
        long threadsCpuNs = 0;
        for (final Map.Entry<Long, ProcessCpu.ThreadSample> entry : last.threads().entrySet())
        {
            final ProcessCpu.ThreadSample before = first.threads().get(entry.getKey());
            final ProcessCpu.ThreadSample after = entry.getValue();
            final long cpuNs = after.cpuNs() < 0 ? 0 : after.cpuNs() - (null == before ? 0 : before.cpuNs());
            // voluntary switches: the thread blocked and was woken again (involuntary ones are preemptions)
            final long wakeups = after.voluntary() - (null == before ? 0 : before.voluntary());
            threadsCpuNs += cpuNs;
            rows.add(new ThreadIdle(process.name(), names.getOrDefault(entry.getKey(), "thread " + entry.getKey()),
                100.0 * cpuNs / windowNs, wakeups / seconds));
        }
        final ProcessCpu.Usage usage = ProcessCpu.between(first, last);
        if (usage.cpuNs() > threadsCpuNs)
        {
            rows.add(new ThreadIdle(process.name(), ENDED_OR_UNSPLIT, 100.0 * (usage.cpuNs() - threadsCpuNs) / windowNs,
                0));
        }
        return rows;
    }

    static double total(final List<ThreadIdle> threads)
    {
        return threads.stream().mapToDouble(ThreadIdle::percentOfACore).sum();
    }

    static String report(final List<ThreadIdle> threads)
    {
        final StringBuilder out = new StringBuilder();
        out.append("| process | CPU, % of a core | wake-ups per second |\n|---|---|---|\n");
        final List<String> processes = threads.stream().map(ThreadIdle::process).distinct().toList();
        for (final String process : processes)
        {
            final List<ThreadIdle> its = threads.stream().filter((t) -> t.process().equals(process)).toList();
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.1f |%n", process, total(its),
                its.stream().mapToDouble(ThreadIdle::wakeupsPerSecond).sum()));
        }
        final double total = total(threads);
        out.append(String.format(Locale.ROOT, "| **together** | **%.3f** | **%.1f** |%n%n", total,
            threads.stream().mapToDouble(ThreadIdle::wakeupsPerSecond).sum()));
        out.append(String.format(Locale.ROOT, "Target: below %.1f %% of a core together: %s.%n%n",
            TARGET_PERCENT_OF_A_CORE, total < TARGET_PERCENT_OF_A_CORE ? "met" : "missed"));
        out.append("| process | thread | CPU, % of a core | wake-ups per second |\n|---|---|---|---|\n");
        threads.stream()
            .filter((t) -> t.wakeupsPerSecond() >= MIN_WAKEUPS_PER_SECOND || t.percentOfACore() >= MIN_THREAD_PERCENT)
            .sorted(Comparator.comparing(ThreadIdle::process).thenComparing(
                Comparator.comparingDouble(ThreadIdle::percentOfACore).reversed()))
            .forEach((t) -> out.append(String.format(Locale.ROOT, "| %s | `%s` | %.3f | %.1f |%n", t.process(),
                t.thread(), t.percentOfACore(), t.wakeupsPerSecond())));
        return out.toString();
    }

    /**
     * A stacked bar per process: its loop (or the driver's agent) beside the rest of the JVM.
     */
    private static void chart(final List<ThreadIdle> threads, final Path file) throws IOException
    {
        final List<String> processes = threads.stream().map(ThreadIdle::process).distinct().toList();
        final List<Double> loops = new ArrayList<>();
        final List<Double> rest = new ArrayList<>();
        for (final String process : processes)
        {
            final List<ThreadIdle> its = threads.stream().filter((t) -> t.process().equals(process)).toList();
            final double loop = total(its.stream().filter(IdleBench::isLoop).toList());
            loops.add(loop);
            rest.add(total(its) - loop);
        }
        final CategoryChart chart = new CategoryChartBuilder().width(640).height(400)
            .title(String.format(Locale.ROOT, "Idle CPU: %.2f %% of a core together (bound %.1f %%)", total(threads),
                TARGET_PERCENT_OF_A_CORE))
            .xAxisTitle("process").yAxisTitle("% of one core").build();
        chart.getStyler().setStacked(true);
        chart.addSeries("backbone loop / driver agent", processes, loops);
        chart.addSeries("JVM, metrics, JIT", processes, rest);
        try (java.io.OutputStream out = Files.newOutputStream(file))
        {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static boolean isLoop(final ThreadIdle thread)
    {
        return LOOP_THREADS.stream().anyMatch((prefix) -> thread.thread().startsWith(prefix));
    }

    static String csv(final List<ThreadIdle> threads)
    {
        final StringBuilder out = new StringBuilder("process,thread,cpu_percent_of_a_core,wakeups_per_second\n");
        for (final ThreadIdle t : threads)
        {
            out.append(String.format(Locale.ROOT, "%s,\"%s\",%.4f,%.2f%n", t.process(), t.thread().replace("\"", "'"),
                t.percentOfACore(), t.wakeupsPerSecond()));
        }
        return out.toString();
    }
}
