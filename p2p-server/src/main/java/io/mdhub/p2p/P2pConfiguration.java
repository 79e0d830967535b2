package io.mdhub.p2p;

import java.util.concurrent.TimeUnit;


import io.mdhub.common.config.ConfigValues;
import io.mdhub.common.management.ManagementConfiguration;

/**
 * p2p-server configuration: the only place {@code mdhub.p2p.*} system properties are read. Each setting is a
 * {@code *_PROP_NAME} / {@code *_DEFAULT} pair seeding a {@link P2pServer.Context} field. RIPC transport settings
 * (ping timeouts, max message size, packing, handshake timeout) keep their {@code mdhub.ripc.*} keys.
 */
public final class P2pConfiguration
{
    /**
     * Port of the management endpoint ({@code /metrics} for Prometheus, {@code /health}): -1 off, 0 any free
     * port.
     */
    public static final String HTTP_PORT_PROP_NAME = "mdhub.p2p.http.port";

    /**
     * Default of {@link #HTTP_PORT_PROP_NAME}: one port per role, so one p2p-server per host is scraped
     * without settings; a second one on the host logs that the port is taken and runs without the endpoint.
     */
    public static final int HTTP_PORT_DEFAULT = 9472;

    /**
     * Address the consumer-facing RSSL server binds to.
     */
    public static final String BIND_ADDRESS_PROP_NAME = "mdhub.p2p.bind.address";

    /**
     * Default bind address: loopback, so nothing is exposed by accident.
     */
    public static final String BIND_ADDRESS_DEFAULT = "127.0.0.1";

    /**
     * TCP port consumers connect to.
     */
    public static final String PORT_PROP_NAME = "mdhub.p2p.port";

    /**
     * Default consumer port: 14002, the port the ETA Consumer example connects to.
     */
    public static final int PORT_DEFAULT = 14002;

    /**
     * TCP port of the WebSocket API (OMM as JSON, {@code tr_json2} and {@code rssl.json.v2}, or RWF, {@code rssl.rwf},
     * over a WebSocket), served by the same workers as the RSSL ports; -1 for none.
     */
    public static final String WEBSOCKET_PORT_PROP_NAME = "mdhub.p2p.websocket.port";

    /**
     * Default of {@link #WEBSOCKET_PORT_PROP_NAME}: none.
     */
    public static final int WEBSOCKET_PORT_DEFAULT = -1;

    /**
     * How long a WebSocket API connection may send nothing (a message, or a pong to the server's pings) before it is
     * closed; the server pings a connection it has written nothing to for a third of it. A duration.
     */
    public static final String WEBSOCKET_PING_TIMEOUT_PROP_NAME = "mdhub.p2p.websocket.ping.timeout";

    /**
     * Default of {@link #WEBSOCKET_PING_TIMEOUT_PROP_NAME}: 30 s, an ADS's default.
     */
    public static final long WEBSOCKET_PING_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(30);

    /**
     * Shortest {@link #WEBSOCKET_PING_TIMEOUT_PROP_NAME}.
     */
    public static final long WEBSOCKET_PING_TIMEOUT_MIN_NS = TimeUnit.SECONDS.toNanos(3);

    /**
     * Longest {@link #WEBSOCKET_PING_TIMEOUT_PROP_NAME}.
     */
    public static final long WEBSOCKET_PING_TIMEOUT_MAX_NS = TimeUnit.HOURS.toNanos(1);

    /**
     * Whether the WebSocket API's port also serves the quote page ({@code GET /}): a browser page, held in the jar,
     * that logs in over the same port and shows items updating live.
     */
    public static final String WEBSOCKET_PAGE_ENABLED_PROP_NAME = "mdhub.p2p.websocket.page.enabled";

    /**
     * Default of {@link #WEBSOCKET_PAGE_ENABLED_PROP_NAME}: served.
     */
    public static final boolean WEBSOCKET_PAGE_ENABLED_DEFAULT = true;

