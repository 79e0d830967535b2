package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class PendingClosesTest
{
    @Test
    void closesComeBackInOrderWithEveryField()
    {
        final PendingCloses closes = new PendingCloses(4);
        assertTrue(closes.add(7L, 1, 10));
        assertTrue(closes.add(Long.MAX_VALUE, 65_535, -1));
        assertEquals(2, closes.size());

        assertEquals(7L, closes.epoch());
        assertEquals(1, closes.serviceId());
        assertEquals(10, closes.handle());
        closes.remove();
        assertEquals(Long.MAX_VALUE, closes.epoch());
        assertEquals(65_535, closes.serviceId());
        assertEquals(-1, closes.handle());
        closes.remove();
        assertTrue(closes.isEmpty());
    }

    @Test
    void aFullRingGivesUpTheOldestAndSaysSo()
    {
        final PendingCloses closes = new PendingCloses(3);
        for (int i = 1; i <= 3; i++)
        {
            assertTrue(closes.add(i, i, i));
        }
        assertFalse(closes.add(4, 4, 4), "full: the oldest makes room");
        assertEquals(3, closes.size());
        for (int expected = 2; expected <= 4; expected++)
        {
            assertEquals(expected, closes.handle());
            closes.remove();
        }
        assertTrue(closes.isEmpty());
        assertTrue(closes.add(5, 5, 5), "room again after wrapping around");
        assertEquals(5, closes.handle());
    }
}
