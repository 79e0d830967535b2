package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.util.concurrent.TimeUnit;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
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
        try (ChunkSupply supply = new ChunkSupply(SIZE, "test"))
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
            BufferUtil.free(first);
            BufferUtil.free(second);
        }
    }

    @Test
    void closeFreesThePreparedSpare()
    {
        final ChunkSupply supply = new ChunkSupply(SIZE, "test");
        MdTests.await("a spare is prepared", supply::isSpareReady);
        supply.close();
        assertFalse(supply.isSpareReady(), "close frees the spare");
    }
}
