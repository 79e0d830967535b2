package io.mdhub.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;

/**
 * The soak: an hour (property {@code mdhub.test.soak.minutes}) of market data and orders with periodic kills, as
 * {@code bin/mdhub chaos md} and {@code bin/mdhub chaos orders} run them side by side: the source and the distributor
 * killed under the consumer in turn, order server 1 killed under the load. Every minute each server JVM (backbone
 * daemon, distributor, p2p-server, order servers) is sampled: resident memory (its anonymous part: heap, direct
 * buffers, native; mapped files hold data), heap after a full collection, open descriptors. It fails when either
 * chaos run has a failed round, or when a server that lived through at least half the soak keeps growing in any of
 * them (see {@link GrowthCheck}). An order server's resident memory is reported but not judged: it keeps every order
 * it acknowledged in memory by design (its records, sequence positions and identity index grow with the orders
 * held), so only its heap and descriptors must level off. The samples ({@code samples.csv}) and the verdicts
 * ({@code report.md}) go to {@code target/soak-<date-time>}.
 */
@Tag("slow")
class SoakIT
{
    private static final long MB = 1024 * 1024;
    private static final long SAMPLE_EVERY_MS = TimeUnit.MINUTES.toMillis(1);
    private static final GrowthCheck MEMORY = new GrowthCheck(0.10, 32 * MB, 0.1);
    private static final GrowthCheck HEAP = new GrowthCheck(0.10, 16 * MB, 0.1);
    private static final GrowthCheck DESCRIPTORS = new GrowthCheck(0.10, 16, 0.1);
    private static final List<String> SERVER_JARS =
        List.of("mdhub-backbone.jar", "mdhub-distributor.jar", "mdhub-p2p.jar");

