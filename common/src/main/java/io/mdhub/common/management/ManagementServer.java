package io.mdhub.common.management;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mdhub.common.metrics.MdMetrics;
import io.mdhub.common.net.AddressBudget;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * A server's management endpoint: {@code GET /metrics} (the process's Prometheus registry, in the Prometheus text
 * format or OpenMetrics as the scraper asks), {@code GET /health} (every check), {@code /health/live} (liveness
 * checks) and {@code /health/ready} (all of them), each answering 200 when what it ran is up and 503 when not, with a
 * JSON report. One event-loop thread of its own, asleep until a request comes; at most
 * {@link #MAX_CONNECTIONS} connections, each closed after {@link #IDLE_TIMEOUT_SECONDS} s without a request.
 * <p>
 * A port that cannot be bound (another server of the same role on this host) is logged and the server runs on
 * without the endpoint ({@link #launch} returns null): metrics are not worth a server that does not start.
 */
public final class ManagementServer implements AutoCloseable
{
    /** Connections served at once; more are closed as they come. */
    public static final int MAX_CONNECTIONS = 32;
    /**
     * Connections one remote address may hold open at once: a scraper and a console need one or two, so a flood from
     * one address cannot take every connection from the others.
     */
    public static final int MAX_CONNECTIONS_PER_ADDRESS = 8;
    /** New connections one remote address may open a second (also the burst). */
    public static final int ACCEPTS_PER_SECOND_PER_ADDRESS = 50;
    /** A connection without a request for this long is closed. */
    public static final int IDLE_TIMEOUT_SECONDS = 30;
    static final int MAX_REQUEST_BYTES = 8192;
    private static final Logger LOG = LoggerFactory.getLogger(ManagementServer.class);

    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final ChannelGroup connections;
    private final ManagementRequests requests;

    private ManagementServer(
        final EventLoopGroup group, final Channel serverChannel, final ChannelGroup connections,
        final ManagementRequests requests)
    {
        this.group = group;
        this.serverChannel = serverChannel;
        this.connections = connections;
        this.requests = requests;
    }

    /**
     * Listen on the context's address and port.
     *
     * @param ctx what to serve and where.
     * @return the running server, or null when the port is off ({@code -1}) or cannot be bound (logged).
     */
    public static ManagementServer launch(final Context ctx)
    {
        Objects.requireNonNull(ctx.checks, "checks");
        if (ctx.port < 0)
        {
            return null;
        }
        final boolean isEpoll = Epoll.isAvailable();
        final DefaultThreadFactory threads = new DefaultThreadFactory("mdhub-http", true);
        final EventLoopGroup group = isEpoll ? new EpollEventLoopGroup(1, threads) : new NioEventLoopGroup(1, threads);
        final ChannelGroup connections = new DefaultChannelGroup("management", group.next());
        final ManagementRequests requests = new ManagementRequests(ctx.checks, ctx.registry);
        // an open connection counts against its address until it closes: HTTP has no handshake worth the name
        final AddressBudget budget = new AddressBudget(MAX_CONNECTIONS_PER_ADDRESS, ACCEPTS_PER_SECOND_PER_ADDRESS,
            "management connections per address", "management connections a second per address");
        try
        {
            final Class<? extends ServerChannel> channelType =
                isEpoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
            final Channel server = new ServerBootstrap()
                .group(group)
                .channel(channelType)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    @Override
                    protected void initChannel(final SocketChannel channel)
                    {
                        if (connections.size() >= MAX_CONNECTIONS)
                        {
                            requests.refused(channel);
                            return;
                        }
                        final InetAddress address = channel.remoteAddress().getAddress();
                        final String overBudget = budget.admit(address, System.nanoTime());
                        if (null != overBudget)
                        {
                            requests.refused(channel, overBudget);
                            return;
                        }
                        channel.closeFuture().addListener((closed) -> budget.handshakeEnded(address));
                        connections.add(channel);
                        channel.pipeline()
                            .addLast(new IdleStateHandler(0, 0, IDLE_TIMEOUT_SECONDS, TimeUnit.SECONDS))
                            .addLast(new HttpServerCodec(MAX_REQUEST_BYTES / 2, MAX_REQUEST_BYTES, MAX_REQUEST_BYTES))
                            .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                            .addLast(new ManagementHandler(requests));
                    }
                })
                .bind(new InetSocketAddress(ctx.bindAddress, ctx.port))
                .syncUninterruptibly()
                .channel();
            return new ManagementServer(group, server, connections, requests);
        }
        catch (final Exception ex) // Netty throws its checked bind failure without declaring it
        {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
            LOG.error("{}: management endpoint not served: cannot listen on {}:{} ({}); set {} to a free port, or -1",
                ctx.checks.component(), ctx.bindAddress, ctx.port, ex.toString(), ctx.portPropertyName);
            return null;
        }
    }

    /**
     * @return the port listened on.
     */
    public int port()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getPort();
    }

    /**
     * @return the requests answered and refused so far.
     */
    public ManagementRequests requests()
    {
        return requests;
    }

    /**
     * @return a line for the server's ready line: {@code http=<port>}.
     */
    @Override
    public String toString()
    {
        return "http=" + port();
    }

    /**
     * A ready-line fragment for a server that may have no endpoint.
     *
     * @param server the endpoint, or null.
     * @return {@code http=<port>} or {@code http=none}.
     */
    public static String describe(final ManagementServer server)
    {
        return null == server ? "http=none" : server.toString();
    }

    @Override
    public void close()
    {
        serverChannel.close().syncUninterruptibly();
        connections.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /**
     * Where to listen and what to serve.
     */
    public static final class Context
    {
        private String bindAddress = ManagementConfiguration.bindAddress();
        private int port = -1;
        private String portPropertyName = "the port setting";
        private HealthChecks checks;
        private PrometheusMeterRegistry registry = MdMetrics.prometheus();

        /**
         * @param bindAddress the address to listen on (default {@link ManagementConfiguration#bindAddress()}).
         * @return this.
         */
        public Context bindAddress(final String bindAddress)
        {
            this.bindAddress = bindAddress;
            return this;
        }

        /**
         * @param port             the port: 0 for any free one, -1 for no endpoint.
         * @param propertyName     the setting it came from, named in the error when it cannot be bound.
         * @return this.
         */
        public Context port(final int port, final String propertyName)
        {
            if (port < -1 || port > 65_535)
            {
                throw new IllegalArgumentException(propertyName + " must be -1 (off), 0 (any) or a port: " + port);
            }
            this.port = port;
            this.portPropertyName = propertyName;
            return this;
        }

        /**
         * @param checks the server's health checks.
         * @return this.
         */
        public Context checks(final HealthChecks checks)
        {
            this.checks = checks;
            return this;
        }

        /**
         * @param registry what {@code /metrics} serves (default {@link MdMetrics#prometheus()}).
         * @return this.
         */
        public Context registry(final PrometheusMeterRegistry registry)
        {
            this.registry = registry;
            return this;
        }
    }
}
