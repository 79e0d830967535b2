package io.mdhub.common.concurrent;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * Layout of a {@link Doorbell}'s counter key, and of what a {@link DoorbellRinger} writes to the doorbell's socket.
 * <pre>
 *   Counter key (little-endian, at most CountersReader.MAX_KEY_LENGTH bytes)
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                       Stream count (n)                        |
 *   +---------------------------------------------------------------+
 *   |                    Stream id 1 ... stream id n                ...
 *   +---------------------------------------------------------------+
 *   |                     Socket path length                        |
 *   +---------------------------------------------------------------+
 *   |                 Socket path (UTF-8, no terminator)            ...
 *   +---------------------------------------------------------------+
 *
 *   Socket stream, ringer to doorbell
 *   HELLO: 0x02, then the session id (int32, little-endian) of the publication the ringer rings for; once, first
 *   RING:  0x01, any number of times
 * </pre>
 */
public final class DoorbellDescriptor
{
    /** Longest Unix domain socket path Linux accepts (sun_path without its terminating zero). */
    public static final int MAX_PATH_BYTES = 107;
    /** The byte that wakes the sleeper. */
    public static final byte RING = 0x01;
    /** The byte that starts a hello. */
    public static final byte HELLO = 0x02;
    /** A hello's length: its byte and the session id. */
    public static final int HELLO_LENGTH = 1 + Integer.BYTES;

    private DoorbellDescriptor()
    {
    }

    /**
     * @param socketPath the doorbell's socket.
     * @param streamIds  the IPC streams it wakes for.
     * @return the key, exactly as long as it needs to be.
     * @throws IllegalArgumentException if no stream is given or the key cannot hold them and the path.
     */
    public static UnsafeBuffer key(final String socketPath, final int... streamIds)
    {
        if (0 == streamIds.length)
        {
            throw new IllegalArgumentException("a doorbell needs at least one stream id");
        }
        final byte[] path = socketPath.getBytes(StandardCharsets.UTF_8);
        final int keyLength = Integer.BYTES * (2 + streamIds.length) + path.length;
        if (path.length > MAX_PATH_BYTES || keyLength > CountersReader.MAX_KEY_LENGTH)
        {
            throw new IllegalArgumentException("a doorbell key holds " + CountersReader.MAX_KEY_LENGTH + " bytes and " +
                "a path " + MAX_PATH_BYTES + "; " + streamIds.length + " stream(s) and " + socketPath + " need " +
                keyLength);
        }
        final UnsafeBuffer key = new UnsafeBuffer(new byte[keyLength]);
        key.putInt(0, streamIds.length);
        for (int i = 0; i < streamIds.length; i++)
        {
            key.putInt(Integer.BYTES * (1 + i), streamIds[i]);
        }
        key.putStringUtf8(Integer.BYTES * (1 + streamIds.length), socketPath);
        return key;
    }

    /**
     * @param key       the counters' metadata.
     * @param keyOffset where the counter's key starts.
     * @param streamId  the stream a ringer publishes to.
     * @return true if the key is well formed and lists the stream.
     */
    public static boolean wakesFor(final DirectBuffer key, final int keyOffset, final int streamId)
    {
        if (pathLength(key, keyOffset) < 1)
        {
            return false;
        }
        final int count = key.getInt(keyOffset);
        for (int i = 0; i < count; i++)
        {
            if (key.getInt(keyOffset + Integer.BYTES * (1 + i)) == streamId)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param key       the counters' metadata.
     * @param keyOffset where the counter's key starts.
     * @return the socket path the key names, or null if the key is malformed.
     */
    public static String pathOf(final DirectBuffer key, final int keyOffset)
    {
        return pathLength(key, keyOffset) < 1 ? null :
            key.getStringUtf8(keyOffset + Integer.BYTES * (1 + key.getInt(keyOffset)));
    }

    private static int pathLength(final DirectBuffer key, final int keyOffset)
    {
        final int count = key.getInt(keyOffset);
        if (count < 1 || count > CountersReader.MAX_KEY_LENGTH / Integer.BYTES - 2)
        {
            return -1;
        }
        final int pathLength = key.getInt(keyOffset + Integer.BYTES * (1 + count));
        return pathLength < 1 || pathLength > MAX_PATH_BYTES ||
            Integer.BYTES * (2 + count) + pathLength > CountersReader.MAX_KEY_LENGTH ? -1 : pathLength;
    }
}
