package io.mdhub.p2p.websocket;

import java.util.function.Consumer;

import io.netty.buffer.Unpooled;
import io.mdhub.common.ripc.RipcServerPhases;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.CharsetUtil;
import io.netty.util.ReferenceCountUtil;

/**
 * The end of a WebSocket port's pipeline until the upgrade: a request for any other path than the WebSocket's is
 * answered 404; a completed upgrade installs the selected protocol's data phase and the worker's consumer session,
 * so a connection becomes a consumer (with its login clock) only once it speaks the WebSocket API: for JSON the
 * converting adapter, for {@code rssl.rwf} the binary-frame adapter and behind it the RIPC server phases, whose
 * handshake (inside the first frames) then starts the session as on an RSSL port.
 */
final class WebSocketUpgrade extends ChannelInboundHandlerAdapter
{
    private static final String RWF_FRAMES = "websocket-rwf";

    private final JsonMessages json;
    private final WebSocketCounters counters;
    private final Consumer<Channel> sessionHook;
    private final RipcServerPhases rwf;

    WebSocketUpgrade(
        final JsonMessages json,
        final WebSocketCounters counters,
        final Consumer<Channel> sessionHook,
        final RipcServerPhases rwf)
    {
        this.json = json;
        this.counters = counters;
        this.sessionHook = sessionHook;
        this.rwf = rwf;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof FullHttpRequest)
        {
            ReferenceCountUtil.release(msg);
            final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.NOT_FOUND, Unpooled.copiedBuffer(
                "the WebSocket API is at " + WebSocketListener.PATH + "\n", CharsetUtil.US_ASCII));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt)
    {
        if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete)
        {
            if (WebSocketListener.RWF.equals(((WebSocketServerProtocolHandler.HandshakeComplete)evt)
                .selectedSubprotocol()))
            {
                ctx.pipeline().addAfter(ctx.name(), RWF_FRAMES, new RwfWebSocketAdapter(counters));
                rwf.install(ctx.channel(), RWF_FRAMES); // its hook adds the consumer session
            }
            else
            {
                ctx.pipeline().addAfter(ctx.name(), "websocket-json",
                    new JsonWebSocketAdapter(json, WebSocketListener.MAX_MESSAGE_BYTES, counters));
                sessionHook.accept(ctx.channel());
            }
            ctx.pipeline().remove(this);
        }
        ctx.fireUserEventTriggered(evt);
    }
}
