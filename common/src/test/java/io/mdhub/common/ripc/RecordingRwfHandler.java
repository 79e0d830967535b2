package io.mdhub.common.ripc;

import java.util.concurrent.ConcurrentLinkedQueue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Test application handler: records each RWF message (a copy), answers a Login request with a LoginRefresh built by
 * ETA's valueadd helpers, and optionally echoes every other message back (flushing once per read burst, so echoed
 * bursts leave packed).
 */
final class RecordingRwfHandler extends ChannelInboundHandlerAdapter
{
    final ConcurrentLinkedQueue<byte[]> received = new ConcurrentLinkedQueue<>();
    volatile RipcSession session;
    volatile io.netty.channel.Channel channel;
    private final boolean answerLogin;
    private final boolean echo;

    RecordingRwfHandler(final boolean answerLogin, final boolean echo)
    {
        this.answerLogin = answerLogin;
        this.echo = echo;
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt) throws Exception
    {
        if (evt instanceof RipcSession)
        {
            channel = ctx.channel();
            session = (RipcSession)evt;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf buf = (ByteBuf)msg;
        try
        {
            final byte[] bytes = RipcTests.bytes(buf);
            received.add(bytes);
            if (answerLogin && EtaLogin.isLoginRequest(bytes))
            {
                final String user = EtaLogin.decodeLoginRequest(bytes).userName().toString();
                final int streamId = buf.getInt(buf.readerIndex() + 4);
                ctx.write(Unpooled.wrappedBuffer(EtaLogin.loginRefresh(streamId, user)), ctx.voidPromise());
            }
            else if (echo)
            {
                ctx.write(buf.retain(), ctx.voidPromise());
            }
        }
        finally
        {
            buf.release();
        }
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx)
    {
        ctx.flush();
        ctx.fireChannelReadComplete();
    }
}
