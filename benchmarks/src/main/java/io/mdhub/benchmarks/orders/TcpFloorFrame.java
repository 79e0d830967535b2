package io.mdhub.benchmarks.orders;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;

/**
 * The one frame of the TCP floor ({@link TcpFloorPrimary}, {@link TcpFloorBackup}, {@link TcpFloorTarget}), for an
 * order on its way to the backup and for its answer on the way back, big-endian:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |              Frame length (the bytes after this field)        |
 *  +---------------------------------------------------------------+
 *  |     Connection id (the primary's for the client; 0 from it)   |
 *  +---------------------------------------------------------------+
 *  |                           Client id                           |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                           Order id                            |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                FIX bytes (none in an answer)                ...
 *  +---------------------------------------------------------------+
 * </pre>
 * A frame is written with one {@code write} call (TCP_NODELAY everywhere: it goes out at once, in one segment) and
 * read through a buffered stream, so that a frame costs one {@code read} as a rule.
 */
final class TcpFloorFrame
{
    /** Length of the frame length field. */
    static final int LENGTH_FIELD = Integer.BYTES;
    /** Bytes after the length field before the FIX bytes: connection id, client id, order id. */
    static final int HEADER_LENGTH = Integer.BYTES + Long.BYTES + Long.BYTES;
    /** Longest FIX message carried; a longer frame is a broken peer. */
    static final int MAX_FIX_LENGTH = 64 * 1024;
    /** Most bytes a frame takes on the wire. */
    static final int MAX_FRAME_LENGTH = LENGTH_FIELD + HEADER_LENGTH + MAX_FIX_LENGTH;
    private static final int READ_BUFFER = 64 * 1024;

    private TcpFloorFrame()
    {
    }

    /**
     * Reads frames from one stream into its fields, reusing its FIX buffer. Not thread safe.
     */
    static final class Reader
    {
        private final DataInputStream in;
        int connectionId;
        long clientId;
        long orderId;
        final byte[] fix = new byte[MAX_FIX_LENGTH];
        int fixLength;

        Reader(final InputStream in)
        {
            this.in = new DataInputStream(new BufferedInputStream(in, READ_BUFFER));
        }

        /**
         * Block until the next frame is read whole.
         *
         * @return false when the stream ended between frames (the peer closed).
         * @throws IOException  when it failed, or ended within a frame.
         * @throws IllegalStateException when the frame's length is impossible (not a floor peer).
         */
        boolean read() throws IOException
        {
            final int length;
            try
            {
                length = in.readInt();
            }
            catch (final EOFException ex)
            {
                return false;
            }
            if (length < HEADER_LENGTH || length > HEADER_LENGTH + MAX_FIX_LENGTH)
            {
                throw new IllegalStateException("not a floor frame: length " + length);
            }
            connectionId = in.readInt();
            clientId = in.readLong();
            orderId = in.readLong();
            fixLength = length - HEADER_LENGTH;
            in.readFully(fix, 0, fixLength);
            return true;
        }
    }

    /**
     * Encodes frames into one reusable array and writes each with one call. Not thread safe.
     */
    static final class Writer
    {
        private final byte[] frame = new byte[MAX_FRAME_LENGTH];
        private final ByteBuffer buffer = ByteBuffer.wrap(frame);

        /**
         * Write a frame with FIX bytes from an array.
         */
        void write(
            final OutputStream out,
            final int connectionId,
            final long clientId,
            final long orderId,
            final byte[] fix,
            final int fixLength) throws IOException
        {
            header(connectionId, clientId, orderId, fixLength);
            System.arraycopy(fix, 0, frame, LENGTH_FIELD + HEADER_LENGTH, fixLength);
            out.write(frame, 0, LENGTH_FIELD + HEADER_LENGTH + fixLength);
        }

        /**
         * Write a frame with FIX bytes from a buffer.
         */
        void write(
            final OutputStream out,
            final long clientId,
            final long orderId,
            final DirectBuffer fix,
            final int offset,
            final int fixLength) throws IOException
        {
            if (fixLength > MAX_FIX_LENGTH)
            {
                throw new IllegalArgumentException("a FIX message of " + fixLength + " bytes is over the floor's " +
                    MAX_FIX_LENGTH);
            }
            header(0, clientId, orderId, fixLength);
            fix.getBytes(offset, frame, LENGTH_FIELD + HEADER_LENGTH, fixLength);
            out.write(frame, 0, LENGTH_FIELD + HEADER_LENGTH + fixLength);
        }

        /**
         * Write an answer: the header alone.
         */
        void writeAnswer(final OutputStream out, final int connectionId, final long clientId, final long orderId)
            throws IOException
        {
            header(connectionId, clientId, orderId, 0);
            out.write(frame, 0, LENGTH_FIELD + HEADER_LENGTH);
        }

        private void header(final int connectionId, final long clientId, final long orderId, final int fixLength)
        {
            buffer.putInt(0, HEADER_LENGTH + fixLength)
                .putInt(LENGTH_FIELD, connectionId)
                .putLong(LENGTH_FIELD + Integer.BYTES, clientId)
                .putLong(LENGTH_FIELD + Integer.BYTES + Long.BYTES, orderId);
        }
    }
}
