package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class SourceCountersTest
{
    private final SourceCounters counters = new SourceCounters();

    @Test
    void theTotalsGoOnWhileTheBackboneIsLostAndANewClientStartsFromThem()
    {
        final AtomicCounter gaps = counter();
        final AtomicCounter recoveries = counter();
        final AtomicCounter messagesIn = counter();
        counters.use(gaps, recoveries, messagesIn);
        counters.onGap();
        counters.onRecovery();
        counters.onRecovery();
        counters.onMessageIn();
        assertEquals(1, gaps.get());
        assertEquals(2, recoveries.get());
        assertEquals(1, messagesIn.get());

        counters.detach();
        counters.onGap();
        counters.onMessageIn();
        assertEquals(1, gaps.get(), "the lost client's counters are not touched any more");
        assertEquals(1, messagesIn.get());
        assertEquals(2, counters.gaps());

        final AtomicCounter nextGaps = counter();
        final AtomicCounter nextRecoveries = counter();
        final AtomicCounter nextMessagesIn = counter();
        counters.reattach(nextGaps, nextRecoveries, nextMessagesIn);
        assertEquals(2, nextGaps.get());
        assertEquals(2, nextRecoveries.get());
        assertEquals(2, nextMessagesIn.get());
        counters.onRecovery();
        assertEquals(3, nextRecoveries.get());
        assertEquals(3, counters.recoveries());
    }

    @Test
    void countsBeforeAnyClientAreKept()
    {
        counters.onMessageIn();
        final AtomicCounter messagesIn = counter();
        counters.reattach(counter(), counter(), messagesIn);
        assertEquals(1, messagesIn.get());
        assertEquals(1, counters.messagesIn());
    }

    private static AtomicCounter counter()
    {
        return new AtomicCounter(new UnsafeBuffer(new byte[CountersReader.COUNTER_LENGTH]), 0);
    }
}
