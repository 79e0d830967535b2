package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a process has cost the machine so far, read from {@code /proc} (proc(5)) without stopping it:
 * <ul>
 *     <li>each thread's CPU time in ns, from {@code /proc/<pid>/task/<tid>/schedstat}: the scheduler's own running
 *     sum of the time the thread ran, exact, where {@code /proc/<pid>/stat} counts clock ticks (10 ms at the usual
 *     100 per second);</li>
 *     <li>each thread's voluntary switches (it blocked: a park, a socket read) and involuntary ones (it was
 *     preempted), from {@code /proc/<pid>/task/<tid>/status};</li>
 *     <li>the whole process's user + system time in ticks, from {@code /proc/<pid>/stat}, which, unlike the threads'
 *     files, still holds the time of threads that have ended.</li>
 * </ul>
 * {@link #between} makes two samples a {@link Usage}, thread by thread: a thread started between them counts from
 * zero. A thread that ended between them took its time out of the threads' files; then the process's ticks are used
 * instead, as only they still hold that time: when a thread of the first sample is gone, or when the ticks exceed
 * the threads' sum by more than two ticks (a thread that started and ended between the samples). The switches of
 * an ended thread are lost with it; the usage says how many threads of the first sample ended.
 */
final class ProcessCpu
{
    /** Field numbers in {@code /proc/<pid>/stat} (proc(5)): user and system time in clock ticks. */
    private static final int STAT_UTIME = 14;
    private static final int STAT_STIME = 15;
    private static final long CLOCK_TICKS_DEFAULT = 100;
    private static final long NS_PER_S = TimeUnit.SECONDS.toNanos(1);
    private static final long NS_PER_TICK = NS_PER_S / clockTicksPerSecond();

    private ProcessCpu()
    {
    }

    /**
     * One thread at one time.
     *
     * @param cpuNs       time it ran, ns; -1 when the kernel keeps no schedstat.
     * @param voluntary   times it gave up its CPU (blocked).
     * @param involuntary times it was preempted.
     */
    record ThreadSample(long cpuNs, long voluntary, long involuntary)
    {
    }

    /**
     * One process at one time.
     *
     * @param pid       the process.
     * @param statCpuNs its user + system time, all threads, ended ones too, at tick resolution.
     * @param threads   its threads now, by thread id.
     */
    record Sample(long pid, long statCpuNs, Map<Long, ThreadSample> threads)
    {
    }

    /**
     * What a process cost between two samples.
     *
     * @param cpuNs          CPU time, ns: the threads' own sums, or the process's ticks when a thread ended or the
     *                       kernel keeps no schedstat ({@code fromTicks}).
     * @param statCpuNs      the same from the process's ticks, for comparison.
     * @param voluntary      voluntary context switches of the threads alive at the end.
     * @param involuntary    involuntary ones.
     * @param threadsAtStart threads at the first sample.
     * @param threadsAtEnd   threads at the second.
     * @param threadsEnded   threads of the first sample gone at the second.
     * @param fromTicks      whether {@code cpuNs} is the tick count.
     */
    record Usage(
        long cpuNs,
        long statCpuNs,
        long voluntary,
        long involuntary,
        int threadsAtStart,
        int threadsAtEnd,
        int threadsEnded,
        boolean fromTicks)
    {
        /**
         * @return voluntary and involuntary switches together.
         */
        long switches()
        {
            return voluntary + involuntary;
        }
    }

    /**
     * @param pid a process id.
     * @return what it has cost so far, or null when it is not running (or not readable).
     */
    static Sample sample(final long pid)
    {
        final Path proc = Path.of("/proc", Long.toString(pid));
        final long statCpuNs;
        try
        {
            statCpuNs = statTicks(Files.readString(proc.resolve("stat"), StandardCharsets.US_ASCII)) * NS_PER_TICK;
        }
        catch (final IOException ex)
        {
            return null;
        }
        final Map<Long, ThreadSample> threads = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(proc.resolve("task")))
        {
            for (final Path task : (Iterable<Path>)tasks::iterator)
            {
                final ThreadSample thread = sampleThread(task);
                if (null != thread)
                {
                    threads.put(Long.parseLong(task.getFileName().toString()), thread);
                }
            }
        }
        catch (final IOException ex)
        {
            return null; // it ended meanwhile
        }
        return new Sample(pid, statCpuNs, threads);
    }

    /**
     * @param start the earlier sample.
     * @param end   the later sample of the same process.
     * @return what it cost between them.
     */
    static Usage between(final Sample start, final Sample end)
    {
        if (start.pid() != end.pid())
        {
            throw new IllegalArgumentException("samples of two processes: " + start.pid() + ", " + end.pid());
        }
        long cpuNs = 0;
        long voluntary = 0;
        long involuntary = 0;
        boolean isSchedstatMissing = false;
        for (final Map.Entry<Long, ThreadSample> thread : end.threads().entrySet())
        {
            final ThreadSample last = thread.getValue();
            final ThreadSample first = start.threads().get(thread.getKey());
            isSchedstatMissing |= last.cpuNs() < 0;
            cpuNs += last.cpuNs() - (null == first ? 0 : first.cpuNs());
            voluntary += last.voluntary() - (null == first ? 0 : first.voluntary());
            involuntary += last.involuntary() - (null == first ? 0 : first.involuntary());
        }
        int ended = 0;
        for (final Long tid : start.threads().keySet())
        {
            ended += end.threads().containsKey(tid) ? 0 : 1;
        }
        final long statCpuNs = end.statCpuNs() - start.statCpuNs();
        final boolean fromTicks = ended > 0 || isSchedstatMissing || statCpuNs - cpuNs > 2 * NS_PER_TICK;
        return new Usage(fromTicks ? Math.max(statCpuNs, Math.max(0, cpuNs)) : cpuNs, statCpuNs, voluntary,
            involuntary, start.threads().size(), end.threads().size(), ended, fromTicks);
    }

    /**
     * @param statLine a {@code /proc/<pid>/stat} line.
     * @return user + system time in clock ticks.
     */
    static long statTicks(final String statLine)
    {
        // the fields from the 3rd on follow the name, which may itself hold spaces and parentheses
        final String[] fields = statLine.substring(statLine.lastIndexOf(')') + 2).strip().split(" ");
        return Long.parseLong(fields[STAT_UTIME - 3]) + Long.parseLong(fields[STAT_STIME - 3]);
    }

    /**
     * @return ns per clock tick of {@code /proc/<pid>/stat}.
     */
    static long nsPerTick()
    {
        return NS_PER_TICK;
    }

    private static ThreadSample sampleThread(final Path task)
    {
        try
        {
            final String schedstat = readIfThere(task.resolve("schedstat"));
            final long cpuNs = null == schedstat ? -1 : Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
            final String status = Files.readString(task.resolve("status"), StandardCharsets.US_ASCII);
            return new ThreadSample(cpuNs, statusValue(status, "voluntary_ctxt_switches:"),
                statusValue(status, "nonvoluntary_ctxt_switches:"));
        }
        catch (final IOException ex)
        {
            return null; // the thread ended meanwhile
        }
    }

    private static String readIfThere(final Path file) throws IOException
    {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.US_ASCII) : null;
    }

    private static long statusValue(final String status, final String key)
    {
        int at = status.indexOf(key);
        // "voluntary_ctxt_switches:" is also the end of "nonvoluntary_ctxt_switches:": take the one at a line start
        while (at > 0 && '\n' != status.charAt(at - 1))
        {
            at = status.indexOf(key, at + 1);
        }
        if (at < 0)
        {
            return 0;
        }
        final int end = status.indexOf('\n', at);
        return Long.parseLong(status.substring(at + key.length(), end < 0 ? status.length() : end).strip());
    }

    private static long clockTicksPerSecond()
    {
        try
        {
            final Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            if (getconf.waitFor(5, TimeUnit.SECONDS) && 0 == getconf.exitValue())
            {
                final long ticks = Long.parseLong(
                    new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip());
                return ticks > 0 ? ticks : CLOCK_TICKS_DEFAULT;
            }
            getconf.destroyForcibly();
        }
        catch (final IOException | NumberFormatException ex)
        {
            // no getconf: Linux's USER_HZ is 100 on every architecture we run on
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return CLOCK_TICKS_DEFAULT;
    }
}
