package io.mdhub.common.ripc;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Data-phase liveness, placed between the socket and the frame decoder so it sees every byte: pings
 * ({@code 00 03 02}) when nothing was written for pingTimeout/3, disconnect when nothing at all was read for the
 * negotiated ping timeout (what ETA's PingHandler does), and disconnect when one frame, or one fragmented message,
 * stays incomplete longer than the partial-frame timeout (a peer trickling bytes, or sending first fragments it never
 * completes, keeps the ping check happy but would otherwise pin buffers forever).
 * <p>
 * One fixed-rate tick per channel does all checks and caches the clock; the hot path reads no clock. A read only sets
 * a flag, stamped with the tick's time at the next tick, so a read timeout fires at most one tick (a quarter of the
 * shortest interval) after its deadline, never before. A write stamps the cached time of the last tick, which is at
 * most one tick before the real write: measured from that stamp the next ping is never later than pingTimeout/3
 * after the last real write (it may come up to two ticks early, which is harmless).
 * <p>
 * The read timeout applies only when the peer sends pings ({@link RipcSession#isPeerSendingPings()}): a server
 * whose ack clears session flag 0x02 has said it stays silent when idle, so silence is not a reason to disconnect
 * it. This side still pings at pingTimeout/3 in every case.
 */
final class RipcLivenessHandler extends ChannelDuplexHandler implements Runnable
{
    private static final long MIN_TICK_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final ByteBuf PING = Unpooled.unreleasableBuffer(
        Unpooled.directBuffer(RipcFrameDescriptor.PING_FRAME_LENGTH).writeBytes(RipcFrameDescriptor.pingFrame()));

    private final RipcFrameDecoder decoder;
    private final RipcCounters counters;
    private final RipcDisconnects disconnects;
    private final long pingTimeoutNs;
    private final long pingIntervalNs;
    private final long partialFrameTimeoutNs;
    private final long tickNs;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> tick;
    private final boolean isPeerSendingPings;
    private boolean hasReadSinceTick;
    private long tickTimeNs;
    private long lastReadNs;
    private long lastWriteNs;

    RipcLivenessHandler(final RipcSession session, final RipcChannelSettings settings, final RipcFrameDecoder decoder)
    {
        this.decoder = decoder;
        this.counters = settings.counters();
        this.disconnects = settings.disconnects();
        this.pingTimeoutNs = session.pingTimeoutNs();
        this.pingIntervalNs = pingTimeoutNs / 3;
        this.partialFrameTimeoutNs = settings.partialFrameTimeoutNs();
        this.isPeerSendingPings = session.isPeerSendingPings();
        this.tickNs = Math.max(MIN_TICK_NS, Math.min(pingIntervalNs, partialFrameTimeoutNs) / 4);
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        final long nowNs = System.nanoTime();
        tickTimeNs = nowNs;
        lastReadNs = nowNs;
        lastWriteNs = nowNs;
        tick = ctx.executor().scheduleAtFixedRate(this, tickNs, tickNs, TimeUnit.NANOSECONDS);
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        cancelTick();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        cancelTick();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        hasReadSinceTick = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(final ChannelHandlerContext ctx, final Object msg, final ChannelPromise promise)
    {
        lastWriteNs = tickTimeNs; // no clock read per write: at most one tick early, so pings are never late
        ctx.write(msg, promise);
    }

    @Override
    public void run()
    {
        if (!ctx.channel().isActive())
        {
            cancelTick();
            return;
        }

        final long nowNs = System.nanoTime();
        tickTimeNs = nowNs;
        if (hasReadSinceTick)
        {
            hasReadSinceTick = false;
            lastReadNs = nowNs;
        }

        if (isPeerSendingPings && nowNs - lastReadNs >= pingTimeoutNs)
        {
            cancelTick();
            disconnects.disconnect(ctx.channel(), RipcDisconnectReason.PING_TIMEOUT,
                "nothing read for " + TimeUnit.NANOSECONDS.toMillis(nowNs - lastReadNs) + " ms, ping timeout " +
                TimeUnit.NANOSECONDS.toSeconds(pingTimeoutNs) + " s");
            return;
        }

        final long partialStartNs = decoder.partialFrameStartNs();
        if (RipcFrameDecoder.NO_PARTIAL_FRAME != partialStartNs && nowNs - partialStartNs >= partialFrameTimeoutNs)
        {
            cancelTick();
            disconnects.disconnect(ctx.channel(), RipcDisconnectReason.PARTIAL_FRAME_TIMEOUT,
                "frame incomplete for " + TimeUnit.NANOSECONDS.toMillis(nowNs - partialStartNs) + " ms");
            return;
        }

        final long reassemblyStartNs = decoder.oldestReassemblyStartNs();
        if (RipcFrameDecoder.NO_PARTIAL_FRAME != reassemblyStartNs &&
            nowNs - reassemblyStartNs >= partialFrameTimeoutNs)
        {
            cancelTick();
            disconnects.disconnect(ctx.channel(), RipcDisconnectReason.PARTIAL_FRAME_TIMEOUT,
                "fragmented message incomplete for " + TimeUnit.NANOSECONDS.toMillis(nowNs - reassemblyStartNs) +
                " ms (" + decoder.reassemblyBytes() + " bytes held in reassembly)");
            return;
        }

        // ping on the tick before the interval would pass, so the peer never sees a gap longer than timeout / 3
        // (lastWriteNs is at most one tick before the real last write, see write())
        if (nowNs - lastWriteNs + tickNs > pingIntervalNs)
        {
            lastWriteNs = nowNs;
            counters.pingsOut().increment();
            counters.framesOut().increment();
            ctx.writeAndFlush(PING.duplicate(), ctx.voidPromise());
        }
    }

    private void cancelTick()
    {
        if (null != tick)
        {
            tick.cancel(false);
            tick = null;
        }
    }
}
