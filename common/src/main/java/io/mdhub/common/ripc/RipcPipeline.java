package io.mdhub.common.ripc;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;

/**
 * Names of the RIPC handlers and the one place that lays them out. A RIPC pipeline, socket side first:
 * <pre>
 *  handshake phase:  ripc-guard | ripc-handshake                              | application... | ripc-errors
 *  data phase:       ripc-guard | ripc-liveness | ripc-decoder | ripc-encoder | application... | ripc-errors
 * </pre>
 * The application handlers (added by a {@link RipcChannelHook}) receive a {@link RipcSession} user event when the
 * handshake completes, then one {@code ByteBuf} per RWF message (theirs to release); they write one {@code ByteBuf}
 * per RWF message (the encoder's to release).
 */
public final class RipcPipeline
{
    /**
     * Connection counting and close bookkeeping.
     */
    public static final String GUARD = "ripc-guard";

    /**
     * Server or client handshake handler; replaced by the data-phase handlers.
     */
    public static final String HANDSHAKE = "ripc-handshake";

    /**
     * Pings and timeouts.
     */
    public static final String LIVENESS = "ripc-liveness";

    /**
     * Frame decoder.
     */
    public static final String DECODER = "ripc-decoder";

    /**
     * Frame encoder.
     */
    public static final String ENCODER = "ripc-encoder";

    /**
     * Catch-all exception handler at the tail.
     */
    public static final String ERRORS = "ripc-errors";

    private RipcPipeline()
    {
    }

    static void initHandshakePhase(
        final Channel channel,
        final RipcChannelSettings settings,
        final ChannelHandler handshakeHandler,
        final RipcChannelHook hook)
    {
        final ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast(GUARD, new RipcConnectionGuard(settings));
        pipeline.addLast(HANDSHAKE, handshakeHandler);
        if (null != hook)
        {
            hook.initChannel(channel);
        }
        pipeline.addLast(ERRORS, new RipcErrorHandler(settings.disconnects()));
    }

    /**
     * Called by a handshake handler on success: install the data-phase handlers behind it, publish the session,
     * then remove the handshake handler (its left-over bytes flow into the new decoder).
     */
    static void enterDataPhase(
        final ChannelHandlerContext handshakeCtx, final RipcSession session, final RipcChannelSettings settings)
    {
        final ChannelPipeline pipeline = handshakeCtx.pipeline();
        final RipcFrameDecoder decoder = new RipcFrameDecoder(session, settings);
        pipeline.addAfter(GUARD, LIVENESS, new RipcLivenessHandler(session, settings, decoder));
        pipeline.addAfter(HANDSHAKE, DECODER, decoder);
        pipeline.addAfter(DECODER, ENCODER, new RipcFrameEncoder(session, settings));
        handshakeCtx.channel().attr(RipcSession.ATTRIBUTE).set(session);
        settings.counters().handshakesCompleted().increment();
        handshakeCtx.fireUserEventTriggered(session);
        pipeline.remove(handshakeCtx.handler());
    }
}
