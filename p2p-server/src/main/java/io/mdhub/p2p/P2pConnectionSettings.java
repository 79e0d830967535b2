package io.mdhub.p2p;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.mdhub.common.config.BaseContext;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.tls.TlsSettings;
import io.mdhub.common.ripc.RipcTransport;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;

/**
 * Where and how consumers connect to a {@link P2pServer}, the first level of {@link P2pServer.Context}: the main
 * listener (bind address, port, flush profile, TLS) and the extra ones, the TLS key material, the RIPC transport
 * settings, the fan-out workers' event loops, the consumer connections' buffer pool, the login timeout and the flush
 * interval. Defaults come from {@link P2pConfiguration}. Its conclude steps are called by
 * {@link P2pServerSettings#concludeContext()} in a fixed order; {@link #close()} shuts the event loops down first.
 *
 * @param <T> the concrete Context type, so fluent setters return it.
 */
public abstract class P2pConnectionSettings<T extends P2pConnectionSettings<T>> extends BaseContext<T>
{
    private static final int POOL_PAGE_SIZE = 8192;

    private String bindAddress = P2pConfiguration.bindAddress();
    private int port = P2pConfiguration.port();
    private int webSocketPort = P2pConfiguration.webSocketPort();
    private long webSocketPingTimeoutNs = P2pConfiguration.webSocketPingTimeoutNs();
    private boolean webSocketPageEnabled = P2pConfiguration.webSocketPageEnabled();
    private boolean webSocketTlsEnabled = P2pConfiguration.webSocketTlsEnabled();
    private int workers = P2pConfiguration.workers();
    private int outputPoolChunkSize = P2pConfiguration.outputPoolChunkSize();
    private PooledByteBufAllocator outputAllocator;
    private long loginTimeoutNs = P2pConfiguration.loginTimeoutNs();
    private FlushProfile flushProfile = P2pConfiguration.flushProfile();
    private List<ConsumerListener> extraListeners = P2pConfiguration.extraListeners();
    private boolean tlsEnabled = P2pConfiguration.tlsEnabled();
    private TlsSettings tls;
    private SslContext serverSslContext;
    private long flushIntervalNs = P2pConfiguration.flushIntervalNs();
    private String componentName = P2pConfiguration.componentName();
    private RipcServer.Context ripcContext;
    private EventLoopGroup eventLoopGroup;

    /**
     * The listeners' own ranges (main port, fan-out workers), which {@link #concludeContext()} checks first.
     */
    protected final void requireListenerRanges()
    {
        requireRange(P2pConfiguration.PORT_PROP_NAME, port, 0, 0xFFFF);
        requireRange(P2pConfiguration.WORKERS_PROP_NAME, workers, 1, P2pConfiguration.WORKERS_MAX);
    }

    /**
     * The connections' ranges: output pool chunk size, login timeout, flush interval.
     */
    protected final void requireConnectionRanges()
    {
        requireRange(P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_PROP_NAME, outputPoolChunkSize,
            P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_MIN, P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_MAX);
        if (Integer.bitCount(outputPoolChunkSize) != 1)
        {
            throw new IllegalArgumentException(P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_PROP_NAME +
                " must be a power of two: " + outputPoolChunkSize);
        }
        requirePositive(P2pConfiguration.LOGIN_TIMEOUT_PROP_NAME, loginTimeoutNs);
        requirePositive(P2pConfiguration.FLUSH_INTERVAL_PROP_NAME, flushIntervalNs);
        requireRange(P2pConfiguration.WEBSOCKET_PORT_PROP_NAME, webSocketPort, -1, 65_535);
        requireRange(P2pConfiguration.WEBSOCKET_PING_TIMEOUT_PROP_NAME, webSocketPingTimeoutNs,
            P2pConfiguration.WEBSOCKET_PING_TIMEOUT_MIN_NS, P2pConfiguration.WEBSOCKET_PING_TIMEOUT_MAX_NS);
    }

    /**
     * Check the listener list (a flush profile, no port twice) and read the TLS key material when a listener (or the
     * WebSocket API's port) speaks TLS, so that a wrong path or password stops the server before it listens.
     */
    protected final void concludeListeners()
    {
        if (null == flushProfile)
        {
            throw new IllegalArgumentException(P2pConfiguration.FLUSH_PROFILE_PROP_NAME + " is required");
        }
        final java.util.Set<Integer> ports = new java.util.HashSet<>();
        for (final ConsumerListener listener : listeners())
        {
            if (0 != listener.port() && !ports.add(listener.port()))
            {
                throw new IllegalArgumentException(P2pConfiguration.EXTRA_LISTENERS_PROP_NAME +
                    ": port " + listener.port() + " is listed twice (or is " + P2pConfiguration.PORT_PROP_NAME +
                    ")");
            }
        }
        if (listeners().stream().anyMatch(ConsumerListener::tls) || isWebSocketTls())
        {
            // key material is read now: a wrong path or password stops the server before it listens
            serverSslContext = TlsSettings.orConfiguration(tls).nettyServerContext();
        }
        if (null != ripcContext && ripcContext.isConcluded())
        {
            throw new IllegalArgumentException("the RIPC context must not be concluded yet");
        }
    }

