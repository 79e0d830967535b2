package io.mdhub.common.ripc;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import org.agrona.CloseHelper;

/**
 * An RSSL (RIPC) client over Netty, speaking to ETA servers (ADS-like providers) and to MDHub servers: it does the
 * client handshake as ETA does, then the same framing and ping duties as the server side. Used by MDHub tools and
 * by the distributor when it mounts interactive providers.
 * <p>
 * {@link #connect()} returns a future that completes with the channel once the handshake is done (the application
 * handlers added by the {@link RipcChannelHook} have then received the {@link RipcSession} event), or fails with a
 * {@link RipcHandshakeException}. When the server closes a RIPC14 connection during the handshake and fallback is
 * on, the client retries once with RIPC13 on a new connection, as ETA does.
 */
public final class RipcClient implements AutoCloseable
{
    private final Context ctx;
    private final SecureRandom random = new SecureRandom();
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

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
        try
        {
            ctx.conclude();
            return new RipcClient(ctx);
        }
        catch (final Throwable ex)
        {
            // bind() rethrows checked exceptions (BindException, NativeIoException) sneakily: catch everything
            CloseHelper.quietClose(ctx);
            throw ex;
        }
    }

    /**
     * @return the concluded Context (counters, settings).
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * Connect to the configured host and port.
     *
     * @return completes with the ACTIVE channel, or fails.
     */
    public Future<Channel> connect()
    {
        return connect(ctx.host(), ctx.port());
    }

    /**
     * Connect and handshake.
     *
     * @param host server host.
     * @param port server port.
     * @return completes with the ACTIVE channel, or fails with the reason.
     */
    public Future<Channel> connect(final String host, final int port)
    {
        final EventLoop loop = ctx.eventLoopGroup().next();
        final Promise<Channel> result = loop.newPromise();
        attempt(host, port, RipcVersion.RIPC14, result);
        return result;
    }

    private void attempt(final String host, final int port, final RipcVersion version, final Promise<Channel> result)
    {
        final Promise<Channel> handshake = ctx.eventLoopGroup().next().newPromise();
        final RipcChannelSettings settings = ctx.channelSettings();
        final int pingTimeoutSeconds = (int)TimeUnit.NANOSECONDS.toSeconds(ctx.pingTimeoutNs());
        final Bootstrap bootstrap = new Bootstrap()
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
                    RipcPipeline.initHandshakePhase(channel, settings, new RipcClientHandshakeHandler(
                        settings, version, pingTimeoutSeconds, ctx.hostName(), random, handshake), ctx.channelHook());
                }
            });

        final ChannelFuture connectFuture = bootstrap.connect(host, port);
        connectFuture.addListener((ChannelFuture f) ->
        {
            if (!f.isSuccess())
            {
                handshake.tryFailure(f.cause());
            }
        });
        handshake.addListener((Future<Channel> f) ->
        {
            if (f.isSuccess())
            {
                result.trySuccess(f.getNow());
            }
            else if (isFallback(f.cause(), version))
            {
                attempt(host, port, RipcVersion.RIPC13, result);
            }
            else
            {
                result.tryFailure(f.cause());
            }
        });
    }

    private boolean isFallback(final Throwable cause, final RipcVersion version)
    {
        return ctx.versionFallback() && RipcVersion.RIPC14 == version &&
            cause instanceof RipcHandshakeException &&
            RipcDisconnectReason.PEER_CLOSED == ((RipcHandshakeException)cause).reason();
    }

    /**
     * Close every connection this client opened, then the Context (event loops it created, counters).
     */
    @Override
    public void close()
    {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        ctx.close();
    }

    /**
     * Settings of a {@link RipcClient}; defaults from {@link RipcConfiguration}.
     */
    public static final class Context extends RipcContext<Context>
    {
        private String host = RipcConfiguration.clientHost();
        private int port = RipcConfiguration.clientPort();
        private long pingTimeoutNs = RipcConfiguration.pingTimeoutNs();
        private boolean versionFallback = RipcConfiguration.clientVersionFallback();
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
            }
            requireRange("hostName length", hostName.length(), 0, 255);
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