    /**
     * Whether the WebSocket API's port speaks TLS only ({@code wss://}, and {@code https://} for the quote page), with
     * the server TLS context of the RSSL ports (the {@code mdhub.tls.*} settings).
     */
    public static final String WEBSOCKET_TLS_ENABLED_PROP_NAME = "mdhub.p2p.websocket.tls.enabled";

    /**
     * Default of {@link #WEBSOCKET_TLS_ENABLED_PROP_NAME}: plain TCP.
     */
    public static final boolean WEBSOCKET_TLS_ENABLED_DEFAULT = false;

    /**
     * Fan-out workers: event loops, each owning a share of the consumer connections, its own watchlist and its own
     * item source.
     */
    public static final String WORKERS_PROP_NAME = "mdhub.p2p.workers";

    /**
     * Default number of fan-out workers.
     */
    public static final int WORKERS_DEFAULT = 1;

    /** Most fan-out workers. */
    public static final int WORKERS_MAX = 64;

    /**
     * Most item streams one consumer connection may have open.
     */
    public static final String MAX_ITEMS_PER_CONSUMER_PROP_NAME = "mdhub.p2p.max.items.per.consumer";

    /**
     * Default per-consumer item limit.
     */
    public static final int MAX_ITEMS_PER_CONSUMER_DEFAULT = 100_000;

    /**
     * Most distinct items open on the item sources of the whole server (all workers).
     */
    public static final String MAX_ITEMS_PROP_NAME = "mdhub.p2p.max.items";

    /**
     * Default aggregate item limit.
     */
    public static final int MAX_ITEMS_DEFAULT = 100_000;

    /**
     * Bytes a consumer may have waiting in its output buffer; above it the consumer is disconnected as slow.
     */
    public static final String MAX_OUTPUT_BYTES_PROP_NAME = "mdhub.p2p.max.output.bytes";

    /**
     * Default output limit per consumer.
     */
    public static final int MAX_OUTPUT_BYTES_DEFAULT = 8 * 1024 * 1024;

    /**
     * Output a consumer may have waiting and still count as keeping up (RMDS guaranteedOutputBuffers): above it the
     * connection is unwritable and its slow-consumer clock runs; it is writable again below half of it. {@code 0}
     * means half of {@link #MAX_OUTPUT_BYTES_PROP_NAME}.
     */
    public static final String GUARANTEED_OUTPUT_BYTES_PROP_NAME = "mdhub.p2p.guaranteed.output.bytes";

    /**
     * Longest time a consumer connection may stay unwritable (output above half of max.output.bytes) before it is
     * disconnected as slow.
     */
    public static final String SLOW_CONSUMER_TIMEOUT_PROP_NAME = "mdhub.p2p.slow.consumer.timeout";

    /**
     * Default slow-consumer timeout.
     */
    public static final long SLOW_CONSUMER_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * What happens to a consumer whose output passes the guaranteed output: {@code disconnect} (queue everything,
     * disconnect at the limits) or {@code conflate} (stop queueing updates, send each missed item's latest state when
     * the consumer reads again).
     */
    public static final String SLOW_CONSUMER_POLICY_PROP_NAME = "mdhub.p2p.slow.consumer.policy";

    /**
     * Default slow-consumer policy.
     */
    public static final String SLOW_CONSUMER_POLICY_DEFAULT = "disconnect";

    /**
     * Under the conflate policy, longest time a consumer may stay unwritable (or have output that does not drain)
     * before it is disconnected as slow; under conflate, at least {@link #SLOW_CONSUMER_TIMEOUT_PROP_NAME}.
     */
    public static final String CONFLATE_TIMEOUT_PROP_NAME = "mdhub.p2p.slow.consumer.conflate.timeout";

    /**
     * Default conflation timeout.
     */
    public static final long CONFLATE_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(60);

