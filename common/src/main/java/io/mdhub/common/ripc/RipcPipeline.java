package io.mdhub.common.ripc;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;

/**
 * Names of the RIPC handlers and the one place that lays them out. A RIPC pipeline, socket side first:
 * <pre>
 *  handshake phase:  ripc-guard [ripc-tls ripc-tls-watch] ripc-handshake                   application.. ripc-errors
 *  data phase:       ripc-guard [ripc-tls] ripc-liveness ripc-decoder ripc-encoder application.. ripc-errors
 * </pre>
 * On a TLS connection the {@code SslHandler} sits behind the guard, so the guard still counts bytes as they cross the
 * socket and sees every connection, also one refused in its TLS handshake; the RIPC handshake starts once the TLS
 * one is done (the client's ConnectReq waits in the {@code SslHandler}), and the RIPC handshake timeout, started
 * when the pipeline is built, bounds both.
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
     * Netty's {@code SslHandler} on a TLS connection.
     */
    public static final String TLS = "ripc-tls";

    /**
     * Counts the TLS handshake's outcome and ends a connection whose TLS handshake failed; leaves on success.
     */
    public static final String TLS_WATCH = "ripc-tls-watch";

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
        initHandshakePhase(channel, settings, handshakeHandler, hook, null);
    }

    static void initHandshakePhase(
        final Channel channel,
        final RipcChannelSettings settings,
        final ChannelHandler handshakeHandler,
        final RipcChannelHook hook,
        final SslHandler tls)
    {
        final ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast(GUARD, new RipcConnectionGuard(settings));
        if (null != tls)
        {
            tls.setHandshakeTimeoutMillis(0); // the RIPC handshake timeout covers both handshakes
            pipeline.addLast(TLS, tls);
            pipeline.addLast(TLS_WATCH, new RipcTlsWatcher(settings));
        }
        pipeline.addLast(HANDSHAKE, handshakeHandler);
        if (null != hook)
        {
            hook.initChannel(channel);
        }
        pipeline.addLast(ERRORS, new RipcErrorHandler(settings.disconnects()));
    }

    /**
     * Lay the handshake phase on a connection that is already active, behind the handler {@code afterName} of
     * another protocol that carries RIPC (e.g. a WebSocket's binary frames): guard, handshake, the hook's
     * application handlers, errors. Nothing may follow {@code afterName} yet: the hook adds at the tail.
     */
    static void initHandshakePhaseAfter(
        final Channel channel,
        final String afterName,
        final RipcChannelSettings settings,
        final ChannelHandler handshakeHandler,
        final RipcChannelHook hook)
    {
        final ChannelPipeline pipeline = channel.pipeline();
        pipeline.addAfter(afterName, GUARD, new RipcConnectionGuard(settings, true));
        pipeline.addAfter(GUARD, HANDSHAKE, handshakeHandler);
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
        pipeline.addBefore(HANDSHAKE, LIVENESS, new RipcLivenessHandler(session, settings, decoder));
        pipeline.addAfter(HANDSHAKE, DECODER, decoder);
        pipeline.addAfter(DECODER, ENCODER, new RipcFrameEncoder(session, settings));
        handshakeCtx.channel().attr(RipcSession.ATTRIBUTE).set(session);
        settings.counters().handshakesCompleted().increment();
        handshakeCtx.fireUserEventTriggered(session);
        pipeline.remove(handshakeCtx.handler());
    }
}
