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
 * {@code bin/mdhub bench idle} end to end with a short settle and window: the three processes start from their jars,
 * every one of them is measured, and the report names their loops' threads; no conductor thread of an Aeron client
 * is among the servers' threads. How much CPU they took is the benchmark's finding on this machine, not asserted.
 */
@InterruptAfter(150)
class IdleBenchIT
{
    @TempDir
    Path dir;

    @Test
    void measuresTheThreeProcessesThreadByThread() throws Exception
    {
        final Path report = dir.resolve("report");
        final Path log = dir.resolve("bench.log");
        final List<String> args = List.of("bench", "idle", "--settle-seconds", "5", "--window-seconds", "5",
            "--out", report.toString(), "--jvm-opts", "-Xmx256m");
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            SystemProcesses.awaitSuccess(processes.startScript(log, "bin/mdhub", args), log, 120);
        }
        final List<String> csv = Files.readAllLines(report.resolve("idle.csv"));
        assertEquals("process,thread,cpu_percent_of_a_core,wakeups_per_second", csv.get(0));
        for (final String process : List.of("backbone", "distributor", "p2p"))
        {
            assertTrue(csv.stream().anyMatch((row) -> row.startsWith(process + ",")), () -> process + ": " + csv);
        }
        assertTrue(csv.stream().anyMatch((row) -> row.startsWith("p2p,\"p2p-worker")), csv::toString);
        assertTrue(csv.stream().anyMatch((row) -> row.startsWith("distributor,\"distributor-")), csv::toString);
        assertTrue(csv.stream().noneMatch((row) -> !row.startsWith("backbone,") && row.contains("aeron-client-co")),
            () -> "the servers' Aeron clients have no conductor thread: " + csv);
        final String markdown = Files.readString(report.resolve("report.md"));
        assertTrue(Files.size(report.resolve("idle.png")) > 0, "chart");
        assertTrue(markdown.contains("| **together** |") && markdown.contains("Target: below 1.0 % of a core"),
            markdown);
    }
}
