package io.mdhub.common.concurrent;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import io.aeron.Aeron;

/**
 * Spin, yield, then block on a {@link Doorbell} until a publisher rings it or the longest wait passes. The thread's
 * owner opens the doorbell for the IPC streams the thread polls and {@link #attach}es it; every process publishing to
 * those streams rings (a {@link DoorbellRinger}). Blocking takes two idle calls: the first says the thread sleeps and
 * returns, so that the duty cycle polls once more (the eventcount's re-check, see {@link Doorbell}); the second
 * blocks. Any work wakes it.
 * <p>
 * Without a doorbell attached (streams that are not all IPC, or a thread whose owner opens none) it is Agrona's
 * {@link BackoffIdleStrategy} with the same spins and yields, parking from 1 µs doubling up to the longest wait. So the
 * default {@code doorbell} is the default {@code backoff} wherever a doorbell cannot work.
 */
public final class DoorbellIdleStrategy implements IdleStrategy
{
    /** Alias in {@link IdleStrategies}. */
    public static final String ALIAS = "doorbell";
    /** Default busy spins before yielding. */
    public static final int DEFAULT_MAX_SPINS = 10;
    /** Default yields before blocking: as many as the default backoff (they catch an answer due within µs). */
    public static final int DEFAULT_MAX_YIELDS = 5;
    /** Default longest block: the owner's timers (heartbeats, timeouts) still run at least this often. */
    public static final long DEFAULT_MAX_WAIT_MS = 1;

    private static final int NOT_IDLE = 0;
    private static final int SPINNING = 1;
    private static final int YIELDING = 2;
    private static final int ASLEEP = 3;
    private static final long MIN_PARK_NS = 1_000;

    private final BackoffIdleStrategy backoff;

    private final long maxSpins;
    private final long maxYields;
    private final long maxWaitMs;
    private Doorbell doorbell;
    private int state = NOT_IDLE;
    private long spins;
    private long yields;

    /**
     * The defaults: 10 spins, 5 yields, blocks of at most 1 ms.
     */
    public DoorbellIdleStrategy()
    {
        this(DEFAULT_MAX_SPINS, DEFAULT_MAX_YIELDS, DEFAULT_MAX_WAIT_MS);
    }

    /**
     * @param maxSpins  busy spins before yielding (0 or more).
     * @param maxYields yields before blocking (0 or more).
     * @param maxWaitMs longest block (at least 1 ms).
     */
    public DoorbellIdleStrategy(final long maxSpins, final long maxYields, final long maxWaitMs)
    {
        if (maxSpins < 0 || maxYields < 0 || maxWaitMs < 1)
        {
            throw new IllegalArgumentException(
                "doorbell needs maxSpins >= 0, maxYields >= 0, maxWaitMs >= 1: " + maxSpins + "," + maxYields + "," +
                maxWaitMs);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.maxWaitMs = maxWaitMs;
        this.backoff =
            new BackoffIdleStrategy(maxSpins, maxYields, MIN_PARK_NS, TimeUnit.MILLISECONDS.toNanos(maxWaitMs));
    }

    /**
     * Open a doorbell for a thread's streams and attach it, if the thread waits with this strategy and every stream it
     * polls is IPC; otherwise nothing (the strategy, if it is this one, backs off).
     *
     * @param strategy      the thread's idle strategy.
     * @param streamsAreIpc whether every stream the thread polls is IPC (see {@link Doorbell#isIpc}).
     * @param aeron         the thread's Aeron client.
     * @param name          who sleeps, for the counter's label.
     * @param streamIds     the streams it polls.
     * @return the doorbell, for its owner to close after the thread has stopped; null if none was opened.
     */
    public static Doorbell attachIfIpc(
        final IdleStrategy strategy,
        final boolean streamsAreIpc,
        final Aeron aeron,
        final String name,
        final int... streamIds)
    {
        if (!(strategy instanceof DoorbellIdleStrategy) || !streamsAreIpc)
        {
            return null;
        }
        final Doorbell doorbell = Doorbell.open(aeron, name, streamIds);
        ((DoorbellIdleStrategy)strategy).attach(doorbell);
        return doorbell;
    }

    /**
     * Block on this doorbell from now on; call before the thread first idles.
     *
     * @param doorbell the doorbell of the streams the thread polls.
     */
    public void attach(final Doorbell doorbell)
    {
        this.doorbell = doorbell;
    }

    /**
     * @return the attached doorbell, or null.
     */
    public Doorbell doorbell()
    {
        return doorbell;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (null == doorbell)
        {
            backoff.idle();
            return;
        }
        switch (state)
        {
            case NOT_IDLE:
                state = SPINNING;
                spins++;
                break;

            case SPINNING:
                Thread.onSpinWait();
                if (++spins > maxSpins)
                {
                    state = YIELDING;
                }
                break;

            case YIELDING:
                if (++yields > maxYields)
                {
                    fallAsleep();
                }
                else
                {
                    Thread.yield();
                }
                break;

            default:
                doorbell.await(maxWaitMs);
                break;
        }
    }

    private void fallAsleep()
    {
        state = ASLEEP;
        doorbell.asleep(); // and return: the caller polls once more before the next idle blocks
    }

    @Override
    public void reset()
    {
        if (null == doorbell)
        {
            backoff.reset();
            return;
        }
        if (ASLEEP == state)
        {
            doorbell.awake();
        }
        state = NOT_IDLE;
        spins = 0;
        yields = 0;
    }

    @Override
    public String alias()
    {
        return ALIAS;
    }

    @Override
    public String toString()
    {
        return "DoorbellIdleStrategy{maxSpins=" + maxSpins + ", maxYields=" + maxYields + ", maxWaitMs=" + maxWaitMs +
            ", doorbell=" + (null == doorbell ? "none" : doorbell.socketPath()) + '}';
    }
}
