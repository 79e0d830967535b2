package io.mdhub.common.ripc;

import io.mdhub.common.status.CounterReason;

/**
 * Why a RIPC connection ended. Each reason has its own disconnect counter and appears in the one log line written
 * per disconnect. Faults (bad input, timeouts) are logged at WARN, orderly closes at INFO.
 */
public enum RipcDisconnectReason implements CounterReason
{
    /**
     * The peer closed the TCP connection.
     */
    PEER_CLOSED(false),

    /**
     * This side's application closed the connection.
     */
    LOCAL_CLOSE(false),

    /**
     * The handshake did not complete within the handshake timeout.
     */
    HANDSHAKE_TIMEOUT(true),

    /**
     * Malformed handshake bytes: bad length, opcode, unknown version, inconsistent fields.
     */
    BAD_HANDSHAKE(true),

    /**
     * An older RIPC version (12/11) was offered: closed so that an ETA client retries with the next version.
     */
    VERSION_NOT_SUPPORTED(false),

    /**
     * The server refused the connection with a ConnectNak (sent by the server, received by the client).
     */
    CONNECT_REFUSED(true),

    /**
     * A frame shorter than its own header.
     */
    FRAME_TOO_SHORT(true),

    /**
     * A frame longer than the negotiated maximum plus the largest header.
     */
    FRAME_TOO_LONG(true),

    /**
     * Unknown or not negotiated flags (e.g. COMPRESSION), or unknown extended flags.
     */
    BAD_FLAGS(true),

    /**
     * A packed frame whose sub-message lengths do not add up.
     */
    BAD_PACKING(true),

    /**
     * A fragment without its first fragment, a duplicate first fragment, or more data than announced.
     */
    BAD_FRAGMENT(true),

    /**
     * A fragmented message larger than the reassembly cap, more bytes held in reassembly than the per-connection
     * budget, or too many reassemblies at once.
     */
    REASSEMBLY_LIMIT(true),

    /**
     * A frame, a fragmented message (first fragment seen, last not) or the handshake stayed incomplete for longer
     * than the partial-frame timeout.
     */
    PARTIAL_FRAME_TIMEOUT(true),

    /**
     * Nothing at all was read for the negotiated ping timeout.
     */
    PING_TIMEOUT(true),

    /**
     * An I/O error or an exception from a handler.
     */
    ERROR(true),

    /**
     * The remote address is over its budget of connections in their handshake or of new connections a second:
     * closed as it was accepted.
     */
    ADDRESS_BUDGET(true),

    /**
     * The TLS handshake of a TLS port failed: a plain-TCP (or otherwise non-TLS) peer, a certificate not trusted or
     * missing where mutual TLS requires one, no common protocol or suite.
     */
    TLS_HANDSHAKE(true);

    private static final RipcDisconnectReason[] VALUES = values();

    private final boolean isFault;

    RipcDisconnectReason(final boolean isFault)
    {
        this.isFault = isFault;
    }

    /**
     * @return true when the disconnect is caused by bad input or a timeout (logged at WARN).
     */
    public boolean isFault()
    {
        return isFault;
    }

    /**
     * @param code a code from {@link #code()}.
     * @return the reason.
     */
    public static RipcDisconnectReason fromCode(final int code)
    {
        return VALUES[code];
    }

    /**
     * @return how many reasons there are.
     */
    public static int count()
    {
        return VALUES.length;
    }
}
