package io.mdhub.common.order.client;

import io.aeron.CommonContext;
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
     * Default for {@link #CLIENT_ID_PROP_NAME}: 0, a new id per run.
     */
    public static final long CLIENT_ID_DEFAULT = 0;

    /**
     * The order servers' ingress streams, {@code channel@streamId} separated by commas. Servers come in
     * active/active pairs: entries 2i and 2i+1 are pair i, listed in server-id order (the server with id 0 first).
     */
    public static final String SERVERS_PROP_NAME = "mdhub.order.client.servers";

    /**
     * Default for {@link #SERVERS_PROP_NAME}: one pair on this host's media driver, IPC streams 3001 and 3011.
     */
    public static final String SERVERS_DEFAULT = "aeron:ipc@3001,aeron:ipc@3011";

    /**
     * Channel the servers answer on (this client subscribes to it): IPC on one host, else a UDP endpoint of this
     * host, e.g. {@code aeron:udp?endpoint=client-host:40601}.
     */
    public static final String RESPONSE_CHANNEL_PROP_NAME = "mdhub.order.client.response.channel";

    /**
     * Default for {@link #RESPONSE_CHANNEL_PROP_NAME}.
     */
    public static final String RESPONSE_CHANNEL_DEFAULT = "aeron:ipc";

    /**
     * Stream id the first pair answers on; pair i answers on this id + i. Clients sharing a channel should use
     * different ids (answers carry the client id and are filtered, but each client would read the others').
     */
    public static final String RESPONSE_STREAM_ID_PROP_NAME = "mdhub.order.client.response.stream.id";

    /**
     * Default for {@link #RESPONSE_STREAM_ID_PROP_NAME}.
     */
    public static final int RESPONSE_STREAM_ID_DEFAULT = 3100;

    /**
     * Aeron directory of the media driver to connect to when no Aeron client is supplied (the client then owns its
     * Aeron client and closes it).
     */
    public static final String AERON_DIR_PROP_NAME = "mdhub.order.client.aeron.dir";

    /**
     * Whether an Aeron client the order client connects itself runs its conductor on the caller's thread (inside
     * {@code poll()}) instead of a thread of its own. Then {@code poll()} must run at least every few seconds, or
     * the media driver times the client out.
     */
    public static final String CONDUCTOR_INVOKER_PROP_NAME = "mdhub.order.client.conductor.invoker";

    /**
     * Default for {@link #CONDUCTOR_INVOKER_PROP_NAME}: true, no hidden thread (STYLE.md §4).
     */
    public static final boolean CONDUCTOR_INVOKER_DEFAULT = true;

    /**
     * Most orders in flight (submitted, not yet acknowledged or finally rejected). Each holds an off-heap copy of its
     * FIX bytes for resends.
     */
    public static final String WINDOW_PROP_NAME = "mdhub.order.client.window";

    /**
     * Default for {@link #WINDOW_PROP_NAME}.
     */
    public static final int WINDOW_DEFAULT = 1024;

    /**
     * Longest FIX message the client accepts (the size of each in-flight slot); at most 65000, the protocol's limit.
     */
    public static final String MAX_ORDER_LENGTH_PROP_NAME = "mdhub.order.client.max.order.length";

    /**
     * Default for {@link #MAX_ORDER_LENGTH_PROP_NAME}: 1 KiB, room for the 305-byte probe orders and then some.
     */
    public static final int MAX_ORDER_LENGTH_DEFAULT = 1024;

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
     * Attempts per message while a server's ingress is back-pressured; then the order stays pending and is tried
     * again on the next {@code poll()}.
     */
    public static final String MAX_SEND_ATTEMPTS_PROP_NAME = "mdhub.order.client.max.send.attempts";

    /**
     * Default for {@link #MAX_SEND_ATTEMPTS_PROP_NAME}.
     */
    public static final int MAX_SEND_ATTEMPTS_DEFAULT = 3;

    /**
     * Answer fragments read per pair per {@code poll()}.
     */
    public static final String FRAGMENT_LIMIT_PROP_NAME = "mdhub.order.client.fragment.limit";

    /**
     * Default for {@link #FRAGMENT_LIMIT_PROP_NAME}.
     */
    public static final int FRAGMENT_LIMIT_DEFAULT = 64;

    /**
     * Idle strategy (see {@code IdleStrategies}) of a synchronous {@code submit} while it waits for its answer.
     * Counted against {@code mdhub.spin.cores}.
     */
    public static final String IDLE_STRATEGY_PROP_NAME = "mdhub.order.client.idle.strategy";

    /**
     * Default for {@link #IDLE_STRATEGY_PROP_NAME}: woken by the servers' answers over IPC; elsewhere the same as
     * {@code backoff}.
     */
    public static final String IDLE_STRATEGY_DEFAULT = IdleStrategies.DOORBELL;

    private OrderClientConfiguration()
    {
    }

    /**
     * @return the client id, 0 for one taken at conclude.
     */
    public static long clientId()
    {
        return ConfigValues.getLong(CLIENT_ID_PROP_NAME, CLIENT_ID_DEFAULT);
    }

    /**
     * @return the servers as {@code channel@streamId,...}.
     */
    public static String servers()
    {
        return ConfigValues.getString(SERVERS_PROP_NAME, SERVERS_DEFAULT);
    }

    /**
     * @return the response channel.
     */
    public static String responseChannel()
    {
        return ConfigValues.getString(RESPONSE_CHANNEL_PROP_NAME, RESPONSE_CHANNEL_DEFAULT);
    }

    /**
     * @return the first pair's response stream id.
     */
    public static int responseStreamId()
    {
        return ConfigValues.getInt(RESPONSE_STREAM_ID_PROP_NAME, RESPONSE_STREAM_ID_DEFAULT);
    }

    /**
     * @return the Aeron directory; Aeron's own default ({@code aeron.dir}, else /dev/shm/aeron-user on Linux).
     */
    public static String aeronDirectoryName()
    {
        return ConfigValues.getString(AERON_DIR_PROP_NAME, CommonContext.getAeronDirectoryName());
    }

    /**
     * @return whether an owned Aeron client runs its conductor inside {@code poll()}.
     */
    public static boolean conductorInvoker()
    {
        return ConfigValues.getBoolean(CONDUCTOR_INVOKER_PROP_NAME, CONDUCTOR_INVOKER_DEFAULT);
    }

    /**
     * @return most orders in flight.
     */
    public static int window()
    {
        return ConfigValues.getInt(WINDOW_PROP_NAME, WINDOW_DEFAULT);
    }

    /**
     * @return longest FIX message in bytes.
     */
    public static int maxOrderLength()
    {
        return ConfigValues.getSizeAsInt(MAX_ORDER_LENGTH_PROP_NAME, MAX_ORDER_LENGTH_DEFAULT);
    }

    /**
     * @return the ack timeout in milliseconds.
     */
    public static long ackTimeoutMs()
    {
        return ConfigValues.getLong(ACK_TIMEOUT_MS_PROP_NAME, ACK_TIMEOUT_MS_DEFAULT);
    }

    /**
     * @return the synchronous submit timeout in milliseconds.
     */
    public static long submitTimeoutMs()
    {
        return ConfigValues.getLong(SUBMIT_TIMEOUT_MS_PROP_NAME, SUBMIT_TIMEOUT_MS_DEFAULT);
    }

    /**
     * @return milliseconds between hellos to a server that has not answered.
     */
    public static long helloIntervalMs()
    {
        return ConfigValues.getLong(HELLO_INTERVAL_MS_PROP_NAME, HELLO_INTERVAL_MS_DEFAULT);
    }

    /**
     * @return attempts per message while back-pressured.
     */
    public static int maxSendAttempts()
    {
        return ConfigValues.getInt(MAX_SEND_ATTEMPTS_PROP_NAME, MAX_SEND_ATTEMPTS_DEFAULT);
    }

    /**
     * @return answer fragments read per pair per poll.
     */
    public static int fragmentLimit()
    {
        return ConfigValues.getInt(FRAGMENT_LIMIT_PROP_NAME, FRAGMENT_LIMIT_DEFAULT);
    }

    /**
     * @return the idle strategy of a synchronous submit.
     */
    public static String idleStrategy()
    {
        return ConfigValues.getString(IDLE_STRATEGY_PROP_NAME, IDLE_STRATEGY_DEFAULT);
    }
}
