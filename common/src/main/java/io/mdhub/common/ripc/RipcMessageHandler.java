package io.mdhub.common.ripc;

import org.agrona.LangUtil;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The application end of a RIPC pipeline that takes each RWF message as a {@code ByteBuf} from the frame decoder:
 * it hands the message to {@link #onMessage} while the session still takes messages, and releases it whatever
 * happens, so no session can leak a buffer or handle a message after it began to close. Anything that is not a
 * {@code ByteBuf} passes on down the pipeline.
 */
public abstract class RipcMessageHandler extends ChannelInboundHandlerAdapter
{
    /**
     * {@inheritDoc}
     */
    @Override
    public final void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (!(msg instanceof ByteBuf))
        {
            ctx.fireChannelRead(msg);
            return;
        }
        final ByteBuf message = (ByteBuf)msg;
        try
        {
            if (isTakingMessages())
            {
                onMessage(message);
            }
        }
        catch (final Throwable ex)
        {
            onMessageFailure(ctx, ex);
        }
        finally
        {
            message.release();
        }
    }

    /**
     * @return false once the session is closing or refusing its peer: later messages are released unread.
     */
    protected abstract boolean isTakingMessages();

    /**
     * One RWF message.
     *
     * @param message its readable bytes are exactly the message; released after this call, so not to be kept.
     */
    protected abstract void onMessage(ByteBuf message);

    /**
     * {@link #onMessage} threw. By default the failure goes on to the pipeline's {@code exceptionCaught}, which
     * closes the connection; a session that disconnects its peer with a reason of its own overrides this.
     *
     * @param ctx     the handler's context.
     * @param failure what {@link #onMessage} threw.
     */
    protected void onMessageFailure(final ChannelHandlerContext ctx, final Throwable failure)
    {
        LangUtil.rethrowUnchecked(failure);
    }
}
