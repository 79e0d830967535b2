package io.mdhub.p2p.order;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * Counters for tests of the order store's parts, each in counter space of its own.
 */
final class TestCounters
{
    private TestCounters()
    {
    }

    /**
     * @param label what it counts.
     * @return a counter at 0.
     */
    static AtomicCounter newCounter(final String label)
    {
        return new CountersManager(new UnsafeBuffer(new byte[16 * 1024]), new UnsafeBuffer(new byte[4 * 1024]))
            .newCounter(label);
    }
}
