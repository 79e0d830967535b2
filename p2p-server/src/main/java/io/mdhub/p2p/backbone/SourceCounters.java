package io.mdhub.p2p.backbone;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;

/**
 * A backbone item source's gaps, recoveries and messages taken from the stream. The counters live in the backbone
 * client's counters file; while the backbone daemon is lost they go on counting on the heap, and a new client's
 * counters start from those totals. Written on the worker's event loop only.
 */
final class SourceCounters
{
    private AtomicCounter gaps = heapCounter(0);
    private AtomicCounter recoveries = heapCounter(0);
    private AtomicCounter messagesIn = heapCounter(0);

    /**
     * Count in the counters of one client.
     */
    void use(final AtomicCounter gaps, final AtomicCounter recoveries, final AtomicCounter messagesIn)
    {
        this.gaps = gaps;
        this.recoveries = recoveries;
        this.messagesIn = messagesIn;
    }

    /**
     * The client is lost (before its memory is unmapped): go on counting on the heap.
     */
    void detach()
    {
        gaps = heapCounter(gaps.get());
        recoveries = heapCounter(recoveries.get());
        messagesIn = heapCounter(messagesIn.get());
    }

    /**
     * A new client: its counters take the running totals, then count on.
     */
    void reattach(final AtomicCounter gaps, final AtomicCounter recoveries, final AtomicCounter messagesIn)
    {
        gaps.setOrdered(this.gaps.get());
        recoveries.setOrdered(this.recoveries.get());
        messagesIn.setOrdered(this.messagesIn.get());
        use(gaps, recoveries, messagesIn);
    }

    void onGap()
    {
        gaps.increment();
    }

    void onRecovery()
    {
        recoveries.increment();
    }

    void onMessageIn()
    {
        messagesIn.incrementOrdered(); // single writer: an ordered store, no locked instruction per message
    }

    long gaps()
    {
        return gaps.get();
    }

    long recoveries()
    {
        return recoveries.get();
    }

    long messagesIn()
    {
        return messagesIn.get();
    }

    private static AtomicCounter heapCounter(final long value)
    {
        final AtomicCounter counter = new AtomicCounter(new UnsafeBuffer(new byte[CountersReader.COUNTER_LENGTH]), 0);
        counter.setOrdered(value);
        return counter;
    }
}
