package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;

/**
 * {@code bin/mdhub bench orders} end to end with tiny settings, as a user runs it: a backbone daemon, the servers and
 * one probe per server as separate JVMs, for one server without replication and for a replicated pair; the report
 * has a row per run in which every created order was acknowledged.
 */
@InterruptAfter(240)
class OrdersBenchIT
{
    private static final int RATE = 500;
    private static final int DURATION_SECONDS = 3;
    private static final Pattern ROW = Pattern.compile(
        "\\| (one_server|two_server) " + RATE +
        "/s run 1 \\| (\\d+) \\| ([0-9.]+) \\| ([0-9.]+) \\|.*");

    @TempDir
    Path dir;

    @Test
    void aShortSweepOfOneServerAndAPairWritesTheReport() throws Exception
    {
        final Path report = dir.resolve("report");
        final Path log = dir.resolve("bench.log");
        final List<String> args = List.of(
            "bench", "orders", "--configurations", "one_server,two_server",
            "--rates", Integer.toString(RATE),
            "--warmup", "1", "--duration", Integer.toString(DURATION_SECONDS), "--repeat", "1", "--extend-step", "0",
            "--server-jvm-opts", "-Xms128m -Xmx256m", "--probe-jvm-opts", "-Xms64m -Xmx256m",
            "--out", report.toString());
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            final String output = SystemProcesses.awaitSuccess(processes.startScript(log, "bin/mdhub", args), log, 210);

            final List<String> rows = Files.readAllLines(report.resolve("report.md")).stream()
                .filter((line) -> line.startsWith("| one_server") || line.startsWith("| two_server")).toList();
            assertEquals(2, rows.size(), output);
            for (final String row : rows)
            {
                final Matcher matcher = ROW.matcher(row);
                assertTrue(matcher.matches(), row);
                // every order of the measured window made it: the rate over the duration, all probes together
                assertEquals(RATE * DURATION_SECONDS, Long.parseLong(matcher.group(2)), row);
                final double mean = Double.parseDouble(matcher.group(3));
                final double median = Double.parseDouble(matcher.group(4));
                assertTrue(mean > 0 && median > 0, row);
            }
            // the published mean and p95 (gemcache_orders.csv, two_server at 500/s) beside the pair's row only
            assertTrue(rows.get(1).endsWith("| 283 | 319 |"), rows.get(1));
            assertTrue(rows.get(0).endsWith("|  |  |"), rows.get(0));

            final Path pairReport = report.resolve("report");
            final String html = Files.readString(pairReport.resolve("report.html"));
            for (final String run : List.of("one_server_500_s_run_1", "two_server_500_s_run_1"))
            {
                for (final String file : List.of(run + "-histogram.svg", run + "-timeseries.svg"))
                {
                    assertTrue(html.contains("<img src=\"" + file + "\""), file);
                    assertTrue(Files.readString(pairReport.resolve(file)).contains("<svg"), file);
                }
                assertTrue(Files.size(pairReport.resolve(run + "-create-to-end.hlog")) > 0, run);
            }
        }
    }
}
