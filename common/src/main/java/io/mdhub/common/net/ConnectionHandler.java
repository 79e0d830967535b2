package io.mdhub.common.net;

/**
 * What a {@link SocketPoller} tells the owner of its connections, always on the poller's thread: a connection is
 * open, a message came, a connection ended.
 */
public interface ConnectionHandler extends FrameHandler
{
    /**
     * A connection is open: accepted by a listener, or an outbound connect completed. Messages may be sent on it.
     *
     * @param connection the connection.
     */
    void onOpen(FrameConnection connection);

    /**
     * A connection ended, for whatever reason: the peer closed it or reset it, it broke a frame, it exceeded its
     * send limit, the owner closed it, or an outbound connect failed (then {@link #onOpen} was never called).
     * Called once per connection.
     *
     * @param connection the connection, closed.
     * @param reason     why, for logs.
     */
    void onClose(FrameConnection connection, String reason);

    /**
     * The TLS handshake of a TLS connection completed (never called for a plain one).
     *
     * @param connection the connection.
     */
    default void onTlsReady(final FrameConnection connection)
    {
    }
}
