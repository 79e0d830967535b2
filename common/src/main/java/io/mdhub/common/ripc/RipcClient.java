package io.mdhub.common.ripc;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;

import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.tls.TlsSettings;

/**
 * An RSSL (RIPC) client over Netty, speaking to ETA servers (ADS-like providers) and to MDHub servers: it does the
 * client handshake as ETA does, then the same framing and ping duties as the server side. Used by MDHub tools and
 * by the distributor when it mounts interactive providers.
 * <p>
 * {@link #connect()} returns a future that completes with the channel once the handshake is done (the application
 * handlers added by the {@link RipcChannelHook} have then received the {@link RipcSession} event), or fails with a
 * {@link RipcHandshakeException}. When the server closes a RIPC14 connection during the handshake and fallback is
 * on, the client retries once with RIPC13 on a new connection, as ETA does. With a TLS context
 * ({@link Context#sslContext}, or {@code mdhub.ripc.client.tls.enabled} and the {@code mdhub.tls.*} keys) every
 * connection speaks TLS first; a failed TLS handshake fails the connect with reason {@code tls-handshake}, without
 * a RIPC13 retry.
 */
public final class RipcClient implements AutoCloseable
{
    private final Context ctx;
    private final SecureRandom random = new SecureRandom();
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Set<Promise<Channel>> pending = ConcurrentHashMap.newKeySet();
    private volatile boolean isClosed;

    private RipcClient(final Context ctx)
    {
        this.ctx = ctx;
    }

