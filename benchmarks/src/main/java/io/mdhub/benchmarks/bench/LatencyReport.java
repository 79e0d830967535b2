package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.Locale;

/**
 * Writes a latency sweep's results: {@code results.csv}, {@code report.md} (machine, command, our table beside the
 * published means), and {@code latency.svg}, mean latency against update rate with the reference curves over the
 * rates of the run (a small hand-made SVG: three polylines, axes and ticks, no library needed).
 */
final class LatencyReport
{
    private static final int WIDTH = 820;
    private static final int HEIGHT = 480;
    private static final int LEFT = 70;
    private static final int RIGHT = 170;
    private static final int TOP = 30;
    private static final int BOTTOM = 50;
    private static final String[] COLOURS =
        {"#1f77b4", "#7f7f7f", "#ff7f0e", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};

    private LatencyReport()
    {
    }

    static void write(
        final Path dir,
        final String command,
        final String machine,
        final long sourceTickUs,
        final boolean isCaching,
        final String p2pPolling,
        final List<SystemRow> mdhub,
        final List<List<SystemRow>> peers,
        final ReferenceCurve hs22,
        final ReferenceCurve slert) throws IOException
    {
        final List<LatencyRow> rows = mdhub.stream().map(SystemRow::row).toList();
        final StringBuilder csv = new StringBuilder(LatencyRow.CSV_HEADER).append('\n');
        rows.forEach((row) -> csv.append(row.csv()).append('\n'));
        Files.writeString(dir.resolve("results.csv"), csv);
        final List<List<SystemRow>> systems = new ArrayList<>();
        systems.add(mdhub);
        systems.addAll(peers);
        final StringBuilder systemsCsv = new StringBuilder(SystemRow.CSV_HEADER).append('\n');
        systems.forEach((system) -> system.forEach((row) -> systemsCsv.append(row.csv()).append('\n')));
        Files.writeString(dir.resolve("systems.csv"), systemsCsv);
        Files.writeString(dir.resolve("latency.svg"), svg(systems, hs22, slert));

        final StringBuilder md = new StringBuilder("# MDHub end-to-end latency sweep\n\n");
        md.append("Command: `").append(command).append("`\n\n");
        md.append("Machine: ").append(machine).append("\n\n");
        md.append("Path: interactive source (one burst of the updates due per ").append(sourceTickUs)
            .append(" µs tick) → distributor route (").append(isCaching ? "cache on" : "cache off")
            .append(") → Aeron backbone (IPC, standalone driver) → p2p-server (")
            .append(isCaching ? "cache on, " : "cache off, ").append(p2pPolling)
            .append(") → test client, each a separate JVM on this host; ")
            .append("a full GC in every JVM once the watchlist is open (start-up survivors tenured); ")
            .append("embedded timestamps; warm-up discarded at every step.\n\n");
        md.append("| rate/s | achieved/s | mean µs | stddev µs | max µs | min µs | samples | p50 µs | p99 µs | ")
            .append("p99.9 µs | lost | HS22 mean µs | below HS22 | sustained |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|:---:|\n");
        boolean isAnyInterpolated = false;
        for (final LatencyRow row : rows)
        {
            final double reference = hs22.meanAt(row.rate());
            final boolean isInterpolated = !Double.isNaN(reference) && !hs22.isPublished(row.rate());
            isAnyInterpolated |= isInterpolated;
            md.append(String.format(Locale.ROOT, "| %d | %d | %.1f | %.1f | %.1f | %.1f | %d | %.1f | %.1f | %.1f " +
                "| %d | %s | %s | %s |%n", row.rate(), row.achieved(), row.meanUs(), row.stddevUs(), row.maxUs(),
                row.minUs(), row.samples(), row.p50Us(), row.p99Us(), row.p999Us(), row.lost(),
                Double.isNaN(reference) ? "–" :
                    String.format(Locale.ROOT, isInterpolated ? "%.1f*" : "%.1f", reference),
                Double.isNaN(reference) ? "–" : row.meanUs() < reference ? "yes" : "no",
                row.sustained() ? "yes" : "no"));
        }
        if (isAnyInterpolated)
        {
            md.append("\n\\* interpolated: HS22 has no row at this rate; the straight line between the published ")
                .append("rates on either side.\n");
        }
        if (!peers.isEmpty())
        {
            md.append(besideThePeers(systems));
        }
        md.append("\n![mean latency against update rate](latency.svg)\n");
        Files.writeString(dir.resolve("report.md"), md);
    }

