package io.mdhub.p2p.websocket;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.agrona.collections.IntArrayList;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.transport.TransportBuffer;

import io.netty.buffer.ByteBuf;

/**
 * One client text frame cut into its messages, each handed to ETA's converter on its own: a frame is one message or
 * an array of them, and the converter sizes the buffers it makes for each message (the RWF it encodes, its copy of
 * the JSON) by the length of the buffer it parsed. Given a whole array of a thousand requests it would make a
 * thousand buffers of the whole frame's size; given one message at a time, each is the size of that message.
 * The cut is one pass of Jackson's streaming parser over the frame (skipping each message's contents), done only
 * for arrays. As a {@link TransportBuffer} this is the current message's bytes followed by {@value #PADDING} spaces,
 * which the converter reads from {@link #dataStartPosition()} to the data's limit: it sizes the RWF it encodes by
 * that length, and a short message can make longer RWF (a close of several streams, a view of field ids). Not thread
 * safe.
 */
final class JsonFrame implements TransportBuffer
{
    private static final int INITIAL_CAPACITY = 4096;
    /** Room the converter gets beyond a message's JSON for the RWF it encodes. */
    static final int PADDING = 256;
    private static final byte[] SPACES = " ".repeat(PADDING).getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final JsonFactory factory = new JsonFactory();
    /** Start and end offsets of each message of the frame, in pairs. */
    private final IntArrayList spans = new IntArrayList();
    private ByteBuffer bytes = ByteBuffer.allocate(INITIAL_CAPACITY);
    private ByteBuffer message = ByteBuffer.allocate(INITIAL_CAPACITY + PADDING);
    private int messageLength;
    private int current;

    /**
     * Copy a frame and find its messages.
     *
     * @param frame  the frame's UTF-8 bytes.
     * @param index  first byte.
     * @param length bytes.
     * @throws IOException when the frame is not JSON (the message says where).
     */
    void wrap(final ByteBuf frame, final int index, final int length) throws IOException
    {
        if (bytes.capacity() < length)
        {
            bytes = ByteBuffer.allocate(Math.max(length, bytes.capacity() * 2));
        }
        frame.getBytes(index, bytes.array(), 0, length);
        spans.clear();
        current = -1;
        if (!isArray(length))
        {
            addSpan(0, length); // one message, or not JSON: the converter parses it and says so
            return;
        }
        try (JsonParser parser = factory.createParser(bytes.array(), 0, length))
        {
            parser.nextToken();
            JsonToken token;
            while (JsonToken.END_ARRAY != (token = parser.nextToken()))
            {
                if (null == token)
                {
                    throw new IOException("unexpected end of the frame's array");
                }
                final int start = (int)parser.currentTokenLocation().getByteOffset();
                parser.skipChildren();
                addSpan(start, (int)parser.currentLocation().getByteOffset());
            }
        }
    }

    /**
     * Make the next message current.
     *
     * @return false when the frame has no more.
     */
    boolean next()
    {
        if ((current + 1) * 2 >= spans.size())
        {
            return false;
        }
        current++;
        final int start = spans.getInt(current * 2);
        messageLength = spans.getInt(current * 2 + 1) - start;
        if (message.capacity() < messageLength + PADDING)
        {
            message = ByteBuffer.allocate(Math.max(messageLength + PADDING, 2 * message.capacity()));
        }
        message.clear();
        message.put(bytes.array(), start, messageLength).put(SPACES).flip();
        return true;
    }

    /**
     * @return whether the current message is an array of messages itself (the converter reads arrays of arrays).
     */
    boolean isArray()
    {
        return messageLength > 0 && '[' == message.get(0);
    }

    private boolean isArray(final int length)
    {
        final byte[] array = bytes.array();
        for (int i = 0; i < length; i++)
        {
            final byte b = array[i];
            if (' ' != b && '\t' != b && '\r' != b && '\n' != b)
            {
                return '[' == b;
            }
        }
        return false;
    }

    private void addSpan(final int start, final int end)
    {
        spans.addInt(start);
        spans.addInt(end);
    }

    @Override
    public ByteBuffer data()
    {
        return message;
    }

    @Override
    public int length()
    {
        return message.limit() - message.position();
    }

    @Override
    public int copy(final ByteBuffer destination)
    {
        if (destination.remaining() < length())
        {
            return CodecReturnCodes.BUFFER_TOO_SMALL;
        }
        destination.put(message.duplicate());
        return CodecReturnCodes.SUCCESS;
    }

    @Override
    public int capacity()
    {
        return length();
    }

    @Override
    public int dataStartPosition()
    {
        return message.position();
    }
}
