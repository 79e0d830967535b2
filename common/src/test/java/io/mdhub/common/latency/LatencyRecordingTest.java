package io.mdhub.common.latency;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(10)
class LatencyRecordingTest
{
    private static final long HIGHEST_NS = 10_000_000_000L;

    @Test
    void summaryOfAKnownUniformDistribution()
    {
        // 1 us .. 10,000 us, one sample each: mean 5000.5 us, stddev sqrt((n^2 - 1) / 12) = 2886.75 us.
        final LatencyRecorder recorder = new LatencyRecorder("1000", HIGHEST_NS, 3);
        for (long us = 1; us <= 10_000; us++)
        {
            recorder.record(us * 1000);
        }
        final LatencySummary summary = new LatencySummary("update_rate_per_s")
            .add(recorder.label(), recorder.intervalHistogram());

        assertEquals("update_rate_per_s,mean_us,stddev_us,max_us,min_us,samples,p50_us,p90_us,p99_us,p99_9_us",
            summary.header());
        assertTrue(summary.header().startsWith("update_rate_per_s,mean_us,stddev_us,max_us,min_us,samples"),
            "the reference files' columns come first");
        final String[] cells = summary.csvLine(0).split(",");
        assertEquals("1000", cells[0]);
        assertClose(5000.5, cells[1]);
        assertClose(2886.75, cells[2]);
        assertClose(10_000, cells[3]);
        assertClose(1, cells[4]);
        assertEquals("10000", cells[5]);
        assertClose(5000, cells[6]);
        assertClose(9000, cells[7]);
        assertClose(9900, cells[8]);
        assertClose(9990, cells[9]);
    }

    @Test
    void intervalsDoNotOverlapAndHistogramsAreRecycled()
    {
        final LatencyRecorder recorder = new LatencyRecorder("x", HIGHEST_NS, 3);
        recorder.record(1000);
        recorder.record(2000);
        final Histogram first = recorder.intervalHistogram();
        assertEquals(2, first.getTotalCount());

        recorder.record(3000);
        recorder.intervalHistogram();
        final Histogram third = recorder.intervalHistogram();
        assertEquals(0, third.getTotalCount(), "an interval holds only what was recorded since the previous one");
        assertTrue(first == third, "the histogram handed back is reused, not reallocated");
    }

    @Test
    void negativeAndOversizedValuesAreCountedNotThrown()
    {
        final LatencyRecorder recorder = new LatencyRecorder("x", 1_000_000, 3);
        recorder.record(-5);
        recorder.record(-1);
        recorder.record(5_000_000);
        recorder.record(500);

        assertEquals(2, recorder.negativeValueCount());
        assertEquals(1, recorder.oversizedValueCount());
        final Histogram interval = recorder.intervalHistogram();
        assertEquals(2, interval.getTotalCount(), "negatives dropped, oversized kept at the maximum");
        assertTrue(interval.getMaxValue() >= 1_000_000 * 0.999, () -> "max " + interval.getMaxValue());
        assertThrows(IllegalArgumentException.class, () -> new LatencyRecorder("x", 1, 3));
        assertThrows(IllegalArgumentException.class, () -> new LatencyRecorder("x", 1000, 6));
    }

    @Test
    void intervalLogReadsBackWithTheSameCounts(@TempDir final Path dir) throws IOException
    {
        final File hlog = dir.resolve("latency.hlog").toFile();
        final CachedEpochClock clock = new CachedEpochClock();
        final long startMs = System.currentTimeMillis();
        clock.update(startMs);
        final LatencyRecorder low = new LatencyRecorder("1000", HIGHEST_NS, 3);
        final LatencyRecorder high = new LatencyRecorder("50000", HIGHEST_NS, 3);
        final LatencyReportAgent agent = new LatencyReportAgent(
            List.of(low, high), clock, 1000, 1000, new IntervalLogWriter(hlog, startMs, "test run"));

        for (int second = 0; second < 3; second++)
        {
            for (int i = 0; i < 100; i++)
            {
                low.record(90_000 + i);
                high.record(180_000 + 2L * i);
            }
            high.record(250_000);
            assertEquals(0, agent.doWork(), "interval not over yet");
            clock.advance(1000);
            assertEquals(1, agent.doWork());
        }
        low.record(95_000);
        agent.onClose();
        assertEquals(4, agent.intervalsReported());

        final String text = Files.readString(hlog.toPath());
        assertTrue(text.startsWith("#test run"), text);
        assertTrue(text.contains("#[StartTime: "), text);
        assertTrue(text.contains("#[BaseTime: "), text);
        assertTrue(text.contains(
            "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\""), text);

        final Map<String, Long> counts = new HashMap<>();
        int intervals = 0;
        try (HistogramLogReader reader = new HistogramLogReader(hlog))
        {
            for (Histogram h; null != (h = (Histogram)reader.nextIntervalHistogram()); )
            {
                counts.merge(h.getTag(), h.getTotalCount(), Long::sum);
                intervals++;
            }
            assertEquals(startMs / 1000.0, reader.getStartTimeSec(), 0.001, "start time (read with the header)");
        }
        assertEquals(8, intervals, "4 intervals x 2 recorders");
        assertEquals(301L, counts.get("1000"));
        assertEquals(303L, counts.get("50000"));

        // The first interval ended inside the 1 s warm-up: the summary holds only the later ones.
        final LatencySummary summary = agent.summary("update_rate_per_s");
        assertEquals(2, summary.rowCount());
        assertEquals("201", summary.csvLine(0).split(",")[5]);
        assertEquals("202", summary.csvLine(1).split(",")[5]);
        final StringBuilder csv = new StringBuilder();
        summary.writeCsv(csv, "MDHub test");
        assertTrue(csv.toString().startsWith("# MDHub test\nupdate_rate_per_s,mean_us,"), csv.toString());
    }

    @Test
    void reportAgentRunsOnASleepingThread(@TempDir final Path dir)
    {
        final LatencyRecorder recorder = new LatencyRecorder("run", HIGHEST_NS, 3);
        final LatencyReportAgent agent = new LatencyReportAgent(
            List.of(recorder), SystemEpochClock.INSTANCE, 20, 0,
            new IntervalLogWriter(dir.resolve("run.hlog").toFile(), System.currentTimeMillis(), null));
        final ErrorHandler errors = Throwable::printStackTrace;
        final AgentRunner runner = new AgentRunner(new SleepingMillisIdleStrategy(1), errors, null, agent);
        AgentRunner.startOnThread(runner);
        try
        {
            for (int i = 1; i <= 1000; i++)
            {
                recorder.record(i * 1000L);
            }
            MdTests.await("a few report intervals", () -> agent.intervalsReported() >= 3);
        }
        finally
        {
            runner.close();
        }
        final String[] cells = agent.summary("label").csvLine(0).split(",");
        assertEquals("1000", cells[5]);
        assertClose(500.5, cells[1]);
    }

    private static void assertClose(final double expected, final String actual)
    {
        final double value = Double.parseDouble(actual);
        assertEquals(expected, value, Math.max(0.01, expected * 0.001), () -> "expected ~" + expected + ": " + actual);
    }
}
