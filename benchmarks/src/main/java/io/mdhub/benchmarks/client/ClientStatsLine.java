package io.mdhub.benchmarks.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;

/**
 * The counts of the test client's once-a-second report line: {@link TestClientMain} prints it, the benchmarks read it
 * back from the client's output, so its format lives here only. Per-second counts are the change since the last line.
 *
 * @param refreshesPerSecond refreshes received in the last second.
 * @param updatesPerSecond   updates received in the last second.
 * @param statusesPerSecond  status messages received in the last second.
 * @param itemsOpen          items open now.
 * @param itemsRequested     items the watchlist asked for.
 * @param itemsSuspect       items Open/Suspect now.
 * @param recoveries         items recovered from Suspect so far.
 * @param lostUpdates        updates missing by the per-item counters (a gap with no refresh between), so far;
 *                           those while the item was not Suspect are {@link ClientFaultLine#skippedSilently()}.
 */
public record ClientStatsLine(
    long refreshesPerSecond,
    long updatesPerSecond,
    long statusesPerSecond,
    long itemsOpen,
    long itemsRequested,
    long itemsSuspect,
    long recoveries,
    long lostUpdates)
{
    private static final String FORMAT = "client: refreshes/s %d, updates/s %d, status/s %d, open %d/%d, suspect %d, " +
        "recovered %d, lost %d, ";
    /** The same line read back: every number of the format a group, the rest literal (it has no regex syntax). */
    private static final Pattern PATTERN = Pattern.compile(FORMAT.replace("%d", "(\\d+)"));
    /** The line's last part when the client has JSON mounts: their share of the second's updates. */
    private static final String JSON_FORMAT = "json updates/s %d";
    private static final Pattern JSON_PATTERN = Pattern.compile(JSON_FORMAT.replace("%d", "(\\d+)"));

    /**
     * @return the line's counts, the start of the line (the client appends its latency figures).
     */
    public String format()
    {
        return String.format(Locale.ROOT, FORMAT, refreshesPerSecond, updatesPerSecond, statusesPerSecond, itemsOpen,
            itemsRequested, itemsSuspect, recoveries, lostUpdates);
    }

    /**
     * @param interval the last second's latency histogram (nanoseconds).
     * @return the whole once-a-second line: the counts, then the second's latency median, p99 and sample count.
     */
    public String format(final Histogram interval)
    {
        return String.format(Locale.ROOT, "%slatency p50 %.1f us p99 %.1f us (%d samples)", format(),
            interval.getValueAtPercentile(50) / 1000.0, interval.getValueAtPercentile(99) / 1000.0,
            interval.getTotalCount());
    }

    /**
     * @return true when every item asked for is open, none is Suspect and no refresh came in the last second: the
     * watchlist is whole and no recovery is under way.
     */
    public boolean isWholeAndQuiet()
    {
        return itemsOpen == itemsRequested && 0 == itemsSuspect && 0 == refreshesPerSecond;
    }

    /**
     * @param line one line of the client's output.
     * @return its counts, or null when it is not a report line.
     */
    public static ClientStatsLine parse(final String line)
    {
        final Matcher matcher = PATTERN.matcher(line);
        return matcher.lookingAt() ? of(matcher) : null;
    }

    /**
     * @param output the client's output.
     * @return every report line in it, in order.
     */
    public static List<ClientStatsLine> all(final CharSequence output)
    {
        final List<ClientStatsLine> lines = new ArrayList<>();
        final Matcher matcher = PATTERN.matcher(output);
        while (matcher.find())
        {
            lines.add(of(matcher));
        }
        return lines;
    }

    /**
     * @param jsonUpdatesPerSecond updates the JSON mounts received in the last second.
     * @return the line's JSON part.
     */
    public static String formatJson(final long jsonUpdatesPerSecond)
    {
        return String.format(Locale.ROOT, JSON_FORMAT, jsonUpdatesPerSecond);
    }

    /**
     * @param output the client's output.
     * @return the JSON mounts' updates per second of every report line that has them, in order.
     */
    public static List<Long> allJson(final CharSequence output)
    {
        final List<Long> values = new ArrayList<>();
        final Matcher matcher = JSON_PATTERN.matcher(output);
        while (matcher.find())
        {
            values.add(Long.parseLong(matcher.group(1)));
        }
        return values;
    }

    private static ClientStatsLine of(final Matcher matcher)
    {
        return new ClientStatsLine(count(matcher, 1), count(matcher, 2), count(matcher, 3), count(matcher, 4),
            count(matcher, 5), count(matcher, 6), count(matcher, 7), count(matcher, 8));
    }

    private static long count(final Matcher matcher, final int group)
    {
        return Long.parseLong(matcher.group(group));
    }
}
