package io.mdhub.common.latency;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;

/**
 * One row per label (e.g. per update rate) in the units and column names of the published reference results
 * ({@code reference/rmds_latency_*.csv}: {@code <label column>,mean_us,stddev_us,max_us,min_us,samples}), followed
 * by percentiles the reference lacks ({@code p50_us,p90_us,p99_us,p99_9_us}), so our results can be laid beside the
 * reference line by line. Histograms hold nanoseconds; every {@code _us} column is microseconds with two decimals,
 * exact to the histogram's precision (0.1% with 3 significant digits).
 */
public final class LatencySummary
{
    /**
     * The columns after the label column; the first five are those of the reference files.
     */
    public static final String COLUMNS = "mean_us,stddev_us,max_us,min_us,samples,p50_us,p90_us,p99_us,p99_9_us";

    private static final double NS_PER_US = 1000.0;

    private final String labelColumn;
    private final List<Row> rows = new ArrayList<>();

    /**
     * @param labelColumn name of the first column, e.g. {@code update_rate_per_s} as in the reference.
     */
    public LatencySummary(final String labelColumn)
    {
        this.labelColumn = labelColumn;
    }

    /**
     * Add a row computed from a histogram now (later changes to the histogram do not alter it).
     *
     * @param label       value of the label column.
     * @param histogramNs latencies in nanoseconds.
     * @return this.
     */
    public LatencySummary add(final String label, final Histogram histogramNs)
    {
        final long samples = histogramNs.getTotalCount();
        rows.add(new Row(label, samples, new double[] {
            0 == samples ? 0 : histogramNs.getMean() / NS_PER_US,
            0 == samples ? 0 : histogramNs.getStdDeviation() / NS_PER_US,
            histogramNs.getMaxValue() / NS_PER_US,
            histogramNs.getMinValue() / NS_PER_US,
            histogramNs.getValueAtPercentile(50.0) / NS_PER_US,
            histogramNs.getValueAtPercentile(90.0) / NS_PER_US,
            histogramNs.getValueAtPercentile(99.0) / NS_PER_US,
            histogramNs.getValueAtPercentile(99.9) / NS_PER_US }));
        return this;
    }

    /**
     * @return rows added.
     */
    public int rowCount()
    {
        return rows.size();
    }

    /**
     * @return the CSV header line.
     */
    public String header()
    {
        return labelColumn + "," + COLUMNS;
    }

    /**
     * @param index row index.
     * @return that row as a CSV line.
     */
    public String csvLine(final int index)
    {
        final Row row = rows.get(index);
        final StringBuilder line = new StringBuilder(96).append(row.label);
        for (int i = 0; i < 4; i++)
        {
            line.append(',').append(format(row.valuesUs[i]));
        }
        line.append(',').append(row.samples);
        for (int i = 4; i < row.valuesUs.length; i++)
        {
            line.append(',').append(format(row.valuesUs[i]));
        }
        return line.toString();
    }

    /**
     * Write comment lines ({@code # ...}, as the reference files start), the header and every row.
     *
     * @param out      where to write.
     * @param comments lines describing the run (hardware, configuration), without the {@code #}.
     * @throws IOException if writing fails.
     */
    public void writeCsv(final Appendable out, final String... comments) throws IOException
    {
        for (final String comment : comments)
        {
            out.append("# ").append(comment).append('\n');
        }
        out.append(header()).append('\n');
        for (int i = 0; i < rows.size(); i++)
        {
            out.append(csvLine(i)).append('\n');
        }
    }

    /**
     * Write the CSV to a file, replacing it.
     *
     * @param file     the file.
     * @param comments lines describing the run.
     */
    public void writeCsv(final Path file, final String... comments)
    {
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            writeCsv(writer, comments);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    /**
     * Print the rows as an aligned table for a console.
     *
     * @param out where to print.
     */
    public void print(final PrintStream out)
    {
        final String[] headers = header().split(",");
        final List<String[]> cells = new ArrayList<>();
        final int[] widths = new int[headers.length];
        for (int c = 0; c < headers.length; c++)
        {
            widths[c] = headers[c].length();
        }
        for (int r = 0; r < rows.size(); r++)
        {
            final String[] line = csvLine(r).split(",", -1);
            for (int c = 0; c < line.length; c++)
            {
                widths[c] = Math.max(widths[c], line[c].length());
            }
            cells.add(line);
        }
        out.println(alignedRow(headers, widths));
        for (final String[] line : cells)
        {
            out.println(alignedRow(line, widths));
        }
    }

    private static String alignedRow(final String[] cells, final int[] widths)
    {
        final StringBuilder line = new StringBuilder(128);
        for (int c = 0; c < cells.length; c++)
        {
            if (c > 0)
            {
                line.append("  ");
            }
            for (int pad = cells[c].length(); pad < widths[c]; pad++)
            {
                line.append(' ');
            }
            line.append(cells[c]);
        }
        return line.toString();
    }

    private static String format(final double value)
    {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static final class Row
    {
        final String label;
        final long samples;
        final double[] valuesUs;

        Row(final String label, final long samples, final double[] valuesUs)
        {
            this.label = label;
            this.samples = samples;
            this.valuesUs = valuesUs;
        }
    }
}
