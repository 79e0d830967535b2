package io.mdhub.common.net;

/**
 * Layout of a frame on a TCP connection of the order protocol: a length, then one message (an SBE header and body).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |          message length in bytes (int32, little-endian)       |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      message ...                            ...
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * The length counts the message only, not itself. A length below {@link #MIN_MESSAGE_LENGTH} or above the
 * connection's largest message is a protocol error that closes that connection: the stream can no longer be
 * split into frames.
 */
public final class FrameDescriptor
{
    /** Bytes of the length field. */
    public static final int HEADER_LENGTH = 4;
    /** Offset of the length field in a frame. */
    public static final int LENGTH_OFFSET = 0;
    /** The shortest message: an SBE message header is 8 bytes, and nothing shorter can be routed. */
    public static final int MIN_MESSAGE_LENGTH = 8;

    private FrameDescriptor()
    {
    }

    /**
     * @param messageLength bytes of the message.
     * @return bytes of its frame.
     */
    public static int frameLength(final int messageLength)
    {
        return HEADER_LENGTH + messageLength;
    }
}
