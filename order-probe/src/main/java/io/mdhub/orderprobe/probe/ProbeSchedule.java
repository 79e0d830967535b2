package io.mdhub.orderprobe.probe;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;

import io.mdhub.common.concurrent.TimerSlack;

/**
 * The creation thread's side of the hand-off: order {@code i} is due at {@code startNs + i × intervalNs}; the creation
 * thread releases every due order by raising {@link #released()}, and publishing threads claim the next released
 * order with one atomic increment. An order's creation time is its due time, so a creation thread that wakes late
 * (a stall, counted) makes the orders it releases late, as they would be for a real client — nothing is hidden.
 * Nothing is allocated per order: an order is its index.
 * <p>
 * A publisher with nothing to claim may {@link #awaitRelease(Waiter, long) wait} parked: it queues itself, and the
 * creation thread unparks one queued publisher per order it releases. That is one futex wake between an order's
 * release and its submit, where a publisher polling on a backing-off park would find it up to a whole park later —
 * queueing delay the probe would add to create-to-end itself.
 */
final class ProbeSchedule
{
    /** A wake-up later than this after an order's due time counts as a creation stall. */
    static final long STALL_THRESHOLD_NS = 1_000_000L;
    private static final int MAX_WAITERS = 1024;

    /**
     * A publishing thread as it waits for an order: queued at most once at a time.
     */
    static final class Waiter
    {
        private final Thread thread;
        private volatile boolean isQueued;
        private volatile boolean isParked;

        /**
         * @param thread the publishing thread that will wait with this.
         */
        Waiter(final Thread thread)
        {
            this.thread = thread;
        }
    }

    private final long startNs;
    private final double intervalNs;
    private final long total;
    private final AtomicLong released = new AtomicLong();
    private final AtomicLong claimed = new AtomicLong();
    private final ManyToOneConcurrentArrayQueue<Waiter> waiters = new ManyToOneConcurrentArrayQueue<>(MAX_WAITERS);
    private volatile boolean isStopped;
    private long stalls;
    private long worstLatenessNs;
    private long latenessSumNs;
    private long wakeUps;
    private long creationTimerSlackNs = -1;

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
     * The creation thread's loop: release orders as they fall due until all are released or {@link #stop()}. It
     * parks until the next order is due and releases every order due by the time it wakes. It does not spin towards
     * the due time: on a host whose cores the system under test needs, a spin costs the servers the CPU it burns
     * and the thread still waits for a CPU after its timer fires. The park ends late by the thread's timer slack, so
     * the thread first lowers its own (an order's creation time is its due time, and every µs the thread wakes after
     * it is a µs of create-to-end).
     *
     * @param clock        the clock.
     * @param timerSlackNs the creation thread's timer slack, or 0 to keep the one it inherited.
     */
    void runCreation(final NanoClock clock, final long timerSlackNs)
    {
        if (timerSlackNs > 0)
        {
            TimerSlack.setForCurrentThread(timerSlackNs);
        }
        creationTimerSlackNs = TimerSlack.ofCurrentThread();
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
                latenessSumNs += lateness;
                wakeUps++;
                final long from = next;
                while (next < total && dueNs(next) <= now)
                {
                    next++;
                }
                released.set(next); // a volatile write: ordered before the waiters are read (see awaitRelease)
                wakeWaiters(next - from);
            }
            else
            {
                LockSupport.parkNanos(due - now);
            }
        }
    }

    private void wakeWaiters(final long orders)
    {
        long woken = 0;
        Waiter waiter;
        while (woken < orders && null != (waiter = waiters.poll()))
        {
            // cleared before isParked is read: a waiter setting isParked meanwhile then sees it must queue again
            waiter.isQueued = false;
            if (waiter.isParked)
            {
                LockSupport.unpark(waiter.thread);
                woken++;
            }
            // else it left its park by time-out and is busy with an order: the wake-up goes to the next waiter
        }
    }

    /**
     * Called by the waiter's own thread when {@link #claim()} found nothing: park until the creation
     * thread releases an order and wakes this waiter, or {@code maxParkNs} pass (so the caller can keep its client
     * polled), or the schedule ends.
     *
     * @param waiter    the calling thread's waiter.
     * @param maxParkNs longest park.
     */
    void awaitRelease(final Waiter waiter, final long maxParkNs)
    {
        if (hasUnclaimed() || isDone())
        {
            return;
        }
        waiter.isParked = true; // before isQueued is read (see wakeWaiters)
        if (!waiter.isQueued)
        {
            waiter.isQueued = true;
            if (!waiters.offer(waiter))
            {
                waiter.isQueued = false; // cannot happen with fewer publishers than MAX_WAITERS; the park still ends
            }
        }
        // isParked is written before released is re-read, and the creation thread writes released before it reads
        // isParked: a release the re-check misses finds this waiter parked in the queue.
        if (!hasUnclaimed() && !isDone())
        {
            LockSupport.parkNanos(this, maxParkNs);
        }
        waiter.isParked = false;
    }

    private boolean hasUnclaimed()
    {
        return claimed.get() < released.get();
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
     * @return how late the creation thread woke after the order it released first, on average (read after it ended).
     */
    long meanLatenessNs()
    {
        return 0 == wakeUps ? 0 : latenessSumNs / wakeUps;
    }

    /**
     * @return the creation thread's timer slack as it ran, or -1 where the system does not say (read after it ended).
     */
    long creationTimerSlackNs()
    {
        return creationTimerSlackNs;
    }

    /**
     * @return the latest the creation thread woke after an order was due (read after it ended).
     */
    long worstLatenessNs()
    {
        return worstLatenessNs;
    }
}