    /**
     * Chunk size of the consumer connections' own buffer pool, their output and input (a power of two, 64k to 16m):
     * it frees the memory a dropped consumer's output held one whole chunk at a time, so a small chunk gives memory
     * back soon after a slow consumer is dropped; a message larger than a chunk is allocated outside the pool.
     */
    public static final String OUTPUT_POOL_CHUNK_SIZE_PROP_NAME = "mdhub.p2p.output.pool.chunk.size";

    /**
     * Default output pool chunk size.
     */
    public static final int OUTPUT_POOL_CHUNK_SIZE_DEFAULT = 256 * 1024;

    /** Smallest pool chunk. */
    public static final int OUTPUT_POOL_CHUNK_SIZE_MIN = 64 * 1024;

    /** Largest pool chunk. */
    public static final int OUTPUT_POOL_CHUNK_SIZE_MAX = 16 * 1024 * 1024;

    /**
     * Longest time from a consumer's completed RIPC handshake to its login request; a connection still not logged in
     * then is closed (reason {@code login-timeout}), so connections that handshake, ping and never log in do not hold
     * a worker's resources for good. A duration: {@code 10s}, {@code 500ms}.
     */
    public static final String LOGIN_TIMEOUT_PROP_NAME = "mdhub.p2p.login.timeout";

    /**
     * Default login timeout: as long as the RIPC handshake may take.
     */
    public static final long LOGIN_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How long a consumer's post that asked for an ACK waits for its outcome from upstream; then the poster gets a
     * NAK (NoResponse). Duration suffixes allowed.
     */
    public static final String POST_TIMEOUT_PROP_NAME = "mdhub.p2p.post.timeout";

    /**
     * Default post timeout: longer than a distributor's own wait for a mounted provider's answer (15 s).
     */
    public static final long POST_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(20);

    /**
     * Flush profile: {@code latency} (flush after every fanned-out message) or {@code throughput} (flush every
     * flush interval).
     */
    public static final String FLUSH_PROFILE_PROP_NAME = "mdhub.p2p.flush.profile";

    /**
     * Default flush profile.
     */
    public static final String FLUSH_PROFILE_DEFAULT = "latency";

    /**
     * Flush interval of the throughput profile.
     */
    public static final String FLUSH_INTERVAL_PROP_NAME = "mdhub.p2p.flush.interval";

    /**
     * Default flush interval of the throughput profile.
     */
    public static final long FLUSH_INTERVAL_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(20);

    /**
     * Further consumer listeners beside {@link #PORT_PROP_NAME}, each with its own flush profile and, with a
     * {@code :tls} suffix, TLS: {@code port:profile[:tls],...} (e.g. {@code 14012:throughput,14003:latency:tls}).
     */
    public static final String EXTRA_LISTENERS_PROP_NAME = "mdhub.p2p.extra.listeners";

    /**
     * Whether the main consumer port ({@link #PORT_PROP_NAME}) speaks TLS (with the {@code mdhub.tls.*} settings)
     * instead of plain TCP.
     */
    public static final String TLS_ENABLED_PROP_NAME = "mdhub.p2p.tls.enabled";

    /**
     * Default: plain TCP.
     */
    public static final boolean TLS_ENABLED_DEFAULT = false;

    /**
     * Component name: in the RIPC ConnectAck, the Login refresh, logs, counter labels and the MBean name.
     */
    public static final String COMPONENT_NAME_PROP_NAME = "mdhub.p2p.component.name";

    /**
     * Default component name.
     */
    public static final String COMPONENT_NAME_DEFAULT = "mdhub-p2p";

    /**
     * Serve market data (the RSSL consumer port and the backbone item sources); off for an order-only server.
     */
    public static final String MARKET_DATA_ENABLED_PROP_NAME = "mdhub.p2p.market.data.enabled";

    /**
     * Market data is on by default.
     */
    public static final boolean MARKET_DATA_ENABLED_DEFAULT = true;

