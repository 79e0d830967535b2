package io.mdhub.p2p.websocket;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.CharsetUtil;

/**
 * Lets an upgrade through only when it offers a sub-protocol this server speaks. Netty would otherwise complete the
 * handshake without naming one, and the WebSocket API's clients (ETA, the Python examples) drop such a connection
 * with an error that does not say why; a 400 with the protocols served says it. Removed after the upgrade.
 */
final class SubprotocolGate extends ChannelInboundHandlerAdapter
{
    private static final java.util.Set<String> SERVED = java.util.Set.of(WebSocketListener.SUBPROTOCOLS.split(","));

    private final WebSocketCounters counters;

    SubprotocolGate(final WebSocketCounters counters)
    {
        this.counters = counters;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof FullHttpRequest)
        {
            final FullHttpRequest request = (FullHttpRequest)msg;
            if (!request.headers().containsValue(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true))
            {
                ctx.fireChannelRead(msg); // not an upgrade: a page or a stray request, answered further on
                return;
            }
            if (!isOffered(request.headers().get(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL)))
            {
                request.release();
                counters.onBadMessage();
                final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.BAD_REQUEST, Unpooled.copiedBuffer(
                    "Sec-WebSocket-Protocol must offer one of: " + WebSocketListener.SUBPROTOCOLS + "\n",
                    CharsetUtil.US_ASCII));
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            ctx.pipeline().remove(this);
        }
        ctx.fireChannelRead(msg);
    }

    static boolean isOffered(final String offered)
    {
        if (null == offered)
        {
            return false;
        }
        for (final String protocol : offered.split(","))
        {
            final String name = protocol.trim();
            if (SERVED.contains(name))
            {
                return true;
            }
        }
        return false;
    }
}
