package io.mdhub.p2p.websocket;


import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.ripc.MessageCopyWriter;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.ripc.RipcVersion;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;

/**
 * Between a JSON WebSocket and the worker's {@code ConsumerSession}: each OMM message of a client's text frame goes
 * up as one RWF message, a ping is answered with a pong, and the RWF messages the session writes go out as JSON,
 * those between two flushes packed in one text frame ({@link JsonFramePacker}). The session sees the completed
 * WebSocket handshake as it sees a completed RIPC handshake.
 */
final class JsonWebSocketAdapter extends ChannelDuplexHandler implements MessageCopyWriter
{
    private static final Logger LOG = LoggerFactory.getLogger(JsonWebSocketAdapter.class);
    /** Where a packed frame is closed: well within what ETA's WebSocket clients take in one read (60 KiB). */
    private static final int MAX_FRAME_BYTES = 16 * 1024;

    private final JsonMessages messages;
    private final int maxMessageBytes;
    private final WebSocketCounters counters;
    private final JsonFramePacker packer;
    private ChannelHandlerContext ctx;

    JsonWebSocketAdapter(final JsonMessages messages, final int maxMessageBytes, final WebSocketCounters counters)
    {
        this.messages = messages;
        this.maxMessageBytes = maxMessageBytes;
        this.counters = counters;
        this.packer = new JsonFramePacker(MAX_FRAME_BYTES, counters);
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    /**
     * An update or status for one of this consumer's streams: its JSON is converted once for every JSON consumer of
     * the worker and only the stream id is written per consumer.
     */
    @Override
    public boolean writePackedCopy(
        final DirectBuffer source, final int offset, final int length, final int patchOffset, final int patchValue)
    {
        if (RwfMsgDescriptor.STREAM_ID_OFFSET != patchOffset)
        {
            return false;
        }
        final long conversions = messages.sharedConversions();
        final long leftOut = messages.fieldsLeftOut();
        final SharedJson json = messages.shared(source, offset, length);
        if (conversions != messages.sharedConversions())
        {
            counters.onJsonConversion();
            countFieldsLeftOut(leftOut);
        }
        if (null == json)
        {
            return false; // written as a message instead, which counts and logs what does not convert
        }
        json.writeMessage(packer.next(ctx, json.messageLength(), ctx.voidPromise()), patchValue);
        return true;
    }

    @Override
    public void flush(final ChannelHandlerContext ctx)
    {
        packer.write(ctx);
        ctx.flush();
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        packer.discard(new java.nio.channels.ClosedChannelException());
    }

    @Override
    public void close(final ChannelHandlerContext ctx, final ChannelPromise promise)
    {
        // what was packed goes before the close, as it would have without packing
        packer.write(ctx);
        ctx.flush();
        ctx.close(promise);
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt)
    {
        if (evt instanceof IdleStateEvent)
        {
            onIdle(ctx, (IdleStateEvent)evt);
            return;
        }
        if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete)
        {
            final WebSocketServerProtocolHandler.HandshakeComplete handshake =
                (WebSocketServerProtocolHandler.HandshakeComplete)evt;
            counters.onConnected();
            // the session reads the largest message from it; the rest says what the connection speaks
            ctx.fireUserEventTriggered(new RipcSession(RipcVersion.RIPC14, maxMessageBytes,
                messages.pingTimeoutSeconds(), 0, 14, 1, "WebSocket " + handshake.selectedSubprotocol(), "", "", 0));
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof TextWebSocketFrame)
        {
            final TextWebSocketFrame frame = (TextWebSocketFrame)msg;
            try
            {
                onText(ctx, frame.content());
            }
            finally
            {
                frame.release();
            }
        }
        else if (msg instanceof BinaryWebSocketFrame)
        {
            ((BinaryWebSocketFrame)msg).release();
            counters.onBadMessage();
            writeNow(ctx, new CloseWebSocketFrame(WebSocketCloseStatus.INVALID_MESSAGE_TYPE,
                "binary frames are not JSON")).addListener(io.netty.channel.ChannelFutureListener.CLOSE);
        }
        else
        {
            ctx.fireChannelRead(msg);
        }
    }

