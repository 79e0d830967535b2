package io.mdhub.common.concurrent;

import java.util.Locale;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import io.mdhub.common.net.SocketIdleStrategy;

/**
 * Builds Agrona {@link IdleStrategy}s from configuration text, in the manner of Aeron's
 * {@code Configuration.agentIdleStrategy}. Accepted forms (aliases are case-insensitive, numbers may contain
 * {@code _}):
 * <table>
 * <caption>Idle strategy specifications</caption>
 * <tr><th>text</th><th>strategy</th><th>busy-spins</th></tr>
 * <tr><td>{@code noop}</td><td>{@link NoOpIdleStrategy}: returns at once</td><td>yes</td></tr>
 * <tr><td>{@code spin}</td><td>{@link BusySpinIdleStrategy}: {@code Thread.onSpinWait()}</td><td>yes</td></tr>
 * <tr><td>{@code yield}</td><td>{@link YieldingIdleStrategy}: {@code Thread.yield()}</td><td>yes</td></tr>
 * <tr><td>{@code sleep-ns[:periodNs]}</td><td>{@link SleepingIdleStrategy}, default 1000 ns</td><td>no</td></tr>
 * <tr><td>{@code sleep-ms[:periodMs]}</td><td>{@link SleepingMillisIdleStrategy}, default 1 ms</td><td>no</td></tr>
 * <tr><td>{@code backoff[:maxSpins,maxYields,minParkNs,maxParkNs]}</td><td>{@link BackoffIdleStrategy}, default
 * 10,5,1000,1000000</td><td>no</td></tr>
 * <tr><td>{@code socket[:maxSpins,maxWaitMs]}</td><td>{@link SocketIdleStrategy}: blocks in the kernel on the
 * thread's sockets until one is ready or its timer is due (owners with a {@link io.mdhub.common.net.SocketPoller}
 * attach it; elsewhere it parks for the longest wait), default 0,100</td><td>no</td></tr>
 * <tr><td>a class name</td><td>its public no-argument constructor</td><td>see {@link #isBusySpinning}</td></tr>
 * </table>
 * {@code yield} counts as busy-spinning: on an otherwise idle core {@code Thread.yield()} returns at once, so the
 * thread still burns the whole core. Every call returns a new instance because strategies such as backoff keep
 * state: never share one instance between agents.
 */
public final class IdleStrategies
{
    /** Alias of {@link NoOpIdleStrategy}. */
    public static final String NOOP = "noop";
    /** Alias of {@link BusySpinIdleStrategy}. */
    public static final String SPIN = "spin";
    /** Alias of {@link YieldingIdleStrategy}. */
    public static final String YIELD = "yield";
    /** Alias of {@link SleepingIdleStrategy}, optional parameter {@code :periodNs}. */
    public static final String SLEEP_NS = "sleep-ns";
    /** Alias of {@link SleepingMillisIdleStrategy}, optional parameter {@code :periodMs}. */
    public static final String SLEEP_MS = "sleep-ms";
    /** Alias of {@link BackoffIdleStrategy}, optional parameters {@code :maxSpins,maxYields,minParkNs,maxParkNs}. */
    public static final String BACKOFF = "backoff";
    /** Alias of {@link SocketIdleStrategy}, optional parameters {@code :maxSpins,maxWaitMs}. */
    public static final String SOCKET = SocketIdleStrategy.ALIAS;

    private IdleStrategies()
    {
    }

    /**
     * Build an idle strategy from its specification.
     *
     * @param spec an alias with optional parameters, or a class name (see the class comment).
     * @return a new idle strategy.
     * @throws IllegalArgumentException if the text names no known alias or loadable strategy class, or its
     *                                  parameters are malformed.
     */
    public static IdleStrategy parse(final String spec)
    {
        if (null == spec || spec.isBlank())
        {
            throw new IllegalArgumentException("idle strategy is empty");
        }

        final String text = spec.trim();
        final int colon = text.indexOf(':');
        final String alias = alias(text);
        final long[] params = params(text);

        switch (alias)
        {
            case NOOP:
                return noParams(text, params, NoOpIdleStrategy.INSTANCE);
            case SPIN:
                return noParams(text, params, new BusySpinIdleStrategy());
            case YIELD:
                return noParams(text, params, YieldingIdleStrategy.INSTANCE);
            case SLEEP_NS:
                return new SleepingIdleStrategy(
                    positive(text, oneParam(text, params, SleepingIdleStrategy.DEFAULT_SLEEP_PERIOD_NS)));
            case SLEEP_MS:
                return new SleepingMillisIdleStrategy(
                    positive(text, oneParam(text, params, SleepingMillisIdleStrategy.DEFAULT_SLEEP_PERIOD_MS)));
            case BACKOFF:
                return backoff(text, params);
            case SOCKET:
                return socket(text, params);
            default:
                if (colon >= 0)
                {
                    throw new IllegalArgumentException("unknown idle strategy alias: " + text);
                }
                return instantiate(text);
        }
    }