    /**
     * Keep an off-heap image of every open streaming item and answer new watchers of an item from it.
     */
    public static final String CACHE_ENABLED_PROP_NAME = "mdhub.p2p.cache.enabled";

    /**
     * The item cache is on by default.
     */
    public static final boolean CACHE_ENABLED_DEFAULT = true;

    /**
     * Directory of the usage log (who watched what, for exchange usage reports): a Chronicle Queue of daily files.
     * Empty: no usage log.
     */
    public static final String USAGE_DIR_PROP_NAME = "mdhub.p2p.usage.dir";

    /**
     * Default usage directory: none, nothing is recorded.
     */
    public static final String USAGE_DIR_DEFAULT = "";

    private P2pConfiguration()
    {
    }

    /**
     * @return the usage log's directory, empty for none.
     */
    public static String usageDir()
    {
        return ConfigValues.getString(USAGE_DIR_PROP_NAME, USAGE_DIR_DEFAULT);
    }

    /**
     * @return the bind address.
     */
    public static String bindAddress()
    {
        return System.getProperty(BIND_ADDRESS_PROP_NAME, BIND_ADDRESS_DEFAULT);
    }

    /**
     * @return the management endpoint's port (-1 off, 0 any free port).
     */
    public static int httpPort()
    {
        return ManagementConfiguration.port(HTTP_PORT_PROP_NAME, HTTP_PORT_DEFAULT);
    }

    /**
     * @return whether the main consumer port speaks TLS.
     */
    public static boolean tlsEnabled()
    {
        return ConfigValues.getBoolean(TLS_ENABLED_PROP_NAME, TLS_ENABLED_DEFAULT);
    }

    /**
     * @return the consumer port.
     */
    public static int port()
    {
        return ConfigValues.getInt(PORT_PROP_NAME, PORT_DEFAULT, 0, 65_535);
    }

    /**
     * @return {@link #WEBSOCKET_PORT_PROP_NAME}, -1 to 65535.
     */
    public static int webSocketPort()
    {
        return ConfigValues.getInt(WEBSOCKET_PORT_PROP_NAME, WEBSOCKET_PORT_DEFAULT, -1, 65_535);
    }

    /**
     * @return whether the WebSocket API's port serves the quote page.
     */
    public static boolean webSocketPageEnabled()
    {
        return ConfigValues.getBoolean(WEBSOCKET_PAGE_ENABLED_PROP_NAME, WEBSOCKET_PAGE_ENABLED_DEFAULT);
    }

    /**
     * @return whether the WebSocket API's port speaks TLS.
     */
    public static boolean webSocketTlsEnabled()
    {
        return ConfigValues.getBoolean(WEBSOCKET_TLS_ENABLED_PROP_NAME, WEBSOCKET_TLS_ENABLED_DEFAULT);
    }

    /**
     * @return fan-out workers.
     */
    public static int workers()
    {
        return ConfigValues.getInt(WORKERS_PROP_NAME, WORKERS_DEFAULT, 1, WORKERS_MAX);
    }

    /**
     * @return per-consumer item limit.
     */
    public static int maxItemsPerConsumer()
    {
        return ConfigValues.getInt(MAX_ITEMS_PER_CONSUMER_PROP_NAME, MAX_ITEMS_PER_CONSUMER_DEFAULT, 1, 100_000_000);
    }

    /**
     * @return aggregate item limit.
     */
    public static int maxItems()
    {
        return ConfigValues.getInt(MAX_ITEMS_PROP_NAME, MAX_ITEMS_DEFAULT, 1, 100_000_000);
    }

    /**
     * @return output a consumer may have pending without counting as slow, 0 for half the maximum.
     */
    public static int guaranteedOutputBytes()
    {
        return ConfigValues.getSize(GUARANTEED_OUTPUT_BYTES_PROP_NAME, 0, 0, 1024 * 1024 * 1024);
    }