    /**
     * Create the consumer connections' buffer pool and, unless one was supplied, the workers' event-loop group:
     * the last things conclude creates.
     */
    protected final void concludeEventLoops()
    {
        outputAllocator = newOutputAllocator(workers, outputPoolChunkSize);
        if (null == eventLoopGroup)
        {
            eventLoopGroup = RipcTransport.newEventLoopGroup(
                workers, RipcConfiguration.epoll(), P2pServer.WORKER_THREAD_PREFIX + componentName);
        }
    }

    /**
     * Shut the worker event loops down, waiting for them: first in {@link #close()}, so that no worker uses what
     * the subclass releases after.
     */
    @Override
    public void close()
    {
        if (null != eventLoopGroup)
        {
            eventLoopGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            eventLoopGroup = null;
        }
    }

    /**
     * A copy with the same settings that is not concluded and owns none of this Context's resources: the buffer
     * pool, the TLS context and the event loops are made again when it is concluded.
     *
     * @return the copy.
     */
    @Override
    public T clone()
    {
        final T clone = super.clone();
        final P2pConnectionSettings<T> copy = clone; // private fields are reached through the class, not through T
        copy.outputAllocator = null;
        copy.serverSslContext = null;
        copy.eventLoopGroup = null;
        copy.ripcContext = null == ripcContext ? null : ripcContext.clone();
        return clone;
    }

    /**
     * @param bindAddress address consumers connect to.
     * @return this.
     */
    public T bindAddress(final String bindAddress)
    {
        checkNotConcluded();
        this.bindAddress = bindAddress;
        return self();
    }

    /**
     * @return the bind address.
     */
    public String bindAddress()
    {
        return bindAddress;
    }

    /**
     * @param port consumer port, 0 for an ephemeral one.
     * @return this.
     */
    public T port(final int port)
    {
        checkNotConcluded();
        this.port = port;
        return self();
    }

    /**
     * @return the configured port.
     */
    public int port()
    {
        return port;
    }

    /**
     * @param webSocketPort the WebSocket API's port, 0 for an ephemeral one, -1 for none.
     * @return this.
     */
    public T webSocketPort(final int webSocketPort)
    {
        checkNotConcluded();
        this.webSocketPort = webSocketPort;
        return self();
    }

    /**
     * @return the WebSocket API's port, -1 for none.
     */
    public int webSocketPort()
    {
        return webSocketPort;
    }

    /**
     * @param webSocketPingTimeoutNs how long a WebSocket API connection may send nothing before it is closed.
     * @return this.
     */
    public T webSocketPingTimeoutNs(final long webSocketPingTimeoutNs)
    {
        checkNotConcluded();
        this.webSocketPingTimeoutNs = webSocketPingTimeoutNs;
        return self();
    }

    /**
     * @param webSocketPageEnabled whether the WebSocket API's port serves the quote page.
     * @return this.
     */
    public T webSocketPageEnabled(final boolean webSocketPageEnabled)
    {
        checkNotConcluded();
        this.webSocketPageEnabled = webSocketPageEnabled;
        return self();
    }

    /**
     * @return how long a WebSocket API connection may send nothing before it is closed.
     */
    public long webSocketPingTimeoutNs()
    {
        return webSocketPingTimeoutNs;
    }

    /**
     * @return whether the WebSocket API's port serves the quote page.
     */
    public boolean webSocketPageEnabled()
    {
        return webSocketPageEnabled;
    }

    /**
     * @param webSocketTlsEnabled whether the WebSocket API's port speaks TLS only, with {@link #serverSslContext()}.
     * @return this.
     */
    public T webSocketTlsEnabled(final boolean webSocketTlsEnabled)
    {
        checkNotConcluded();
        this.webSocketTlsEnabled = webSocketTlsEnabled;
        return self();
    }

    /**
     * @return whether the WebSocket API's port speaks TLS (when it is served at all).
     */
    public boolean webSocketTlsEnabled()
    {
        return webSocketTlsEnabled;
    }

    /**
     * @return the TLS context of the WebSocket API's port after conclude: {@link #serverSslContext()} when the port
     *         is served and speaks TLS, else null (plain).
     */
    public SslContext webSocketSslContext()
    {
        return isWebSocketTls() ? serverSslContext : null;
    }

    private boolean isWebSocketTls()
    {
        return webSocketTlsEnabled && webSocketPort >= 0;
    }

    /**
     * @param workers fan-out workers (event loops), 1 to 64.
     * @return this.
     */
    public T workers(final int workers)
    {
        checkNotConcluded();
        this.workers = workers;
        return self();
    }

    /**
     * @return fan-out workers.
     */
    public int workers()
    {
        return workers;
    }

    /**
     * @param outputPoolChunkSize chunk size of the consumer connections' buffer pool (a power of two, 64k-16m).
     * @return this.
     */
    public T outputPoolChunkSize(final int outputPoolChunkSize)
    {
        checkNotConcluded();
        this.outputPoolChunkSize = outputPoolChunkSize;
        return self();
    }