    @Test
    @InterruptAfter(value = 100, unit = TimeUnit.MINUTES)
    void marketDataAndOrdersWithKillsForAnHourLevelOff() throws Exception
    {
        final long minutes = Long.getLong("mdhub.test.soak.minutes", 60);
        assertTrue(minutes >= 12 && minutes <= 80, "mdhub.test.soak.minutes must be 12-80: " + minutes);
        final String buildDir = System.getProperty("mdhub.build.dir", "target");
        final Path dir = Path.of(buildDir).toAbsolutePath().resolve("soak-" +
            LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(dir);
        final ResourceSampler sampler = new ResourceSampler(Path.of(System.getProperty("java.home")));
        final Map<String, Series> series = new LinkedHashMap<>();
        try (SystemProcesses processes = new SystemProcesses(buildDir))
        {
            final Process md = processes.startScript(dir.resolve("chaos-md.log"), "bin/mdhub", List.of("chaos", "md",
                "--rounds", "100000", "--minutes", Long.toString(minutes), "--seed", "1", "--items", "1000",
                "--rate", "2000", "--faults", "source,distributor", "--out", dir.resolve("md").toString()));
            final Process orders = processes.startScript(dir.resolve("chaos-orders.log"), "bin/mdhub", List.of("chaos",
                "orders", "--rounds", "100000", "--minutes", Long.toString(minutes), "--seed", "2", "--rate", "1000",
                "--round-seconds", "30", "--faults", "server-1", "--out", dir.resolve("orders").toString()));
            final long endMs = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(minutes + 15);
            int minute = 0;
            while ((md.isAlive() || orders.isAlive()) && System.currentTimeMillis() < endMs)
            {
                sampleServers(List.of(md, orders), sampler, series, minute++);
                write(dir.resolve("samples.csv"), series);
                md.waitFor(SAMPLE_EVERY_MS, TimeUnit.MILLISECONDS);
            }
            assertEquals(0, exitOf(md), () -> "chaos md had failed rounds, see " + dir.resolve("md"));
            assertEquals(0, exitOf(orders), () -> "chaos orders had failed rounds, see " + dir.resolve("orders"));
        }
        final String report = verdicts(series, minutes / 2);
        Files.writeString(dir.resolve("report.md"), report);
        System.out.print(report);
        assertTrue(report.contains("| backbone"), report);
        assertTrue(report.contains("| p2p"), report);
        assertTrue(report.contains("| order-server-0"), report);
        assertTrue(!report.contains("GROWS"), () -> "a resource kept growing:\n" + report);
    }

    private static int exitOf(final Process process) throws InterruptedException
    {
        if (!process.waitFor(5, TimeUnit.MINUTES))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    private static void sampleServers(
        final List<Process> runs, final ResourceSampler sampler, final Map<String, Series> series, final int minute)
    {
        for (final Process run : runs)
        {
            run.descendants().forEach((process) ->
            {
                final String label = label(process);
                if (null != label)
                {
                    final ResourceSample sample = sampler.sample(process.pid());
                    if (null != sample)
                    {
                        series.computeIfAbsent(label + " (pid " + process.pid() + ")", (key) -> new Series())
                            .add(minute, sample);
                    }
                }
            });
        }
    }

    /**
     * @return what a server JVM is, from its command line (jar and component name), or null for anything else.
     */
    static String label(final ProcessHandle process)
    {
        final String[] arguments = process.info().arguments().orElse(new String[0]);
        String jar = null;
        String name = null;
        for (final String argument : arguments)
        {
            for (final String serverJar : SERVER_JARS)
            {
                if (argument.endsWith(serverJar))
                {
                    jar = serverJar.substring("mdhub-".length(), serverJar.length() - ".jar".length());
                }
            }
            if (argument.startsWith("-Dmdhub.order.server.id="))
            {
                name = "order-server-" + argument.substring(argument.indexOf('=') + 1);
            }
        }
        return null == jar ? null : null != name ? name : jar;
    }

    private static String verdicts(final Map<String, Series> series, final long minSamples)
    {
        final StringBuilder report = new StringBuilder()
            .append("| server | samples | RSS MB (last) | anonymous RSS MB (last) | anonymous RSS | ")
            .append("heap after GC MB (last) | heap | descriptors (last) | descriptors |\n")
            .append("|---|---:|---:|---:|---|---:|---|---:|---|\n");
        for (final Map.Entry<String, Series> entry : series.entrySet())
        {
            final Series one = entry.getValue();
            if (one.rss.size() < minSamples)
            {
                continue; // a process restarted by a kill: too short a life for a verdict
            }
            final boolean holdsOrders = entry.getKey().startsWith("order-server");
            report.append("| ").append(entry.getKey()).append(" | ").append(one.rss.size())
                .append(" | ").append(last(one.rss) / MB).append(" | ").append(last(one.anonRss) / MB)
                .append(" | ").append(holdsOrders ?
                    trend(one.anonRss, MB) + ", grows with the orders held: not judged" :
                    verdict(MEMORY, one.anonRss, MB))
                .append(" | ").append(last(one.heap) / MB).append(" | ").append(verdict(HEAP, one.heap, MB))
                .append(" | ").append(last(one.fds)).append(" | ").append(verdict(DESCRIPTORS, one.fds, 1))
                .append(" |\n");
        }
        return report.toString();
    }

    private static String trend(final List<Long> samples, final long unit)
    {
        return String.format("trend %+.2f/min", MEMORY.check(samples).perSample() / unit);
    }

    private static String verdict(final GrowthCheck check, final List<Long> samples, final long unit)
    {
        final GrowthCheck.Verdict verdict = check.check(samples);
        return (verdict.grows() ? "GROWS" : "level") + String.format(" (trend %+.2f/min, allowed %d)",
            verdict.perSample() / unit, verdict.allowed() / unit);
    }

    private static long last(final List<Long> samples)
    {
        return samples.get(samples.size() - 1);
    }

    private static void write(final Path file, final Map<String, Series> series) throws IOException
    {
        final StringBuilder csv =
            new StringBuilder("server,minute,rss_bytes,anon_rss_bytes,heap_after_gc_bytes,descriptors\n");
        for (final Map.Entry<String, Series> entry : series.entrySet())
        {
            final Series one = entry.getValue();
            for (int i = 0; i < one.minutes.size(); i++)
            {
                csv.append(entry.getKey()).append(',').append(one.minutes.get(i)).append(',').append(one.rss.get(i))
                    .append(',').append(one.anonRss.get(i)).append(',').append(one.heap.get(i)).append(',')
                    .append(one.fds.get(i)).append('\n');
            }
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
    }

    /**
     * One server process's samples, a minute apart.
     */
    private static final class Series
    {
        final List<Integer> minutes = new ArrayList<>();
        final List<Long> rss = new ArrayList<>();
        final List<Long> anonRss = new ArrayList<>();
        final List<Long> heap = new ArrayList<>();
        final List<Long> fds = new ArrayList<>();

        void add(final int minute, final ResourceSample sample)
        {
            minutes.add(minute);
            rss.add(sample.rssBytes());
            anonRss.add(sample.anonRssBytes());
            heap.add(sample.heapAfterGcBytes());
            fds.add((long)sample.fileDescriptors());
        }
    }
}
