package io.mdhub.benchmarks.soak;

import java.util.List;

/**
 * Whether a resource that a long run sampled at a steady interval levels off or keeps growing. The first samples are
 * warm-up (caches filling, pools reaching their size) and are left out; of the rest, the later half's trend (a
 * least-squares line) is what counts: the resource grows when that trend, carried on for as long again as the whole
 * steady part, would add more than a fraction of its level plus an absolute slack. A leak that adds a little every
 * minute fails; a rise that stops after warm-up, a step that stays flat, and noise around a level pass.
 *
 * @param fraction    allowed rise, relative to the later half's mean (0.10: 10 %).
 * @param slack       allowed absolute rise, in the samples' unit (a few MB of memory, a few descriptors).
 * @param warmUpShare share of the samples left out at the start (0.1: the first tenth).
 */
public record GrowthCheck(double fraction, long slack, double warmUpShare)
{
    /** Fewest samples after warm-up that a verdict needs: the later half's trend needs a few points. */
    static final int MIN_SAMPLES = 10;

    /**
     * The verdict on one series.
     *
     * @param grows     true when the projected rise is above what the check allows.
     * @param level     mean of the later half.
     * @param perSample the later half's trend, in the samples' unit per sample.
     * @param projected the rise that trend adds over as many samples as the steady part has.
     * @param allowed   the largest projected rise that still counts as levelled off.
     */
    public record Verdict(boolean grows, long level, double perSample, long projected, long allowed)
    {
    }

    /**
     * @param samples the series, in time order.
     * @return the verdict.
     * @throws IllegalArgumentException when the series is too short for one.
     */
    public Verdict check(final List<Long> samples)
    {
        final int warmUp = (int)Math.ceil(samples.size() * warmUpShare);
        final List<Long> steady = samples.subList(Math.min(warmUp, samples.size()), samples.size());
        if (steady.size() < MIN_SAMPLES)
        {
            throw new IllegalArgumentException("too few samples after warm-up for a verdict: " + steady.size());
        }
        final List<Long> later = steady.subList(steady.size() / 2, steady.size());
        final int n = later.size();
        final double meanX = (n - 1) / 2.0;
        double meanY = 0;
        for (final long sample : later)
        {
            meanY += sample;
        }
        meanY /= n;
        double covariance = 0;
        double variance = 0;
        for (int i = 0; i < n; i++)
        {
            covariance += (i - meanX) * (later.get(i) - meanY);
            variance += (i - meanX) * (i - meanX);
        }
        final double perSample = covariance / variance;
        final long projected = (long)(perSample * steady.size());
        final long allowed = (long)(meanY * fraction) + slack;
        return new Verdict(projected > allowed, (long)meanY, perSample, projected, allowed);
    }
}
