package io.mdhub.p2p.websocket;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;

/**
 * Between an {@code rssl.rwf} WebSocket and the RIPC server phases: ETA puts exactly one RIPC message (normal,
 * packed or one fragment) in each binary frame, and RIPC delimits itself, so a frame's payload goes up as a chunk of
 * the RIPC stream and each {@code ByteBuf} the RIPC handlers write (one per RIPC frame) goes out as one binary frame.
 * A text frame has no place on this sub-protocol: the connection is closed with 1003, and the refusal counted.
 */
final class RwfWebSocketAdapter extends ChannelDuplexHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(RwfWebSocketAdapter.class);
    private static final String TEXT_REFUSED = "a text frame on rssl.rwf";

    private final WebSocketCounters counters;
    private boolean isRefused;

    RwfWebSocketAdapter(final WebSocketCounters counters)
    {
        this.counters = counters;
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt)
    {
        if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete)
        {
            counters.onConnected();
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof BinaryWebSocketFrame || msg instanceof ContinuationWebSocketFrame)
        {
            // ownership of the payload goes up with it: the RIPC decoder releases what it consumed
            final ByteBuf payload = ((ByteBufHolder)msg).content();
            if (isRefused)
            {
                payload.release();
                return;
            }
            counters.onFrameIn();
            ctx.fireChannelRead(payload);
        }
        else if (msg instanceof TextWebSocketFrame)
        {
            ((TextWebSocketFrame)msg).release();
            if (!isRefused)
            {
                isRefused = true;
                counters.onBadMessage();
                if (counters.isBadMessageLogged(TEXT_REFUSED))
                {
                    LOG.warn("WebSocket connection {}: {}, closed", ctx.channel().remoteAddress(), TEXT_REFUSED);
                }
                ctx.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.INVALID_MESSAGE_TYPE,
                    "rssl.rwf carries binary frames only")).addListener(ChannelFutureListener.CLOSE);
            }
        }
        else
        {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
    {
        if (msg instanceof ByteBuf)
        {
            counters.onFrameOut();
            ctx.write(new BinaryWebSocketFrame((ByteBuf)msg), promise);
        }
        else
        {
            ctx.write(msg, promise);
        }
    }
}
