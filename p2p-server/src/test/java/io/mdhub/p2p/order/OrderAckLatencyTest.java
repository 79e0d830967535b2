package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class OrderAckLatencyTest
{
    @Test
    void percentilesOfTheWindowWhoeverReads()
    {
        final OrderAckLatency latency = new OrderAckLatency();
        assertArrayEquals(new long[] {0, 0, 0, 0, 0, 0}, latency.percentilesUs());
        for (int i = 1; i <= 100; i++)
        {
            latency.completed(1_000_000L, 1_000_000L + i * 10_000L); // 10 µs ... 1 ms
        }
        latency.completed(0, 5_000_000L); // not stored here: not counted
        final long[] first = latency.percentilesUs();
        assertEquals(100, first[0]);
        assertTrue(first[1] >= 495 && first[1] <= 505, "p50 " + first[1]);
        assertTrue(first[3] >= 985 && first[3] <= 1_001, "p99 " + first[3]);
        assertTrue(first[5] >= 995 && first[5] <= 1_001, "max " + first[5]);

        latency.completed(1_000_000L, 3_000_000L); // 2 ms
        final long[] second = latency.percentilesUs();
        assertEquals(101, second[0], "an earlier reading's interval stays in the window");
        assertTrue(second[5] >= 1_995 && second[5] <= 2_001, "max " + second[5]);
    }
}
