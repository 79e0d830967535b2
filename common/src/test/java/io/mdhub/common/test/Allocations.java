package io.mdhub.common.test;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Measures what a piece of code allocates on the calling thread (HotSpot's per-thread allocation counter), for the
 * zero-allocation tests of hot paths.
 */
public final class Allocations
{
    private Allocations()
    {
    }

    /**
     * Run {@code work} once to warm it up, then in a few windows, and return the fewest bytes any window allocated
     * (less the cost of reading the counter). A one-off allocation by the JIT or the JVM's own bookkeeping can land
     * in one window; an allocation per operation shows up in every window.
     *
     * @param work   the code under test; returns a value that depends on its work so it cannot be optimised away.
     * @param rounds windows to try (stops early at a window with 0 bytes).
     * @return bytes allocated in the best window.
     */
    public static long leastAllocatedBytes(final LongSupplier work, final int rounds)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "per-thread allocation counter");
        final long tid = Thread.currentThread().getId();
        long sum = work.getAsLong();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < rounds && best != 0; round++)
        {
            final long calibrateStart = threads.getThreadAllocatedBytes(tid);
            final long calibrateEnd = threads.getThreadAllocatedBytes(tid);
            final long before = threads.getThreadAllocatedBytes(tid);
            sum += work.getAsLong();
            final long after = threads.getThreadAllocatedBytes(tid);
            best = Math.min(best, (after - before) - (calibrateEnd - calibrateStart));
        }
        assertTrue(sum != 0, "the work must produce a result");
        return best;
    }
}
