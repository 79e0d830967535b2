package io.mdhub.common.latency;

import java.util.List;

import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;

/**
 * Takes interval histograms off the hot threads' {@link LatencyRecorder}s on a timer, appends them to an
 * {@link IntervalLogWriter} (.hlog) and accumulates them, after a warm-up, into one total histogram per recorder
 * for the {@link LatencySummary}. Runs on its own {@code AgentRunner} with a sleeping idle strategy (e.g.
 * {@code sleep-ms:10}), or inside another management agent, never on a hot thread. {@link #onClose()} takes the
 * last partial interval and closes the log, after which {@link #summary(String)} may be read from any thread.
 */
public final class LatencyReportAgent implements Agent
{
    private final LatencyRecorder[] recorders;
    private final Histogram[] totals;
    private final EpochClock clock;
    private final long intervalMs;
    private final long warmupEndMs;
    private final IntervalLogWriter logWriter;
    private long nextReportMs;
    private int intervalsReported;

    /**
     * @param recorders  recorders to report, fixed for the agent's life.
     * @param clock      epoch clock deciding when an interval ends.
     * @param intervalMs interval length (the published tests logged one interval a second).
     * @param warmupMs   time from now during which intervals are logged but not summarised.
     * @param logWriter  where intervals go, or null for summary only; closed by this agent.
     */
    public LatencyReportAgent(
        final List<LatencyRecorder> recorders,
        final EpochClock clock,
        final long intervalMs,
        final long warmupMs,
        final IntervalLogWriter logWriter)
    {
        if (intervalMs <= 0 || warmupMs < 0)
        {
            throw new IllegalArgumentException("need intervalMs > 0 and warmupMs >= 0: " + intervalMs + ", " +
                warmupMs);
        }
        this.recorders = recorders.toArray(new LatencyRecorder[0]);
        this.totals = new Histogram[this.recorders.length];
        for (int i = 0; i < totals.length; i++)
        {
            totals[i] = this.recorders[i].newHistogram();
        }
        this.clock = clock;
        this.intervalMs = intervalMs;
        this.logWriter = logWriter;
        final long nowMs = clock.time();
        this.warmupEndMs = nowMs + warmupMs;
        this.nextReportMs = nowMs + intervalMs;
    }

    @Override
    public int doWork()
    {
        final long nowMs = clock.time();
        if (nowMs < nextReportMs)
        {
            return 0;
        }
        report(nowMs);
        nextReportMs = nowMs + intervalMs;
        return 1;
    }

    @Override
    public void onClose()
    {
        try
        {
            report(clock.time());
        }
        finally
        {
            CloseHelper.close(logWriter);
        }
    }

    @Override
    public String roleName()
    {
        return "latency-report";
    }

    /**
     * @return intervals reported so far (one per timer expiry, plus the last one on close).
     */
    public int intervalsReported()
    {
        return intervalsReported;
    }

    /**
     * The totals after warm-up, one row per recorder in the order given. Read on the agent's thread or after close.
     *
     * @param labelColumn name of the label column, e.g. {@code update_rate_per_s}.
     * @return the summary.
     */
    public LatencySummary summary(final String labelColumn)
    {
        final LatencySummary summary = new LatencySummary(labelColumn);
        for (int i = 0; i < recorders.length; i++)
        {
            summary.add(recorders[i].label(), totals[i]);
        }
        return summary;
    }

    private void report(final long nowMs)
    {
        final boolean isWarm = nowMs > warmupEndMs;
        for (int i = 0; i < recorders.length; i++)
        {
            final Histogram interval = recorders[i].intervalHistogram();
            if (isWarm)
            {
                totals[i].add(interval);
            }
            if (null != logWriter)
            {
                logWriter.write(recorders[i].label(), interval);
            }
        }
        intervalsReported++;
    }
}
