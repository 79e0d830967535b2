package io.mdhub.common.ripc;

/**
 * RIPC protocol versions MDHub speaks (protocol facts §1.1). Both use 2-byte fragment ids. RIPC14 adds the
 * key-exchange block to the ConnectAck and the ClientKey third leg of the handshake.
 */
public enum RipcVersion
{
    /**
     * RIPC14: ETA 3.9 tries it first.
     */
    RIPC14(14, 0x17, 9, true),

    /**
     * RIPC13: ETA's first fallback when the server closes a RIPC14 connection.
     */
    RIPC13(13, 0x16, 8, false);

    /**
     * connectionVersion of RIPC12, which MDHub declines by closing the socket.
     */
    public static final int RIPC12_CONNECTION_VERSION = 0x15;

    /**
     * connectionVersion of RIPC11, which MDHub declines by closing the socket.
     */
    public static final int RIPC11_CONNECTION_VERSION = 0x14;

    private final int number;
    private final int connectionVersion;
    private final int ripcVersion;
    private final boolean hasKeyExchange;

    RipcVersion(final int number, final int connectionVersion, final int ripcVersion, final boolean hasKeyExchange)
    {
        this.number = number;
        this.connectionVersion = connectionVersion;
        this.ripcVersion = ripcVersion;
        this.hasKeyExchange = hasKeyExchange;
    }

    /**
     * @return the RIPC number (14, 13).
     */
    public int number()
    {
        return number;
    }

    /**
     * @return the uint32 a client puts in its ConnectReq.
     */
    public int connectionVersion()
    {
        return connectionVersion;
    }

    /**
     * @return the uint32 a server puts in its ConnectAck; the client refuses any other value.
     */
    public int ripcVersion()
    {
        return ripcVersion;
    }

    /**
     * @return true when the ConnectAck carries the key-exchange block and the client answers with a ClientKey.
     */
    public boolean hasKeyExchange()
    {
        return hasKeyExchange;
    }

    /**
     * @param connectionVersion the value from a ConnectReq.
     * @return the version, or null when MDHub does not speak it.
     */
    public static RipcVersion fromConnectionVersion(final long connectionVersion)
    {
        if (RIPC14.connectionVersion == connectionVersion)
        {
            return RIPC14;
        }
        if (RIPC13.connectionVersion == connectionVersion)
        {
            return RIPC13;
        }
        return null;
    }

    /**
     * @param connectionVersion the value from a ConnectReq.
     * @return true for an older RIPC an ETA client offers after a close (12, 11): closing makes it try the next.
     */
    public static boolean isKnownOlderVersion(final long connectionVersion)
    {
        return RIPC12_CONNECTION_VERSION == connectionVersion || RIPC11_CONNECTION_VERSION == connectionVersion;
    }
}
