package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.mdhub.common.test.MdTests;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChunkSupplyTest
{
    private static final int SIZE = 1 << 20;

    @Test
    void takesPreparedZeroedChunksAndPreparesTheNextInTheBackground()
    {
        try (ChunkSupply supply = new ChunkSupply(SIZE, "test", TestCounters.newCounter("inline-chunks")))
        {
            MdTests.await("the first spare is prepared", supply::isSpareReady);
            final UnsafeBuffer first = supply.take();
            MdTests.await("the next spare is prepared after a take", supply::isSpareReady);
            final UnsafeBuffer second = supply.take();
            assertEquals(0, supply.inlineAllocations(), "both were prepared off the taking thread");
            assertNotSame(first.addressOffset(), second.addressOffset());
            assertEquals(SIZE, first.capacity());
            for (int offset = 0; offset < SIZE; offset += 4096)
            {
                assertEquals(0, first.getByte(offset));
            }
            supply.free(first);
            supply.free(second);
        }
    }

    @Test
    void closeFreesThePreparedSpare()
    {
        final ChunkSupply supply = new ChunkSupply(SIZE, "test", TestCounters.newCounter("inline-chunks"));
        MdTests.await("a spare is prepared", supply::isSpareReady);
        supply.close();
        assertFalse(supply.isSpareReady(), "close frees the spare");
    }

    @Test
    void preparesASpareASliceAtATimeWithAPauseAfterEach()
    {
        final long pauseNs = TimeUnit.MILLISECONDS.toNanos(5);
        final long start = System.nanoTime();
        try (ChunkSupply supply = new ChunkSupply(
            SIZE, "test", SIZE / 16, pauseNs, TestCounters.newCounter("inline-chunks")))
        {
            MdTests.await("the first spare is prepared", supply::isSpareReady);
            final long tookNs = System.nanoTime() - start;
            assertTrue(tookNs >= 16 * pauseNs, "16 slices, each followed by its pause, took " + tookNs + " ns");
            supply.free(supply.take());
            assertEquals(0, supply.inlineAllocations());
        }
    }

    @Test
    void aTakeWhileTheSpareIsPreparedAllocatesAZeroedChunkInlineAndCountsIt()
    {
        final AtomicCounter counter = TestCounters.newCounter("order-store-inline-chunks");
        try (ChunkSupply supply = new ChunkSupply(SIZE, "test", SIZE / 16, TimeUnit.SECONDS.toNanos(1), counter))
        {
            assertFalse(supply.isSpareReady(), "16 slices a second apart are not ready yet");
            final UnsafeBuffer chunk = supply.take();
            assertEquals(1, supply.inlineAllocations());
            assertEquals(1, counter.get(), "the service's counter counts it too");
            assertEquals(SIZE, chunk.capacity());
            for (int offset = 0; offset < SIZE; offset += 4096)
            {
                assertEquals(0, chunk.getByte(offset));
            }
            supply.free(chunk);
        } // closes while a spare is half prepared: frees it and returns within a slice's pause
    }

    @Test
    void oneThreadPreparesEveryChunk()
    {
        try (ChunkSupply supply = new ChunkSupply(SIZE, "reuse", SIZE / 4, 0, TestCounters.newCounter("inline-chunks")))
        {
            final Set<Long> preparers = new HashSet<>();
            for (int i = 0; i < 3; i++)
            {
                MdTests.await("a spare is prepared", supply::isSpareReady);
                for (final Thread thread : Thread.getAllStackTraces().keySet())
                {
                    if (thread.getName().equals("mdhub-order-chunks-reuse"))
                    {
                        preparers.add(thread.getId());
                    }
                }
                supply.free(supply.take());
            }
            assertEquals(1, preparers.size(), "the same thread every time, none started by the taking thread");
            assertEquals(0, supply.inlineAllocations());
        }
    }
}
