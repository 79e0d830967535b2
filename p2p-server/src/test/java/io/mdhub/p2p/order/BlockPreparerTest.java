package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

@InterruptAfter(30)
class BlockPreparerTest
{
    private static final int SLICE = 64 * 1024;

    @Test
    void aNewRequestReplacesOneUnderWayAndATakeEndsIt() throws InterruptedException
    {
        try (BlockPreparer preparer = new BlockPreparer("test-replace", SLICE, TimeUnit.MILLISECONDS.toNanos(20)))
        {
            preparer.request(64 * SLICE); // 64 slices 20 ms apart: still under way below
            assertNull(preparer.take(), "not ready yet");
            preparer.request(2 * SLICE);
            MdTests.await("the new request is prepared", preparer::isReady);
            final UnsafeBuffer block = preparer.take();
            assertEquals(2 * SLICE, block.capacity(), "the block of the latest request");
            Thread.sleep(100); // two slices 20 ms apart would have been prepared again by now
            assertFalse(preparer.isReady(), "a take ends the request: nothing more is prepared");
            assertNull(preparer.take());
            NativeBlocks.free(block);
        }
    }

    @Test
    void aCancelledRequestIsNeverMadeReady() throws InterruptedException
    {
        try (BlockPreparer preparer = new BlockPreparer("test-cancel", SLICE, TimeUnit.MILLISECONDS.toNanos(5)))
        {
            preparer.request(4 * SLICE);
            preparer.cancel();
            Thread.sleep(100); // four slices 5 ms apart would have been ready by now
            assertFalse(preparer.isReady(), "the cancelled preparation was thrown away");
        }
    }
}
