package io.mdhub.orderprobe.analysis;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import io.mdhub.common.pause.PauseEvent;

/**
 * Writes the analysis of one or more runs into a directory: {@code report.txt} (the tables, for a terminal),
 * {@code report.html} (the same with the charts), {@code summary.csv} (one row per run and metric, the reference
 * CSV's columns first), and per run two SVG charts and a create-to-end {@code .hlog} (one-second intervals by creation
 * time) for HistogramLogAnalyzer.
 */
public final class ProbeReport
{
    /** Columns of {@code summary.csv}: the reference's, then ours. */
    public static final String CSV_HEADER = "configuration,metric,total_orders_per_s,mean_us,median_us,p90_us,p95_us," +
        "p99_us,p999_us,min_us,max_us,stddev_us,orders,probes,creation_stalls,failed,spike_episodes,unexplained";
    /** The chart of every configuration of a report side by side (written when there are several). */
    public static final String CONFIGURATIONS_CHART = "configurations.svg";
    private static final long TIME_SERIES_WINDOW_NS = 3_000_000_000L;
    private static final int LISTED_EPISODES = 15;
    private static final int MAX_TEXT_BUCKETS = 500;

    private ProbeReport()
    {
    }

    /**
     * @param groups the runs.
     * @param out    where to write (created if need be).
     * @return the text report (also in {@code report.txt}).
     * @throws IOException on a write failure.
     */
    public static String write(final List<RunGroup> groups, final Path out) throws IOException
    {
        Files.createDirectories(out);
        final StringBuilder text = new StringBuilder();
        final StringBuilder html = new StringBuilder();
        final StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>MDHub order probe report</title>")
            .append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}")
            .append("td,th{border:1px solid #bbb;padding:2px 8px;text-align:right}th{background:#eee}")
            .append("td.l{text-align:left}</style></head><body>\n<h1>MDHub order probe report</h1>\n");
        text.append("MDHub order probe report\n");
        for (final RunGroup group : groups)
        {
            final String slug = group.label().replaceAll("[^A-Za-z0-9._-]", "_");
            section(group, text);
            csv.append(csvRow(group, "create_to_end", group.createToEnd()))
                .append(csvRow(group, "send_to_end", group.sendToEnd()));
            String chartNote = "";
            try
            {
                ReportCharts.histogram(group, out.resolve(slug + "-histogram.svg"));
                ReportCharts.timeSeries(group, TIME_SERIES_WINDOW_NS, out.resolve(slug + "-timeseries.svg"));
            }
            catch (final IOException | RuntimeException | LinkageError | InternalError ex)
            {
                // a report without pictures beats no report (a JVM without fonts cannot lay out chart text)
                chartNote = "charts not drawn: " + ex;
                text.append("  ").append(chartNote).append('\n');
            }
            writeHlog(group, out.resolve(slug + "-create-to-end.hlog"));
            htmlSection(group, slug, chartNote, html);
        }
        try
        {
            if (ReportCharts.configurations(groups, out.resolve(CONFIGURATIONS_CHART)))
            {
                html.append("<h2>Configurations</h2>\n<p><img src=\"").append(CONFIGURATIONS_CHART)
                    .append("\" alt=\"configurations\"></p>\n");
            }
        }
        catch (final IOException | RuntimeException | LinkageError | InternalError ex)
        {
            text.append("configurations chart not drawn: ").append(ex).append('\n');
        }
        html.append("</body></html>\n");
        Files.writeString(out.resolve("report.txt"), text, StandardCharsets.UTF_8);
        Files.writeString(out.resolve("report.html"), html, StandardCharsets.UTF_8);
        Files.writeString(out.resolve("summary.csv"), csv, StandardCharsets.UTF_8);
        return text.toString();
    }

    private static void section(final RunGroup group, final StringBuilder text)
    {
        text.append('\n').append("== ").append(heading(group)).append('\n');
        text.append(String.format(Locale.ROOT, "  %-14s %9s %9s %9s %10s %9s %9s %9s %9s %10s  (µs)%n", "metric",
            "mean", "median", "min", "max", "stddev", "p90", "p95", "p99", "p99.9"));
        statsLine(text, "create_to_end", group.createToEnd());
        statsLine(text, "send_to_end", group.sendToEnd());
        final long limitNs = Math.max(LatencyStats.PUBLISHED_BUCKET_NS, (long)(group.createToEnd().p999Us() * 1000));
        final long bucketNs = LatencyStats.bucketWidthNs(limitNs, MAX_TEXT_BUCKETS);
        final long bucketUs = bucketNs / 1000;
        text.append("  create-to-end histogram, ").append(bucketUs).append(" µs buckets (non-empty, to p99.9): ");
        final long[] counts = LatencyStats.histogram(group.createToEndNs(), bucketNs, limitNs);
        int shown = 0;
        for (int i = 0; i < counts.length - 1; i++)
        {
            if (0 != counts[i])
            {
                text.append(shown++ > 0 ? ", " : "").append(i * bucketUs).append('-').append(i * bucketUs + bucketUs)
                    .append(": ").append(counts[i]);
            }
        }
        text.append(shown > 0 ? ", " : "").append("beyond: ").append(counts[counts.length - 1]).append('\n');
        final List<SpikeEpisode> episodes = group.episodes();
        final long unexplained = episodes.stream().filter(SpikeEpisode::isUnexplained).count();
        text.append(String.format(Locale.ROOT, "  spikes above %d µs: %d episodes, %d explained by a pause, " +
            "%d unexplained%n", group.thresholdNs() / 1000, episodes.size(), episodes.size() - unexplained,
            unexplained));
        final List<SpikeEpisode> listed = worst(episodes);
        for (final SpikeEpisode episode : listed)
        {
            text.append(String.format(Locale.ROOT, "    at %+9.3f s  lasted %8.1f ms  %6d orders  worst %8.1f ms  %s%n",
                (episode.startEpochNs() - group.measureStartEpochNs()) / 1e9,
                (episode.endEpochNs() - episode.startEpochNs()) / 1e6, episode.orders(),
                episode.maxLatencyNs() / 1e6, episode.describeCause()));
        }
        if (listed.size() < episodes.size())
        {
            text.append("    ... and ").append(episodes.size() - listed.size())
                .append(" smaller episodes (every one is in report.html)\n");
        }
        text.append(pausesLine(group)).append('\n');
    }

    /**
     * @return the explained episodes and the worst unexplained ones, at most {@link #LISTED_EPISODES}, in time order.
     */
    private static List<SpikeEpisode> worst(final List<SpikeEpisode> episodes)
    {
        if (episodes.size() <= LISTED_EPISODES)
        {
            return episodes;
        }
        final List<SpikeEpisode> ranked = new java.util.ArrayList<>(episodes);
        ranked.sort(java.util.Comparator.comparing(SpikeEpisode::isUnexplained)
            .thenComparing(java.util.Comparator.comparingLong(SpikeEpisode::maxLatencyNs).reversed()));
        final List<SpikeEpisode> listed = new java.util.ArrayList<>(ranked.subList(0, LISTED_EPISODES));
        listed.sort(java.util.Comparator.comparingLong(SpikeEpisode::startEpochNs));
        return listed;
    }

    private static String heading(final RunGroup group)
    {
        return String.format(Locale.ROOT, "%s: %s, %s orders/s in all, %d probe(s), %d orders measured, " +
            "%d creation stalls, %d failed", group.label(), group.configuration(),
            Long.MAX_VALUE == group.totalRate() ? "?" : Long.toString(group.totalRate()), group.probes().size(),
            group.createToEndNs().length, group.sum(ProbeRun.CREATION_STALLS), group.sum(ProbeRun.FAILED));
    }

    /**
     * Pauses in the measured window (its start to the last measured order's end) and those after it, until the
     * pauses were read: reading them over JMX allocates in the servers, so a collection can come then, on no order.
     */
    static String pausesLine(final RunGroup group)
    {
        final long start = group.measureStartEpochNs();
        final long end = group.measureEndEpochNs();
        PauseEvent longest = null;
        int inWindow = 0;
        int gc = 0;
        int after = 0;
        int gcAfter = 0;
        for (final PauseEvent pause : group.pauses())
        {
            if (pause.endEpochNs() < start)
            {
                continue;
            }
            if (pause.startEpochNs() > end)
            {
                after++;
                gcAfter += pause.isGc() ? 1 : 0;
                continue;
            }
            inWindow++;
            gc += pause.isGc() ? 1 : 0;
            if (null == longest || pause.durationNs() > longest.durationNs())
            {
                longest = pause;
            }
        }
        return String.format(Locale.ROOT, "  pauses in the measured window: %d (%d of them GC)%s%s", inWindow, gc,
            null == longest ? "" : String.format(Locale.ROOT, "; longest %s %s %.3f ms", longest.process(),
            longest.cause(), longest.durationNs() / 1e6),
            0 == after ? "" : String.format(Locale.ROOT, "; after it, before they were read: %d (%d GC)", after,
            gcAfter));
    }

    private static void statsLine(final StringBuilder text, final String metric, final LatencyStats stats)
    {
        text.append(String.format(Locale.ROOT, "  %-14s %9.1f %9.1f %9.1f %10.1f %9.1f %9.1f %9.1f %9.1f %10.1f%n",
            metric, stats.meanUs(), stats.medianUs(), stats.minUs(), stats.maxUs(), stats.stddevUs(), stats.p90Us(),
            stats.p95Us(), stats.p99Us(), stats.p999Us()));
    }

    private static String csvRow(final RunGroup group, final String metric, final LatencyStats stats)
    {
        final long unexplained = group.episodes().stream().filter(SpikeEpisode::isUnexplained).count();
        return String.format(Locale.ROOT, "%s,%s,%s,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%d,%d,%d,%d,%d%n",
            group.configuration(), metric, Long.MAX_VALUE == group.totalRate() ? "" : group.totalRate(),
            stats.meanUs(), stats.medianUs(), stats.p90Us(), stats.p95Us(), stats.p99Us(), stats.p999Us(),
            stats.minUs(), stats.maxUs(), stats.stddevUs(), stats.count(), group.probes().size(),
            group.sum(ProbeRun.CREATION_STALLS), group.sum(ProbeRun.FAILED), group.episodes().size(), unexplained);
    }

    private static void htmlSection(final RunGroup group, final String slug, final String chartNote,
        final StringBuilder html)
    {
        html.append("<h2>").append(escape(heading(group))).append("</h2>\n<table><tr><th>metric</th>");
        for (final String column : new String[] {"mean", "median", "min", "max", "stddev", "p90", "p95", "p99",
            "p99.9"})
        {
            html.append("<th>").append(column).append(" µs</th>");
        }
        html.append("</tr>\n");
        htmlRow(html, "create_to_end", group.createToEnd());
        htmlRow(html, "send_to_end", group.sendToEnd());
        html.append("</table>\n");
        if (chartNote.isEmpty())
        {
            html.append("<p><img src=\"").append(slug).append("-histogram.svg\" alt=\"histogram\"></p>\n")
                .append("<p><img src=\"").append(slug).append("-timeseries.svg\" alt=\"time series\"></p>\n");
        }
        else
        {
            html.append("<p>").append(escape(chartNote)).append("</p>\n");
        }
        html.append("<h3>Spikes above ").append(group.thresholdNs() / 1000).append(" µs</h3>\n");
        if (group.episodes().isEmpty())
        {
            html.append("<p>none</p>\n");
        }
        else
        {
            html.append("<table><tr><th>at (s)</th><th>lasted (ms)</th><th>orders</th><th>worst (ms)</th>")
                .append("<th>cause</th></tr>\n");
            for (final SpikeEpisode episode : group.episodes())
            {
                html.append(String.format(Locale.ROOT, "<tr><td>%.3f</td><td>%.1f</td><td>%d</td><td>%.1f</td>" +
                    "<td class=\"l\">%s</td></tr>%n", (episode.startEpochNs() - group.measureStartEpochNs()) / 1e9,
                    (episode.endEpochNs() - episode.startEpochNs()) / 1e6, episode.orders(),
                    episode.maxLatencyNs() / 1e6, escape(episode.describeCause())));
            }
            html.append("</table>\n");
        }
        html.append("<p>").append(escape(pausesLine(group).trim())).append(". Interval log: <code>").append(slug)
            .append("-create-to-end.hlog</code></p>\n");
    }

    private static void htmlRow(final StringBuilder html, final String metric, final LatencyStats stats)
    {
        html.append(String.format(Locale.ROOT, "<tr><td class=\"l\">%s</td><td>%.1f</td><td>%.1f</td><td>%.1f</td>" +
            "<td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td></tr>%n", metric,
            stats.meanUs(), stats.medianUs(), stats.minUs(), stats.maxUs(), stats.stddevUs(), stats.p90Us(),
            stats.p95Us(), stats.p99Us(), stats.p999Us()));
    }

    private static String escape(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static void writeHlog(final RunGroup group, final Path file) throws IOException
    {
        final long[] created = group.createEpochNs();
        final long[] latency = group.createToEndNs();
        final Integer[] order = new Integer[created.length];
        for (int i = 0; i < order.length; i++)
        {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingLong((Integer i) -> created[i]));
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8))
        {
            final HistogramLogWriter writer = new HistogramLogWriter(out);
            final long baseMs = group.measureStartEpochNs() / 1_000_000L;
            writer.outputComment("MDHub order probe: create-to-end (ns) of " + group.label() +
                ", one interval per second of creation time");
            writer.outputStartTime(baseMs);
            writer.setBaseTime(baseMs);
            writer.outputLegend();
            final Histogram interval = new Histogram(3);
            long secondStart = -1;
            for (final Integer i : order)
            {
                final long second = created[i] / 1_000_000_000L;
                if (second != secondStart && interval.getTotalCount() > 0)
                {
                    writeInterval(writer, interval, secondStart);
                }
                secondStart = second;
                interval.recordValue(Math.max(0, latency[i]));
            }
            if (interval.getTotalCount() > 0)
            {
                writeInterval(writer, interval, secondStart);
            }
        }
    }

    private static void writeInterval(final HistogramLogWriter writer, final Histogram interval, final long second)
    {
        interval.setStartTimeStamp(second * 1000);
        interval.setEndTimeStamp(second * 1000 + 1000);
        writer.outputIntervalHistogram(interval);
        interval.reset();
    }
}
