package io.mdhub.p2p.websocket;

import java.util.concurrent.TimeUnit;
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
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.CharsetUtil;
import io.netty.util.ReferenceCountUtil;

/**
 * The end of a WebSocket port's pipeline until the upgrade: a request for any other path than the WebSocket's that
 * the quote page ({@link StaticPage}, when served) has not answered is answered 404; a completed upgrade installs
 * the selected protocol's data phase and the worker's consumer session, so a connection becomes a consumer (with
 * its login clock) only once it speaks the WebSocket API: for JSON the converting adapter and the ping clock, for
 * {@code rssl.rwf} the binary-frame adapter and behind it the RIPC server phases, whose handshake (inside the first
 * frames) then starts the session as on an RSSL port.
 */
final class WebSocketUpgrade extends ChannelInboundHandlerAdapter
{
    private static final String RWF_FRAMES = "websocket-rwf";

    private final JsonMessages json;
    private final WebSocketCounters counters;
    private final Consumer<Channel> sessionHook;
    private final long pingTimeoutNs;
    private final RipcServerPhases rwf;

    WebSocketUpgrade(
        final JsonMessages json,
        final WebSocketCounters counters,
        final Consumer<Channel> sessionHook,
        final long pingTimeoutNs,
        final RipcServerPhases rwf)
    {
        this.json = json;
        this.counters = counters;
        this.sessionHook = sessionHook;
        this.pingTimeoutNs = pingTimeoutNs;
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
                // silence both ways: a ping after a third of the timeout without output, a close after it without
                // input
                ctx.pipeline().addAfter(ctx.name(), "websocket-idle", new IdleStateHandler(
                    pingTimeoutNs, pingTimeoutNs / 3, 0, TimeUnit.NANOSECONDS));
                sessionHook.accept(ctx.channel());
            }
            ctx.pipeline().remove(this);
        }
        ctx.fireUserEventTriggered(evt);
    }
}
