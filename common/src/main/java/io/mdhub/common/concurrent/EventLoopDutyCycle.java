package io.mdhub.common.concurrent;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * An agent-style duty cycle hosted on a Netty event loop, for work that must stay on the loop's thread (single
 * writer) but is not driven by socket events — polling an Aeron subscription, for one. Each run calls
 * {@link Work#doWork(long)}; when it did something the cycle runs again at once (after the loop's pending I/O and
 * tasks, so sockets are not starved), when it did nothing the next run is scheduled after an idle delay that doubles
 * from {@code minIdleNs} up to {@code maxIdleNs} — a backoff idle strategy in Netty's terms. Not a spinning thread:
 * an idle cycle costs one timer wake-up per {@code maxIdleNs}; but every wake-up is a timer (plus the kernel's timer
 * slack, 50 us by default), which is what a message arriving in a quiet spell waits for. Each backoff step is a new
 * Netty timer task: a few objects per burst of work.
 * <p>
 * <b>Ticking</b> ({@code minIdleNs} 0): no backoff; one periodic timer runs the cycle every {@code maxIdleNs}, and a
 * cycle that did something runs again at once. Nothing is allocated per cycle, at the price of the short first
 * delays after a burst: a message arriving in a quiet spell waits up to {@code maxIdleNs}.
 * <p>
 * <b>Busy polling</b> (a non-null busy idle strategy): an idle cycle calls that strategy ({@code spin}, {@code yield})
 * and queues itself again at once. The loop always has a task pending, so Netty never sleeps in {@code epoll_wait}:
 * sockets and the Aeron subscription are both polled continuously, and neither a timer nor a wake-up stands between
 * a message and its handling. It costs the loop's thread a whole core.
 * <p>
 * <b>Waking on data</b> (a {@link Sleep}, such as a {@link Doorbell} the loop listens on): an idle cycle says the
 * thread may block, runs the work once more (a message published meanwhile is found there, or its publisher saw the
 * thread asleep and rang), and then schedules nothing: the loop blocks in {@code epoll_wait} until a socket, the
 * ring, or a coarse periodic tick ({@code tickNs}, for the work's own timers) wakes it. A cycle that found work runs
 * again at once until the burst is drained. While the sleep says it may not block (a publisher it cannot count on
 * yet, a retry on the clock) the cycle backs off on timers as above.
 */
public final class EventLoopDutyCycle implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(EventLoopDutyCycle.class);
    /** A waking cycle that may not block backs off from at least this (a ticking 0 would mean no backoff at all). */
    private static final long MIN_WAKING_BACKOFF_NS = 1_000;

    /**
     * The work of one cycle.
     */
    @FunctionalInterface
    public interface Work
    {
        /**
         * @param nowNs {@link System#nanoTime()} read once for the cycle.
         * @return how much work was done; 0 lets the cycle idle.
         */
        int doWork(long nowNs);
    }

    /**
     * How a waking cycle sleeps: whether it may block with no timer now, and the flag its wakers read.
     */
    public interface Sleep
    {
        /**
         * @return true when everything the work waits for will wake the loop (by socket or ring) or can wait for the
         * tick; false makes an idle cycle back off on timers instead.
         */
        boolean mayBlock();

        /**
         * The thread may block from now on: a waker that makes work must wake it. The cycle then runs the work once
         * more before it lets the loop block.
         */
        void asleep();

        /**
         * The thread runs: wakers need not wake it.
         */
        void awake();
    }

    private final EventExecutor eventLoop;
    private final Work work;
    private final long minIdleNs;
    private final long maxIdleNs;
    private final IdleStrategy busyIdle;
    private final Sleep sleep;
    private final long tickNs;
    private final Runnable queuedRun = this::runQueued;
    private final Runnable timedRun = this::runTimed;
    private boolean isQueued;
    private boolean isTimerPending;
    private long failures;
    private long idleNs;
    private String lateName;
    private long lateThresholdNs;
    private long lastRunNs;
    private long lateCycles;
    private volatile ScheduledFuture<?> ticker;
    private volatile boolean isClosed;

    /**
     * @param eventLoop where the work runs.
     * @param work      the work.
     * @param minIdleNs first idle delay after a cycle that found nothing.
     * @param maxIdleNs longest idle delay.
     */
    public EventLoopDutyCycle(
        final EventExecutor eventLoop, final Work work, final long minIdleNs, final long maxIdleNs)
    {
        this(eventLoop, work, minIdleNs, maxIdleNs, null);
    }

    /**
     * @param eventLoop where the work runs.
     * @param work      the work.
     * @param minIdleNs first idle delay after a cycle that found nothing (timer mode); 0 ticks every
     *                  {@code maxIdleNs} instead of backing off.
     * @param maxIdleNs longest idle delay (timer mode), the period when ticking.
     * @param busyIdle  null for timer-scheduled polls; else the non-sleeping strategy an idle cycle calls before
     *                  queueing itself again (busy polling).
     */
    public EventLoopDutyCycle(
        final EventExecutor eventLoop,
        final Work work,
        final long minIdleNs,
        final long maxIdleNs,
        final IdleStrategy busyIdle)
    {
        this(eventLoop, work, minIdleNs, maxIdleNs, busyIdle, null, 0);
    }

    /**
     * A cycle that wakes on data (see the class comment).
     *
     * @param eventLoop where the work runs.
     * @param work      the work.
     * @param minIdleNs first idle delay while the sleep may not block (timer backoff; at least 1 µs is used).
     * @param maxIdleNs longest idle delay while the sleep may not block.
     * @param sleep     how the cycle sleeps.
     * @param tickNs    period of the tick that runs the cycle while the loop blocks, for the work's own timers.
     */
    public EventLoopDutyCycle(
        final EventExecutor eventLoop,
        final Work work,
        final long minIdleNs,
        final long maxIdleNs,
        final Sleep sleep,
        final long tickNs)
    {
        this(eventLoop, work, Math.max(minIdleNs, MIN_WAKING_BACKOFF_NS), Math.max(maxIdleNs, MIN_WAKING_BACKOFF_NS),
            null, sleep, tickNs);
        if (null == sleep || tickNs <= 0)
        {
            throw new IllegalArgumentException("a waking cycle needs a sleep and a positive tick: " + tickNs);
        }
    }

    private EventLoopDutyCycle(
        final EventExecutor eventLoop,
        final Work work,
        final long minIdleNs,
        final long maxIdleNs,
        final IdleStrategy busyIdle,
        final Sleep sleep,
        final long tickNs)
    {
        if (null != busyIdle && !IdleStrategies.isBusySpinning(busyIdle))
        {
            throw new IllegalArgumentException("busy polling needs a strategy that never sleeps (a sleeping one " +
                "would stall the loop's sockets): " + busyIdle.getClass().getSimpleName());
        }
        if (minIdleNs < 0 || maxIdleNs <= 0 || maxIdleNs < minIdleNs)
        {
            throw new IllegalArgumentException("need 0 <= minIdleNs <= maxIdleNs, 0 < maxIdleNs: " + minIdleNs + ", " +
                maxIdleNs);
        }
        this.eventLoop = eventLoop;
        this.work = work;
        this.minIdleNs = minIdleNs;
        this.maxIdleNs = maxIdleNs;
        this.idleNs = minIdleNs;
        this.busyIdle = busyIdle;
        this.sleep = sleep;
        this.tickNs = tickNs;
    }

    /**
     * Log a cycle that runs more than {@code thresholdNs} after the previous one: the loop did not get to it (busy
     * with its sockets, or its thread not scheduled), so whatever the work does on the clock — heartbeats — waited
     * too. Call before {@link #start()}.
     *
     * @param name        what the work is, for the log line.
     * @param thresholdNs the gap that counts as late; longer than the idle period.
     * @return this.
     */
    public EventLoopDutyCycle warnWhenLate(final String name, final long thresholdNs)
    {
        final long periodNs = Math.max(maxIdleNs, tickNs);
        if (thresholdNs <= periodNs)
        {
            throw new IllegalArgumentException("a late threshold must exceed the idle period " + periodNs + ": " +
                thresholdNs);
        }
        this.lateName = name;
        this.lateThresholdNs = thresholdNs;
        return this;
    }

    /**
     * @return cycles whose work threw (logged; the cycle went on); read on the event loop.
     */
    public long failures()
    {
        return failures;
    }

    /**
     * @return cycles that ran late (see {@link #warnWhenLate}); read on the event loop.
     */
    public long lateCycles()
    {
        return lateCycles;
    }

    /**
     * Start cycling (from any thread).
     *
     * @return this.
     */
    public EventLoopDutyCycle start()
    {
        if (isTicking())
        {
            ticker = eventLoop.scheduleWithFixedDelay(this, maxIdleNs, maxIdleNs, TimeUnit.NANOSECONDS);
        }
        else if (null != sleep)
        {
            ticker = eventLoop.scheduleAtFixedRate(this, tickNs, tickNs, TimeUnit.NANOSECONDS);
        }
        eventLoop.execute(this);
        return this;
    }


    /**
     * Stop after the cycle in progress, if any (from any thread).
     */
    public void close()
    {
        isClosed = true;
        final ScheduledFuture<?> ticker = this.ticker;
        if (null != ticker)
        {
            ticker.cancel(false);
        }
    }

    private boolean isTicking()
    {
        return null == busyIdle && null == sleep && 0 == minIdleNs;
    }

    /**
     * Run the cycle soon on its loop: from the loop's thread at most one run is queued however often this is called
     * (for work made outside the cycle that waits on the clock, such as a request the stream refused); from another
     * thread, one more run.
     */
    public void wake()
    {
        if (eventLoop.inEventLoop())
        {
            queue();
        }
        else
        {
            eventLoop.execute(this);
        }
    }

    /**
     * One cycle, on the loop's thread: what the loop's tasks and timers run, and what a waker (a doorbell's ring)
     * runs at once. However often it is started, at most one follow-up run is queued and at most one backoff timer is
     * pending, so the cycles started by ticks, rings and image changes never multiply into parallel chains.
     */
    @Override
    public void run()
    {
        if (isClosed)
        {
            return;
        }
        final long nowNs = System.nanoTime();
        if (0 != lateThresholdNs)
        {
            checkLate(nowNs);
        }
        if (null != sleep)
        {
            sleep.awake();
        }
        int workCount = doWork(nowNs);
        if (null != busyIdle)
        {
            busyIdle.idle(Math.max(0, workCount));
            queue();
        }
        else if (workCount > 0)
        {
            idleNs = minIdleNs;
            queue();
        }
        else if (0 == workCount && null != sleep && sleep.mayBlock())
        {
            sleep.asleep();
            workCount = doWork(nowNs); // whatever was published before the wakers could see the flag
            if (0 != workCount)
            {
                sleep.awake();
                idleNs = minIdleNs;
                queue();
            }
            // else the loop blocks: a ring, a socket or the tick runs the next cycle
        }
        else if (!isTicking() && !isTimerPending) // ticking: the periodic timer runs the next cycle
        {
            isTimerPending = true;
            eventLoop.schedule(timedRun, idleNs, TimeUnit.NANOSECONDS);
            idleNs = Math.min(idleNs << 1, maxIdleNs);
        }
    }

    /**
     * @return the work done, or -1 when the work threw: logged (the first ten and then at powers of two), and the
     * cycle then neither sleeps nor stops but polls on its timers, as for a cycle that may not block.
     */
    private int doWork(final long nowNs)
    {
        try
        {
            return work.doWork(nowNs);
        }
        catch (final RuntimeException ex)
        {
            failures++;
            if (failures <= 10 || 1 == Long.bitCount(failures))
            {
                LOG.error("{} duty cycle failed ({} so far); it goes on", null == lateName ? "a" : lateName,
                    failures, ex);
            }
            return -1;
        }
    }

    private void queue()
    {
        if (!isQueued)
        {
            isQueued = true;
            eventLoop.execute(queuedRun);
        }
    }

    private void runQueued()
    {
        isQueued = false;
        run();
    }

    private void runTimed()
    {
        isTimerPending = false;
        run();
    }

    private void checkLate(final long nowNs)
    {
        if (0 != lastRunNs && nowNs - lastRunNs > lateThresholdNs)
        {
            lateCycles++;
            LOG.warn("{} duty cycle ran {} ms after the previous one (event loop busy or not scheduled)", lateName,
                (nowNs - lastRunNs) / 1_000_000L);
        }
        lastRunNs = nowNs;
    }
}
