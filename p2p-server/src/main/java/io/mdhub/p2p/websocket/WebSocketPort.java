package io.mdhub.p2p.websocket;

import io.netty.handler.ssl.SslContext;

/**
 * Where and how the WebSocket API listens.
 *
 * @param bindAddress   the address to listen on.
 * @param port          the port, 0 for an ephemeral one.
 * @param tls           the server TLS context when the port speaks TLS only, null for plain TCP.
 * @param tcpNoDelay    whether writes go out at once (the latency flush profile) or may be coalesced (throughput).
 * @param pingTimeoutNs how long a connection may send nothing before it is closed.
 * @param isPageServed  whether plain HTTP requests get the quote page ({@link StaticPage}) rather than 404.
 */
public record WebSocketPort(
    String bindAddress, int port, SslContext tls, boolean tcpNoDelay, long pingTimeoutNs, boolean isPageServed)
{
}