    /**
     * @return the consumer output pool's chunk size.
     */
    public int outputPoolChunkSize()
    {
        return outputPoolChunkSize;
    }

    /**
     * @return the buffer pool of the consumer connections, after conclude.
     */
    public PooledByteBufAllocator outputAllocator()
    {
        return outputAllocator;
    }

    /**
     * The consumer connections' own pool: one arena per worker, and chunks small enough that what a dropped
     * consumer's output filled goes back to the operating system chunk by chunk, instead of staying in the 4 MiB
     * chunks of Netty's process-wide pool that any long-lived buffer keeps. Per-thread caches as Netty's default.
     */
    private static PooledByteBufAllocator newOutputAllocator(final int workers, final int chunkSize)
    {
        final int maxOrder = Integer.numberOfTrailingZeros(chunkSize / POOL_PAGE_SIZE);
        return new PooledByteBufAllocator(true, 0, workers, POOL_PAGE_SIZE, maxOrder,
            PooledByteBufAllocator.defaultSmallCacheSize(), PooledByteBufAllocator.defaultNormalCacheSize(),
            true);
    }

    /**
     * @param loginTimeoutNs longest time from a consumer's handshake to its login request before it is closed.
     * @return this.
     */
    public T loginTimeoutNs(final long loginTimeoutNs)
    {
        checkNotConcluded();
        this.loginTimeoutNs = loginTimeoutNs;
        return self();
    }

    /**
     * @return the login timeout in nanoseconds.
     */
    public long loginTimeoutNs()
    {
        return loginTimeoutNs;
    }

    /**
     * @param flushProfile latency or throughput.
     * @return this.
     */
    public T flushProfile(final FlushProfile flushProfile)
    {
        checkNotConcluded();
        this.flushProfile = flushProfile;
        return self();
    }

    /**
     * @return the flush profile.
     */
    public FlushProfile flushProfile()
    {
        return flushProfile;
    }

    /**
     * @param extraListeners further ports beside {@link #port(int)}, each with its flush profile.
     * @return this.
     */
    public T extraListeners(final List<ConsumerListener> extraListeners)
    {
        checkNotConcluded();
        this.extraListeners = List.copyOf(extraListeners);
        return self();
    }

    /**
     * @param tlsEnabled whether the main port speaks TLS.
     * @return this.
     */
    public T tlsEnabled(final boolean tlsEnabled)
    {
        checkNotConcluded();
        this.tlsEnabled = tlsEnabled;
        return self();
    }

    /**
     * @return whether the main port speaks TLS.
     */
    public boolean tlsEnabled()
    {
        return tlsEnabled;
    }

    /**
     * @param tls the TLS settings of the TLS listeners; when null, conclude reads the {@code mdhub.tls.*} keys.
     * @return this.
     */
    public T tls(final TlsSettings tls)
    {
        checkNotConcluded();
        this.tls = tls;
        return self();
    }

    /**
     * @return the TLS settings given, or null.
     */
    public TlsSettings tls()
    {
        return tls;
    }

    /**
     * @return after conclude, the TLS context every TLS listener (and a TLS WebSocket API port) shares; null when
     *         none speaks TLS.
     */
    public SslContext serverSslContext()
    {
        return serverSslContext;
    }

    /**
     * @return the further listeners.
     */
    public List<ConsumerListener> extraListeners()
    {
        return extraListeners;
    }

    /**
     * @return every listener: the main one ({@code port}, {@code flushProfile}) first, then the extra ones.
     */
    public List<ConsumerListener> listeners()
    {
        final List<ConsumerListener> all = new ArrayList<>(1 + extraListeners.size());
        all.add(new ConsumerListener(port, flushProfile, tlsEnabled));
        all.addAll(extraListeners);
        return all;
    }

    /**
     * @param flushIntervalNs flush interval of the throughput profile.
     * @return this.
     */
    public T flushIntervalNs(final long flushIntervalNs)
    {
        checkNotConcluded();
        this.flushIntervalNs = flushIntervalNs;
        return self();
    }

    /**
     * @return the throughput flush interval in nanoseconds.
     */
    public long flushIntervalNs()
    {
        return flushIntervalNs;
    }

    /**
     * @param componentName name in the ConnectAck, Login refresh, logs, counters and the MBean.
     * @return this.
     */
    public T componentName(final String componentName)
    {
        checkNotConcluded();
        this.componentName = componentName;
        return self();
    }

    /**
     * @return the component name.
     */
    public String componentName()
    {
        return componentName;
    }

    /**
     * @param ripcContext RIPC transport settings to start from (ping timeouts...); port, bind address,
     *                    component name, event loops and counters are set from this Context. Owned by the server.
     * @return this.
     */
    public T ripcContext(final RipcServer.Context ripcContext)
    {
        checkNotConcluded();
        this.ripcContext = ripcContext;
        return self();
    }

    /**
     * @return the RIPC settings, or null for defaults.
     */
    public RipcServer.Context ripcContext()
    {
        return ripcContext;
    }

    /**
     * @return the workers' event-loop group, after conclude (owned by this Context).
     */
    public EventLoopGroup eventLoopGroup()
    {
        return eventLoopGroup;
    }
}
