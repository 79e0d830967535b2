package io.mdhub.p2p.order;

import java.util.concurrent.TimeUnit;

import io.mdhub.common.config.ConfigValues;

/**
 * Keys and defaults of the order service ({@code mdhub.order.*}), each a {@code *_PROP_NAME} / {@code *_DEFAULT}
 * pair seeding an {@link OrderService.Context} field. Channels left empty are derived from the server id so that
 * a pair on one host needs nothing but {@code mdhub.order.server.id}: server N listens for clients on
 * {@code localhost:40501+10N}, for its peer on {@code 40502+10N} and for the peer's fence on {@code 40503+10N}.
 */
public final class OrderServiceConfiguration
{
    /** Run the order service in this p2p-server. */
    public static final String ENABLED_PROP_NAME = "mdhub.order.enabled";
    /** Off by default: a p2p-server serves market data unless told otherwise. */
    public static final boolean ENABLED_DEFAULT = false;

    /** This server's id in its pair: 0 or 1. */
    public static final String SERVER_ID_PROP_NAME = "mdhub.order.server.id";
    /** Default server id. */
    public static final int SERVER_ID_DEFAULT = 0;

    /** Partitions of the pair (each server is home, and normally primary, of every other one). */
    public static final String PARTITIONS_PROP_NAME = "mdhub.order.partitions";
    /** Default partitions. */
    public static final int PARTITIONS_DEFAULT = 4;

    /** host:port this server takes order clients on (TCP). */
    public static final String ADDRESS_PROP_NAME = "mdhub.order.address";

    /**
     * Whether the client order port ({@link #ADDRESS_PROP_NAME}) speaks TLS (the {@code mdhub.tls.*} settings);
     * the peer and fence ports stay plain TCP.
     */
    public static final String TLS_ENABLED_PROP_NAME = "mdhub.order.tls.enabled";

    /** host:port this server takes its peer's replication and heartbeats on (TCP). */
    public static final String PEER_ADDRESS_PROP_NAME = "mdhub.order.peer.address";
    /** host:port of the peer's peer address, where this server sends. */
    public static final String PEER_REMOTE_ADDRESS_PROP_NAME = "mdhub.order.peer.remote.address";

    /**
     * The most answers, in bytes, that may wait to be written to one client; a client past it has stopped reading
     * and is disconnected.
     */
    public static final int CLIENT_SEND_LIMIT_BYTES = 4 * 1024 * 1024;
    /** The most replication, in bytes, that may wait to be written to the peer; past it the replicator waits. */
    public static final int PEER_SEND_LIMIT_BYTES = 16 * 1024 * 1024;
    /** The longest message on an order connection: a catch-up record or a heartbeat of 1,024 partitions fits. */
    public static final int MAX_MESSAGE_BYTES = 128 * 1024;

    /** host:port this server's fence listens on. */
    public static final String FENCE_ADDRESS_PROP_NAME = "mdhub.order.fence.address";
    /** host:port of the peer's fence. */
    public static final String PEER_FENCE_ADDRESS_PROP_NAME = "mdhub.order.peer.fence.address";

    /** Silence on a fence connection (no keep-alive byte) after which it counts as lost and is reconnected. */
    public static final String FENCE_TIMEOUT_PROP_NAME = "mdhub.order.fence.timeout";
    /** Default fence timeout. */
    public static final long FENCE_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(2);

