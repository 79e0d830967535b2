package io.mdhub.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class TimerSlackTest
{
    private static final long SLACK_NS = 1_234;

    @Test
    void setsTheSlackOfTheCallingThreadOnly() throws Exception
    {
        final long mine = TimerSlack.ofCurrentThread();
        assumeTrue(mine > 0, "no per-thread timer slack on this system");
        assumeTrue(mine != SLACK_NS);

        final AtomicLong seen = new AtomicLong();
        final AtomicLong set = new AtomicLong();
        final Thread thread = new Thread(() ->
        {
            set.set(TimerSlack.setForCurrentThread(SLACK_NS) ? 1 : 0);
            seen.set(TimerSlack.ofCurrentThread());
        });
        thread.start();
        thread.join();

        assertEquals(1, set.get());
        assertEquals(SLACK_NS, seen.get());
        assertEquals(mine, TimerSlack.ofCurrentThread(), "the caller's own slack is untouched");
        assertNotEquals(SLACK_NS, TimerSlack.ofCurrentThread());
    }

    @Test
    void aThreadStartsWithItsCreatorsSlack() throws Exception
    {
        assumeTrue(TimerSlack.ofCurrentThread() > 0, "no per-thread timer slack on this system");
        final AtomicLong child = new AtomicLong();
        final Thread parent = new Thread(() ->
        {
            assertTrue(TimerSlack.setForCurrentThread(SLACK_NS));
            final Thread thread = new Thread(() -> child.set(TimerSlack.ofCurrentThread()));
            thread.start();
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        parent.start();
        parent.join();
        assertEquals(SLACK_NS, child.get());
    }

    @Test
    void refusesASlackBelowOneNanosecond()
    {
        // 0 would silently mean "the process default" to the kernel
        assertThrows(IllegalArgumentException.class, () -> TimerSlack.setForCurrentThread(0));
    }
}
