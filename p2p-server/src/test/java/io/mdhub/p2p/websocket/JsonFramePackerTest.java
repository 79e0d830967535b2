package io.mdhub.p2p.websocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.mdhub.common.status.InMemoryCounters;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;

/**
 * The messages written to a JSON connection between two flushes, packed: one text frame holding them as an array, a
 * new frame once the next message would take one past its limit, a message over the limit alone in its frame, the
 * writes' promises kept until their frame is written, and what was packed dropped (its promises failed) when the
 * connection goes.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JsonFramePackerTest
{
    private static final int MAX_FRAME_BYTES = 60;

    private final InMemoryCounters counters = new InMemoryCounters(16);
    private final WebSocketCounters webSocketCounters = new WebSocketCounters(counters.manager(), "packer-test");
    private final JsonFramePacker packer = new JsonFramePacker(MAX_FRAME_BYTES, webSocketCounters);
    private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter());
    private final ChannelHandlerContext ctx = channel.pipeline().firstContext();

    @AfterEach
    void tearDown()
    {
        channel.finishAndReleaseAll();
        webSocketCounters.close();
        counters.close();
    }

    @Test
    void theMessagesOfAFlushGoOutAsOneArray()
    {
        write("{\"ID\":1}");
        write("{\"ID\":2}");
        write("{\"ID\":3}");
        assertNull(channel.readOutbound(), "nothing before the flush");
        packer.write(ctx);
        channel.flushOutbound();

        assertEquals(List.of("[{\"ID\":1},{\"ID\":2},{\"ID\":3}]"), frames());
    }

    @Test
    void aFrameIsClosedBeforeTheMessageThatWouldTakeItOverItsLimitAndALongMessageGoesAlone()
    {
        final String twenty = "{\"ID\":1,\"X\":\"abcd\"}";
        final String long100 = "{\"ID\":9,\"X\":\"" + "x".repeat(85) + "\"}";
        write(twenty);
        write(twenty);
        write(twenty); // a third would make the frame 64 bytes, over 60
        write(long100);
        write(twenty);
        packer.write(ctx);
        channel.flushOutbound();

        assertEquals(List.of("[" + twenty + "," + twenty + "]", "[" + twenty + "]", "[" + long100 + "]",
            "[" + twenty + "]"), frames());
    }

    @Test
    void aWritesPromiseCompletesWithItsFrameAndFailsWhenTheConnectionGoesFirst()
    {
        final ChannelPromise written = channel.newPromise();
        write("{\"ID\":1}", written);
        assertFalse(written.isDone(), "packed, not yet written");
        packer.write(ctx);
        channel.flushOutbound();
        assertTrue(written.isSuccess());
        frames();

        final ChannelPromise dropped = channel.newPromise();
        write("{\"ID\":2}", dropped);
        packer.discard(new ClosedChannelException());
        assertTrue(dropped.cause() instanceof ClosedChannelException);
        packer.write(ctx);
        channel.flushOutbound();
        assertEquals(List.of(), frames(), "nothing left to write");
    }

    private void write(final String message)
    {
        write(message, channel.voidPromise());
    }

    private void write(final String message, final ChannelPromise promise)
    {
        final byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        packer.next(ctx, bytes.length, promise).writeBytes(bytes);
    }

    private List<String> frames()
    {
        final List<String> frames = new ArrayList<>();
        TextWebSocketFrame frame;
        while (null != (frame = channel.readOutbound()))
        {
            frames.add(frame.text());
            frame.release();
        }
        return frames;
    }
}
