package io.mdhub.common.pause;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures the stalls a safepoint trace cannot see, in the manner of jHiccup: a daemon thread parks for a period at a
 * time, and every wake-up later than {@code thresholdNs} beyond its due time is a <em>hiccup</em> of this process
 * — the operating system did not run a runnable thread for that long (CPU oversubscription, the hypervisor, a kernel
 * thread such as memory reclaim, a page fault on evicted code). A latency spike that overlaps a hiccup then has a
 * named cause, where without it it would be "unexplained".
 * <p>
 * The period trades resolution for cost: every stall longer than period + threshold is caught (it always covers a
 * wake-up); a shorter one of length {@code d} with probability {@code (d - threshold) / period}. Each wake-up is a
 * timer interrupt and two context switches, which on a small virtual machine cost tens of microseconds and preempt
 * the thread that was running: a 1 ms period in each of four processes measurably slowed the order path it watched.
 * <p>
 * Nothing is allocated while it runs: hiccups are kept as primitives in a ring of fixed size (the oldest are
 * overwritten) and become {@link PauseEvent}s only when {@link #hiccups()} is called.
 */
public final class HiccupMeter implements AutoCloseable
{
    /** Cause name of the pauses it reports. */
    public static final String CAUSE = "Hiccup";
    private static final int CAPACITY = 1 << 16;

    private final String process;
    private final long thresholdNs;
    private final long periodNs;
    private final long anchorNanoTime;
    private final long anchorEpochNs;
    private final long[] startEpochNs = new long[CAPACITY];
    private final long[] durationNs = new long[CAPACITY];
    private final Thread thread;
    private long count; // guarded by this
    private volatile boolean isRunning = true;

    /**
     * Start measuring.
     *
     * @param process     the name hiccups carry.
     * @param thresholdNs a wake-up this much later than due is a hiccup.
     * @param periodNs    how long it parks between wake-ups.
     */
    public HiccupMeter(final String process, final long thresholdNs, final long periodNs)
    {
        if (thresholdNs <= 0 || periodNs <= 0)
        {
            throw new IllegalArgumentException("thresholdNs and periodNs must be positive: " + thresholdNs + ", " +
                periodNs);
        }
        this.process = process;
        this.thresholdNs = thresholdNs;
        this.periodNs = periodNs;
        this.anchorNanoTime = System.nanoTime();
        this.anchorEpochNs = PauseRecorder.epochNs(Instant.now()); // as precise as the JFR times it is laid beside
        thread = new Thread(this::run, "mdhub-hiccups-" + process);
        thread.setDaemon(true);
        thread.start();
    }

    private void run()
    {
        long due = System.nanoTime() + periodNs;
        while (isRunning)
        {
            LockSupport.parkNanos(due - System.nanoTime());
            final long now = System.nanoTime();
            final long lateNs = now - due;
            if (lateNs >= thresholdNs)
            {
                record(due, lateNs);
            }
            due = Math.max(due + periodNs, now + periodNs / 2); // after a stall, measure afresh
        }
    }

    private synchronized void record(final long dueNanoTime, final long lateNs)
    {
        final int slot = (int)(count++ & (CAPACITY - 1));
        startEpochNs[slot] = anchorEpochNs + (dueNanoTime - anchorNanoTime);
        durationNs[slot] = lateNs;
    }

    /**
     * @return the hiccups kept (at most the last 65,536), oldest first.
     */
    public synchronized List<PauseEvent> hiccups()
    {
        final int kept = (int)Math.min(count, CAPACITY);
        final List<PauseEvent> hiccups = new ArrayList<>(kept);
        for (long i = count - kept; i < count; i++)
        {
            final int slot = (int)(i & (CAPACITY - 1));
            hiccups.add(new PauseEvent(process, CAUSE, startEpochNs[slot], durationNs[slot]));
        }
        return hiccups;
    }

    @Override
    public void close()
    {
        isRunning = false;
        LockSupport.unpark(thread);
    }
}
