package io.mdhub.common.net;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;

/**
 * Idle by blocking in the kernel on the thread's sockets ({@link SocketPoller#await}) until one is ready, another
 * thread wakes it, the owner's next timer is due or the longest wait passes: the agent wakes on data, once for all
 * that came. Optionally a few busy spins first (for blades with cores to spare; none by default: on a small host
 * every spin is CPU taken from the thread that has the work).
 * <p>
 * The owner {@link #attach}es its poller before the first idle; until then the strategy parks for the longest wait.
 * An owner whose deadline covers all its pending work ({@link SocketPoller#blockAfterWork}) is blocked after a duty
 * cycle that did work as well (unless spins are configured): the wait is also the look for more input.
 */
public final class SocketIdleStrategy implements IdleStrategy
{
    /** Alias in {@code IdleStrategies}. */
    public static final String ALIAS = "socket";
    /** Default busy spins before blocking. */
    public static final int DEFAULT_MAX_SPINS = 0;
    /** Default longest block: the owner's deadline ({@link SocketPoller#deadlineNs}) usually ends it sooner. */
    public static final long DEFAULT_MAX_WAIT_MS = 100;

    private final long maxSpins;
    private final long maxWaitMs;
    private SocketPoller poller;
    private long spins;

    /**
     * No spins, blocks of at most {@link #DEFAULT_MAX_WAIT_MS}.
     */
    public SocketIdleStrategy()
    {
        this(DEFAULT_MAX_SPINS, DEFAULT_MAX_WAIT_MS);
    }

    /**
     * @param maxSpins  busy spins before blocking (0 or more).
     * @param maxWaitMs longest block (at least 1 ms).
     */
    public SocketIdleStrategy(final long maxSpins, final long maxWaitMs)
    {
        if (maxSpins < 0 || maxWaitMs < 1)
        {
            throw new IllegalArgumentException("socket idle needs maxSpins >= 0 and maxWaitMs >= 1: " + maxSpins +
                "," + maxWaitMs);
        }
        this.maxSpins = maxSpins;
        this.maxWaitMs = maxWaitMs;
    }

    /**
     * @param poller the sockets the thread serves.
     */
    public void attach(final SocketPoller poller)
    {
        this.poller = poller;
    }

    /**
     * @return the longest block.
     */
    public long maxWaitMs()
    {
        return maxWaitMs;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
            if (0 == maxSpins && null != poller && poller.isBlockingAfterWork())
            {
                poller.await(maxWaitMs); // its owner's deadline is now if more work is pending
            }
            return;
        }
        idle();
    }

    @Override
    public void idle()
    {
        if (spins < maxSpins)
        {
            spins++;
            Thread.onSpinWait();
            return;
        }
        if (null == poller)
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(maxWaitMs));
            return;
        }
        poller.await(maxWaitMs);
    }

    @Override
    public void reset()
    {
        spins = 0;
    }

    @Override
    public String alias()
    {
        return ALIAS;
    }

    @Override
    public String toString()
    {
        return "SocketIdleStrategy{maxSpins=" + maxSpins + ", maxWaitMs=" + maxWaitMs + "}";
    }
}
