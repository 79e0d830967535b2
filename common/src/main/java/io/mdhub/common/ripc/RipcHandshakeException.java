package io.mdhub.common.ripc;

import java.io.IOException;

/**
 * A client handshake that did not reach the data phase; {@link #reason()} says why (the server refused with a
 * ConnectNak, closed the connection, sent something malformed, or the handshake timed out).
 */
public final class RipcHandshakeException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final transient RipcDisconnectReason reason;
    private final transient RipcVersion version;

    /**
     * @param reason  why the handshake failed.
     * @param version the RIPC version that was tried.
     * @param message detail (the NAK text when refused).
     */
    public RipcHandshakeException(final RipcDisconnectReason reason, final RipcVersion version, final String message)
    {
        super(version + " handshake failed (" + reason.label() + "): " + message);
        this.reason = reason;
        this.version = version;
    }

    /**
     * @return why the handshake failed.
     */
    public RipcDisconnectReason reason()
    {
        return reason;
    }

    /**
     * @return the RIPC version tried.
     */
    public RipcVersion version()
    {
        return version;
    }
}
