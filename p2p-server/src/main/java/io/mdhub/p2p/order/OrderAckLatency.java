package io.mdhub.p2p.order;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

import io.mdhub.common.latency.LatencyRecorder;

/**
 * How long a primary takes from storing an order to completing it (replicated to the backup when there is one, post
 * processed, answered): the server's share of an order's create-to-end. The agent records each completion
 * (wait-free, no allocation); a management reader gets percentiles over the last {@link #WINDOW_SECONDS} seconds,
 * or since the previous reading when that was longer ago, whoever else reads too: each reading keeps the interval it
 * took, by time, until it leaves the window.
 */
final class OrderAckLatency
{
    /** How far back a reading looks. */
    static final int WINDOW_SECONDS = 10;
    private static final long WINDOW_NS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);

    private final LatencyRecorder recorder = new LatencyRecorder("order-ack");
    private final ArrayDeque<Interval> intervals = new ArrayDeque<>();

    /**
     * On the agent's thread.
     *
     * @param storedNs when the order was stored ({@link System#nanoTime()}), 0 when not by this server.
     * @param nowNs    now.
     */
    void completed(final long storedNs, final long nowNs)
    {
        if (0 != storedNs)
        {
            recorder.record(nowNs - storedNs);
        }
    }

    /**
     * On a management thread.
     *
     * @return orders completed, then p50, p90, p99, p99.9 and max in microseconds, over the window.
     */
    synchronized long[] percentilesUs()
    {
        final long nowNs = System.nanoTime();
        intervals.addLast(new Interval(nowNs, recorder.intervalHistogram().copy()));
        while (intervals.size() > 1 && nowNs - intervals.peekFirst().takenNs > WINDOW_NS)
        {
            intervals.removeFirst();
        }
        final Histogram window = recorder.newHistogram();
        intervals.forEach((interval) -> window.add(interval.histogram));
        return new long[] {
            window.getTotalCount(),
            micros(window.getValueAtPercentile(50)),
            micros(window.getValueAtPercentile(90)),
            micros(window.getValueAtPercentile(99)),
            micros(window.getValueAtPercentile(99.9)),
            micros(window.getMaxValue()),
        };
    }

    private static long micros(final long ns)
    {
        return TimeUnit.NANOSECONDS.toMicros(ns);
    }

    private record Interval(long takenNs, Histogram histogram)
    {
    }
}
