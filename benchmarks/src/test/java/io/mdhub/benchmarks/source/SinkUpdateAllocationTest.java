package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Encoding the interactive source's updates (level-1 fields, the item counter, the origin time in every n-th)
 * allocates nothing once warm: the update path's only allocations are Netty's pooled buffers and recycled entries.
 */
@InterruptAfter(30)
class SinkUpdateAllocationTest
{
    private static final int ITERATIONS = 100_000;

    @Test
    void encodingUpdatesAllocatesNothing()
    {
        final SinkMessages messages = new SinkMessages(new InteractiveSource.Context().timestampEvery(10));
        final byte[] name = "ALLOC.N".getBytes(StandardCharsets.US_ASCII);
        final SinkStream[] streams = {
            new SinkStream(10, new UnsafeBuffer(name), 0, name.length),
            new SinkStream(11, new UnsafeBuffer(name), 0, name.length - 1)};
        final UpdatableStreams round = new UpdatableStreams();
        round.add(streams[0]);
        round.add(streams[1]);
        // a plain buffer over memory of our own: the tests' paranoid leak detector would record every access of an
        // allocator's buffer (that is test instrumentation, not the update path)
        final ByteBuf out = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(256)).clear();
        try
        {
            final long[] sequence = {0};
            final long allocated = Allocations.leastAllocatedBytes(() ->
            {
                long sum = 0;
                for (int i = 0; i < ITERATIONS; i++)
                {
                    out.clear();
                    final int slot = round.nextSlot();
                    messages.encodeUpdate(out, round.streamId(slot), round.basePrice(slot),
                        round.nextUpdateCount(slot), ++sequence[0]);
                    sum += out.writerIndex();
                }
                return sum;
            }, 5);
            assertEquals(0, allocated, "bytes allocated while encoding " + ITERATIONS + " updates");
            assertEquals(sequence[0] / 2, round.updateCount(streams[0]));
        }
        finally
        {
            out.release();
        }
    }
}
