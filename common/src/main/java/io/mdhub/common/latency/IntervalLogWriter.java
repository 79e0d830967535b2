package io.mdhub.common.latency;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.UncheckedIOException;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes an HdrHistogram interval log ({@code .hlog}) that HistogramLogAnalyzer and {@code HistogramLogReader}
 * open: a comment, the start time, the base time, the legend, then one line per interval histogram, tagged with
 * the recorder's label so several series (e.g. update rates) share one file. Values are nanoseconds; the log's max
 * column is in milliseconds, HdrHistogram's convention for nanosecond logs.
 */
public final class IntervalLogWriter implements AutoCloseable
{
    private final HistogramLogWriter writer;

    /**
     * Create the file and write its header.
     *
     * @param file        the .hlog file, replaced if it exists.
     * @param startTimeMs epoch milliseconds that interval times are relative to.
     * @param comment     a line describing the run, or null.
     */
    public IntervalLogWriter(final File file, final long startTimeMs, final String comment)
    {
        try
        {
            writer = new HistogramLogWriter(file);
        }
        catch (final FileNotFoundException ex)
        {
            throw new UncheckedIOException("cannot create " + file, ex);
        }
        if (null != comment)
        {
            writer.outputComment(comment);
        }
        writer.outputLogFormatVersion();
        writer.outputStartTime(startTimeMs);
        writer.setBaseTime(startTimeMs);
        writer.outputBaseTime(startTimeMs);
        writer.outputLegend();
    }

    /**
     * Append one interval histogram; its start/end timestamps place it in time.
     *
     * @param tag      series name; characters the log format reserves (commas, whitespace) become {@code _}.
     * @param interval the histogram, in nanoseconds.
     */
    public void write(final String tag, final Histogram interval)
    {
        final String previousTag = interval.getTag();
        interval.setTag(null == tag ? null : tag.replaceAll("[,\\s]", "_"));
        writer.outputIntervalHistogram(interval);
        interval.setTag(previousTag);
    }

    /**
     * Write one interval histogram stamped with the times it covers.
     *
     * @param tag      its tag, as {@link #write(String, Histogram)}.
     * @param interval the interval's histogram; its start and end time stamps are set.
     * @param startMs  epoch ms the interval began.
     * @param endMs    epoch ms it ended.
     */
    public void write(final String tag, final Histogram interval, final long startMs, final long endMs)
    {
        interval.setStartTimeStamp(startMs);
        interval.setEndTimeStamp(endMs);
        write(tag, interval);
    }

    @Override
    public void close()
    {
        writer.close();
    }
}
