package io.mdhub.orderprobe.probe;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.NanoClock;

/**
 * The creation thread's side of the hand-off: order {@code i} is due at {@code startNs + i × intervalNs}; the creation
 * thread releases every due order by raising {@link #released()}, and publishing threads claim the next released
 * order with one atomic increment. An order's creation time is its due time, so a creation thread that wakes late
 * (a stall, counted) makes the orders it releases late, as they would be for a real client — nothing is hidden.
 * Nothing is allocated per order: an order is its index.
 */
final class ProbeSchedule
{
    /** A wake-up later than this after an order's due time counts as a creation stall. */
    static final long STALL_THRESHOLD_NS = 1_000_000L;
    private static final long SPIN_BELOW_NS = 50_000L;

    private final long startNs;
    private final double intervalNs;
    private final long total;
    private final AtomicLong released = new AtomicLong();
    private final AtomicLong claimed = new AtomicLong();
    private volatile boolean isStopped;
    private long stalls;
    private long worstLatenessNs;

    /**
     * @param startNs when order 0 is due ({@link NanoClock} time).
     * @param rate    orders per second.
     * @param total   orders in the run.
     */
    ProbeSchedule(final long startNs, final long rate, final long total)
    {
        this.startNs = startNs;
        this.intervalNs = 1e9 / rate;
        this.total = total;
    }

    /**
     * @param index an order index.
     * @return when it is due.
     */
    long dueNs(final long index)
    {
        return startNs + (long)(index * intervalNs);
    }

    /**
     * The creation thread's loop: release orders as they fall due until all are released or {@link #stop()}.
     *
     * @param clock the clock.
     */
    void runCreation(final NanoClock clock)
    {
        long next = 0;
        while (next < total && !isStopped)
        {
            final long now = clock.nanoTime();
            final long due = dueNs(next);
            if (now >= due)
            {
                final long lateness = now - due;
                if (lateness > STALL_THRESHOLD_NS)
                {
                    stalls++;
                }
                worstLatenessNs = Math.max(worstLatenessNs, lateness);
                while (next < total && dueNs(next) <= now)
                {
                    next++;
                }
                released.lazySet(next);
            }
            else if (due - now > SPIN_BELOW_NS)
            {
                LockSupport.parkNanos(due - now - SPIN_BELOW_NS / 2);
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * A publishing thread's claim of the next released order.
     *
     * @return the order's index, or -1 when none is released and unclaimed now.
     */
    long claim()
    {
        while (true)
        {
            final long index = claimed.get();
            if (index >= released.get())
            {
                return -1;
            }
            if (claimed.compareAndSet(index, index + 1))
            {
                return index;
            }
        }
    }

    /**
     * @return true once every order was claimed, or the run was stopped.
     */
    boolean isDone()
    {
        return isStopped || claimed.get() >= total;
    }

    /**
     * End the run early: creation stops, publishers finish the order in hand.
     */
    void stop()
    {
        isStopped = true;
    }

    /**
     * @return orders released so far.
     */
    long released()
    {
        return released.get();
    }

    /**
     * @return creation wake-ups later than {@link #STALL_THRESHOLD_NS} (read after the creation thread ended).
     */
    long stalls()
    {
        return stalls;
    }

    /**
     * @return the latest the creation thread woke after an order was due (read after it ended).
     */
    long worstLatenessNs()
    {
        return worstLatenessNs;
    }
}
