package io.mdhub.backbone;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.mdhub.common.test.MdTests;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Publishes a bounded number of messages on a channel through a running driver and checks that a subscription on
 * the same channel receives them all, in order and intact.
 */
final class PubSubRoundTrip
{
    private PubSubRoundTrip()
    {
    }

    /**
     * @param aeron    a client connected to the driver under test.
     * @param channel  the channel, e.g. {@code aeron:ipc}.
     * @param streamId the stream id.
     * @param count    messages to send.
     */
    static void check(final Aeron aeron, final String channel, final int streamId, final int count)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final List<String> received = new ArrayList<>();
        try (Subscription subscription = aeron.addSubscription(channel, streamId);
            Publication publication = aeron.addPublication(channel, streamId))
        {
            MdTests.await(() -> "connection on " + channel,
                () -> publication.isConnected() && subscription.isConnected());

            for (int i = 0; i < count; i++)
            {
                final int length = buffer.putStringWithoutLengthAscii(0, "msg-" + i);
                final int sequence = i;
                MdTests.await(() -> "offer of message " + sequence + " on " + channel,
                    () -> publication.offer(buffer, 0, length) > 0);
            }

            MdTests.await(() -> "all " + count + " messages on " + channel + ", got " + received.size(),
                () ->
                {
                    subscription.poll(
                        (msg, offset, length, header) -> received.add(msg.getStringWithoutLengthAscii(offset, length)),
                        10);
                    return received.size() >= count;
                });
        }

        assertEquals(count, received.size());
        for (int i = 0; i < count; i++)
        {
            assertEquals("msg-" + i, received.get(i));
        }
    }
}
