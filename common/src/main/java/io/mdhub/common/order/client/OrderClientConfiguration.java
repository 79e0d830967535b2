package io.mdhub.common.order.client;

import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.config.ConfigValues;

/**
 * Settings of an {@link OrderClient}: the only place {@code mdhub.order.client.*} system properties are read. Each
 * setting is a {@code *_PROP_NAME} / {@code *_DEFAULT} pair whose value seeds a {@link OrderClient.Context} field.
 */
public final class OrderClientConfiguration
{
    /**
     * This client's id. Orders are idempotent by (client id, order id), so a client that restarts and resends its
     * unacknowledged orders must keep its id; 0 takes the wall-clock nanoseconds at conclude (a new id per run).
     */
    public static final String CLIENT_ID_PROP_NAME = "mdhub.order.client.id";

    /**
     * Whether the client speaks TLS to the order servers (the {@code mdhub.tls.*} settings: truststore, and a
     * keystore for a client certificate).
     */
    public static final String TLS_ENABLED_PROP_NAME = "mdhub.order.client.tls.enabled";

    /**
     * Default for {@link #CLIENT_ID_PROP_NAME}: 0, a new id per run.
     */
    public static final long CLIENT_ID_DEFAULT = 0;

    /**
     * The order servers' addresses, {@code host:port} separated by commas. Servers come in active/active pairs:
     * entries 2i and 2i+1 are pair i, listed in server-id order (the server with id 0 first).
     */
    public static final String SERVERS_PROP_NAME = "mdhub.order.client.servers";

    /**
     * Default for {@link #SERVERS_PROP_NAME}: one pair on this host, on the order servers' default ports.
     */
    public static final String SERVERS_DEFAULT = "localhost:40501,localhost:40511";

    /**
     * Most orders in flight (submitted, not yet acknowledged or finally rejected). Each holds an off-heap copy of its
     * FIX bytes for resends.
     */
    public static final String WINDOW_PROP_NAME = "mdhub.order.client.window";

    /**
     * Default for {@link #WINDOW_PROP_NAME}.
     */
    public static final int WINDOW_DEFAULT = 1024;

    /** Largest window. */
    public static final int WINDOW_MAX = 1 << 20;

    /**
     * Longest FIX message the client accepts (the size of each in-flight slot); at most 65000, the protocol's limit.
     */
    public static final String MAX_ORDER_LENGTH_PROP_NAME = "mdhub.order.client.max.order.length";

    /**
     * Default for {@link #MAX_ORDER_LENGTH_PROP_NAME}: 1 KiB, room for the 305-byte probe orders and then some.
     */
    public static final int MAX_ORDER_LENGTH_DEFAULT = 1024;

    /** Largest order length accepted. */
    public static final int MAX_ORDER_LENGTH_MAX = 65_000;

    /**
     * Milliseconds an order may wait for its answer before it is sent again to its partition's primary (as the
     * servers' latest maps name it) and both servers of the pair are asked for a fresh PartitionMap.
     */
    public static final String ACK_TIMEOUT_MS_PROP_NAME = "mdhub.order.client.ack.timeout.ms";

    /**
     * Default for {@link #ACK_TIMEOUT_MS_PROP_NAME}.
     */
    public static final long ACK_TIMEOUT_MS_DEFAULT = 1000;

    /**
     * Milliseconds a synchronous {@code submit} waits in all (for window room, a route, resends) before it gives up
     * with an {@link OrderTimeoutException}.
     */
    public static final String SUBMIT_TIMEOUT_MS_PROP_NAME = "mdhub.order.client.submit.timeout.ms";

    /**
     * Default for {@link #SUBMIT_TIMEOUT_MS_PROP_NAME}.
     */
    public static final long SUBMIT_TIMEOUT_MS_DEFAULT = 10_000;

    /**
     * Milliseconds between ClientHellos to a server whose PartitionMap has not arrived yet.
     */
    public static final String HELLO_INTERVAL_MS_PROP_NAME = "mdhub.order.client.hello.interval.ms";

