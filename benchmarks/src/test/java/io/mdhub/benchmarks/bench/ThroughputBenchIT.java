package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;

/**
 * {@code bin/mdhub bench throughput} end to end with tiny settings: the three tests, one rate each, separate JVMs;
 * data flows and nothing is lost in each, the fan-out test's output is about half its mounts times its input, and the
 * distributor test's sink received about what the source published.
 */
@InterruptAfter(200)
class ThroughputBenchIT
{
    @TempDir
    Path dir;

    @Test
    void theThreeTestsRunAndReport() throws Exception
    {
        final Path report = dir.resolve("report");
        final Path log = dir.resolve("bench.log");
        final List<String> args = List.of(
            "bench", "throughput", "--rates", "2000", "--step-seconds", "4", "--warmup-seconds", "3",
            "--mounts", "4", "--fanout-items", "500", "--items", "2000", "--out", report.toString(),
            "--jvm-opts", "-Xmx256m");
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            SystemProcesses.awaitSuccess(processes.startScript(log, "bin/mdhub", args), log, 180);
            final List<String> csv = Files.readAllLines(report.resolve("results.csv"));
            assertEquals(4, csv.size(), () -> String.join("\n", csv));
            for (final String row : csv.subList(1, 4))
            {
                // whether 2,000/s counts as sustained is the benchmark's verdict on this machine's load, not a
                // property of the code: the test asks only that data flowed and none was lost
                final String[] cells = row.split(",");
                assertTrue(Double.parseDouble(cells[2]) > 0, row); // input
                assertTrue(Double.parseDouble(cells[3]) > 0, row); // output (the distributor test: at its sink)
                assertEquals("0", cells[5], () -> "nothing lost: " + row);
            }
            final String[] distributor = csv.get(3).split(",");
            assertEquals("distributor", distributor[0]);
            final double received = Double.parseDouble(distributor[4]);
            assertTrue(received > 0.9 && received < 1.1, () -> "the sink received what the source sent: " + received);
            final String[] fanout = csv.get(1).split(",");
            assertEquals("fanout", fanout[0]);
            final double ratio = Double.parseDouble(fanout[4]);
            assertTrue(ratio > 1.2 && ratio < 3.0, () -> "4 mounts on halves: output about twice the input: " + ratio);
            assertTrue(Files.readString(report.resolve("report.md")).contains("| distributor |"));
        }
    }
}
