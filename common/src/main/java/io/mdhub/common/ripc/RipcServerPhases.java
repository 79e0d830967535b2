package io.mdhub.common.ripc;

import io.netty.channel.Channel;

import io.mdhub.common.config.ComponentLaunch;

/**
 * The server side of RIPC for connections another listener accepted and carries RIPC inside its own framing (the
 * WebSocket API's {@code rssl.rwf}, where each binary frame holds one RIPC message): the same handshake, liveness,
 * decoder, encoder and application handlers as a {@link RipcServer} connection, with their own counters and
 * settings, but no socket of their own. The Context's port, bind address, TLS and address budget are not used: the
 * carrying listener owns the socket, its TLS and its admission.
 * <pre>{@code
 * RipcServerPhases rwf = RipcServerPhases.launch(new RipcServer.Context().componentName("p2p-ws")
 *     .eventLoopGroup(group).channelHook((ch) -> ch.pipeline().addLast(new MyRwfHandler())));
 * // later, on a connection whose pipeline ends with "ws-rwf" (ByteBufs in and out):
 * rwf.install(channel, "ws-rwf");
 * }</pre>
 */
public final class RipcServerPhases implements AutoCloseable
{
    private final RipcServer.Context ctx;
    private final RipcChannelSettings settings;
    private final RipcServerSettings serverSettings;

    private RipcServerPhases(final RipcServer.Context ctx)
    {
        this.ctx = ctx;
        settings = ctx.channelSettings();
        serverSettings = new RipcServerSettings(
            ctx.maxUserMsgSize(), ctx.pingTimeoutNs(), ctx.minPingTimeoutNs(), ctx.componentName());
    }

    /**
     * Conclude the Context. On failure the Context is closed.
     *
     * @param ctx the settings (hook, counters, event loops, RIPC limits); owned from now on and closed with this.
     * @return the phases, ready to install.
     */
    public static RipcServerPhases launch(final RipcServer.Context ctx)
    {
        return ComponentLaunch.launch(ctx, RipcServerPhases::new);
    }

    /**
     * Lay the RIPC server phases behind {@code afterName} on an active connection, on its event loop: the RIPC
     * handshake starts now (with its timeout), then the data phase, and the Context's hook adds the application
     * handlers at the tail, which see a {@link RipcSession} event once the handshake completes.
     *
     * @param channel   the connection; nothing may follow {@code afterName} in its pipeline yet.
     * @param afterName the handler that hands in one {@code ByteBuf} per received chunk of the RIPC stream and
     *                  takes the {@code ByteBuf}s written (one per RIPC frame).
     */
    public void install(final Channel channel, final String afterName)
    {
        RipcPipeline.initHandshakePhaseAfter(channel, afterName, settings,
            new RipcServerHandshakeHandler(settings, serverSettings), ctx.channelHook());
    }

    /**
     * @return the concluded Context (counters, settings).
     */
    public RipcServer.Context context()
    {
        return ctx;
    }

    /**
     * Close the Context: counters once the connections installed on are gone (bounded), event loops it created.
     */
    @Override
    public void close()
    {
        settings.disconnects().flushSummaries();
        ctx.close();
    }
}