    /**
     * Default for {@link #HELLO_INTERVAL_MS_PROP_NAME}: once a second, as the protocol asks.
     */
    public static final long HELLO_INTERVAL_MS_DEFAULT = 1000;

    /**
     * Idle strategy (see {@code IdleStrategies}) of a synchronous {@code submit} while it waits for its answer.
     * Counted against {@code mdhub.spin.cores}.
     */
    public static final String IDLE_STRATEGY_PROP_NAME = "mdhub.order.client.idle.strategy";

    /**
     * Default for {@link #IDLE_STRATEGY_PROP_NAME}: blocks until a server's answer arrives or the client's next timer
     * is due.
     */
    public static final String IDLE_STRATEGY_DEFAULT = IdleStrategies.SOCKET;

    /**
     * The most bytes of orders that may wait to be written to one server (the server reads slower than the client
     * sends); past it orders wait in the client's window and go as the server reads.
     */
    public static final String SEND_LIMIT_BYTES_PROP_NAME = "mdhub.order.client.send.limit.bytes";

    /**
     * Default for {@link #SEND_LIMIT_BYTES_PROP_NAME}: 4 MiB.
     */
    public static final int SEND_LIMIT_BYTES_DEFAULT = 4 * 1024 * 1024;

    private OrderClientConfiguration()
    {
    }

    /**
     * @return the client id, 0 for one taken at conclude.
     */
    public static long clientId()
    {
        return ConfigValues.getLong(CLIENT_ID_PROP_NAME, CLIENT_ID_DEFAULT, 0, Long.MAX_VALUE);
    }

    /**
     * @return the servers as {@code host:port,...}.
     */
    public static String servers()
    {
        return ConfigValues.getString(SERVERS_PROP_NAME, SERVERS_DEFAULT);
    }

    /**
     * @return most orders in flight.
     */
    public static int window()
    {
        return ConfigValues.getInt(WINDOW_PROP_NAME, WINDOW_DEFAULT, 1, WINDOW_MAX);
    }

    /**
     * @return longest FIX message in bytes.
     */
    public static int maxOrderLength()
    {
        return ConfigValues.getSize(MAX_ORDER_LENGTH_PROP_NAME, MAX_ORDER_LENGTH_DEFAULT, 1, MAX_ORDER_LENGTH_MAX);
    }

    /**
     * @return the ack timeout in milliseconds.
     */
    public static long ackTimeoutMs()
    {
        return ConfigValues.getLong(ACK_TIMEOUT_MS_PROP_NAME, ACK_TIMEOUT_MS_DEFAULT, 1, 3_600_000);
    }

    /**
     * @return the synchronous submit timeout in milliseconds.
     */
    public static long submitTimeoutMs()
    {
        return ConfigValues.getLong(SUBMIT_TIMEOUT_MS_PROP_NAME, SUBMIT_TIMEOUT_MS_DEFAULT, 1, 3_600_000);
    }

    /**
     * @return milliseconds between hellos to a server that has not answered.
     */
    public static long helloIntervalMs()
    {
        return ConfigValues.getLong(HELLO_INTERVAL_MS_PROP_NAME, HELLO_INTERVAL_MS_DEFAULT, 1, 600_000);
    }

    /**
     * @return the idle strategy of a synchronous submit.
     */
    public static String idleStrategy()
    {
        return ConfigValues.getString(IDLE_STRATEGY_PROP_NAME, IDLE_STRATEGY_DEFAULT);
    }

    /**
     * @return the most bytes of orders waiting to be written to one server.
     */
    public static int sendLimitBytes()
    {
        return ConfigValues.getSize(
            SEND_LIMIT_BYTES_PROP_NAME, SEND_LIMIT_BYTES_DEFAULT, 64 * 1024, 1024 * 1024 * 1024);
    }

    /**
     * @return true if the client speaks TLS to the order servers ({@code mdhub.tls.*} give its trust and keys).
     */
    public static boolean tlsEnabled()
    {
        return ConfigValues.getBoolean(TLS_ENABLED_PROP_NAME, false);
    }
}
