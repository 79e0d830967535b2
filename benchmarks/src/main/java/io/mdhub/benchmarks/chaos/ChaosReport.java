package io.mdhub.benchmarks.chaos;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The files of a chaos run in its directory: {@code table.txt}, {@code table.csv}, {@code report.md} (settings, the
 * table and every failed round's reasons) and {@code report.json}; the processes' logs are in {@code logs/}.
 */
final class ChaosReport
{
    private ChaosReport()
    {
    }

    /**
     * @param dir      the run's directory.
     * @param title    the command, e.g. {@code chaos orders}.
     * @param settings the run's settings (seed first), in order.
     * @param table    the rounds.
     * @param failed   rounds that failed.
     * @return the final text printed for the user: the table and a verdict line.
     */
    static String write(
        final Path dir,
        final String title,
        final Map<String, Object> settings,
        final ChaosTable table,
        final int failed) throws IOException
    {
        Files.createDirectories(dir);
        final String text = table.text();
        Files.writeString(dir.resolve("table.txt"), text, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("table.csv"), table.csv(), StandardCharsets.UTF_8);
        final StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        for (final Map.Entry<String, Object> setting : settings.entrySet())
        {
            md.append("- ").append(setting.getKey()).append(": ").append(setting.getValue()).append('\n');
        }
        md.append('\n').append(table.markdown()).append('\n').append(summary(table.rows().size(), failed))
            .append('\n');
        Files.writeString(dir.resolve("report.md"), md, StandardCharsets.UTF_8);
        final Map<String, Object> header = new LinkedHashMap<>();
        header.put("command", title);
        header.putAll(settings);
        header.put("rounds_run", table.rows().size());
        header.put("rounds_failed", failed);
        header.put("ok", 0 == failed);
        Files.writeString(dir.resolve("report.json"), table.json(header), StandardCharsets.UTF_8);
        return text + summary(table.rows().size(), failed) + "\n";
    }

    /**
     * Write the files, then print the table, the verdict line and where the files are.
     *
     * @return the run's exit status: 0 when every round was ok, 1 when any failed.
     */
    static int finish(
        final PrintWriter console,
        final Path dir,
        final String title,
        final Map<String, Object> settings,
        final ChaosTable table,
        final int failed) throws IOException
    {
        console.println();
        console.print(write(dir, title, settings, table, failed));
        console.printf("%s: report in %s%n", title, dir);
        console.flush();
        return 0 == failed ? 0 : 1;
    }

    static String summary(final int rounds, final int failed)
    {
        return 0 == failed ? String.format(Locale.ROOT, "%d round(s), all ok", rounds) :
            String.format(Locale.ROOT, "%d round(s), %d FAILED", rounds, failed);
    }

    /**
     * Print the seed as the first line of a run, in the form a user copies to replay it.
     */
    static void printSeed(final PrintWriter console, final String command, final long seed)
    {
        console.printf("%s: seed=%d (re-run with --seed %d)%n", command, seed, seed);
        console.flush();
    }

    /**
     * @param names fault names as given on the command line.
     * @param all   every fault, by name.
     * @param <F>   the kind of fault.
     * @return the faults, in the order given.
     * @throws IllegalArgumentException for a name that is none.
     */
    static <F> List<F> faults(final List<String> names, final Map<String, F> all)
    {
        return names.stream().map((name) ->
        {
            final F fault = all.get(name.trim().toLowerCase(Locale.ROOT));
            if (null == fault)
            {
                throw new IllegalArgumentException("unknown fault '" + name + "' (one of " + all.keySet() + ")");
            }
            return fault;
        }).toList();
    }

    /**
     * @return the first line of a message (a process's failure to start goes on with the end of its log).
     */
    static String firstLine(final String text)
    {
        final int newline = null == text ? -1 : text.indexOf('\n');
        return newline < 0 ? String.valueOf(text) : text.substring(0, newline);
    }

    static String seconds(final double seconds)
    {
        return seconds < 0 ? "-" : String.format(Locale.ROOT, "%.1f", seconds);
    }
}