    private void onIdle(final ChannelHandlerContext ctx, final IdleStateEvent idle)
    {
        if (IdleState.WRITER_IDLE == idle.state())
        {
            writeNow(ctx, new TextWebSocketFrame(JsonMessages.ping(ctx.alloc())));
        }
        else if (IdleState.READER_IDLE == idle.state())
        {
            counters.onPingTimeout();
            LOG.info("WebSocket connection {}: nothing received within the ping timeout, closed",
                ctx.channel().remoteAddress());
            writeNow(ctx, new CloseWebSocketFrame(WebSocketCloseStatus.POLICY_VIOLATION, "ping timeout"))
                .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
        }
    }

    private void onText(final ChannelHandlerContext ctx, final ByteBuf text)
    {
        counters.onFrameIn();
        if (!messages.parse(text, text.readerIndex(), text.readableBytes()))
        {
            refuse(ctx, messages.errorText());
            return;
        }
        int kind;
        while (JsonMessages.END != (kind = messages.next()))
        {
            switch (kind)
            {
                case JsonMessages.RWF_MESSAGE:
                    onMessage(ctx);
                    break;
                case JsonMessages.PING:
                    writeNow(ctx, new TextWebSocketFrame(JsonMessages.pong(ctx.alloc())));
                    break;
                case JsonMessages.PONG:
                    break;
                default:
                    refuse(ctx, messages.errorText());
                    break;
            }
        }
    }

    private void onMessage(final ChannelHandlerContext ctx)
    {
        final ByteBuf rwf = messages.encodeRwf(ctx.alloc(), maxMessageBytes);
        if (null != rwf)
        {
            ctx.fireChannelRead(rwf);
        }
        else
        {
            refuse(ctx, messages.errorText());
        }
    }

    /**
     * A message the server cannot take gets the WebSocket API's Error message; the connection stays up, as an ADS
     * keeps it, so one bad request costs the client only that request.
     */
    private void refuse(final ChannelHandlerContext ctx, final String text)
    {
        counters.onBadMessage();
        if (counters.isBadMessageLogged(text))
        {
            LOG.warn("WebSocket connection {}: message refused: {}", ctx.channel().remoteAddress(), text);
        }
        writeNow(ctx, new TextWebSocketFrame(JsonErrors.error(ctx.alloc(), text)));
    }

    @Override
    public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
    {
        if (!(msg instanceof ByteBuf))
        {
            ctx.write(msg, promise);
            return;
        }
        final ByteBuf rwf = (ByteBuf)msg;
        final long leftOut = messages.fieldsLeftOut();
        final boolean isConverted;
        try
        {
            isConverted = messages.convertToJson(rwf, rwf.readerIndex(), rwf.readableBytes());
        }
        finally
        {
            rwf.release();
        }
        if (!isConverted)
        {
            if (counters.onNotConverted(messages.errorText()))
            {
                LOG.warn("WebSocket connection {}: a message not sent: {}", ctx.channel().remoteAddress(),
                    messages.errorText());
            }
            promise.trySuccess();
            return;
        }
        countFieldsLeftOut(leftOut);
        messages.writeJson(packer.next(ctx, messages.jsonLength(), promise));
    }

    private void countFieldsLeftOut(final long before)
    {
        final long leftOut = messages.fieldsLeftOut() - before;
        if (leftOut > 0 && counters.onFieldsLeftOut(leftOut, messages.errorText()))
        {
            LOG.warn("WebSocket: {} ({} left out of one message)", messages.errorText(), leftOut);
        }
    }

    /**
     * A frame of the adapter's own (a pong, a ping, an Error, a close) goes out at once, after what was packed.
     */
    private ChannelFuture writeNow(final ChannelHandlerContext ctx, final WebSocketFrame frame)
    {
        packer.write(ctx);
        return ctx.writeAndFlush(frame);
    }

}
