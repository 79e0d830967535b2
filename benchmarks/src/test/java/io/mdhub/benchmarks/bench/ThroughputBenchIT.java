package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;

/**
 * {@code bin/mdhub bench throughput} end to end with tiny settings: the four tests, two rates each, separate JVMs;
 * data flows and nothing is lost in each step, the consumer tests change the rate under one client (one watchlist
 * opened for the sweep), the fan-out test's output is about half its mounts times its input, the distributor test's
 * sink received about what the source published, and the p2p-server's CPU per fan-out step ({@code cpu.csv}) has
 * JSON updates out in the {@code fanout-json} steps only.
 */
@InterruptAfter(280)
class ThroughputBenchIT
{
    @TempDir
    Path dir;

    @Test
    void theFourTestsRunAndReport() throws Exception
    {
        final Path report = dir.resolve("report");
        final Path log = dir.resolve("bench.log");
        final List<String> args = List.of(
            "bench", "throughput", "--tests", "fanout,fanout-json,nofanout,distributor", "--rates", "2000,3000",
            "--step-seconds", "4", "--warmup-seconds", "3", "--mounts", "4", "--fanout-items", "500", "--items", "2000",
            "--out", report.toString(), "--jvm-opts", "-Xmx256m");
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            SystemProcesses.awaitSuccess(processes.startScript(log, "bin/mdhub", args), log, 260);
            final List<String> csv = Files.readAllLines(report.resolve("results.csv"));
            for (final String test : List.of("fanout", "fanout-json", "nofanout", "distributor"))
            {
                final List<String[]> rows = csv.stream().map((row) -> row.split(","))
                    .filter((cells) -> cells[0].equals(test)).toList();
                // whether a rate counts as sustained is the benchmark's verdict on this machine's load, not a
                // property of the code: the test asks that data flowed and none was lost, and that a sustained first
                // rate led to the second
                assertEquals(rows.get(0)[6].equals("true") ? 2 : 1, rows.size(), () -> test + ": " + csv);
                for (final String[] cells : rows)
                {
                    final String row = String.join(",", cells);
                    assertTrue(Double.parseDouble(cells[2]) > 0, row); // input
                    assertTrue(Double.parseDouble(cells[3]) > 0, row); // output (the distributor test: at its sink)
                    assertEquals("0", cells[5], () -> "nothing lost: " + row);
                }
                if (!test.equals("distributor"))
                {
                    try (Stream<Path> logs = Files.list(report.resolve(test)))
                    {
                        assertEquals(List.of("client.log"), logs.map((file) -> file.getFileName().toString())
                            .filter((name) -> name.startsWith("client")).toList(), () -> test + ": one client");
                    }
                }
            }
            final String[] distributor = csv.stream().filter((row) -> row.startsWith("distributor,")).findFirst()
                .orElseThrow().split(",");
            final double received = Double.parseDouble(distributor[4]);
            assertTrue(received > 0.9 && received < 1.1, () -> "the sink received what the source sent: " + received);
            final String[] fanout = csv.stream().filter((row) -> row.startsWith("fanout,")).findFirst()
                .orElseThrow().split(",");
            final double ratio = Double.parseDouble(fanout[4]);
            assertTrue(ratio > 1.2 && ratio < 3.0, () -> "4 mounts on halves: output about twice the input: " + ratio);
            assertTrue(Files.readString(report.resolve("report.md")).contains("| distributor |"));
            assertJsonUpdatesInCpuCsv(report);
        }
    }

    /**
     * Every fan-out step has a {@code cpu.csv} row: {@code fanout}'s mounts are RSSL only, {@code fanout-json}'s half
     * of them on JSON (the default {@code --json-mounts}), so only the latter's rows have JSON updates out.
     */
    private static void assertJsonUpdatesInCpuCsv(final Path report) throws Exception
    {
        final Path cpuCsv = report.resolve("cpu.csv");
        assertTrue(Files.exists(cpuCsv), "cpu.csv written with fan-out tests");
        final List<String> cpu = Files.readAllLines(cpuCsv);
        final List<String> header = List.of(cpu.get(0).split(","));
        final int test = header.indexOf("test");
        final int jsonOutput = header.indexOf("json_output_ups");
        assertTrue(test >= 0 && jsonOutput >= 0, () -> "cpu.csv's header: " + cpu);
        int jsonRows = 0;
        for (final String row : cpu.subList(1, cpu.size()))
        {
            final String[] cells = row.split(",");
            final long json = Long.parseLong(cells[jsonOutput]);
            if ("fanout-json".equals(cells[test]))
            {
                jsonRows++;
                assertTrue(json > 0, () -> "JSON updates out: " + row);
            }
            else
            {
                assertEquals(0, json, () -> "no JSON mounts in " + row);
            }
        }
        assertTrue(jsonRows > 0, () -> "a fanout-json step in cpu.csv: " + cpu);
    }
}
