package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * Reading a thread's scheduling back from the kernel's stat line, whose second field (the name) may hold spaces and
 * parentheses of its own.
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
}
