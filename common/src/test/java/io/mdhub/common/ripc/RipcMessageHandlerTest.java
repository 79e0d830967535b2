package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * Every message buffer is released whether it is handled, refused or fails; anything else passes through; a failure
 * goes to the pipeline or to the session's own handling.
 */
@InterruptAfter(10)
class RipcMessageHandlerTest
{
    @Test
    void aMessageIsHandledThenReleased()
    {
        final RecordingHandler handler = new RecordingHandler();
        final EmbeddedChannel channel = new EmbeddedChannel(handler);
        final ByteBuf message = Unpooled.copiedBuffer(new byte[] {1, 2, 3});

        channel.writeInbound(message);

        assertEquals(List.of(3), handler.lengths);
        assertEquals(0, message.refCnt());
        channel.finishAndReleaseAll();
    }

    @Test
    void aSessionThatNoLongerTakesMessagesReleasesThemUnread()
    {
        final RecordingHandler handler = new RecordingHandler();
        handler.isTaking = false;
        final EmbeddedChannel channel = new EmbeddedChannel(handler);
        final ByteBuf message = Unpooled.copiedBuffer(new byte[] {1});

        channel.writeInbound(message);

        assertEquals(List.of(), handler.lengths);
        assertEquals(0, message.refCnt());
        channel.finishAndReleaseAll();
    }

    @Test
    void anythingButABufferPassesOn()
    {
        final EmbeddedChannel channel = new EmbeddedChannel(new RecordingHandler());
        final Object event = "not a message";

        channel.writeInbound(event);

        assertSame(event, channel.readInbound());
        channel.finishAndReleaseAll();
    }

    @Test
    void aFailureGoesToThePipelineAfterTheBufferIsReleased()
    {
        final RecordingHandler handler = new RecordingHandler();
        handler.failure = new IllegalStateException("bad message");
        final EmbeddedChannel channel = new EmbeddedChannel(handler);
        final ByteBuf message = Unpooled.copiedBuffer(new byte[] {1});

        channel.pipeline().fireChannelRead(message);

        assertEquals(0, message.refCnt());
        assertSame(handler.failure, assertThrows(IllegalStateException.class, channel::checkException));
        channel.finishAndReleaseAll();
    }

    @Test
    void aSessionMayHandleItsFailuresItself()
    {
        final RecordingHandler handler = new RecordingHandler()
        {
            @Override
            protected void onMessageFailure(final ChannelHandlerContext ctx, final Throwable failure)
            {
                failures.add(failure);
                ctx.close();
            }
        };
        handler.failure = new IllegalArgumentException("bad message");
        final EmbeddedChannel channel = new EmbeddedChannel(handler);
        final ByteBuf message = Unpooled.copiedBuffer(new byte[] {1});

        channel.writeInbound(message);

        assertEquals(List.of(handler.failure), handler.failures);
        assertEquals(0, message.refCnt());
        assertEquals(false, channel.isOpen());
        channel.finishAndReleaseAll();
    }

    private static class RecordingHandler extends RipcMessageHandler
    {
        final List<Integer> lengths = new ArrayList<>();
        final List<Throwable> failures = new ArrayList<>();
        boolean isTaking = true;
        RuntimeException failure;

        @Override
        protected boolean isTakingMessages()
        {
            return isTaking;
        }

        @Override
        protected void onMessage(final ByteBuf message)
        {
            if (null != failure)
            {
                throw failure;
            }
            lengths.add(message.readableBytes());
        }
    }
}
