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
 * A run's accounting from its processes' usages: per order in all and by role, cores, switches, threads, the CSV.
 */
@InterruptAfter(10)
class RunCpuTest
{
    @TempDir
    Path dir;

    @Test
    void usagesBecomeCostsPerOrder() throws Exception
    {
        final RunCpu cpu = new RunCpu(List.of(
            entry(RunCpu.Role.SERVER, "server-0", 3_000_000_000L, 4_000, 1_000, 40, 40),
            entry(RunCpu.Role.SERVER, "server-1", 1_000_000_000L, 2_000, 0, 38, 39),
            entry(RunCpu.Role.PROBE, "probe-A", 2_000_000_000L, 3_000, 0, 30, 30)),
            10_000_000_000L, 20_000, 19_990);

        assertEquals(300.0, cpu.cpuUsPerOrder(), 1e-9, "6 s of CPU over 20,000 orders");
        assertEquals(200.0, cpu.cpuUsPerOrder(RunCpu.Role.SERVER), 1e-9);
        assertEquals(100.0, cpu.cpuUsPerOrder(RunCpu.Role.PROBE), 1e-9);
        assertEquals(0.6, cpu.cores(), 1e-9, "6 s of CPU in 10 s");
        assertEquals(0.5, cpu.switchesPerOrder(), 1e-9);
        assertEquals("servers 40, 38→39 · probes 30", cpu.threads());
        assertEquals("300.0 | 200.0 | 100.0 | 0.60 | 0.5 | servers 40, 38→39 · probes 30", cpu.markdownCells());
        assertEquals(RunCpu.MARKDOWN_HEADER.split("\\|").length, cpu.markdownCells().split("\\|").length);
        assertFalse(cpu.isBehind(), "it served what was created");

        final Path csv = dir.resolve("cpu.csv");
        cpu.writeCsv(csv, "tcp_floor 2000/s run 1");
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(RunCpu.CSV_HEADER, lines.get(0));
        assertEquals(5, lines.size(), "a line per process and one for all");
        assertTrue(lines.get(4).startsWith("tcp_floor 2000/s run 1,all,all,,6000000000,false,"), lines.get(4));
        assertTrue(lines.get(4).contains(",20000,19990,"), lines.get(4));
        assertTrue(lines.get(4).endsWith(",300.000,0.500"), lines.get(4));
    }

    @Test
    void aRunThatFellBehindTheRateIsMarked()
    {
        final RunCpu cpu = new RunCpu(List.of(entry(RunCpu.Role.SERVER, "member-0", 2_000_000_000L, 1, 1, 50, 50)),
            10_000_000_000L, 20_000, 12_000);
        assertTrue(cpu.isBehind(), "12,000 of 20,000 answered in the window");
        assertTrue(cpu.markdownCells().startsWith("100.0 (behind) | "), cpu.markdownCells());
        assertTrue(cpu.describe().contains("BEHIND the rate: 12000 of the 20000 orders"), cpu.describe());
    }

    private static RunCpu.Entry entry(
        final RunCpu.Role role,
        final String name,
        final long cpuNs,
        final long voluntary,
        final long involuntary,
        final int threadsStart,
        final int threadsEnd)
    {
        return new RunCpu.Entry(new RunCpu.Watched(role, name, 1), new ProcessCpu.Usage(cpuNs, cpuNs, voluntary,
            involuntary, threadsStart, threadsEnd, 0, false));
    }
}