    /**
     * Conclude the Context. On failure the Context is closed.
     *
     * @param ctx the settings; this client owns it from now on and closes it.
     * @return the client.
     */
    public static RipcClient launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, RipcClient::new);
    }

    /**
     * @return the concluded Context (counters, settings).
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * Connect to the configured host and port. The host name is resolved on the calling thread (blocking DNS
     * lookup): call this from an application thread, not from an event loop.
     *
     * @return completes with the ACTIVE channel, or fails.
     */
    public Future<Channel> connect()
    {
        return connect(ctx.host(), ctx.port());
    }

    /**
     * Connect and handshake. The host name is resolved here, on the calling thread, never on an event loop; the
     * RIPC13 retry reuses the resolved address.
     *
     * @param host server host.
     * @param port server port.
     * @return completes with the ACTIVE channel, or fails with the reason.
     */
    public Future<Channel> connect(final String host, final int port)
    {
        if (isClosed)
        {
            return GlobalEventExecutor.INSTANCE.newFailedFuture(closedException(RipcVersion.RIPC14));
        }
        final InetSocketAddress address;
        try
        {
            address = new InetSocketAddress(host, port);
        }
        catch (final IllegalArgumentException ex)
        {
            return GlobalEventExecutor.INSTANCE.newFailedFuture(ex);
        }
        if (address.isUnresolved())
        {
            return GlobalEventExecutor.INSTANCE.newFailedFuture(new UnknownHostException(host));
        }
        return connect(address);
    }

    /**
     * Connect and handshake to an address resolved by the caller.
     *
     * @param address resolved server address.
     * @return completes with the ACTIVE channel, or fails with the reason; always completes, also when the client
     * is closed meanwhile.
     */
    public Future<Channel> connect(final InetSocketAddress address)
    {
        final EventLoopGroup group = ctx.eventLoopGroup(); // null once closed
        if (isClosed || null == group)
        {
            return GlobalEventExecutor.INSTANCE.newFailedFuture(closedException(RipcVersion.RIPC14));
        }
        final Promise<Channel> result = group.next().newPromise();
        pending.add(result);
        result.addListener((Future<Channel> f) -> pending.remove(result));
        if (isClosing()) // checked after registering, so close() either sees the promise or connect sees the flag
        {
            result.tryFailure(closedException(RipcVersion.RIPC14));
            return result;
        }
        attempt(address, RipcVersion.RIPC14, result);
        return result;
    }

    private void attempt(final InetSocketAddress address, final RipcVersion version, final Promise<Channel> result)
    {
        try
        {
            final Promise<Channel> handshake = ctx.eventLoopGroup().next().newPromise();
            handshake.addListener((Future<Channel> f) -> onHandshakeDone(f, address, version, result));
            final ChannelFuture connectFuture = bootstrap(address, version, handshake).connect(address);
            connectFuture.addListener((ChannelFuture f) ->
            {
                if (!f.isSuccess())
                {
                    handshake.tryFailure(f.cause());
                }
            });
        }
        catch (final Throwable ex)
        {
            result.tryFailure(ex); // e.g. the event loops are shut down
        }
    }

    private Bootstrap bootstrap(
        final InetSocketAddress address, final RipcVersion version, final Promise<Channel> handshake)
    {
        final SslContext sslContext = ctx.sslContext();
        final RipcChannelSettings settings = ctx.channelSettings();
        final int pingTimeoutSeconds = (int)TimeUnit.NANOSECONDS.toSeconds(ctx.pingTimeoutNs());
        return new Bootstrap()
            .group(ctx.eventLoopGroup())
            .channel(RipcTransport.channelClass(ctx.eventLoopGroup()))
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int)Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(ctx.handshakeTimeoutNs())))
            .handler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel channel)
                {
                    channels.add(channel);
                    // the host name as given (not a reverse lookup) is what the server's certificate must name
                    RipcPipeline.initHandshakePhase(channel, settings, new RipcClientHandshakeHandler(
                        settings, version, pingTimeoutSeconds, ctx.hostName(), random, handshake), ctx.channelHook(),
                        null == sslContext ? null :
                        sslContext.newHandler(channel.alloc(), address.getHostString(), address.getPort()));
                }
            });
    }

    private void onHandshakeDone(
        final Future<Channel> handshake,
        final InetSocketAddress address,
        final RipcVersion version,
        final Promise<Channel> result)
    {
        if (handshake.isSuccess())
        {
            final Channel channel = handshake.getNow();
            if (!result.trySuccess(channel))
            {
                channel.close(); // the client was closed meanwhile and failed the result
            }
        }
        else if (isFallback(handshake.cause(), version) && !isClosing())
        {
            attempt(address, RipcVersion.RIPC13, result);
        }
        else
        {
            result.tryFailure(handshake.cause());
        }
    }

    private boolean isFallback(final Throwable cause, final RipcVersion version)
    {
        return ctx.versionFallback() && RipcVersion.RIPC14 == version &&
            cause instanceof RipcHandshakeException &&
            RipcDisconnectReason.PEER_CLOSED == ((RipcHandshakeException)cause).reason();
    }

    private boolean isClosing()
    {
        final EventLoopGroup group = ctx.eventLoopGroup();
        return isClosed || null == group || group.isShuttingDown();
    }

    private static RipcHandshakeException closedException(final RipcVersion version)
    {
        return new RipcHandshakeException(RipcDisconnectReason.LOCAL_CLOSE, version, "client closed");
    }

    /**
     * Close every connection this client opened, fail connects still in progress, then close the Context (event
     * loops it created, counters).
     */
    @Override
    public void close()
    {
        isClosed = true;
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        for (final Promise<Channel> result : pending) // weakly consistent: completing removes entries meanwhile
        {
            result.tryFailure(closedException(RipcVersion.RIPC14));
        }
        ctx.close();
    }

    /**
     * Settings of a {@link RipcClient}; defaults from {@link RipcConfiguration}.
     */
    public static final class Context extends RipcContext<Context>
    {
        /**
         * Longest host name announced: the ConnectReq headerLength is one byte and must also cover the fixed
         * fields and the longest IP text.
         */
        public static final int MAX_HOST_NAME_LENGTH = ConnectReqDescriptor.MAX_HEADER_LENGTH -
            ConnectReqDescriptor.headerLength(0, 0, ConnectReqDescriptor.MAX_IP_ADDRESS_LENGTH);

        private String host = RipcConfiguration.clientHost();
        private int port = RipcConfiguration.clientPort();
        private long pingTimeoutNs = RipcConfiguration.pingTimeoutNs();
        private boolean versionFallback = RipcConfiguration.clientVersionFallback();
        private boolean tlsEnabled = RipcConfiguration.clientTlsEnabled();
        private String hostName;

        @Override
        protected void concludeContext()
        {
            requireRange(RipcConfiguration.CLIENT_PORT_PROP_NAME, port, 1, 0xFFFF);
            requireRange(RipcConfiguration.PING_TIMEOUT_PROP_NAME, TimeUnit.NANOSECONDS.toSeconds(pingTimeoutNs),
                1, 255);
            if (null == hostName)
            {
                hostName = localHostName();
                if (!fitsConnectReq(hostName))
                {
                    hostName = "localhost"; // a looked-up name that cannot be announced should not stop the client
                }
            }
            if (!StandardCharsets.US_ASCII.newEncoder().canEncode(hostName))
            {
                throw new IllegalArgumentException("hostName must be ASCII: " + hostName);
            }
            requireRange("hostName length", hostName.length(), 0, MAX_HOST_NAME_LENGTH);
            super.concludeContext();
        }

        /**
         * @param host server host.
         * @return this.
         */
        public Context host(final String host)
        {
            checkNotConcluded();
            this.host = host;
            return this;
        }

        /**
         * @return server host.
         */
        public String host()
        {
            return host;
        }

        /**
         * @param port server port.
         * @return this.
         */
        public Context port(final int port)
        {
            checkNotConcluded();
            this.port = port;
            return this;
        }

        /**
         * @return server port.
         */
        public int port()
        {
            return port;
        }

        /**
         * @param pingTimeoutNs ping timeout to request (whole seconds on the wire); the server decides.
         * @return this.
         */
        public Context pingTimeoutNs(final long pingTimeoutNs)
        {
            checkNotConcluded();
            this.pingTimeoutNs = pingTimeoutNs;
            return this;
        }

        /**
         * @return the requested ping timeout in nanoseconds.
         */
        public long pingTimeoutNs()
        {
            return pingTimeoutNs;
        }

        /**
         * @param tlsEnabled speak TLS with the {@code mdhub.tls.*} settings when no TLS context is supplied.
         * @return this.
         */
        public Context tlsEnabled(final boolean tlsEnabled)
        {
            checkNotConcluded();
            this.tlsEnabled = tlsEnabled;
            return this;
        }

        /**
         * @return whether the client speaks TLS with the {@code mdhub.tls.*} settings.
         */
        public boolean tlsEnabled()
        {
            return tlsEnabled;
        }

        @Override
        protected SslContext defaultSslContext()
        {
            return tlsEnabled ? TlsSettings.fromConfiguration().nettyClientContext() : null;
        }

        /**
         * @param versionFallback retry with RIPC13 when the server closes a RIPC14 handshake.
         * @return this.
         */
        public Context versionFallback(final boolean versionFallback)
        {
            checkNotConcluded();
            this.versionFallback = versionFallback;
            return this;
        }

        /**
         * @return true when falling back to RIPC13.
         */
        public boolean versionFallback()
        {
            return versionFallback;
        }

        /**
         * @param hostName host name announced in the ConnectReq; when null, conclude looks up the local one.
         * @return this.
         */
        public Context hostName(final String hostName)
        {
            checkNotConcluded();
            this.hostName = hostName;
            return this;
        }

        /**
         * @return the host name announced.
         */
        public String hostName()
        {
            return hostName;
        }

        private static boolean fitsConnectReq(final String name)
        {
            return name.length() <= MAX_HOST_NAME_LENGTH && StandardCharsets.US_ASCII.newEncoder().canEncode(name);
        }

        private static String localHostName()
        {
            try
            {
                return InetAddress.getLocalHost().getHostName();
            }
            catch (final UnknownHostException ex)
            {
                return "localhost";
            }
        }
    }
}
