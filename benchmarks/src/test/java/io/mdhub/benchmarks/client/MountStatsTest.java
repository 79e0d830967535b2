package io.mdhub.benchmarks.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The moments a mount's Suspect episode begins and ends, as the chaos runner reads them from the client's line.
 */
@InterruptAfter(10)
class MountStatsTest
{
    @Test
    void anEpisodeBeginsWithTheFirstSuspectItemAndEndsWithTheLastOkOne() throws Exception
    {
        final MountStats stats = new MountStats();
        final long beforeMs = System.currentTimeMillis();
        stats.suspectChanged(3); // a lost connection: every item Suspect at once
        final long fromMs = stats.suspectFromMs.get();
        assertTrue(fromMs >= beforeMs, () -> fromMs + " < " + beforeMs);
        Thread.sleep(5);
        stats.suspectChanged(1);
        assertEquals(fromMs, stats.suspectFromMs.get(), "more items Suspect: the same episode");
        stats.suspectChanged(-3);
        assertEquals(0, stats.allOkMs.get(), "one item still Suspect");
        stats.suspectChanged(-1);
        assertEquals(0, stats.itemsSuspect());
        assertTrue(stats.allOkMs.get() >= fromMs + 5, () -> stats.allOkMs.get() + " vs " + fromMs);

        assertEquals(fromMs, stats.suspectFromMs.getAndSet(0), "the reporter takes it");
        Thread.sleep(5);
        stats.suspectChanged(1);
        assertTrue(stats.suspectFromMs.get() >= fromMs + 5, "a new episode, a new beginning");
    }
}