    static String svg(final List<List<SystemRow>> systems, final ReferenceCurve hs22, final ReferenceCurve slert)
    {
        long maxRate = 1;
        double maxMean = 1;
        for (final List<SystemRow> system : systems)
        {
            for (final SystemRow row : system)
            {
                maxRate = Math.max(maxRate, row.row().rate());
                if (!Double.isNaN(row.row().meanUs()))
                {
                    maxMean = Math.max(maxMean, row.row().meanUs());
                }
            }
        }
        for (final ReferenceCurve curve : new ReferenceCurve[] {hs22, slert})
        {
            for (int i = 0; i < curve.rates().length; i++)
            {
                if (curve.rates()[i] <= maxRate)
                {
                    maxMean = Math.max(maxMean, curve.means()[i]);
                }
            }
        }
        maxMean = niceCeiling(maxMean * 1.1);
        final double xMax = maxRate;
        final StringBuilder svg = new StringBuilder(4096);
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" " +
            "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        final int plotWidth = WIDTH - LEFT - RIGHT;
        final int plotHeight = HEIGHT - TOP - BOTTOM;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" " +
            "stroke=\"black\"/>%n", LEFT, TOP, plotWidth, plotHeight));
        for (int i = 0; i <= 5; i++)
        {
            final double value = maxMean * i / 5;
            final double y = TOP + plotHeight - plotHeight * i / 5.0;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" " +
                "stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>%n", LEFT, y,
                LEFT + plotWidth, y, LEFT - 6, y + 4, value));
            final double rate = xMax * i / 5;
            final double x = LEFT + plotWidth * i / 5.0;
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x,
                TOP + plotHeight + 18, rate >= 1000 ? String.format(Locale.ROOT, "%.0fk", rate / 1000) : "0"));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">updates/s</text>%n",
            LEFT + plotWidth / 2, HEIGHT - 10));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" " +
            "text-anchor=\"middle\">mean latency (µs)</text>%n", TOP + plotHeight / 2, TOP + plotHeight / 2));

        final List<String> names = new ArrayList<>();
        final List<long[]> xs = new ArrayList<>();
        final List<double[]> ys = new ArrayList<>();
        for (final List<SystemRow> system : systems)
        {
            final List<SystemRow> measured = system.stream().filter((row) -> row.row().samples() > 0).toList();
            names.add(system.isEmpty() ? "MDHub" : system.get(0).system());
            xs.add(measured.stream().mapToLong((row) -> row.row().rate()).toArray());
            ys.add(measured.stream().mapToDouble((row) -> row.row().meanUs()).toArray());
        }
        names.add(hs22.name());
        xs.add(hs22.rates());
        ys.add(hs22.means());
        names.add(slert.name());
        xs.add(slert.rates());
        ys.add(slert.means());
        for (int s = 0; s < names.size(); s++)
        {
            final StringBuilder points = new StringBuilder();
            final long[] x = xs.get(s);
            final double[] y = ys.get(s);
            for (int i = 0; i < x.length; i++)
            {
                if (x[i] > xMax)
                {
                    break;
                }
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + plotWidth * x[i] / xMax,
                    TOP + plotHeight - plotHeight * Math.min(y[i], maxMean) / maxMean));
            }
            if (points.length() > 0)
            {
                svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" " +
                    "stroke-width=\"2\"/>%n", points.toString().trim(), COLOURS[s % COLOURS.length]));
            }
            final int legendY = TOP + 20 + 20 * s;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" " +
                "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">%s</text>%n", LEFT + plotWidth + 10, legendY,
                LEFT + plotWidth + 30, legendY, COLOURS[s % COLOURS.length], LEFT + plotWidth + 35, legendY + 4,
                names.get(s)));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /**
     * The systems side by side: per rate, each system's median / mean / p99 and CPU per update, then MDHub's
     * ratios to each peer.
     */
    static String besideThePeers(final List<List<SystemRow>> systems)
    {
        final TreeSet<Long> rates = new TreeSet<>();
        systems.forEach((system) -> system.forEach((row) -> rates.add(row.row().rate())));
        final StringBuilder md = new StringBuilder("\n## Beside the peers, this run\n\n");
        md.append("Each system's processes started afresh after the previous system's had ended: the same items, ")
            .append("74-byte updates, bursts per tick, every n-th update timestamped, the same receiver ")
            .append("measurement. Cells: median / mean / p99 µs · CPU µs per update of all the system's processes ")
            .append("(– not run: an earlier rate was not sustained; ✗ run but not sustained).\n\n| system |");
        rates.forEach((rate) -> md.append(String.format(Locale.ROOT, " %,d/s |", rate)));
        md.append("\n|---|").append("---|".repeat(rates.size())).append('\n');
        for (final List<SystemRow> system : systems)
        {
            if (system.isEmpty())
            {
                continue;
            }
            md.append("| ").append(system.get(0).system()).append(" |");
            for (final long rate : rates)
            {
                final SystemRow row = at(system, rate);
                md.append(' ').append(null == row ? "–" : String.format(Locale.ROOT, "%s%,.0f / %,.0f / %,.0f · %.1f",
                    row.row().sustained() ? "" : "✗ ", row.row().p50Us(), row.row().meanUs(), row.row().p99Us(),
                    row.cpuUsPerUpdate())).append(" |");
            }
            md.append('\n');
        }
        final List<SystemRow> mdhub = systems.get(0);
        if (mdhub.isEmpty())
        {
            return md.toString();
        }
        md.append("\n| ").append(mdhub.get(0).system()).append(" ÷ peer: median / mean / p99 · CPU |");
        rates.forEach((rate) -> md.append(String.format(Locale.ROOT, " %,d/s |", rate)));
        md.append("\n|---|").append("---|".repeat(rates.size())).append('\n');
        for (final List<SystemRow> peer : systems.subList(1, systems.size()))
        {
            if (peer.isEmpty())
            {
                continue;
            }
            md.append("| ÷ ").append(peer.get(0).system()).append(" |");
            for (final long rate : rates)
            {
                final SystemRow ours = at(mdhub, rate);
                final SystemRow theirs = at(peer, rate);
                md.append(' ').append(null == ours || null == theirs ? "–" : String.format(Locale.ROOT,
                    "%.2f / %.2f / %.2f · %.2f", ours.row().p50Us() / theirs.row().p50Us(),
                    ours.row().meanUs() / theirs.row().meanUs(), ours.row().p99Us() / theirs.row().p99Us(),
                    ours.cpuUsPerUpdate() / theirs.cpuUsPerUpdate())).append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    private static SystemRow at(final List<SystemRow> system, final long rate)
    {
        for (final SystemRow row : system)
        {
            if (row.row().rate() == rate)
            {
                return row;
            }
        }
        return null;
    }

    private static double niceCeiling(final double value)
    {
        final double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (final double step : new double[] {1, 2, 2.5, 5, 10})
        {
            if (step * magnitude >= value)
            {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
