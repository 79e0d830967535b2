package io.mdhub.benchmarks.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import io.mdhub.benchmarks.peers.PeerSubscriberMain;

/**
 * One rate step of {@code bench latency}, the same for MDHub and for its peers: the publisher told the rate
 * ({@code ur <rate>}), the warm-up waited out, the window measured from the receiver's interval histograms and its
 * once-a-second lines, the CPU of every process of the system sampled at the window's ends.
 */
final class LatencySteps
{
    /** The receiver writes an interval after the second it covers: wait this long past the window for the last. */
    private static final long LAST_INTERVAL_WAIT_MS = 1500;
    private static final long INTERVAL_END_SLACK_MS = 500;

    private final int warmupSeconds;
    private final int stepSeconds;
    private final int timestampEvery;

    /**
     * @param warmupSeconds  seconds discarded at each rate.
     * @param stepSeconds    seconds measured at each rate.
     * @param timestampEvery every n-th update carries its origin time.
     */
    LatencySteps(final int warmupSeconds, final int stepSeconds, final int timestampEvery)
    {
        this.warmupSeconds = warmupSeconds;
        this.stepSeconds = stepSeconds;
        this.timestampEvery = timestampEvery;
    }

    /**
     * @param system    the system's name, for the console and cpu.csv.
     * @param rate      updates per second.
     * @param publisher what takes {@code ur <rate>}.
     * @param receiver  what writes the hlog and the once-a-second lines.
     * @param hlog      the receiver's interval histograms.
     * @param cpu       the system's processes.
     * @param cpuRows   where the step's CPU rows go.
     * @param console   where the step's lines go.
     * @return the step, its CPU per update beside.
     */
    SystemRow measure(
        final String system,
        final long rate,
        final BenchProcess publisher,
        final BenchProcess receiver,
        final Path hlog,
        final StepCpu cpu,
        final List<String> cpuRows,
        final PrintWriter console) throws Exception
    {
        publisher.send("ur " + rate);
        final LatencyRow row = step(receiver, hlog, rate, cpu);
        final long updates = rate * stepSeconds;
        console.println(system + "," + row.csv());
        console.println("bench latency: " + system + " " + rate + "/s " + cpu.describe(updates));
        console.flush();
        cpuRows.addAll(cpu.csv(rate, updates));
        return new SystemRow(system, row, cpu.totalUsPerUpdate(updates));
    }

    private LatencyRow step(final BenchProcess receiver, final Path hlog, final long rate, final StepCpu cpu)
        throws Exception
    {
        final long lostBefore = TestClients.lostSoFar(receiver.output());
        final long windowStartMs = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(warmupSeconds);
        final long windowEndMs = windowStartMs + TimeUnit.SECONDS.toMillis(stepSeconds);
        Thread.sleep(Math.max(0, windowStartMs - System.currentTimeMillis()));
        cpu.start();
        Thread.sleep(Math.max(0, windowEndMs - System.currentTimeMillis()));
        cpu.end();
        Thread.sleep(Math.max(0, windowEndMs + LAST_INTERVAL_WAIT_MS - System.currentTimeMillis()));
        final Histogram window = new Histogram(3);
        long coveredMs = 0;
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile()))
        {
            EncodableHistogram interval;
            while (null != (interval = reader.nextIntervalHistogram()))
            {
                if (interval.getStartTimeStamp() >= windowStartMs &&
                    interval.getEndTimeStamp() <= windowEndMs + INTERVAL_END_SLACK_MS)
                {
                    window.add((Histogram)interval);
                    coveredMs += interval.getEndTimeStamp() - interval.getStartTimeStamp();
                }
            }
        }
        final String output = receiver.output();
        final long lostUpdates = TestClients.lostSoFar(output) - lostBefore;
        final long samples = window.getTotalCount();
        // whole intervals inside the window: the rate is over the time they cover
        final long achieved = 0 == coveredMs ? 0 : Math.round(samples * (double)timestampEvery * 1000 / coveredMs);
        final boolean isAlive = !output.contains("a mount failed") && !output.contains(PeerSubscriberMain.FAILED);
        if (0 == samples)
        {
            return new LatencyRow(rate, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN,
                Double.NaN, lostUpdates, false);
        }
        return new LatencyRow(rate, achieved, window.getMean() / 1000.0, window.getStdDeviation() / 1000.0,
            window.getMaxValue() / 1000.0, window.getMinValue() / 1000.0, samples,
            window.getValueAtPercentile(50) / 1000.0, window.getValueAtPercentile(99) / 1000.0,
            window.getValueAtPercentile(99.9) / 1000.0, lostUpdates,
            isAlive && 0 == lostUpdates && achieved >= rate * 0.95);
    }
}
