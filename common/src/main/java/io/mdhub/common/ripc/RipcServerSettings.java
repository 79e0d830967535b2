package io.mdhub.common.ripc;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Concluded server-only handshake settings: what the ConnectAck announces and how the ping timeout is negotiated.
 */
final class RipcServerSettings
{
    private final int maxUserMsgSize;
    private final int pingTimeoutSeconds;
    private final int minPingTimeoutSeconds;
    private final byte[] componentBytes;

    RipcServerSettings(
        final int maxUserMsgSize, final long pingTimeoutNs, final long minPingTimeoutNs, final String component)
    {
        this.maxUserMsgSize = maxUserMsgSize;
        this.pingTimeoutSeconds = (int)TimeUnit.NANOSECONDS.toSeconds(pingTimeoutNs);
        this.minPingTimeoutSeconds = (int)TimeUnit.NANOSECONDS.toSeconds(minPingTimeoutNs);
        this.componentBytes = component.getBytes(StandardCharsets.US_ASCII);
    }

    int maxUserMsgSize()
    {
        return maxUserMsgSize;
    }

    byte[] componentBytes()
    {
        return componentBytes;
    }

    /**
     * ETA server rule (facts §1.7): the smaller of what the client asks and our maximum, but never below our floor.
     */
    int negotiatePingTimeoutSeconds(final int requestedSeconds)
    {
        return Math.max(Math.min(requestedSeconds, pingTimeoutSeconds), minPingTimeoutSeconds);
    }
}
