package io.mdhub.benchmarks.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;

/**
 * Encoding the interactive source's updates (level-1 fields, the item counter, the origin time in every n-th)
 * allocates nothing once warm: each is encoded into one reused buffer, which the session packs into the RIPC encoder's
 * frame (the packing itself is covered by {@code RipcFrameCodecTest}).
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
        final long[] sequence = {0};
        final long allocated = Allocations.leastAllocatedBytes(() ->
        {
            long sum = 0;
            for (int i = 0; i < ITERATIONS; i++)
            {
                final int slot = round.nextSlot();
                sum += messages.encodeUpdate(round.streamId(slot), round.basePrice(slot),
                    round.nextUpdateCount(slot), ++sequence[0]);
            }
            return sum;
        }, 5);
        assertEquals(0, allocated, "bytes allocated while encoding " + ITERATIONS + " updates");
        assertEquals(sequence[0] / 2, round.updateCount(streams[0]));
    }
}
