package io.mdhub.common.ripc;

import io.netty.util.AttributeKey;

/**
 * What a completed RIPC handshake negotiated for one connection. Set as the channel attribute {@link #ATTRIBUTE}
 * and fired once as a user event through the pipeline just before the first RWF message, so an application
 * handler learns the connection is ACTIVE (the ETA {@code ChannelState.ACTIVE}) in {@code userEventTriggered}.
 */
public final class RipcSession
{
    /**
     * Channel attribute holding the session once the handshake is complete.
     */
    public static final AttributeKey<RipcSession> ATTRIBUTE = AttributeKey.valueOf("mdhub.ripc.session");

    private final RipcVersion version;
    private final int maxUserMsgSize;
    private final int pingTimeoutSeconds;
    private final int protocolType;
    private final int majorVersion;
    private final int minorVersion;
    private final String remoteComponent;
    private final String remoteHostName;
    private final String remoteIpAddress;
    private final long sharedKey;
    private final boolean isPeerSendingPings;

    /**
     * @param version            the RIPC version.
     * @param maxUserMsgSize     largest RWF message sent in one frame; larger ones are fragmented.
     * @param pingTimeoutSeconds negotiated ping timeout.
     * @param protocolType       protocol type (0 = RWF).
     * @param majorVersion       RWF major version the peer announced.
     * @param minorVersion       RWF minor version the peer announced.
     * @param remoteComponent    the peer's component/version text.
     * @param remoteHostName     host name from the ConnectReq (server side), empty on the client side.
     * @param remoteIpAddress    IP address from the ConnectReq (server side), empty on the client side.
     * @param sharedKey          TR_SL1_64 shared key when the key exchange was accepted (client side), else 0.
     */
    public RipcSession(
        final RipcVersion version,
        final int maxUserMsgSize,
        final int pingTimeoutSeconds,
        final int protocolType,
        final int majorVersion,
        final int minorVersion,
        final String remoteComponent,
        final String remoteHostName,
        final String remoteIpAddress,
        final long sharedKey)
    {
        this.version = version;
        this.maxUserMsgSize = maxUserMsgSize;
        this.pingTimeoutSeconds = pingTimeoutSeconds;
        this.protocolType = protocolType;
        this.majorVersion = majorVersion;
        this.minorVersion = minorVersion;
        this.remoteComponent = remoteComponent;
        this.remoteHostName = remoteHostName;
        this.remoteIpAddress = remoteIpAddress;
        this.sharedKey = sharedKey;
        this.isPeerSendingPings = true;
    }

    private RipcSession(final RipcSession source, final boolean isPeerSendingPings)
    {
        this.version = source.version;
        this.maxUserMsgSize = source.maxUserMsgSize;
        this.pingTimeoutSeconds = source.pingTimeoutSeconds;
        this.protocolType = source.protocolType;
        this.majorVersion = source.majorVersion;
        this.minorVersion = source.minorVersion;
        this.remoteComponent = source.remoteComponent;
        this.remoteHostName = source.remoteHostName;
        this.remoteIpAddress = source.remoteIpAddress;
        this.sharedKey = source.sharedKey;
        this.isPeerSendingPings = isPeerSendingPings;
    }

    /**
     * @param isPeerSendingPings false when the peer said it sends no pings (ack session flag 0x02 clear): silence
     *                           from it is then no reason to disconnect.
     * @return this session when the flag is unchanged, else a copy with it (sessions are immutable; built once per
     * handshake).
     */
    public RipcSession withPeerSendingPings(final boolean isPeerSendingPings)
    {
        return isPeerSendingPings == this.isPeerSendingPings ? this : new RipcSession(this, isPeerSendingPings);
    }

    /**
     * @return the RIPC version.
     */
    public RipcVersion version()
    {
        return version;
    }

    /**
     * @return largest RWF message sent unfragmented, and the budget of one packed frame.
     */
    public int maxUserMsgSize()
    {
        return maxUserMsgSize;
    }

    /**
     * @return the negotiated ping timeout in seconds.
     */
    public int pingTimeoutSeconds()
    {
        return pingTimeoutSeconds;
    }

    /**
     * @return the negotiated ping timeout in nanoseconds.
     */
    public long pingTimeoutNs()
    {
        return pingTimeoutSeconds * 1_000_000_000L;
    }

    /**
     * @return protocol type (0 = RWF).
     */
    public int protocolType()
    {
        return protocolType;
    }

    /**
     * @return the RWF major version the peer announced.
     */
    public int majorVersion()
    {
        return majorVersion;
    }

    /**
     * @return the RWF minor version the peer announced.
     */
    public int minorVersion()
    {
        return minorVersion;
    }

    /**
     * @return the peer's component/version text.
     */
    public String remoteComponent()
    {
        return remoteComponent;
    }

    /**
     * @return the host name a client announced (server side), else empty.
     */
    public String remoteHostName()
    {
        return remoteHostName;
    }

    /**
     * @return the IP address a client announced (server side), else empty.
     */
    public String remoteIpAddress()
    {
        return remoteIpAddress;
    }

    /**
     * @return the TR_SL1_64 shared key, or 0 when no key was exchanged.
     */
    public long sharedKey()
    {
        return sharedKey;
    }

    /**
     * @return true when the peer sends pings, so reading nothing for the ping timeout means it is gone. A server
     * always expects them (ETA clients always ping); a client trusts the ack's session flag 0x02.
     */
    public boolean isPeerSendingPings()
    {
        return isPeerSendingPings;
    }

    @Override
    public String toString()
    {
        return "RipcSession{version=" + version + ", maxUserMsgSize=" + maxUserMsgSize +
            ", pingTimeoutSeconds=" + pingTimeoutSeconds + ", protocolType=" + protocolType +
            ", rwf=" + majorVersion + "." + minorVersion + ", remoteComponent='" + remoteComponent + '\'' +
            ", remoteHostName='" + remoteHostName + "', remoteIpAddress='" + remoteIpAddress +
            "', isPeerSendingPings=" + isPeerSendingPings + '}';
    }
}
