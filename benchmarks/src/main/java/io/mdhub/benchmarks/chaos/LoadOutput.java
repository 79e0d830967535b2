package io.mdhub.benchmarks.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mdhub.orderprobe.OrdersLoad;

/**
 * What {@code orders-load} printed, read back: the wall-clock start of its schedule, its line per second (the worst
 * create-to-end of the answers that came in that second) and its summary.
 */
final class LoadOutput
{
    static final Pattern START = Pattern.compile(Pattern.quote(OrdersLoad.CREATION_STARTS) + "(\\d+)");
    private static final Pattern SECOND = Pattern.compile(
        "orders-load: +(\\d+)s sent (\\d+) acked (\\d+) .*? max ([0-9.]+) us");
    private static final Pattern SUMMARY = Pattern.compile("orders-load: created (\\d+) of (\\d+), sent (\\d+), " +
        "acked (\\d+) \\(duplicate (\\d+), unreplicated (\\d+)\\), rejected (\\d+), unresolved (\\d+)");
    private static final Pattern TWICE = Pattern.compile("orders-load: ERROR: (\\d+) orders were reported twice");

    /** Epoch ms of order 0's scheduled creation, or 0 when the load never started. */
    final long startMs;
    /** Worst create-to-end of each second's answers, microseconds; second n (from 1) at index n - 1. */
    final List<Double> worstUsBySecond = new ArrayList<>();
    /** Whether the summary was printed. */
    final boolean hasSummary;
    final long sent;
    final long acked;
    final long rejected;
    final long unresolved;
    final long reportedTwice;

    LoadOutput(final String output)
    {
        final Matcher start = START.matcher(output);
        startMs = start.find() ? Long.parseLong(start.group(1)) : 0;
        final Matcher second = SECOND.matcher(output);
        while (second.find())
        {
            final int n = Integer.parseInt(second.group(1));
            while (worstUsBySecond.size() < n)
            {
                worstUsBySecond.add(0.0);
            }
            worstUsBySecond.set(n - 1, Double.parseDouble(second.group(4)));
        }
        final Matcher summary = SUMMARY.matcher(output);
        hasSummary = summary.find();
        sent = hasSummary ? Long.parseLong(summary.group(3)) : 0;
        acked = hasSummary ? Long.parseLong(summary.group(4)) : 0;
        rejected = hasSummary ? Long.parseLong(summary.group(7)) : 0;
        unresolved = hasSummary ? Long.parseLong(summary.group(8)) : 0;
        final Matcher twice = TWICE.matcher(output);
        reportedTwice = twice.find() ? Long.parseLong(twice.group(1)) : 0;
    }

    /**
     * The worst create-to-end of the answers that came while a fault lasted: every second of the report that overlaps
     * {@code [fromMs, toMs]}.
     *
     * @return milliseconds, or -1 when no reported second overlaps.
     */
    double worstMs(final long fromMs, final long toMs)
    {
        double worstUs = -1;
        for (int i = 0; i < worstUsBySecond.size(); i++)
        {
            final long secondFromMs = startMs + i * 1000L;
            final long secondToMs = secondFromMs + 1000L;
            if (secondToMs > fromMs && secondFromMs <= toMs)
            {
                worstUs = Math.max(worstUs, worstUsBySecond.get(i));
            }
        }
        return worstUs < 0 ? -1 : worstUs / 1000.0;
    }
}
