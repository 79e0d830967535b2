package io.mdhub.common.net;

import org.agrona.DirectBuffer;

/**
 * Takes the messages a {@link FrameConnection} read, one call each, on the poller's thread.
 */
@FunctionalInterface
public interface FrameHandler
{
    /**
     * One message. The buffer is the connection's receive buffer, valid for this call only: copy what must outlive
     * it. The handler may close the connection (the rest of what was read is then dropped) or send on any connection.
     *
     * @param connection where it came from.
     * @param buffer     holds the message.
     * @param offset     where the message starts (after the frame's length field).
     * @param length     bytes of the message.
     */
    void onMessage(FrameConnection connection, DirectBuffer buffer, int offset, int length);
}
