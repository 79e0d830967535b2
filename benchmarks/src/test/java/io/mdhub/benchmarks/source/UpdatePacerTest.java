package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class UpdatePacerTest
{
    private static final long MS = 1_000_000L;

    @Test
    void releasesUpdatesInProportionToElapsedTime()
    {
        final UpdatePacer pacer = new UpdatePacer(10_000, 1000, 0);
        assertEquals(0, pacer.due(0));
        assertEquals(10, pacer.due(MS), "10k/s = 10 per ms");
        pacer.sent(10);
        assertEquals(0, pacer.due(MS));
        assertEquals(5, pacer.due(MS + MS / 2));
        pacer.sent(5);
        long total = 15;
        for (long t = 2 * MS; t <= 1000 * MS; t += MS)
        {
            final int due = pacer.due(t);
            pacer.sent(due);
            total += due;
        }
        assertEquals(10_000, total, "exactly the rate over one second");
    }

    @Test
    void aLateTickCatchesUpButNeverBeyondTheBurst()
    {
        final UpdatePacer pacer = new UpdatePacer(100_000, 500, 0);
        assertEquals(500, pacer.due(10 * MS), "1000 due, burst caps it");
        assertEquals(500, pacer.forgotten(), "what the burst cut off is counted");
        pacer.sent(500);
        assertEquals(100, pacer.due(11 * MS), "the backlog beyond the burst is dropped, the rate resumes");
        assertEquals(500, pacer.forgotten());
    }

    @Test
    void aBacklogWithinTheBurstIsDeferredNotForgotten()
    {
        final UpdatePacer pacer = new UpdatePacer(100_000, 500, 0);
        assertEquals(300, pacer.due(3 * MS));
        pacer.sent(100);
        assertEquals(300, pacer.due(4 * MS), "the 200 not sent stay due beside the next 100");
        pacer.sent(300);
        assertEquals(0, pacer.forgotten());
    }

    @Test
    void rateChangesTakeEffectFromNowAndZeroPauses()
    {
        final UpdatePacer pacer = new UpdatePacer(1000, 100, 0);
        pacer.sent(pacer.due(10 * MS));
        pacer.rate(0, 10 * MS);
        assertEquals(0, pacer.due(1000 * MS));
        pacer.rate(2000, 1000 * MS);
        assertEquals(2, pacer.due(1001 * MS));
        assertEquals(2000, pacer.rate());
        assertThrows(IllegalArgumentException.class, () -> pacer.rate(-1, 0));
    }
}
