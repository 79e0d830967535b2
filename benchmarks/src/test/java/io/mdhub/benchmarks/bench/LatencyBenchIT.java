package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;

/**
 * {@code bin/mdhub bench latency} end to end with tiny settings, as a user runs it: every component a separate JVM,
 * two rate steps, and a report directory with the CSV (reference columns), the Markdown table, the SVG plot and the
 * CPU per update of every process.
 */
@InterruptAfter(150)
class LatencyBenchIT
{
    @TempDir
    Path dir;

    @Test
    void aShortSweepWritesTheReport() throws Exception
    {
        final Path report = dir.resolve("report");
        final Path log = dir.resolve("bench.log");
        final List<String> args = new ArrayList<>(List.of(
            "bench", "latency", "--items", "1000", "--rates", "1000,2000", "--step-seconds", "4",
            "--warmup-seconds", "2", "--out", report.toString(), "--jvm-opts", "-Xmx256m"));
        // thread placement as the published runs use it, where this host allows it (two CPUs, root for chrt)
        final boolean isPlacing = Runtime.getRuntime().availableProcessors() >= 2 &&
            "root".equals(System.getProperty("user.name"));
        if (isPlacing)
        {
            args.addAll(List.of("--pin", "--realtime", "2"));
        }
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            SystemProcesses.awaitSuccess(processes.startScript(log, "bin/mdhub", args), log, 120);
            final List<String> csv = Files.readAllLines(report.resolve("results.csv"));
            assertEquals(LatencyRow.CSV_HEADER, csv.get(0));
            assertEquals(3, csv.size(), () -> String.join("\n", csv));
            for (final String row : csv.subList(1, 3))
            {
                final String[] cells = row.split(",");
                assertTrue(Double.parseDouble(cells[2]) > 0, row); // a mean latency
                assertTrue(Long.parseLong(cells[6]) > 0, row); // samples
                assertEquals("0", cells[10], row); // nothing lost
            }
            // CPU per update of every process over each step's window, and of all of them
            final List<String> cpu = Files.readAllLines(report.resolve("cpu.csv"));
            assertEquals(StepCpu.CSV_HEADER, cpu.get(0));
            assertEquals(1 + 2 * 6, cpu.size(), () -> String.join("\n", cpu));
            for (final String row : cpu.subList(1, cpu.size()))
            {
                final String[] cells = row.split(",");
                if ("all".equals(cells[1]) || "p2p".equals(cells[1]) || "distributor".equals(cells[1]))
                {
                    assertTrue(Double.parseDouble(cells[2]) > 0, row);
                }
            }
            final String md = Files.readString(report.resolve("report.md"));
            assertTrue(md.contains("| 2000 |"), md);
            assertTrue(md.matches("(?s).*Reference: loopback floor .*: mean [0-9.]+ µs, p50 [0-9.]+ µs, p99 .*"), md);
            assertTrue(Files.readString(report.resolve("latency.svg")).contains("<polyline"));
            if (isPlacing)
            {
                assertTrue(md.matches("(?s).*once the watchlist was open, \\d+ other threads of p2p-server and " +
                    "client moved to CPU 0.*"), md);
                // the source, the load, one priority below the path it loads (as the default --realtime 10 runs)
                assertTrue(md.contains("the event loops of distributor and client (2 threads) and the backbone's " +
                    "driver agent (1) under SCHED_FIFO 2, the source's event loop (1) one below (1)"), md);
            }
        }
    }
}
