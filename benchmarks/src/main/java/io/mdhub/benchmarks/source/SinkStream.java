package io.mdhub.benchmarks.source;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One open streaming MarketPrice item of one consumer connection: its stream, its name (copied from the request),
 * its update counter (MDH_UPDSEQ, from 0 in the first refresh; a reissue's refresh carries the current value; kept by
 * the {@link UpdatableStreams} round while the stream is in it) and its place in that round. Owned by the
 * connection's event loop.
 */
final class SinkStream
{
    final int streamId;
    final UnsafeBuffer name = new UnsafeBuffer(new byte[SinkMessages.MAX_NAME_LENGTH]);
    final int nameLength;
    final long basePrice;
    long updateCount;
    int index = -1;

    SinkStream(final int streamId, final DirectBuffer source, final int nameOffset, final int nameLength)
    {
        this.streamId = streamId;
        this.nameLength = nameLength;
        name.putBytes(0, source, nameOffset, nameLength);
        int hash = 0;
        for (int i = 0; i < nameLength; i++)
        {
            hash = 31 * hash + name.getByte(i);
        }
        basePrice = 10_000 + (Math.abs(hash % 5000)) * 7L;
    }

    String nameAsString()
    {
        return name.getStringWithoutLengthAscii(0, nameLength);
    }
}
