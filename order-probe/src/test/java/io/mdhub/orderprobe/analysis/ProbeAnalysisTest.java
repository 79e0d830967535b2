package io.mdhub.orderprobe.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.pause.PauseEvent;
import io.mdhub.common.test.InterruptAfter;

/**
 * The analyser on synthetic runs whose answer is known: exact statistics, a stall attributed to the pause that made
 * it (and not to the small safepoints around it), a spike with no pause left unexplained, probes merged, the report's
 * files.
 */
@InterruptAfter(60)
class ProbeAnalysisTest
{
    private static final long T0 = 1_764_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void statisticsAreExactNearestRank()
    {
        final long[] values = new long[1000];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = (i + 1) * 1000L; // 1 .. 1000 µs
        }
        final LatencyStats stats = LatencyStats.of(values);
        assertEquals(1000, stats.count());
        assertEquals(500.5, stats.meanUs(), 1e-9);
        assertEquals(500, stats.medianUs());
        assertEquals(1, stats.minUs());
        assertEquals(1000, stats.maxUs());
        assertEquals(900, stats.p90Us());
        assertEquals(950, stats.p95Us());
        assertEquals(990, stats.p99Us());
        assertEquals(999, stats.p999Us());
        assertEquals(288.675, stats.stddevUs(), 0.001);
        assertArrayEquals(new long[] {1, 3, 1, 1}, LatencyStats.histogram(
            new long[] {5_000, 10_000, 15_000, 19_999, 25_000, 31_000}, 10_000, 30_000),
            "three 10 µs buckets, then everything beyond");
    }

    @Test
    void aStallIsAttributedToThePauseThatMadeItAndASpikeWithoutOneIsUnexplained() throws Exception
    {
        final List<PauseEvent> pauses = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            pauses.add(new PauseEvent("probe-A", "Cleanup", T0 + i * 100 * MS + 3 * MS, 50_000)); // 50 µs
        }
        final PauseEvent stop = new PauseEvent("server-1", "SIGSTOP", T0 + 5_000 * MS, 50 * MS);
        pauses.add(stop);
        final ProbeRun run = syntheticRun("A", "two_server 1000/s run 1", 0, stop, 8_000 * MS, pauses);
        run.write(dir.resolve("A"));
        final ProbeRun loaded = ProbeRun.load(dir.resolve("A"));
        assertEquals(run.orders(), loaded.orders());
        assertArrayEquals(run.endEpochNs(), loaded.endEpochNs());
        assertEquals(run.pauses(), loaded.pauses());

        final RunGroup group = RunGroup.group(List.of(loaded), MS).get(0);
        assertEquals(300, group.createToEnd().medianUs(), 1);
        final List<SpikeEpisode> episodes = group.episodes();
        assertEquals(2, episodes.size(), episodes::toString);
        final SpikeEpisode stall = episodes.get(0);
        assertEquals(stop, stall.causes().get(0), "the 50 ms stop, not a 50 µs safepoint");
        assertEquals(1, stall.causes().size());
        assertTrue(stall.orders() >= 49 && stall.orders() <= 51, () -> "orders caught in the stop: " + stall);
        assertTrue(stall.describeCause().startsWith("server-1 SIGSTOP 50.0 ms"), stall::describeCause);
        final SpikeEpisode lone = episodes.get(1);
        assertTrue(lone.isUnexplained(), () -> "no pause to blame: " + lone);
        assertEquals(1, lone.orders());
    }

    /**
     * A collection after the last measured order (the end-of-run JMX reads allocate in the servers) touched no
     * order: the report counts it apart from the window's pauses.
     */
    @Test
    void aCollectionAfterTheLastOrderIsCountedApartFromTheWindow()
    {
        final PauseEvent inWindow = new PauseEvent("server-0", "Hiccup", T0 + 2_000 * MS, 2 * MS);
        final PauseEvent gcAfter = new PauseEvent("server-1", "ParallelGCFailedAllocation", T0 + 11_000 * MS, 100 * MS);
        final PauseEvent before = new PauseEvent("server-1", "ParallelGCFailedAllocation", T0 - 5_000 * MS, 100 * MS);
        final RunGroup group = RunGroup.group(List.of(syntheticRun("A", "two_server 1000/s run 1", 0, null, 0,
            List.of(before, inWindow, gcAfter))), MS).get(0);
        assertEquals(T0 + 9_999 * MS + 300_000, group.measureEndEpochNs(), "the last order's end");
        assertEquals("  pauses in the measured window: 1 (0 of them GC); longest server-0 Hiccup 2.000 ms; " +
            "after it, before they were read: 1 (1 GC)", ProbeReport.pausesLine(group));
    }

    @Test
    @Timeout(60)
    void aTailOfAMinuteWidensTheHistogramBucketsInsteadOfDrawingMillions() throws Exception
    {
        final PauseEvent stop = new PauseEvent("server-0", "SIGSTOP", T0 + 5_000 * MS, 60_000 * MS);
        final RunGroup group = RunGroup.group(
            List.of(syntheticRun("A", "two_server 1000/s run 1", 0, stop, 0, List.of(stop))), MS).get(0);
        assertTrue(group.createToEnd().p999Us() > 59_000_000, () -> "a minute-long tail: " + group.createToEnd());

        final String text = ProbeReport.write(List.of(group), dir.resolve("report"));
        final long widthUs = LatencyStats.bucketWidthNs((long)(group.createToEnd().p999Us() * 1000), 500) / 1000;
        assertTrue(widthUs >= 100_000 && 0 == widthUs % 10, () -> "bucket width " + widthUs);
        assertTrue(text.contains("create-to-end histogram, " + widthUs + " µs buckets"), text);
        final String histogramLine = text.lines().filter(l -> l.contains("histogram,")).findFirst().orElseThrow();
        assertTrue(histogramLine.length() < 20_000, () -> "line of " + histogramLine.length() + " characters");
        assertTrue(Files.readString(dir.resolve("report").resolve("two_server_1000_s_run_1-histogram.svg"))
            .contains("<svg"));
        assertEquals(10_000, LatencyStats.bucketWidthNs(3_000_000, 1_000), "to 3 ms: the published 10 µs");
        assertEquals(20_000, LatencyStats.bucketWidthNs(10_000_001, 1_000), "just past 10 ms: 20 µs");
    }

    @Test
    void probesOfOneRunAreMergedAndTheReportIsWritten() throws Exception
    {
        final List<ProbeRun> runs = List.of(
            syntheticRun("A", "two_server 2000/s run 1", 0, null, 0, List.of()),
            syntheticRun("B", "two_server 2000/s run 1", 500_000, null, 0, List.of()),
            syntheticRun("A", "two_server 4000/s run 1", 0, null, 0, List.of()));
        final List<RunGroup> groups = RunGroup.group(runs, MS);
        assertEquals(2, groups.size());
        assertEquals(2 * runs.get(0).orders(), groups.get(0).createToEndNs().length);
        assertTrue(groups.get(0).episodes().isEmpty(), "no spike, nothing attributed");

        final Path out = dir.resolve("report");
        final String text = ProbeReport.write(groups, out);
        assertTrue(text.contains("== two_server 2000/s run 1: two_server"), text);
        assertTrue(text.contains("spikes above 1000 µs: 0 episodes"), text);
        final List<String> csv = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(ProbeReport.CSV_HEADER, csv.get(0));
        assertEquals(5, csv.size());
        assertTrue(csv.get(1).startsWith("two_server,create_to_end,2000,"), csv.get(1));
        final String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("two_server_2000_s_run_1-timeseries.svg"), html);
        assertTrue(Files.readString(out.resolve("two_server_2000_s_run_1-histogram.svg")).contains("<svg"));
        assertTrue(Files.readString(out.resolve("two_server_2000_s_run_1-timeseries.svg")).contains("<svg"));
        final HistogramLogReader hlog = new HistogramLogReader(
            out.resolve("two_server_2000_s_run_1-create-to-end.hlog").toFile());
        long total = 0;
        for (org.HdrHistogram.EncodableHistogram h; null != (h = hlog.nextIntervalHistogram()); )
        {
            total += ((org.HdrHistogram.Histogram)h).getTotalCount();
        }
        assertEquals(2L * runs.get(0).orders(), total, "every order in the interval log");
        assertFalse(Files.exists(out.resolve(ProbeReport.CONFIGURATIONS_CHART)), "one configuration: no comparison");
    }

    @Test
    void aReportOfSeveralConfigurationsDrawsThemSideBySide() throws Exception
    {
        final List<RunGroup> groups = RunGroup.group(List.of(
            syntheticRun("A", "two_server 2000/s run 1", "two_server"),
            syntheticRun("A", "two_server 4000/s run 1", "two_server"),
            syntheticRun("A", "tcp_floor 2000/s run 1", "tcp_floor"),
            syntheticRun("A", "tcp_floor 4000/s run 1", "tcp_floor")), MS);
        final Path out = dir.resolve("report");
        ProbeReport.write(groups, out);
        final String svg = Files.readString(out.resolve(ProbeReport.CONFIGURATIONS_CHART));
        assertTrue(svg.contains("<svg"), "an SVG");
        assertTrue(Files.readString(out.resolve("report.html")).contains(ProbeReport.CONFIGURATIONS_CHART));
    }

    private static ProbeRun syntheticRun(final String probe, final String label, final String configuration)
    {
        return syntheticRun(probe, label, 0, null, 0, List.of(), configuration);
    }

    private static ProbeRun syntheticRun(
        final String probe,
        final String label,
        final long offsetNs,
        final PauseEvent stop,
        final long loneAtNs,
        final List<PauseEvent> pauses)
    {
        return syntheticRun(probe, label, offsetNs, stop, loneAtNs, pauses, "two_server");
    }

    /**
     * 1,000 orders a second for 10 s, 300 µs each, except those a stop holds (they wait for its end and drain at
     * 10 µs an order) and one lone 5 ms order at {@code loneAtNs}.
     */
    private static ProbeRun syntheticRun(
        final String probe,
        final String label,
        final long offsetNs,
        final PauseEvent stop,
        final long loneAtNs,
        final List<PauseEvent> pauses,
        final String configuration)
    {
        final int count = 10_000;
        final long[] create = new long[count];
        final long[] send = new long[count];
        final long[] end = new long[count];
        long previousEnd = 0;
        for (int i = 0; i < count; i++)
        {
            create[i] = T0 + offsetNs + i * MS;
            send[i] = create[i] + 10_000;
            long done = create[i] + 300_000;
            if (null != stop && create[i] + 300_000 > stop.startEpochNs() && create[i] < stop.endEpochNs())
            {
                done = Math.max(stop.endEpochNs() + 300_000, previousEnd + 10_000);
            }
            if (loneAtNs > 0 && create[i] == T0 + loneAtNs)
            {
                done = create[i] + 5 * MS;
            }
            end[i] = done;
            previousEnd = done;
        }
        final Properties properties = new Properties();
        properties.setProperty(ProbeRun.PROBE_ID, probe);
        properties.setProperty(ProbeRun.RUN_LABEL, label);
        properties.setProperty(ProbeRun.CONFIGURATION, configuration);
        properties.setProperty(ProbeRun.TOTAL_RATE, label.replaceAll(".* (\\d+)/s.*", "$1"));
        properties.setProperty(ProbeRun.MEASURE_START_EPOCH_NS, Long.toString(T0));
        return new ProbeRun(properties, create, send, end, pauses);
    }
}
