package io.mdhub.common.ripc;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;

import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.net.AddressBudget;

/**
 * An RSSL (RIPC) server over Netty that real ETA 3.9 consumers and providers connect to. Launch it from a
 * {@link Context}; every accepted connection gets one pipeline built by one {@code ChannelInitializer} (see
 * {@link RipcPipeline}), and the application sees decoded RWF messages through its {@link RipcChannelHook}. With a
 * TLS context ({@link Context#sslContext}) the port speaks TLS only: a plain-TCP client fails the TLS handshake and
 * is closed (reason {@code tls-handshake}); the TLS handshake counts against the address's handshake budget and the
 * handshake timeout like the RIPC one.
 * <pre>{@code
 * try (RipcServer server = RipcServer.launch(new RipcServer.Context().port(14002).channelHook(
 *     (ch) -> ch.pipeline().addLast(new MyRwfHandler()))))
 * { ... }
 * }</pre>
 */
public final class RipcServer implements AutoCloseable
{
    private final Context ctx;
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Channel serverChannel;
    private static final String HANDSHAKE_SLOT = "ripc-address-handshake-slot";

    private RipcServer(final Context ctx)
    {
        this.ctx = ctx;
        final RipcChannelSettings settings = ctx.channelSettings();
        final RipcServerSettings serverSettings = new RipcServerSettings(
            ctx.maxUserMsgSize(), ctx.pingTimeoutNs(), ctx.minPingTimeoutNs(), ctx.componentName());
        final RipcChannelHook hook = ctx.channelHook();
        final SslContext sslContext = ctx.sslContext();
        if (null != sslContext && !sslContext.isServer())
        {
            throw new IllegalArgumentException("a RIPC server needs a server TLS context");
        }
        final AddressBudget budget = new AddressBudget(ctx.addressMaxHandshakes(), ctx.addressAcceptRate(),
            RipcConfiguration.ADDRESS_MAX_HANDSHAKES_PROP_NAME, RipcConfiguration.ADDRESS_ACCEPT_RATE_PROP_NAME);

        final ServerBootstrap bootstrap = new ServerBootstrap()
            .group(ctx.eventLoopGroup())
            .channel(RipcTransport.serverChannelClass(ctx.eventLoopGroup()))
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, ctx.tcpNoDelay())
            .childHandler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel channel)
                {
                    final InetAddress address = channel.remoteAddress().getAddress();
                    final String refusal = budget.admit(address, System.nanoTime());
                    if (null != refusal)
                    {
                        settings.counters().connectionsOpened().increment(); // the guard that counts is not set up
                        settings.disconnects().disconnect(channel, RipcDisconnectReason.ADDRESS_BUDGET, refusal);
                        return;
                    }
                    channels.add(channel);
                    RipcPipeline.initHandshakePhase(channel, settings,
                        new RipcServerHandshakeHandler(settings, serverSettings), hook,
                        null == sslContext ? null : sslContext.newHandler(channel.alloc()));
                    channel.pipeline().addAfter(RipcPipeline.HANDSHAKE, HANDSHAKE_SLOT,
                        new HandshakeSlot(budget, address));
                }
            });
        serverChannel = bootstrap.bind(ctx.bindAddress(), ctx.port()).syncUninterruptibly().channel();
    }

    /**
     * Conclude the Context and bind. On failure the Context is closed.
     *
     * @param ctx the settings; this server owns it from now on and closes it.
     * @return the listening server.
     */
    public static RipcServer launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, RipcServer::new);
    }

    /**
     * @return the concluded Context (counters, settings).
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * @return the port actually bound (useful with port 0).
     */
    public int port()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getPort();
    }

    /**
     * @return the open connections.
     */
    public ChannelGroup channels()
    {
        return channels;
    }

    /**
     * Stop listening, close every connection, then close the Context (event loops it created, counters).
     */
    @Override
    public void close()
    {
        serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        ctx.channelSettings().disconnects().flushSummaries();
        ctx.close();
    }

    /**
     * Settings of a {@link RipcServer}; defaults from {@link RipcConfiguration}.
     */
    public static final class Context extends RipcContext<Context>
    {
        private String bindAddress = RipcConfiguration.bindAddress();
        private int port = RipcConfiguration.port();
        private int maxUserMsgSize = RipcConfiguration.maxUserMsgSize();
        private long pingTimeoutNs = RipcConfiguration.pingTimeoutNs();
        private long minPingTimeoutNs = RipcConfiguration.minPingTimeoutNs();
        private boolean tcpNoDelay = true;
        private int addressMaxHandshakes = RipcConfiguration.addressMaxHandshakes();
        private int addressAcceptRate = RipcConfiguration.addressAcceptRate();

        @Override
        protected void concludeContext()
        {
            requireRange(RipcConfiguration.PORT_PROP_NAME, port, 0, 0xFFFF);
            // maxUserMsgSize + the 3-byte header must fit the uint16 frame length.
            requireRange(RipcConfiguration.MAX_USER_MSG_SIZE_PROP_NAME, maxUserMsgSize,
                ConnectAckDescriptor.MIN_MAX_USER_MSG_SIZE, ConnectAckDescriptor.MAX_MAX_USER_MSG_SIZE);
            // The ack carries seconds in one byte; below a second the ping interval (timeout / 3) makes no sense.
            requireRange(RipcConfiguration.PING_TIMEOUT_PROP_NAME, TimeUnit.NANOSECONDS.toSeconds(pingTimeoutNs),
                1, 255);
            requireRange(RipcConfiguration.MIN_PING_TIMEOUT_PROP_NAME,
                TimeUnit.NANOSECONDS.toSeconds(minPingTimeoutNs), 1, TimeUnit.NANOSECONDS.toSeconds(pingTimeoutNs));
            requireRange(RipcConfiguration.ADDRESS_MAX_HANDSHAKES_PROP_NAME, addressMaxHandshakes, 1,
                RipcConfiguration.ADDRESS_BUDGET_MAX);
            requireRange(RipcConfiguration.ADDRESS_ACCEPT_RATE_PROP_NAME, addressAcceptRate, 1,
                RipcConfiguration.ADDRESS_BUDGET_MAX);
            super.concludeContext();
        }

        /**
         * @param addressMaxHandshakes connections of one remote address in their handshake at once.
         * @return this.
         */
        public Context addressMaxHandshakes(final int addressMaxHandshakes)
        {
            checkNotConcluded();
            this.addressMaxHandshakes = addressMaxHandshakes;
            return this;
        }

        /**
         * @return connections of one remote address in their handshake at once.
         */
        public int addressMaxHandshakes()
        {
            return addressMaxHandshakes;
        }

        /**
         * @param addressAcceptRate new connections one remote address may open a second.
         * @return this.
         */
        public Context addressAcceptRate(final int addressAcceptRate)
        {
            checkNotConcluded();
            this.addressAcceptRate = addressAcceptRate;
            return this;
        }

        /**
         * @return new connections one remote address may open a second.
         */
        public int addressAcceptRate()
        {
            return addressAcceptRate;
        }

        /**
         * @param bindAddress address to listen on.
         * @return this.
         */
        public Context bindAddress(final String bindAddress)
        {
            checkNotConcluded();
            this.bindAddress = bindAddress;
            return this;
        }

        /**
         * @return the bind address.
         */
        public String bindAddress()
        {
            return bindAddress;
        }

        /**
         * @param tcpNoDelay send small segments at once (Nagle off, the default: latency); false lets the kernel
         *                   coalesce them (throughput listeners that flush on a timer anyway).
         * @return this.
         */
        public Context tcpNoDelay(final boolean tcpNoDelay)
        {
            checkNotConcluded();
            this.tcpNoDelay = tcpNoDelay;
            return this;
        }

        /**
         * @return whether accepted connections run with TCP_NODELAY.
         */
        public boolean tcpNoDelay()
        {
            return tcpNoDelay;
        }

        /**
         * @param port TCP port, 0 for an ephemeral one.
         * @return this.
         */
        public Context port(final int port)
        {
            checkNotConcluded();
            this.port = port;
            return this;
        }

        /**
         * @return the configured port.
         */
        public int port()
        {
            return port;
        }

        /**
         * @param maxUserMsgSize largest RWF message sent in one frame, announced in the ConnectAck.
         * @return this.
         */
        public Context maxUserMsgSize(final int maxUserMsgSize)
        {
            checkNotConcluded();
            this.maxUserMsgSize = maxUserMsgSize;
            return this;
        }

        /**
         * @return maxUserMsgSize.
         */
        public int maxUserMsgSize()
        {
            return maxUserMsgSize;
        }

        /**
         * @param pingTimeoutNs longest ping timeout granted (whole seconds on the wire).
         * @return this.
         */
        public Context pingTimeoutNs(final long pingTimeoutNs)
        {
            checkNotConcluded();
            this.pingTimeoutNs = pingTimeoutNs;
            return this;
        }

        /**
         * @return the longest ping timeout granted, in nanoseconds.
         */
        public long pingTimeoutNs()
        {
            return pingTimeoutNs;
        }

        /**
         * @param minPingTimeoutNs shortest ping timeout granted whatever the client asks (whole seconds).
         * @return this.
         */
        public Context minPingTimeoutNs(final long minPingTimeoutNs)
        {
            checkNotConcluded();
            this.minPingTimeoutNs = minPingTimeoutNs;
            return this;
        }

        /**
         * @return the ping timeout floor in nanoseconds.
         */
        public long minPingTimeoutNs()
        {
            return minPingTimeoutNs;
        }
    }

    /**
     * Holds one of its address's handshake slots until the handshake completes or the connection closes.
     */
    private static final class HandshakeSlot extends ChannelInboundHandlerAdapter
    {
        private final AddressBudget budget;
        private final InetAddress address;
        private boolean isHeld = true;

        HandshakeSlot(final AddressBudget budget, final InetAddress address)
        {
            this.budget = budget;
            this.address = address;
        }

        @Override
        public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) throws Exception
        {
            if (event instanceof RipcSession)
            {
                release();
                ctx.pipeline().remove(this);
            }
            super.userEventTriggered(ctx, event);
        }

        @Override
        public void channelInactive(final ChannelHandlerContext ctx) throws Exception
        {
            release();
            super.channelInactive(ctx);
        }

        private void release()
        {
            if (isHeld)
            {
                isHeld = false;
                budget.handshakeEnded(address);
            }
        }
    }
}
