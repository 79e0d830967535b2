package io.mdhub.common.latency;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Records latencies in nanoseconds from ONE hot thread into an HdrHistogram {@link SingleWriterRecorder}
 * (wait-free, no allocation), and hands interval histograms to ONE reporting thread. As in Artio's
 * {@code timing/Timer}, a bad value never throws on the hot path: a negative duration (clock skew, a bug in the
 * caller) is counted and dropped; a value above the highest trackable one is counted and recorded as that highest
 * value, so sample counts and tail percentiles still show it (as "at least this much").
 */
public final class LatencyRecorder
{
    private static final VarHandle NEGATIVE_COUNT;
    private static final VarHandle OVERSIZED_COUNT;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEGATIVE_COUNT = lookup.findVarHandle(LatencyRecorder.class, "negativeCount", long.class);
            OVERSIZED_COUNT = lookup.findVarHandle(LatencyRecorder.class, "oversizedCount", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final String label;
    private final long highestTrackableNs;
    private final int significantDigits;
    private final SingleWriterRecorder recorder;
    private Histogram interval;
    @SuppressWarnings("unused") // written by the recording thread through NEGATIVE_COUNT
    private long negativeCount;
    @SuppressWarnings("unused") // written by the recording thread through OVERSIZED_COUNT
    private long oversizedCount;

    /**
     * A recorder with the configured range and precision ({@link LatencyConfiguration}).
     *
     * @param label what is measured, e.g. an update rate; becomes the .hlog tag and the summary row label.
     */
    public LatencyRecorder(final String label)
    {
        this(label, LatencyConfiguration.highestTrackableNs(), LatencyConfiguration.significantDigits());
    }

    /**
     * @param label              what is measured.
     * @param highestTrackableNs largest value resolved, at least 2.
     * @param significantDigits  precision, 1 to 5.
     */
    public LatencyRecorder(final String label, final long highestTrackableNs, final int significantDigits)
    {
        if (highestTrackableNs < 2)
        {
            throw new IllegalArgumentException("highest trackable value must be >= 2 ns: " + highestTrackableNs);
        }
        if (significantDigits < 1 || significantDigits > 5)
        {
            throw new IllegalArgumentException("significant digits must be in [1, 5]: " + significantDigits);
        }
        this.label = label;
        this.highestTrackableNs = highestTrackableNs;
        this.significantDigits = significantDigits;
        this.recorder = new SingleWriterRecorder(1, highestTrackableNs, significantDigits);
    }

    /**
     * Record one latency. Recording thread only.
     *
     * @param valueNs the latency in nanoseconds.
     */
    public void record(final long valueNs)
    {
        if (valueNs < 0)
        {
            NEGATIVE_COUNT.setRelease(this, (long)NEGATIVE_COUNT.get(this) + 1);
        }
        else if (valueNs > highestTrackableNs)
        {
            OVERSIZED_COUNT.setRelease(this, (long)OVERSIZED_COUNT.get(this) + 1);
            recorder.recordValue(highestTrackableNs);
        }
        else
        {
            recorder.recordValue(valueNs);
        }
    }

    /**
     * Swap out what was recorded since the previous call. Reporting thread only. The histogram is reused: it is
     * valid until the next call, so copy or add it elsewhere before then. Its start and end timestamps (epoch ms)
     * bound the interval.
     *
     * @return the interval histogram.
     */
    public Histogram intervalHistogram()
    {
        interval = recorder.getIntervalHistogram(interval);
        return interval;
    }

    /**
     * @return a new empty histogram with this recorder's range and precision, e.g. to accumulate intervals into.
     */
    public Histogram newHistogram()
    {
        return new Histogram(1, highestTrackableNs, significantDigits);
    }

    /**
     * @return what is measured.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return largest value resolved in nanoseconds.
     */
    public long highestTrackableNs()
    {
        return highestTrackableNs;
    }

    /**
     * @return negative values dropped so far.
     */
    public long negativeValueCount()
    {
        return (long)NEGATIVE_COUNT.getAcquire(this);
    }

    /**
     * @return values above the highest trackable one, recorded as that value, so far.
     */
    public long oversizedValueCount()
    {
        return (long)OVERSIZED_COUNT.getAcquire(this);
    }
}