    /**
     * @return output limit per consumer in bytes.
     */
    public static int maxOutputBytes()
    {
        return ConfigValues.getSize(
            MAX_OUTPUT_BYTES_PROP_NAME, MAX_OUTPUT_BYTES_DEFAULT, 64 * 1024, 1024 * 1024 * 1024);
    }

    /**
     * @return {@link #WEBSOCKET_PING_TIMEOUT_PROP_NAME} in nanoseconds.
     */
    public static long webSocketPingTimeoutNs()
    {
        return ConfigValues.getDurationNs(WEBSOCKET_PING_TIMEOUT_PROP_NAME, WEBSOCKET_PING_TIMEOUT_DEFAULT_NS,
            WEBSOCKET_PING_TIMEOUT_MIN_NS, WEBSOCKET_PING_TIMEOUT_MAX_NS);
    }

    /**
     * @return login timeout in nanoseconds.
     */
    public static long loginTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            LOGIN_TIMEOUT_PROP_NAME, LOGIN_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1));
    }

    /**
     * @return {@link #POST_TIMEOUT_PROP_NAME} or its default.
     */
    public static long postTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            POST_TIMEOUT_PROP_NAME, POST_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1));
    }

    /**
     * @return slow-consumer timeout in nanoseconds.
     */
    public static long slowConsumerTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            SLOW_CONSUMER_TIMEOUT_PROP_NAME, SLOW_CONSUMER_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1));
    }

    /**
     * @return the slow-consumer policy.
     */
    public static SlowConsumerPolicy slowConsumerPolicy()
    {
        return SlowConsumerPolicy.parse(System.getProperty(SLOW_CONSUMER_POLICY_PROP_NAME,
            SLOW_CONSUMER_POLICY_DEFAULT));
    }

    /**
     * @return the conflation timeout in nanoseconds.
     */
    public static long conflateTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            CONFLATE_TIMEOUT_PROP_NAME, CONFLATE_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1));
    }

    /**
     * @return the consumer output pool's chunk size in bytes.
     */
    public static int outputPoolChunkSize()
    {
        return ConfigValues.getSize(
            OUTPUT_POOL_CHUNK_SIZE_PROP_NAME, OUTPUT_POOL_CHUNK_SIZE_DEFAULT, OUTPUT_POOL_CHUNK_SIZE_MIN,
            OUTPUT_POOL_CHUNK_SIZE_MAX);
    }

    /**
     * @return the flush profile.
     */
    public static FlushProfile flushProfile()
    {
        return FlushProfile.parse(System.getProperty(FLUSH_PROFILE_PROP_NAME, FLUSH_PROFILE_DEFAULT));
    }

    /**
     * @return the throughput profile's flush interval in nanoseconds.
     */
    public static long flushIntervalNs()
    {
        return ConfigValues.getDurationNs(
            FLUSH_INTERVAL_PROP_NAME, FLUSH_INTERVAL_DEFAULT_NS, 1_000, TimeUnit.SECONDS.toNanos(1));
    }

    /**
     * @return the further consumer listeners (none by default).
     */
    public static java.util.List<ConsumerListener> extraListeners()
    {
        return ConsumerListener.parseList(System.getProperty(EXTRA_LISTENERS_PROP_NAME, ""));
    }

    /**
     * @return the component name.
     */
    public static String componentName()
    {
        return System.getProperty(COMPONENT_NAME_PROP_NAME, COMPONENT_NAME_DEFAULT);
    }

    /**
     * @return whether the item cache is on.
     */
    public static boolean cacheEnabled()
    {
        return io.mdhub.common.config.ConfigValues.getBoolean(CACHE_ENABLED_PROP_NAME, CACHE_ENABLED_DEFAULT);
    }

    /**
     * @return whether market data is served.
     */
    public static boolean marketDataEnabled()
    {
        return io.mdhub.common.config.ConfigValues.getBoolean(MARKET_DATA_ENABLED_PROP_NAME,
            MARKET_DATA_ENABLED_DEFAULT);
    }
}
