package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;

/**
 * The sweep's report compares every rate with HS22: a published rate with its row, a rate between published ones
 * with the interpolated value marked {@code *} (and the footnote saying so), a rate outside the curve not at all.
 */
@InterruptAfter(10)
class LatencyReportTest
{
    @TempDir
    Path dir;

    @Test
    void everyRateIsComparedWithThePublishedOrInterpolatedMean() throws Exception
    {
        final Path csv = dir.resolve("hs22.csv");
        Files.writeString(csv, "update_rate_per_s,mean_us,stddev_us\n1000,92.9,1\n1000000,759.65,1\n" +
            "1100000,813.73,1\n");
        final ReferenceCurve hs22 = ReferenceCurve.read("HS22", csv);
        final List<LatencyRow> rows = List.of(
            row(1_000, 84.9, true),
            row(1_050_000, 800.0, true), // above the interpolated 786.69
            row(1_200_000, 900.0, false)); // past the curve's last published rate
        final Path out = Files.createDirectory(dir.resolve("report"));

        LatencyReport.write(out, "bench latency", "test machine", 1000, false, "busy-polling", mdhub(rows), List.of(),
            hs22, hs22);

        final List<String> table = Files.readAllLines(out.resolve("report.md")).stream()
            .filter((line) -> line.matches("\\| \\d+ \\|.*")).toList();
        assertEquals(3, table.size(), () -> String.join("\n", table));
        assertTrue(table.get(0).endsWith("| 92.9 | yes | yes |"), table.get(0));
        assertTrue(table.get(1).endsWith("| 786.7* | no | yes |"), table.get(1));
        assertTrue(table.get(2).endsWith("| – | – | no |"), table.get(2));
        final String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("\\* interpolated"), "the footnote for the starred value");

        final List<String> results = Files.readAllLines(out.resolve("results.csv"));
        assertEquals(LatencyRow.CSV_HEADER, results.get(0));
        assertEquals(4, results.size());
        assertTrue(Files.readString(out.resolve("latency.svg")).startsWith("<svg"));
    }

    @Test
    void noFootnoteWhenEveryRateIsPublished() throws Exception
    {
        final Path csv = dir.resolve("hs22.csv");
        Files.writeString(csv, "update_rate_per_s,mean_us,stddev_us\n1000,92.9,1\n5000,101.2,1\n");
        final ReferenceCurve hs22 = ReferenceCurve.read("HS22", csv);
        final Path out = Files.createDirectory(dir.resolve("report"));

        LatencyReport.write(out, "bench latency", "test machine", 1000, false, "busy-polling",
            mdhub(List.of(row(1_000, 99.9, true), row(5_000, 50.0, true))), List.of(), hs22, hs22);

        final String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("| 92.9 | no | yes |"), report);
        assertTrue(report.contains("| 101.2 | yes | yes |"), report);
        assertFalse(report.contains("interpolated"), report);
    }

    @Test
    void thePeersStandBesideMdhubWithRatiosAndTheirLinesInTheChart() throws Exception
    {
        final Path csv = dir.resolve("hs22.csv");
        Files.writeString(csv, "update_rate_per_s,mean_us,stddev_us\n1000,92.9,1\n");
        final ReferenceCurve hs22 = ReferenceCurve.read("HS22", csv);
        final Path out = Files.createDirectory(dir.resolve("report"));
        final List<SystemRow> redis = List.of(new SystemRow("Redis", row(1_000, 200.0, true), 40.0),
            new SystemRow("Redis", row(20_000, 100.0, false), 10.0));

        LatencyReport.write(out, "bench latency", "test machine", 500, true, "doorbells",
            mdhub(List.of(row(1_000, 100.0, true), row(20_000, 150.0, true))), List.of(redis), hs22, hs22);

        final String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("| MDHub | 100 / 100 / 300 · 20.0 | 150 / 150 / 450 · 20.0 |"), report);
        assertTrue(report.contains("| Redis | 200 / 200 / 600 · 40.0 | ✗ 100 / 100 / 300 · 10.0 |"), report);
        assertTrue(report.contains("| ÷ Redis | 0.50 / 0.50 / 0.50 · 0.50 | 1.50 / 1.50 / 1.50 · 2.00 |"), report);
        assertTrue(report.contains("cache on"), report);
        final List<String> systems = Files.readAllLines(out.resolve("systems.csv"));
        assertEquals(SystemRow.CSV_HEADER, systems.get(0));
        assertEquals(5, systems.size());
        assertTrue(systems.get(3).startsWith("Redis,1000,"), systems.get(3));
        assertTrue(Files.readString(out.resolve("latency.svg")).contains(">Redis</text>"));
    }

    private static List<SystemRow> mdhub(final List<LatencyRow> rows)
    {
        return rows.stream().map((row) -> new SystemRow("MDHub", row, 20.0)).toList();
    }

    private static LatencyRow row(final long rate, final double meanUs, final boolean sustained)
    {
        return new LatencyRow(rate, rate, meanUs, 10.0, 10 * meanUs, meanUs / 2, 1_000, meanUs, 3 * meanUs,
            5 * meanUs, 0, sustained);
    }
}
