package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.SystemProcesses;
import io.mdhub.orderprobe.analysis.ProbeRun;

/**
 * {@code bin/mdhub bench orders --interleave} with the two references, tiny settings, as a user runs it: the TCP
 * floor (its primary and backup as separate JVMs) and the Hazelcast pair (two members), each deployed for its run
 * with two probes started from the bench jar. Every order is answered — none failed, the floor's primary forwarded
 * as many as it answered back, the Hazelcast map held every order of the run — every run has its CPU accounted (in
 * report.md, in a CSV per run and in one for all runs), and Hazelcast's ratios to the floor are reported.
 */
@InterruptAfter(240)
class OrdersBenchReferencesIT
{
    private static final int RATE = 500;
    private static final int WARMUP_SECONDS = 1;
    private static final int DURATION_SECONDS = 3;
    private static final int ORDERS_SENT = RATE * (WARMUP_SECONDS + DURATION_SECONDS);
    private static final Pattern ROW = Pattern.compile("\\| (tcp_floor|hazelcast) " + RATE + "/s run 1 " +
        "\\| (\\d+) \\| ([0-9.]+) \\| ([0-9.]+) \\|( [^|]* \\|){5} " +
        "([0-9.]+)(?: \\(behind\\))? \\| ([0-9.]+) \\| ([0-9.]+) \\| ([0-9.]+) \\| ([0-9.]+) " +
        "\\| (servers \\S+, \\S+ · probes \\S+, \\S+) \\|  \\|  \\|");
    private static final Pattern FLOOR_COUNTS =
        Pattern.compile("(\\d+) connections, (\\d+) orders forwarded, (\\d+) answered, (\\d+) answers dropped");

    @TempDir
    Path dir;

    @Test
    void theFloorAndHazelcastAnswerEveryOrderAndAreAccountedFor() throws Exception
    {
        final Path report = dir.resolve("report");
        final Path log = dir.resolve("bench.log");
        final List<String> args = List.of(
            "bench", "orders", "--configurations", "tcp_floor,hazelcast",
            "--rates", Integer.toString(RATE), "--warmup", Integer.toString(WARMUP_SECONDS),
            "--duration", Integer.toString(DURATION_SECONDS), "--repeat", "1", "--extend-step", "0", "--interleave",
            "--server-jvm-opts", "-Xms128m -Xmx256m", "--probe-jvm-opts", "-Xms64m -Xmx256m",
            "--out", report.toString());
        try (SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target")))
        {
            final String output = SystemProcesses.awaitSuccess(processes.startScript(log, "bin/mdhub", args), log, 210);

            final List<String> lines = Files.readAllLines(report.resolve("report.md"));
            final List<String> rows = lines.stream().filter((line) -> line.contains("/s run 1 |")).toList();
            assertEquals(2, rows.size(), output);
            assertTrue(lines.stream().anyMatch((line) -> line.startsWith("| hazelcast " + RATE + "/s | ")),
                () -> "a row of ratios to the floor: " + lines);
            for (final String row : rows)
            {
                final Matcher matcher = ROW.matcher(row);
                assertTrue(matcher.matches(), row);
                // every order of the measured window made it (on a loaded host one may fall behind the rate, and
                // its CPU is marked so, but it still answers every order)
                assertEquals(RATE * DURATION_SECONDS, Long.parseLong(matcher.group(2)), row);
                final double cpu = Double.parseDouble(matcher.group(6));
                final double servers = Double.parseDouble(matcher.group(7));
                final double probes = Double.parseDouble(matcher.group(8));
                assertTrue(servers > 0 && probes > 0, row);
                assertEquals(cpu, servers + probes, 0.11, "the servers and the probes are all " + row);
                assertTrue(Double.parseDouble(matcher.group(9)) > 0, "cores " + row);
                assertTrue(Double.parseDouble(matcher.group(10)) > 0, "context switches " + row);
            }
            for (final String configuration : List.of("tcp_floor", "hazelcast"))
            {
                final Path run = report.resolve(configuration).resolve("runs").resolve(RATE + "-1");
                for (final String probe : List.of("A", "B"))
                {
                    final Properties properties = ProbeRun.load(run.resolve(probe)).properties();
                    assertEquals("0", properties.getProperty(ProbeRun.FAILED), configuration + " probe " + probe);
                    assertEquals(configuration.replace('_', '-'), properties.getProperty("target"));
                }
                final List<String> cpu = Files.readAllLines(run.resolve("cpu.csv"));
                assertEquals(RunCpu.CSV_HEADER, cpu.get(0));
                assertEquals(1 + 2 + 2 + 1, cpu.size(), "two servers, two probes, all: " + cpu);
            }
            assertEquals(3, Files.readAllLines(report.resolve("cpu.csv")).size(), "a line per run");

            final Path floorLogs = report.resolve("tcp_floor").resolve("processes-" + RATE + "-1");
            final Matcher floor = FLOOR_COUNTS.matcher(Files.readString(floorLogs.resolve("tcp-floor-primary.log")));
            assertTrue(floor.find(), "the primary printed its counts");
            assertEquals(8, Long.parseLong(floor.group(1)), "every publisher of both probes its own connection");
            assertEquals(ORDERS_SENT, Long.parseLong(floor.group(2)), "every order of the run forwarded once");
            assertEquals(ORDERS_SENT, Long.parseLong(floor.group(3)), "and answered");
            assertEquals(0, Long.parseLong(floor.group(4)), "none dropped");
            assertTrue(Files.readString(floorLogs.resolve("tcp-floor-backup.log"))
                .contains("tcp floor backup: " + ORDERS_SENT + " orders answered"));

            // the bench empties the map after each run: it held every order of the run, each once
            assertTrue(Files.readString(
                report.resolve("hazelcast").resolve("processes-" + RATE + "-1").resolve("hazelcast-member-0.log"))
                .contains("orders cleared 1: " + ORDERS_SENT + " entries"), "every order in the map");
        }
    }
}
