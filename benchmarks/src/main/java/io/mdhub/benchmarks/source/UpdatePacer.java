package io.mdhub.benchmarks.source;

/**
 * Spreads updates evenly over time at a commanded rate: asked on every tick how many are due, it answers from the
 * time elapsed since the rate was set, so a late tick catches up (bounded by {@code maxBurst}, so a stall does not
 * end in a flood) and the long-run rate is exact. The rate may change at any time. Single-threaded.
 */
public final class UpdatePacer
{
    /**
     * The sources' default burst: 10 ms of updates at 1,000,000/s.
     */
    public static final int MAX_BURST_DEFAULT = 10_000;

    private final int maxBurst;
    private long ratePerSecond;
    private long baseNs;
    private long sentSinceBase;
    private long forgotten;

    /**
     * @param ratePerSecond initial rate (0 = paused).
     * @param maxBurst      most updates released by one tick.
     * @param nowNs         current time.
     */
    public UpdatePacer(final long ratePerSecond, final int maxBurst, final long nowNs)
    {
        if (maxBurst < 1)
        {
            throw new IllegalArgumentException("maxBurst must be positive: " + maxBurst);
        }
        this.maxBurst = maxBurst;
        rate(ratePerSecond, nowNs);
    }

    /**
     * Change the rate from now on.
     *
     * @param ratePerSecond updates per second, 0 to pause.
     * @param nowNs         current time.
     */
    public void rate(final long ratePerSecond, final long nowNs)
    {
        if (ratePerSecond < 0)
        {
            throw new IllegalArgumentException("rate must not be negative: " + ratePerSecond);
        }
        this.ratePerSecond = ratePerSecond;
        this.baseNs = nowNs;
        this.sentSinceBase = 0;
    }

    /**
     * @return the commanded rate.
     */
    public long rate()
    {
        return ratePerSecond;
    }

    /**
     * @param nowNs current time.
     * @return how many updates to send now (0 to maxBurst).
     */
    public int due(final long nowNs)
    {
        final long elapsedNs = nowNs - baseNs;
        final long target = Math.multiplyHigh(elapsedNs, ratePerSecond) == 0 ?
            elapsedNs * ratePerSecond / 1_000_000_000L :
            (long)((double)elapsedNs * ratePerSecond / 1e9);
        final long due = target - sentSinceBase;
        if (due <= 0)
        {
            return 0;
        }
        if (due > maxBurst)
        {
            // Fell behind by more than a burst: forget the backlog rather than flood; the rate resumes from here.
            forgotten += due - maxBurst;
            sentSinceBase = target - maxBurst;
            return maxBurst;
        }
        return (int)due;
    }

    /**
     * @return updates that fell due but were dropped because the backlog grew beyond one burst; the long-run rate
     * falls short by exactly this many.
     */
    public long forgotten()
    {
        return forgotten;
    }

    /**
     * Record that updates were sent.
     *
     * @param count how many.
     */
    public void sent(final int count)
    {
        sentSinceBase += count;
    }
}
