package io.mdhub.benchmarks.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Samples a running JVM's resources from outside it: resident memory and file descriptors from {@code /proc}, the
 * heap after a full collection through {@code jcmd} ({@code GC.run}, then {@code GC.heap_info}), so a soak sees
 * what the process keeps, not what it has not collected yet.
 */
public final class ResourceSampler
{
    private static final Pattern VM_RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB");
    private static final Pattern RSS_ANON = Pattern.compile("(?m)^RssAnon:\\s+(\\d+) kB");
    /** A heap's line, or each generation's (Parallel, Serial): {@code total 76288K, used 5505K}. */
    private static final Pattern HEAP_USED = Pattern.compile("(?m)^\\s\\S.*\\stotal \\d+K, used (\\d+)K");
    private static final long JCMD_TIMEOUT_SECONDS = 30;

    private final Path jcmd;

    /**
     * @param javaHome the JDK whose {@code jcmd} asks the JVMs.
     */
    public ResourceSampler(final Path javaHome)
    {
        this.jcmd = javaHome.resolve("bin").resolve("jcmd");
    }

    /**
     * @param pid a running JVM.
     * @return its resources now, or null when it has gone.
     */
    public ResourceSample sample(final long pid)
    {
        final Path proc = Path.of("/proc", Long.toString(pid));
        try
        {
            final String status = Files.readString(proc.resolve("status"), StandardCharsets.US_ASCII);
            final int fds;
            try (Stream<Path> open = Files.list(proc.resolve("fd")))
            {
                fds = (int)open.count();
            }
            return new ResourceSample(rssBytes(status), anonRssBytes(status), heapAfterGcBytes(pid), fds);
        }
        catch (final java.nio.file.NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @param line   the line's pattern, its value in kB the first group.
     * @param status the text of {@code /proc/<pid>/status}.
     * @return the line's value in kB.
     */
    static long kilobytes(final Pattern line, final String status)
    {
        final Matcher matcher = line.matcher(status);
        if (!matcher.find())
        {
            throw new IllegalArgumentException("no " + line + " line in /proc status");
        }
        return Long.parseLong(matcher.group(1));
    }

    /**
     * @param status the text of {@code /proc/<pid>/status}.
     * @return its VmRSS in bytes.
     */
    static long rssBytes(final String status)
    {
        return kilobytes(VM_RSS, status) * 1024;
    }

    /**
     * @param status the text of {@code /proc/<pid>/status}.
     * @return its RssAnon in bytes.
     */
    static long anonRssBytes(final String status)
    {
        return kilobytes(RSS_ANON, status) * 1024;
    }

    /**
     * @param heapInfo the output of {@code jcmd <pid> GC.heap_info}.
     * @return the heap's used bytes (over its generations where the collector lists them apart), -1 if the output
     * names none.
     */
    static long heapUsedBytes(final String heapInfo)
    {
        final Matcher matcher = HEAP_USED.matcher(heapInfo);
        long used = -1;
        while (matcher.find())
        {
            used = Math.max(used, 0) + Long.parseLong(matcher.group(1)) * 1024;
        }
        return used;
    }

    private long heapAfterGcBytes(final long pid)
    {
        if (!Files.isExecutable(jcmd) || null == run(pid, "GC.run"))
        {
            return -1;
        }
        final String info = run(pid, "GC.heap_info");
        return null == info ? -1 : heapUsedBytes(info);
    }

    private String run(final long pid, final String command)
    {
        try
        {
            final Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command)
                .redirectErrorStream(true).start();
            // waited for before its output is read, so a jcmd that hangs is given up on; what these commands print
            // (a line, a heap summary) fits in the pipe
            if (!process.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return null;
            }
            return 0 == process.exitValue() ?
                new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : null;
        }
        catch (final IOException ex)
        {
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
