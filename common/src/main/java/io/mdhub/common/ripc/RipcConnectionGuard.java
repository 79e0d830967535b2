package io.mdhub.common.ripc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * First handler of every RIPC pipeline, next to the socket: counts connections and raw bytes in both directions
 * and records why a connection ended when nothing more specific did (the peer closed it, or the local application
 * did). Stateful per channel, so not shareable.
 */
final class RipcConnectionGuard extends ChannelDuplexHandler
{
    private final RipcCounters counters;
    private final RipcDisconnects disconnects;
    private final RipcChannelTracker channelTracker;
    private long unflushedBytesOut;
    private boolean isCountedActive;
    private final boolean isAddedActive;

    RipcConnectionGuard(final RipcChannelSettings settings)
    {
        this(settings, false);
    }

    /**
     * @param settings      the component's settings.
     * @param isAddedActive added to a connection that is already active (RIPC behind another protocol's handshake),
     *                      so it counts the connection when added: no channelActive will come.
     */
    RipcConnectionGuard(final RipcChannelSettings settings, final boolean isAddedActive)
    {
        this.counters = settings.counters();
        this.disconnects = settings.disconnects();
        this.channelTracker = settings.channelTracker();
        this.isAddedActive = isAddedActive;
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        channelTracker.added();
        if (isAddedActive && ctx.channel().isActive())
        {
            isCountedActive = true;
            counters.connectionsOpened().increment();
            counters.connectionsActive().increment();
        }
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        // the guard is next to the socket, so it is removed last when the pipeline is torn down
        channelTracker.removed();
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx) throws Exception
    {
        isCountedActive = true;
        counters.connectionsOpened().increment();
        counters.connectionsActive().increment();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        if (isCountedActive)
        {
            isCountedActive = false;
            counters.connectionsActive().decrement();
        }
        disconnects.record(ctx.channel(), RipcDisconnectReason.PEER_CLOSED, "");
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof ByteBuf)
        {
            counters.bytesIn().getAndAdd(((ByteBuf)msg).readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
    {
        if (msg instanceof ByteBuf)
        {
            unflushedBytesOut += ((ByteBuf)msg).readableBytes();
        }
        ctx.write(msg, promise);
    }

    @Override
    public void flush(final ChannelHandlerContext ctx)
    {
        if (0 != unflushedBytesOut)
        {
            counters.bytesOut().getAndAdd(unflushedBytesOut);
            unflushedBytesOut = 0;
        }
        ctx.flush();
    }

    @Override
    public void close(final ChannelHandlerContext ctx, final ChannelPromise promise)
    {
        disconnects.record(ctx.channel(), RipcDisconnectReason.LOCAL_CLOSE, "");
        ctx.close(promise);
    }
}
