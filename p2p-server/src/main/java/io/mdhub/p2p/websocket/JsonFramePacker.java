package io.mdhub.p2p.websocket;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.util.concurrent.PromiseNotifier;

/**
 * Packs the JSON messages written to one connection between two flushes into one text frame, {@code [m1,m2,...]},
 * as ETA packs its WebSocket writes and as every WebSocket API client reads a frame (an array of messages): one
 * frame, one buffer and one entry in the channel's outbound buffer per flush instead of per message. A frame is
 * closed and written (not flushed) when the next message would take it over {@code maxFrameBytes}; a message longer
 * than that goes in a frame of its own. Event loop only.
 */
final class JsonFramePacker
{
    private final int maxFrameBytes;
    private final WebSocketCounters counters;
    private final List<ChannelPromise> promises = new ArrayList<>();
    private ByteBuf frame;

    /**
     * @param maxFrameBytes the length a frame is closed at.
     * @param counters      where frames out are counted.
     */
    JsonFramePacker(final int maxFrameBytes, final WebSocketCounters counters)
    {
        this.maxFrameBytes = maxFrameBytes;
        this.counters = counters;
    }

    /**
     * The buffer the next message is written into, after its separator.
     *
     * @param ctx          the connection's context.
     * @param messageBytes at most how long the message is.
     * @param promise      the write's promise (a void one is not kept).
     * @return the frame's buffer, positioned for the message.
     */
    ByteBuf next(final ChannelHandlerContext ctx, final int messageBytes, final ChannelPromise promise)
    {
        if (null != frame && frame.readableBytes() + messageBytes + 2 > maxFrameBytes)
        {
            write(ctx);
        }
        if (null == frame)
        {
            frame = ctx.alloc().buffer(Math.max(messageBytes + 2, Math.min(maxFrameBytes, 4 * (messageBytes + 2))));
            frame.writeByte('[');
        }
        else
        {
            frame.writeByte(',');
        }
        if (!promise.isVoid())
        {
            promises.add(promise);
        }
        return frame;
    }

    /**
     * Close the frame being packed, if any, and write it (the caller flushes).
     *
     * @param ctx the connection's context.
     */
    void write(final ChannelHandlerContext ctx)
    {
        if (null == frame)
        {
            return;
        }
        final TextWebSocketFrame text = new TextWebSocketFrame(frame.writeByte(']'));
        frame = null;
        counters.onFrameOut();
        if (promises.isEmpty())
        {
            ctx.write(text, ctx.voidPromise());
        }
        else
        {
            final ChannelPromise[] waiting = promises.toArray(new ChannelPromise[0]);
            promises.clear();
            ctx.write(text).addListener(new PromiseNotifier<>(waiting));
        }
    }

    /**
     * The connection is gone: drop what was not written.
     *
     * @param cause what the writes waiting for the frame fail with.
     */
    void discard(final Throwable cause)
    {
        if (null != frame)
        {
            frame.release();
            frame = null;
        }
        for (final ChannelPromise promise : promises)
        {
            promise.tryFailure(cause);
        }
        promises.clear();
    }
}
