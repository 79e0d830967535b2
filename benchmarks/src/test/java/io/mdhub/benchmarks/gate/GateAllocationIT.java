package io.mdhub.benchmarks.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import picocli.CommandLine;

/**
 * The allocation half of the gate, as every build runs it: each benchmark marked {@link NoAllocation} runs briefly
 * under JMH's GC profiler, in a JVM of its own, and none may allocate. Timing is not judged here (the build machine
 * is shared and busy); {@code bin/mdhub bench gate} judges it on a quiet one.
 */
@InterruptAfter(value = 600)
class GateAllocationIT
{
    @TempDir
    Path dir;

    @Test
    void noPathMarkedNoAllocationAllocates() throws Exception
    {
        final List<String> marked = GateMain.markedBenchmarks();
        assertTrue(marked.size() >= 8, "benchmarks marked @NoAllocation: " + marked);
        assertTrue(marked.contains(GateCheck.CALIBRATION), marked.toString());

        final StringWriter out = new StringWriter();
        final int status = new CommandLine(new GateMain()).setOut(new PrintWriter(out))
            .execute("--alloc-only", "--out", dir.toString());
        final String report = Files.readString(dir.resolve("report.txt"));
        assertEquals(0, status, out + report);
        final List<GateResult> results = GateResults.read(dir.resolve("results.json"));
        for (final String name : marked)
        {
            assertTrue(results.stream().anyMatch((result) -> result.benchmark().equals(name) ||
                result.benchmark().startsWith(name + "[")), name + " did not run:\n" + report);
        }
        for (final GateResult result : results)
        {
            assertTrue(result.bytesPerOp() < NoAllocation.MAX_BYTES_PER_OP, result + "\n" + report);
        }
    }
}
