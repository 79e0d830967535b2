package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;

/**
 * Reading a thread's scheduling back from the kernel's stat line, whose second field (the name) may hold spaces and
 * parentheses of its own; waiting for a process's output to settle.
 */
@InterruptAfter(10)
class BenchProcessTest
{
    /** The distributor's event loop under {@code chrt -f 10}, as read from /proc during a latency sweep. */
    private static final String FIFO_10 = "7439 (distributor-mdh) S 7323 7315 2329 0 -1 4194368 45632 0 0 0 379 81 0 " +
        "0 -11 0 19 0 3741795 3859230720 124276 18446744073709551615 94055818354688 94055818355573 140721261685536 " +
        "0 0 0 4 3 16800972 1 0 0 -1 0 10 1 0 0 0 94055818366272 94055818367000 94056010203136 140721261689047 " +
        "140721261689367 140721261689367 140721261690828 0\n";

    @Test
    void aFifoThreadReadsAsPolicyOneAtItsPriority()
    {
        assertArrayEquals(new int[] {1, 10}, BenchProcess.scheduling(FIFO_10));
    }

    @Test
    void aNameWithSpacesAndParenthesesDoesNotShiftTheFields()
    {
        final String renamed = FIFO_10.replace("(distributor-mdh)", "(a (b) c) d)");
        assertArrayEquals(new int[] {1, 10}, BenchProcess.scheduling(renamed));
    }

    @Test
    void anOrdinaryThreadReadsAsPolicyZero()
    {
        final String ordinary = FIFO_10.replace(" -1 0 10 1 0 0 0 ", " -1 0 0 0 0 0 0 ");
        assertArrayEquals(new int[] {0, 0}, BenchProcess.scheduling(ordinary));
    }

    @Test
    void linesInARowCountOnlyFromTheCallOnAndAMismatchStartsOver(@TempDir final Path dir) throws IOException
    {
        final Path log = dir.resolve("printer.log");
        try (BenchProcess printer = new BenchProcess("printer", log, new ProcessBuilder("sh", "-c",
            "echo ok; echo ok; echo ok; sleep 1; echo ok; echo bad; echo ok; echo ok; sleep 1; echo ok; exec sleep 8")
            .redirectErrorStream(true).redirectOutput(log.toFile()).start()))
        {
            printer.awaitLine("ok\nok\nok\n", 5);
            printer.awaitLinesInARow("ok"::equals, 3, 5);
            // the three before the call and the one before "bad" do not count: the third "ok" after it does, and the
            // output read at once shows it (returning a second early it would end "ok\nok\nok\nok\n"); no timing
            // assertion, which a loaded machine noticing the first lines late could fail
            assertTrue(printer.output().endsWith("bad\nok\nok\nok\n"), printer::output);
        }
    }

    @Test
    void aProcessThatExitsBeforeTheLinesComeFailsTheWait(@TempDir final Path dir) throws IOException
    {
        final Path log = dir.resolve("printer.log");
        try (BenchProcess printer = new BenchProcess("printer", log, new ProcessBuilder("sh", "-c",
            "sleep 0.5; echo ok; echo bad; echo ok").redirectErrorStream(true).redirectOutput(log.toFile()).start()))
        {
            assertThrows(IllegalStateException.class, () -> printer.awaitLinesInARow("ok"::equals, 2, 5));
        }
    }
}
