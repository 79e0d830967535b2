package io.mdhub.common.concurrent;

import java.util.concurrent.TimeUnit;

import io.netty.util.concurrent.EventExecutor;

/**
 * An agent-style duty cycle hosted on a Netty event loop, for work that must stay on the loop's thread (single
 * writer) but is not driven by socket events — polling an Aeron subscription, for one. Each run calls
 * {@link Work#doWork(long)}; when it did something the cycle runs again at once (after the loop's pending I/O and
 * tasks, so sockets are not starved), when it did nothing the next run is scheduled after an idle delay that doubles
 * from {@code minIdleNs} up to {@code maxIdleNs} — a backoff idle strategy in Netty's terms. Not a spinning thread:
 * an idle cycle costs one timer wake-up per {@code maxIdleNs}.
 */
public final class EventLoopDutyCycle implements Runnable
{
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

    private final EventExecutor eventLoop;
    private final Work work;
    private final long minIdleNs;
    private final long maxIdleNs;
    private long idleNs;
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
        if (minIdleNs <= 0 || maxIdleNs < minIdleNs)
        {
            throw new IllegalArgumentException("need 0 < minIdleNs <= maxIdleNs: " + minIdleNs + ", " + maxIdleNs);
        }
        this.eventLoop = eventLoop;
        this.work = work;
        this.minIdleNs = minIdleNs;
        this.maxIdleNs = maxIdleNs;
        this.idleNs = minIdleNs;
    }

    /**
     * Start cycling (from any thread).
     *
     * @return this.
     */
    public EventLoopDutyCycle start()
    {
        eventLoop.execute(this);
        return this;
    }

    /**
     * Stop after the cycle in progress, if any (from any thread).
     */
    public void close()
    {
        isClosed = true;
    }

    @Override
    public void run()
    {
        if (isClosed)
        {
            return;
        }
        if (work.doWork(System.nanoTime()) > 0)
        {
            idleNs = minIdleNs;
            eventLoop.execute(this);
        }
        else
        {
            eventLoop.schedule(this, idleNs, TimeUnit.NANOSECONDS);
            idleNs = Math.min(idleNs << 1, maxIdleNs);
        }
    }
}
