package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The (serviceId, handle) index against a plain map: consecutive handles in their slots, two services' same handle,
 * lapped handles in the overflow, random keys through growth.
 */
@InterruptAfter(30)
class HandleIndexTest
{
    @Test
    void consecutiveHandlesSitInTheirSlots()
    {
        final HandleIndex index = new HandleIndex();
        for (int handle = 1; handle <= 100_000; handle++)
        {
            index.put(7, handle, handle * 10L);
        }
        assertEquals(100_000, index.size());
        assertEquals(0, index.overflowSize());
        assertTrue(index.capacity() >= 200_000, "capacity " + index.capacity());
        for (int handle = 1; handle <= 100_000; handle++)
        {
            assertEquals(handle * 10L, index.get(7, handle));
        }
        assertEquals(HandleIndex.MISSING, index.get(8, 1), "another service");
        assertEquals(HandleIndex.MISSING, index.get(7, 0));
    }

    @Test
    void theSameHandleInTwoServicesAndALappedHandleGoToTheOverflow()
    {
        final HandleIndex index = new HandleIndex();
        final int capacity = index.capacity();
        index.put(1, 5, 100);
        index.put(2, 5, 200);
        index.put(1, 5 + capacity, 300);
        assertEquals(2, index.overflowSize());
        assertEquals(100, index.get(1, 5));
        assertEquals(200, index.get(2, 5));
        assertEquals(300, index.get(1, 5 + capacity));

        index.put(2, 5, 201);
        assertEquals(201, index.get(2, 5), "rebinding an overflowed key replaces it");
        assertEquals(100, index.remove(1, 5));
        assertEquals(HandleIndex.MISSING, index.get(1, 5));
        assertEquals(201, index.get(2, 5), "still found after the slot frees");
        assertEquals(HandleIndex.MISSING, index.remove(1, 5));
        assertEquals(2, index.size());
        assertThrows(IllegalArgumentException.class, () -> index.put(1, 1, -1));
    }

    @Test
    void behavesAsAMapUnderRandomPutsAndRemoves()
    {
        final Random random = new Random(7);
        final HandleIndex index = new HandleIndex();
        final Map<Long, Long> expected = new HashMap<>();
        int nextHandle = 1;
        for (int step = 0; step < 200_000; step++)
        {
            final int choice = random.nextInt(10);
            final int serviceId = 1 + random.nextInt(3);
            final int handle = choice < 4 ? nextHandle++ : choice < 5 ? random.nextInt() :
                Math.max(1, nextHandle - 1 - random.nextInt(Math.max(1, Math.min(nextHandle - 1, 5_000))));
            final long key = ((long)serviceId << 32) | (handle & 0xFFFF_FFFFL);
            if (choice < 7)
            {
                final long itemId = random.nextInt(1_000_000);
                expected.put(key, itemId);
                index.put(serviceId, handle, itemId);
            }
            else
            {
                final Long removed = expected.remove(key);
                assertEquals(null == removed ? HandleIndex.MISSING : removed, index.remove(serviceId, handle));
            }
            assertEquals(expected.size(), index.size());
        }
        for (final Map.Entry<Long, Long> entry : expected.entrySet())
        {
            final long key = entry.getKey();
            assertEquals(entry.getValue(), index.get((int)(key >>> 32), (int)key));
        }
        assertTrue(index.overflowSize() > 0, "random keys made some collide");
    }
}
