package io.mdhub.common.ripc;

import java.io.IOException;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Last handler of every RIPC pipeline: an exception no handler dealt with ends that one connection (reason
 * {@code error}), never the process. Stateless, so shared.
 */
@ChannelHandler.Sharable
final class RipcErrorHandler extends ChannelInboundHandlerAdapter
{
    private final RipcDisconnects disconnects;

    RipcErrorHandler(final RipcDisconnects disconnects)
    {
        this.disconnects = disconnects;
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (cause instanceof IOException)
        {
            disconnects.disconnect(ctx.channel(), RipcDisconnectReason.ERROR, cause.toString());
        }
        else
        {
            disconnects.disconnect(ctx.channel(), RipcDisconnectReason.ERROR, cause.toString(), cause);
        }
    }
}