    /**
     * The back-off a specification names, with a longer longest park: for a thread that may sleep longer while it
     * has less to watch.
     *
     * @param spec      a specification, as {@link #parse(String)} takes it.
     * @param maxParkNs the longest park wanted.
     * @return the back-off with the specification's spins, yields and shortest park and this longest park, or null
     * when the specification is not a back-off or its own longest park is not shorter.
     * @throws IllegalArgumentException if the specification is a malformed back-off.
     */
    public static IdleStrategy backoffWithLongerPark(final String spec, final long maxParkNs)
    {
        final String text = spec.trim();
        if (!BACKOFF.equals(alias(text)))
        {
            return null;
        }
        final long[] given = params(text);
        backoff(text, given); // checks them
        final long[] params = 0 == given.length ? new long[] {BackoffIdleStrategy.DEFAULT_MAX_SPINS,
            BackoffIdleStrategy.DEFAULT_MAX_YIELDS, BackoffIdleStrategy.DEFAULT_MIN_PARK_PERIOD_NS,
            BackoffIdleStrategy.DEFAULT_MAX_PARK_PERIOD_NS} : given;
        if (maxParkNs <= params[3])
        {
            return null;
        }
        return new BackoffIdleStrategy(params[0], params[1], params[2], maxParkNs);
    }

    private static String alias(final String text)
    {
        final int colon = text.indexOf(':');
        return (colon < 0 ? text : text.substring(0, colon)).toLowerCase(Locale.ROOT);
    }

    private static long[] params(final String text)
    {
        final int colon = text.indexOf(':');
        return colon < 0 ? new long[0] : parseParams(text, text.substring(colon + 1));
    }

    /**
     * Whether a strategy keeps its thread on the CPU while there is no work. Unknown strategy classes count as
     * spinning: the budget check must err on the side of keeping cores free.
     *
     * @param strategy the strategy.
     * @return true for no-op, busy-spin, yielding and unknown strategies; false for backoff and sleeping ones.
     */
    public static boolean isBusySpinning(final IdleStrategy strategy)
    {
        return !(strategy instanceof BackoffIdleStrategy ||
            strategy instanceof SocketIdleStrategy ||
            strategy instanceof SleepingIdleStrategy ||
            strategy instanceof SleepingMillisIdleStrategy);
    }

    private static IdleStrategy backoff(final String text, final long[] params)
    {
        if (0 == params.length)
        {
            return new BackoffIdleStrategy();
        }
        if (4 != params.length)
        {
            throw new IllegalArgumentException(
                "backoff takes 4 parameters maxSpins,maxYields,minParkNs,maxParkNs: " + text);
        }
        if (params[0] < 0 || params[1] < 0 || params[2] < 1 || params[3] < params[2])
        {
            throw new IllegalArgumentException(
                "backoff needs maxSpins >= 0, maxYields >= 0, 1 <= minParkNs <= maxParkNs: " + text);
        }
        return new BackoffIdleStrategy(params[0], params[1], params[2], params[3]);
    }

    private static IdleStrategy socket(final String text, final long[] params)
    {
        if (0 == params.length)
        {
            return new SocketIdleStrategy();
        }
        if (2 != params.length)
        {
            throw new IllegalArgumentException("socket takes 2 parameters maxSpins,maxWaitMs: " + text);
        }
        return new SocketIdleStrategy(params[0], params[1]); // its own check names the bad values
    }

    private static IdleStrategy instantiate(final String className)
    {
        try
        {
            final Class<?> type = Class.forName(className);
            if (!IdleStrategy.class.isAssignableFrom(type))
            {
                throw new IllegalArgumentException("not an IdleStrategy: " + className);
            }
            return (IdleStrategy)type.getConstructor().newInstance();
        }
        catch (final ClassNotFoundException ex)
        {
            throw new IllegalArgumentException(
                "unknown idle strategy (not an alias of noop|spin|yield|sleep-ns|sleep-ms|backoff|socket, " +
                "nor a class): " + className, ex);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalArgumentException("cannot create idle strategy " + className + ": " + ex, ex);
        }
    }

    private static long[] parseParams(final String text, final String params)
    {
        final String[] parts = params.split(",", -1);
        final long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                values[i] = Long.parseLong(parts[i].trim().replace("_", ""));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("idle strategy parameter is not a number: " + text, ex);
            }
        }
        return values;
    }

    private static IdleStrategy noParams(final String text, final long[] params, final IdleStrategy strategy)
    {
        if (0 != params.length)
        {
            throw new IllegalArgumentException("idle strategy takes no parameters: " + text);
        }
        return strategy;
    }

    private static long oneParam(final String text, final long[] params, final long defaultValue)
    {
        if (params.length > 1)
        {
            throw new IllegalArgumentException("idle strategy takes one parameter: " + text);
        }
        return 0 == params.length ? defaultValue : params[0];
    }

    private static long positive(final String text, final long value)
    {
        if (value <= 0)
        {
            throw new IllegalArgumentException("idle strategy period must be positive: " + text);
        }
        return value;
    }
}