    /** How long a fence connect may stay unanswered before the peer's state is UNKNOWN (maybe alive). */
    public static final String FENCE_CONNECT_TIMEOUT_PROP_NAME = "mdhub.order.fence.connect.timeout";
    /** Default fence connect timeout. */
    public static final long FENCE_CONNECT_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * How long a connection to the client order port may stay open without its client's hello (the TLS handshake
     * included) before it is closed.
     */
    public static final String HANDSHAKE_TIMEOUT_PROP_NAME = "mdhub.order.handshake.timeout";
    /** Default handshake timeout. */
    public static final long HANDSHAKE_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

    /** Heartbeat interval on the peer stream. */
    public static final String HEARTBEAT_INTERVAL_PROP_NAME = "mdhub.order.heartbeat.interval";
    /** Default heartbeat interval. */
    public static final long HEARTBEAT_INTERVAL_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Silence after which the replication link counts as lost. */
    public static final String PEER_TIMEOUT_PROP_NAME = "mdhub.order.peer.timeout";
    /** Default peer timeout. */
    public static final long PEER_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

    /** How long a starting server waits for a peer that is not running before serving alone; -1: forever. */
    public static final String STARTUP_PEER_WAIT_PROP_NAME = "mdhub.order.startup.peer.wait";
    /** Default startup wait. */
    public static final long STARTUP_PEER_WAIT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Operator override: a starting server whose store does not prove it holds every acknowledged order (it was not
     * the last one serving) serves alone anyway once the peer is certainly not running. For one start only.
     */
    public static final String STARTUP_FORCE_ALONE_PROP_NAME = "mdhub.order.startup.force.alone";
    /** Default: wait for the peer. */
    public static final boolean STARTUP_FORCE_ALONE_DEFAULT = false;

    /** Directory of this server's write-behind queue. */
    public static final String QUEUE_DIR_PROP_NAME = "mdhub.order.queue.dir";

    /** Largest order accepted (bytes of the submitted message). */
    public static final String MAX_ORDER_BYTES_PROP_NAME = "mdhub.order.max.order.bytes";
    /** Default largest order. */
    public static final int MAX_ORDER_BYTES_DEFAULT = 4096;
    /** Smallest order accepted. */
    public static final int MAX_ORDER_BYTES_MIN = 64;
    /** Largest order accepted. */
    public static final int MAX_ORDER_BYTES_MAX = 60_000;

    /**
     * Orders the store's tables of sequence position blocks are sized for when the server starts (8 bytes per 512
     * orders of a partition); past it a partition's table is copied to one twice its length on the order path.
     * Records, positions and the identity index take memory as orders arrive, in chunks prepared off the order path.
     */
    public static final String EXPECTED_ORDERS_PROP_NAME = "mdhub.order.expected.orders";
    /** Default expected orders: about 16 KiB of block tables. */
    public static final long EXPECTED_ORDERS_DEFAULT = 1_000_000L;
    /** The most expected orders a server may be sized for. */
    public static final long EXPECTED_ORDERS_MAX = 20_000_000L;

    /** Class name of the pre-processing callback. */
    public static final String PRE_PROCESSOR_PROP_NAME = "mdhub.order.pre.processor";
    /** Default pre-processor: FIX tag=value NewOrderSingle. */
    public static final String PRE_PROCESSOR_DEFAULT = FixOrderPreProcessor.class.getName();

    /** Class name of the post-processing callback; empty for none. */
    public static final String POST_PROCESSOR_PROP_NAME = "mdhub.order.post.processor";

    /** Downstream sink: {@code noop}, {@code file:<path>} or a class name. */
    public static final String SINK_PROP_NAME = "mdhub.order.sink";
    /** Default sink. */
    public static final String SINK_DEFAULT = "noop";

    /** Force the file sink's data and the drained positions to disk at every sink flush. */
    public static final String SINK_FSYNC_PROP_NAME = "mdhub.order.sink.fsync";
    /** Default: no fsync (durable against a process kill, not a host crash). */
    public static final boolean SINK_FSYNC_DEFAULT = false;

    /** Hand partitions back to their home server once it is a synchronous backup again. */
    public static final String REBALANCE_PROP_NAME = "mdhub.order.rebalance";
    /** Default: rebalance. */
    public static final boolean REBALANCE_DEFAULT = true;

    /**
     * As primary, have the backup answer the client once it has stored an order, instead of answering when the
     * backup's acknowledgement comes back: one hop of four fewer between a client's submit and its ack. The
     * primary still post-processes, queues and drains the order when the backup's acknowledgement arrives.
     */
    public static final String BACKUP_ANSWERS_PROP_NAME = "mdhub.order.backup.answers";
    /** Default: the backup answers. */
    public static final boolean BACKUP_ANSWERS_DEFAULT = true;

    /** Idle strategy of the order agent's thread. */
    public static final String IDLE_STRATEGY_PROP_NAME = "mdhub.order.idle.strategy";
    /** Default idle strategy: blocks until a client or the peer sends, or the agent's next timer is due. */
    public static final String IDLE_STRATEGY_DEFAULT = "socket";

    /** Orders of a catch-up a serving server sends its rejoining peer per duty cycle, after live replication. */
    public static final String CATCH_UP_BATCH_PROP_NAME = "mdhub.order.catch.up.batch";
    /** Default catch-up batch. */
    public static final int CATCH_UP_BATCH_DEFAULT = 256;
    /** Largest catch-up batch. */
    public static final int CATCH_UP_BATCH_MAX = 65_536;

    /** Bytes a catch-up may leave waiting to be written to the peer before it waits for the socket. */
    public static final String CATCH_UP_WINDOW_PROP_NAME = "mdhub.order.catch.up.window";
    /** Default catch-up window. */
    public static final int CATCH_UP_WINDOW_DEFAULT = 1024 * 1024;

    /** Connections of one remote address the order, peer and fence ports (each) let be open before they speak. */
    public static final String ADDRESS_MAX_HANDSHAKES_PROP_NAME = "mdhub.order.address.max.handshakes";
    /** Default handshakes per address. */
    public static final int ADDRESS_MAX_HANDSHAKES_DEFAULT = 64;

    /** New connections one remote address may open a second on the order, peer and fence ports (each). */
    public static final String ADDRESS_ACCEPT_RATE_PROP_NAME = "mdhub.order.address.accept.rate";
    /** Default accept rate per address. */
    public static final int ADDRESS_ACCEPT_RATE_DEFAULT = 200;
    /** Largest value of either address budget. */
    public static final int ADDRESS_BUDGET_MAX = 1_000_000;

    private OrderServiceConfiguration()
    {
    }

    /**
     * @param serverId an order server's id.
     * @return its process name, as its agent thread, its pause recorder and the order probe's reports call it.
     */
    public static String processName(final int serverId)
    {
        return "order-server-" + serverId;
    }

    /**
     * @return this process's order server name ({@value #SERVER_ID_PROP_NAME}).
     */
    public static String processName()
    {
        return processName(serverId());
    }

    /**
     * @return whether {@link #ENABLED_PROP_NAME} turns the order service on.
     */
    public static boolean isEnabled()
    {
        return ConfigValues.getBoolean(ENABLED_PROP_NAME, ENABLED_DEFAULT);
    }

    static int serverId()
    {
        return ConfigValues.getInt(SERVER_ID_PROP_NAME, SERVER_ID_DEFAULT, 0, 1);
    }

    static int partitions()
    {
        return ConfigValues.getInt(PARTITIONS_PROP_NAME, PARTITIONS_DEFAULT, 1, OrderQueue.MAX_PARTITIONS);
    }

    static String string(final String name)
    {
        return ConfigValues.getString(name, "");
    }

    static long heartbeatIntervalNs()
    {
        return ConfigValues.getDurationNs(
            HEARTBEAT_INTERVAL_PROP_NAME, HEARTBEAT_INTERVAL_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MINUTES.toNanos(1));
    }

    static long peerTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            PEER_TIMEOUT_PROP_NAME, PEER_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MINUTES.toNanos(10));
    }

    static long handshakeTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            HANDSHAKE_TIMEOUT_PROP_NAME, HANDSHAKE_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1));
    }

    static long fenceTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            FENCE_TIMEOUT_PROP_NAME, FENCE_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MINUTES.toNanos(10));
    }

    static long fenceConnectTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            FENCE_CONNECT_TIMEOUT_PROP_NAME, FENCE_CONNECT_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MINUTES.toNanos(10));
    }

    static boolean startupForceAlone()
    {
        return ConfigValues.getBoolean(STARTUP_FORCE_ALONE_PROP_NAME, STARTUP_FORCE_ALONE_DEFAULT);
    }

    static boolean sinkFsync()
    {
        return ConfigValues.getBoolean(SINK_FSYNC_PROP_NAME, SINK_FSYNC_DEFAULT);
    }

    static long startupPeerWaitNs()
    {
        final String value = System.getProperty(STARTUP_PEER_WAIT_PROP_NAME);
        return null != value && "-1".equals(value.trim()) ? -1 :
            ConfigValues.getDurationNs(
                STARTUP_PEER_WAIT_PROP_NAME, STARTUP_PEER_WAIT_DEFAULT_NS, 0, TimeUnit.HOURS.toNanos(1));
    }

    static int maxOrderBytes()
    {
        return ConfigValues.getSize(
            MAX_ORDER_BYTES_PROP_NAME, MAX_ORDER_BYTES_DEFAULT, MAX_ORDER_BYTES_MIN, MAX_ORDER_BYTES_MAX);
    }

    static long expectedOrders()
    {
        return ConfigValues.getLong(EXPECTED_ORDERS_PROP_NAME, EXPECTED_ORDERS_DEFAULT, 1, EXPECTED_ORDERS_MAX);
    }

    static String preProcessor()
    {
        return ConfigValues.getString(PRE_PROCESSOR_PROP_NAME, PRE_PROCESSOR_DEFAULT);
    }

    static String sink()
    {
        return ConfigValues.getString(SINK_PROP_NAME, SINK_DEFAULT);
    }

    static boolean rebalance()
    {
        return ConfigValues.getBoolean(REBALANCE_PROP_NAME, REBALANCE_DEFAULT);
    }

    static boolean backupAnswers()
    {
        return ConfigValues.getBoolean(BACKUP_ANSWERS_PROP_NAME, BACKUP_ANSWERS_DEFAULT);
    }

    static int catchUpBatch()
    {
        return ConfigValues.getInt(CATCH_UP_BATCH_PROP_NAME, CATCH_UP_BATCH_DEFAULT, 1, CATCH_UP_BATCH_MAX);
    }

    static int catchUpWindowBytes()
    {
        return ConfigValues.getSize(
            CATCH_UP_WINDOW_PROP_NAME, CATCH_UP_WINDOW_DEFAULT, MAX_MESSAGE_BYTES, PEER_SEND_LIMIT_BYTES / 2);
    }

    static int addressMaxHandshakes()
    {
        return ConfigValues.getInt(
            ADDRESS_MAX_HANDSHAKES_PROP_NAME, ADDRESS_MAX_HANDSHAKES_DEFAULT, 1, ADDRESS_BUDGET_MAX);
    }

    static int addressAcceptRate()
    {
        return ConfigValues.getInt(ADDRESS_ACCEPT_RATE_PROP_NAME, ADDRESS_ACCEPT_RATE_DEFAULT, 1, ADDRESS_BUDGET_MAX);
    }

    static String idleStrategy()
    {
        return ConfigValues.getString(IDLE_STRATEGY_PROP_NAME, IDLE_STRATEGY_DEFAULT);
    }

    /**
     * @return true if the client order port speaks TLS ({@code mdhub.tls.*} give its keys).
     */
    public static boolean tlsEnabled()
    {
        return ConfigValues.getBoolean(TLS_ENABLED_PROP_NAME, false);
    }
}
