package io.mdhub.benchmarks.gate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The committed baseline: each benchmark's score as a multiple of the calibration benchmark's in the run that made
 * it ({@code benchmark,ratio_to_calibration,ns_per_op}), a CSV written by {@code --update-baseline}.
 */
public final class GateBaseline
{
    /** The file's heading. */
    public static final String HEADER = "benchmark,ratio_to_calibration,ns_per_op";

    private GateBaseline()
    {
    }

    /**
     * @param file the baseline.
     * @return benchmark to ratio; empty when the file does not exist.
     * @throws IOException when it cannot be read.
     */
    public static Map<String, Double> read(final Path file) throws IOException
    {
        final Map<String, Double> ratios = new TreeMap<>();
        if (!Files.exists(file))
        {
            return ratios;
        }
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#") || (0 == i && line.equals(HEADER)))
            {
                continue;
            }
            final String[] cells = line.split(",");
            if (cells.length < 2)
            {
                throw new IOException(file + " line " + (i + 1) + ": expected " + HEADER + ", got " + line);
            }
            try
            {
                ratios.put(cells[0], Double.parseDouble(cells[1]));
            }
            catch (final NumberFormatException ex)
            {
                throw new IOException(file + " line " + (i + 1) + ": not a ratio: " + cells[1], ex);
            }
        }
        return ratios;
    }

    /**
     * Write the run's results as the new baseline.
     *
     * @param file        where.
     * @param results     the run's results, calibration among them.
     * @param calibration the calibration benchmark's score in that run, ns/op.
     * @throws IOException when it cannot be written.
     */
    public static void write(final Path file, final List<GateResult> results, final double calibration)
        throws IOException
    {
        final StringBuilder csv = new StringBuilder(HEADER).append('\n');
        final Map<String, GateResult> sorted = new TreeMap<>();
        results.forEach((result) -> sorted.put(result.benchmark(), result));
        for (final GateResult result : sorted.values())
        {
            csv.append(result.benchmark()).append(',')
                .append(String.format(Locale.ROOT, "%.6f", result.nsPerOp() / calibration)).append(',')
                .append(String.format(Locale.ROOT, "%.1f", result.nsPerOp())).append('\n');
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
    }
}
