package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A published latency curve (rate → mean µs) read from a reference CSV ({@code update_rate_per_s,mean_us,...},
 * {@code #} comments), or empty when the file is not there.
 *
 * @param name   label in the report.
 * @param rates  update rates, ascending.
 * @param means  mean latency at each rate, microseconds.
 */
record ReferenceCurve(String name, long[] rates, double[] means)
{
    static ReferenceCurve read(final String name, final Path csv)
    {
        final List<long[]> rows = new ArrayList<>();
        final List<Double> values = new ArrayList<>();
        if (null != csv && Files.isReadable(csv))
        {
            try
            {
                for (final String line : Files.readAllLines(csv))
                {
                    final String[] cells = line.split(",");
                    if (line.startsWith("#") || cells.length < 2 || !cells[0].trim().matches("\\d+"))
                    {
                        continue;
                    }
                    rows.add(new long[] {Long.parseLong(cells[0].trim())});
                    values.add(Double.parseDouble(cells[1].trim()));
                }
            }
            catch (final IOException | NumberFormatException ex)
            {
                rows.clear();
                values.clear();
            }
        }
        final long[] rates = new long[rows.size()];
        final double[] means = new double[rows.size()];
        for (int i = 0; i < rates.length; i++)
        {
            rates[i] = rows.get(i)[0];
            means[i] = values.get(i);
        }
        return new ReferenceCurve(name, rates, means);
    }

    boolean isEmpty()
    {
        return 0 == rates.length;
    }

    /**
     * @return the published mean at this rate; between two published rates, the straight line between their means
     * (the curve is smooth at the published spacing); NaN outside the published range.
     */
    double meanAt(final long rate)
    {
        for (int i = 0; i < rates.length; i++)
        {
            if (rates[i] == rate)
            {
                return means[i];
            }
            if (i > 0 && rates[i - 1] < rate && rate < rates[i])
            {
                final double fraction = (double)(rate - rates[i - 1]) / (rates[i] - rates[i - 1]);
                return means[i - 1] + fraction * (means[i] - means[i - 1]);
            }
        }
        return Double.NaN;
    }

    /**
     * @return true when the curve has a published row at exactly this rate.
     */
    boolean isPublished(final long rate)
    {
        for (final long published : rates)
        {
            if (published == rate)
            {
                return true;
            }
        }
        return false;
    }
}
