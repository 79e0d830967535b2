package io.mdhub.p2p.websocket;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.netty.buffer.ByteBuf;

/**
 * One RWF message's JSON without its stream id, kept with the message's bytes so that the next consumer of the same
 * message reuses it. The bytes are compared whole except the stream id, which differs per consumer.
 */
public final class SharedJson
{
    private static final byte[] ID_PREFIX = "{\"ID\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final MutableDirectBuffer rwf = new UnsafeBuffer(new byte[1024]);
    private final UnsafeBuffer digits = new UnsafeBuffer(new byte[11]);
    private int rwfLength = -1;
    private byte[] afterId = new byte[1024];
    private int afterIdLength;

    boolean isFor(final DirectBuffer source, final int offset, final int length)
    {
        if (length != rwfLength)
        {
            return false;
        }
        final int idEnd = RwfMsgDescriptor.STREAM_ID_OFFSET + 4;
        return equalFrom(source, offset, 0, Math.min(RwfMsgDescriptor.STREAM_ID_OFFSET, length)) &&
            (length <= idEnd || equalFrom(source, offset, idEnd, length));
    }

    /**
     * Eight bytes at a time: every JSON watcher of an update compares the whole message.
     */
    private boolean equalFrom(final DirectBuffer source, final int offset, final int from, final int length)
    {
        int i = from;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            if (rwf.getLong(i) != source.getLong(offset + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (rwf.getByte(i) != source.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param source     holding the RWF message.
     * @param offset     its first byte.
     * @param length     its length.
     * @param json       the message's JSON, {@code {"ID":n,...}}.
     * @param start      the JSON's first byte.
     * @param jsonLength the JSON's length.
     * @return false when the JSON does not start with its stream id (nothing to share).
     */
    boolean set(
        final DirectBuffer source, final int offset, final int length, final java.nio.ByteBuffer json,
        final int start, final int jsonLength)
    {
        rwfLength = -1;
        final int end = start + jsonLength;
        for (int i = 0; i < ID_PREFIX.length; i++)
        {
            if (start + i >= end || json.get(start + i) != ID_PREFIX[i])
            {
                return false;
            }
        }
        int comma = start + ID_PREFIX.length;
        while (comma < end && ',' != json.get(comma) && '}' != json.get(comma))
        {
            comma++;
        }
        afterIdLength = end - comma;
        if (afterId.length < afterIdLength)
        {
            afterId = new byte[Math.max(afterIdLength, afterId.length * 2)];
        }
        json.get(comma, afterId, 0, afterIdLength);
        if (rwf.capacity() < length)
        {
            rwf.wrap(new byte[Math.max(length, rwf.capacity() * 2)]);
        }
        rwf.putBytes(0, source, offset, length);
        rwfLength = length;
        return true;
    }

    /**
     * Write {@code {"ID":streamId} and the shared JSON.
     *
     * @param out      the frame's buffer.
     * @param streamId the consumer's stream.
     * @return out.
     */
    public ByteBuf writeMessage(final ByteBuf out, final int streamId)
    {
        out.writeBytes(ID_PREFIX);
        out.writeBytes(digits.byteArray(), 0, digits.putIntAscii(0, streamId));
        return out.writeBytes(afterId, 0, afterIdLength);
    }

    /**
     * @return bytes of the message for a stream id of up to 11 characters.
     */
    public int messageLength()
    {
        return ID_PREFIX.length + 11 + afterIdLength;
    }
}
