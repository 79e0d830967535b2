package io.mdhub.distributor.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The distributor's pending store: FIFO across items, a hard byte cap, per-item counts for answers, counters, and
 * no allocation once it has grown to its backlog.
 */
@InterruptAfter(30)
class PendingLiveMessagesTest
{
    private final CountersManager countersManager = new CountersManager(
        new UnsafeBuffer(new byte[16 * CountersManager.METADATA_LENGTH]),
        new UnsafeBuffer(new byte[16 * CountersManager.COUNTER_LENGTH]));
    private final AtomicCounter pendingBytes = countersManager.newCounter("pending");
    private final AtomicCounter highWater = countersManager.newCounter("hwm");
    private final UnsafeBuffer name = new UnsafeBuffer("TRI.N".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    private final UnsafeBuffer rwf = new UnsafeBuffer(new byte[100]);

    @Test
    void messagesLeaveInOrderWithTheirFieldsAndTheSinkDecidesWhenToStop()
    {
        final PendingLiveMessages store = new PendingLiveMessages(64 * 1024, pendingBytes, highWater);
        final List<String> published = new ArrayList<>();
        final int[] budget = {2};
        store.sink((record, offset) ->
        {
            if (0 == budget[0]--)
            {
                return false;
            }
            final int kind = PendingLiveMessages.kind(record, offset);
            final int rwfOffset = PendingLiveMessages.rwfOffset(record, offset);
            published.add(kind + ":" + PendingLiveMessages.serviceId(record, offset) + ":" +
                PendingLiveMessages.itemHandle(record, offset) + ":" + PendingLiveMessages.fieldA(record, offset) +
                ":" + PendingLiveMessages.fieldB(record, offset) + ":" + PendingLiveMessages.originNs(record, offset) +
                ":" + text(record, PendingLiveMessages.nameOffset(offset),
                PendingLiveMessages.nameLength(record, offset)) + ":" +
                text(record, rwfOffset, PendingLiveMessages.rwfLength(record, offset)));
            return true;
        });
        final UnsafeBuffer bytes = new UnsafeBuffer("abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertTrue(store.appendRefresh(1, 10, 0, 111L, 6, 0x140, name, 0, 5, bytes, 0, 3));
        assertTrue(store.appendUpdate(2, 20, 222L, bytes, 1, 2));
        assertTrue(store.appendStatus(1, 10, 0, 333L, 4, 2, bytes, 0, 1));
        assertTrue(store.hasPending(10) && store.hasPending(20) && !store.hasPending(30));
        assertEquals(store.size(), pendingBytes.get());

        assertTrue(store.drain(100) > 0);
        assertEquals(List.of("1:1:10:6:320:111:TRI.N:abc", "2:2:20:0:0:222::bc"), published);
        assertTrue(store.hasPending(10), "the status of item 10 still waits");
        assertFalse(store.hasPending(20));
        budget[0] = 5;
        store.drain(100);
        assertEquals("3:1:10:4:2:333::a", published.get(2));
        assertTrue(store.isEmpty());
        assertFalse(store.hasPending(10));
        assertEquals(0, pendingBytes.get());
        assertTrue(highWater.get() > 0);
    }

    @Test
    void theCapIsHardAndRoomComesBackAsMessagesLeave()
    {
        final PendingLiveMessages store = new PendingLiveMessages(4096, pendingBytes, highWater);
        store.sink((record, offset) -> true);
        int appended = 0;
        while (store.appendUpdate(1, appended, 0, rwf, 0, rwf.capacity()))
        {
            appended++;
        }
        assertTrue(appended > 10 && appended < 4096 / 100, "appended " + appended);
        assertTrue(store.size() <= 4096 && highWater.get() <= 4096);
        assertFalse(store.appendUpdate(1, 0, 0, new UnsafeBuffer(new byte[8192]), 0, 8192), "larger than the cap");
        assertEquals(1, store.drain(1) > 0 ? 1 : 0);
        assertTrue(store.appendUpdate(1, 999, 0, rwf, 0, rwf.capacity()), "room again");
        assertThrows(IllegalArgumentException.class, () -> new PendingLiveMessages(512, pendingBytes, highWater));
    }

    @Test
    void fillingAndDrainingAllocatesNothingOnceGrown()
    {
        final PendingLiveMessages store = new PendingLiveMessages(1024 * 1024, pendingBytes, highWater);
        final long[] seen = new long[1];
        store.sink((record, offset) ->
        {
            seen[0] += PendingLiveMessages.rwfLength(record, offset);
            return true;
        });
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long tid = Thread.currentThread().getId();
        cycle(store);
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5 && 0 != best; round++)
        {
            final long before = threads.getThreadAllocatedBytes(tid);
            cycle(store);
            best = Math.min(best, threads.getThreadAllocatedBytes(tid) - before);
        }
        assertTrue(seen[0] > 0);
        assertEquals(0, best, "bytes allocated filling and draining the store");
    }

    private void cycle(final PendingLiveMessages store)
    {
        for (int round = 0; round < 20; round++)
        {
            for (int i = 0; i < 5000; i++)
            {
                store.appendUpdate(1, i & 1023, i, rwf, 0, 60 + (i & 31));
                if (0 == (i & 7))
                {
                    store.appendRefresh(1, i & 1023, 0, i, 6, 0, name, 0, 5, rwf, 0, 90);
                }
            }
            while (!store.isEmpty())
            {
                store.drain(1000);
            }
        }
    }

    private static String text(final DirectBuffer buffer, final int offset, final int length)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++)
        {
            final byte b = buffer.getByte(offset + i);
            if (0 != b)
            {
                text.append((char)b);
            }
        }
        return text.toString();
    }
}
