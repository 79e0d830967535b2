package io.mdhub.p2p.websocket;

import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.ripc.RipcServerPhases;
import io.mdhub.common.ripc.RipcTlsWatcher;
import io.mdhub.common.ripc.RipcTransport;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.bootstrap.ServerBootstrap;

/**
 * The p2p-server's WebSocket API port: an HTTP upgrade at {@value #PATH} to a WebSocket speaking {@code tr_json2},
 * {@code rssl.json.v2} or {@code rssl.rwf}, on the same event loops (the fan-out workers) as the RSSL ports. A JSON
 * connection gets the worker's JSON converter and, once upgraded, the worker's consumer session (through the hook);
 * an {@code rssl.rwf} one gets the RIPC server phases inside its binary frames, whose hook adds the session. Either
 * way a WebSocket consumer has the watchlist, entitlements and slow-consumer policy of an RSSL one.
 * <p>
 * With a TLS context the port speaks TLS only ({@code wss://}, {@code https://}): the {@code SslHandler} comes first,
 * and a {@link RipcTlsWatcher} behind it counts each handshake in the RIPC counters of the {@code rssl.rwf} phases
 * (the port's own, whatever the sub-protocol) and ends a connection whose handshake fails (a plain client, no common
 * protocol), summarised in the log, without touching the others.
 */
public final class WebSocketListener implements AutoCloseable
{
    /** The path the WebSocket API's clients upgrade on. */
    public static final String PATH = "/WebSocket";
    /** The WebSocket API's JSON sub-protocol (its other name, {@code rssl.json.v2}, is served too). */
    public static final String JSON = "tr_json2";
    /** The sub-protocol that carries RIPC (and so RWF) in binary frames. */
    public static final String RWF = "rssl.rwf";

    /** The sub-protocols served; the client's order of preference picks among those it offers. */
    public static final String SUBPROTOCOLS = JSON + ",rssl.json.v2," + RWF;

    /** The largest frame a client may send, and the largest RWF message one JSON message may become. */
    public static final int MAX_MESSAGE_BYTES = 64 * 1024;

    private static final int MAX_HTTP_REQUEST_BYTES = 16 * 1024;
    private static final long HANDSHAKE_TIMEOUT_MS = 10_000;

    private final Channel serverChannel;
    private final ChannelGroup channels = new DefaultChannelGroup("p2p-websocket", GlobalEventExecutor.INSTANCE);
    private final WebSocketCounters counters;
    private final RipcServerPhases rwf;

    /**
     * @param group           the fan-out workers' event loops.
     * @param where           address, port, TLS, flushing, ping timeout, page.
     * @param jsonByLoop      each worker's JSON converter, by its event loop.
     * @param sessionHook     adds the worker's consumer session at the end of a new JSON connection's pipeline.
     * @param rwf             the RIPC server phases for {@code rssl.rwf} connections (their hook adds the
     *                        session); owned from now on, closed with this listener.
     * @param countersManager where the WebSocket counters are allocated.
     * @param component       the server's name, in counter labels and logs.
     */
    public WebSocketListener(
        final EventLoopGroup group,
        final WebSocketPort where,
        final Function<EventLoop, JsonMessages> jsonByLoop,
        final Consumer<Channel> sessionHook,
        final RipcServerPhases rwf,
        final CountersManager countersManager,
        final String component)
    {
        this.rwf = rwf;
        final SslContext sslContext = where.tls();
        try
        {
            if (null != sslContext && !sslContext.isServer())
            {
                throw new IllegalArgumentException("the WebSocket API's port needs a server TLS context");
            }
            counters = new WebSocketCounters(countersManager, component);
        }
        catch (final RuntimeException ex)
        {
            rwf.close();
            throw ex;
        }
        final WebSocketServerProtocolConfig config = WebSocketServerProtocolConfig.newBuilder()
            .websocketPath(PATH)
            .subprotocols(SUBPROTOCOLS)
            .handshakeTimeoutMillis(HANDSHAKE_TIMEOUT_MS)
            .decoderConfig(WebSocketDecoderConfig.newBuilder().maxFramePayloadLength(MAX_MESSAGE_BYTES).build())
            .build();
        try
        {
            final StaticPage page = where.isPageServed() ? new StaticPage() : null;
            final Map<EventExecutor, JsonMessages> converters = new IdentityHashMap<>();
            for (final EventExecutor executor : group)
            {
                converters.put(executor, jsonByLoop.apply((EventLoop)executor));
            }
            serverChannel = new ServerBootstrap()
                .group(group)
                .channel(RipcTransport.serverChannelClass(group))
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, where.tcpNoDelay())
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    @Override
                    protected void initChannel(final SocketChannel channel)
                    {
                        channels.add(channel);
                        if (null != sslContext)
                        {
                            addTls(channel, sslContext, rwf);
                        }
                        channel.pipeline()
                            .addLast("http", new HttpServerCodec())
                            .addLast("http-aggregator", new HttpObjectAggregator(MAX_HTTP_REQUEST_BYTES))
                            .addLast("websocket-subprotocols", new SubprotocolGate(counters))
                            .addLast("websocket", new WebSocketServerProtocolHandler(config));
                        if (null != page)
                        {
                            channel.pipeline().addLast("websocket-page", page);
                        }
                        channel.pipeline().addLast("websocket-upgrade", new WebSocketUpgrade(
                            converters.get(channel.eventLoop()), counters, sessionHook, where.pingTimeoutNs(), rwf));
                    }
                })
                .bind(where.bindAddress(), where.port()).syncUninterruptibly().channel();
        }
        catch (final RuntimeException ex)
        {
            counters.close();
            rwf.close();
            throw ex;
        }
    }

    private static void addTls(final SocketChannel channel, final SslContext sslContext, final RipcServerPhases rwf)
    {
        final SslHandler tls = sslContext.newHandler(channel.alloc());
        // a peer that opens TCP and never finishes TLS is closed after the time an unfinished upgrade gets
        tls.setHandshakeTimeoutMillis(HANDSHAKE_TIMEOUT_MS);
        channel.pipeline()
            .addLast("tls", tls)
            .addLast("tls-watch", new RipcTlsWatcher(rwf.context().channelSettings()));
    }

    /**
     * @return the port bound (useful with port 0).
     */
    public int port()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getPort();
    }

    /**
     * @return client messages refused so far.
     */
    public long badMessages()
    {
        return counters.badMessages();
    }

    /**
     * Stop listening and close every WebSocket connection.
     */
    @Override
    public void close()
    {
        serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        counters.close();
        rwf.close();
    }
}
