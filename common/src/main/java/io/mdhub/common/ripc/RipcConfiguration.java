package io.mdhub.common.ripc;

import java.util.concurrent.TimeUnit;


import io.mdhub.common.config.ConfigValues;

/**
 * RIPC transport configuration: the only place {@code mdhub.ripc.*} system properties are read. Each setting is a
 * {@code *_PROP_NAME} / {@code *_DEFAULT} pair whose value seeds a {@link RipcServer.Context} or
 * {@link RipcClient.Context} field. Durations accept Agrona suffixes ({@code 60s}, {@code 500ms}), sizes accept
 * {@code k}/{@code m}.
 */
public final class RipcConfiguration
{
    /**
     * Address the server binds to.
     */
    public static final String BIND_ADDRESS_PROP_NAME = "mdhub.ripc.bind.address";

    /**
     * Default bind address: loopback only, so nothing is exposed by accident.
     */
    public static final String BIND_ADDRESS_DEFAULT = "127.0.0.1";

    /**
     * TCP port the server listens on.
     */
    public static final String PORT_PROP_NAME = "mdhub.ripc.port";

    /**
     * Default port: 14002, the customary RSSL port.
     */
    public static final int PORT_DEFAULT = 14002;

    /**
     * Largest RWF message the server sends in one frame (announced in the ConnectAck); larger ones are fragmented.
     */
    public static final String MAX_USER_MSG_SIZE_PROP_NAME = "mdhub.ripc.max.user.msg.size";

    /**
     * ETA's default maxUserMsgSize.
     */
    public static final int MAX_USER_MSG_SIZE_DEFAULT = 6144;

    /**
     * Server: the longest ping timeout granted; client: the ping timeout requested.
     */
    public static final String PING_TIMEOUT_PROP_NAME = "mdhub.ripc.ping.timeout";

    /**
     * Default ping timeout, as ETA's.
     */
    public static final long PING_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(60);

    /**
     * Server: the shortest ping timeout granted, whatever the client asks.
     */
    public static final String MIN_PING_TIMEOUT_PROP_NAME = "mdhub.ripc.min.ping.timeout";

    /**
     * Default minimum ping timeout, as ETA's server.
     */
    public static final long MIN_PING_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(20);

    /**
     * Longest time from TCP connect to a completed handshake.
     */
    public static final String HANDSHAKE_TIMEOUT_PROP_NAME = "mdhub.ripc.handshake.timeout";

    /**
     * Default handshake timeout.
     */
    public static final long HANDSHAKE_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Connections of one remote address a listener lets be in their RIPC handshake at once; more are closed as they
     * are accepted (reason {@code address-budget}).
     */
    public static final String ADDRESS_MAX_HANDSHAKES_PROP_NAME = "mdhub.ripc.address.max.handshakes";

    /**
     * Default handshakes at once per address.
     */
    public static final int ADDRESS_MAX_HANDSHAKES_DEFAULT = 64;

    /**
     * New connections one remote address may open on a listener per second (and at once, after a quiet second);
     * more are closed as they are accepted (reason {@code address-budget}).
     */
    public static final String ADDRESS_ACCEPT_RATE_PROP_NAME = "mdhub.ripc.address.accept.rate";

    /**
     * Default accept rate per address.
     */
    public static final int ADDRESS_ACCEPT_RATE_DEFAULT = 200;

    /** Largest value of either address budget. */
    public static final int ADDRESS_BUDGET_MAX = 1_000_000;

    /**
     * Longest time one frame may stay incomplete after its first byte arrived (catches trickling peers that ping
     * liveness alone would not).
     */
    public static final String PARTIAL_FRAME_TIMEOUT_PROP_NAME = "mdhub.ripc.partial.frame.timeout";

    /**
     * Default partial-frame timeout.
     */
    public static final long PARTIAL_FRAME_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Largest fragmented RWF message accepted (its announced total length).
     */
    public static final String MAX_REASSEMBLED_MSG_SIZE_PROP_NAME = "mdhub.ripc.max.reassembled.msg.size";

    /**
     * Default reassembly cap: 4 MiB.
     */
    public static final int MAX_REASSEMBLED_MSG_SIZE_DEFAULT = 4 * 1024 * 1024;

    /**
     * Cap on the bytes one connection may hold in reassembly buffers at once (all its incomplete fragmented messages
     * together); more disconnects the peer. Reassembly buffers grow as fragments arrive, so this bounds real memory.
     */
    public static final String MAX_REASSEMBLY_BYTES_PROP_NAME = "mdhub.ripc.max.reassembly.bytes";

    /**
     * Default per-connection reassembly cap: 8 MiB, two maximal messages.
     */
    public static final int MAX_REASSEMBLY_BYTES_DEFAULT = 8 * 1024 * 1024;

    /**
     * Netty event-loop threads of a component that creates its own group.
     */
    public static final String EVENT_LOOP_THREADS_PROP_NAME = "mdhub.ripc.event.loop.threads";

    /**
     * Default event-loop threads: one (these hosts have two cores).
     */
    public static final int EVENT_LOOP_THREADS_DEFAULT = 1;

    /** Most event-loop threads. */
    public static final int EVENT_LOOP_THREADS_MAX = 64;

    /**
     * Use the native epoll transport when it is available (else NIO).
     */
    public static final String EPOLL_PROP_NAME = "mdhub.ripc.epoll";

    /**
     * Default: epoll when available.
     */
    public static final boolean EPOLL_DEFAULT = true;

    /**
     * Component name: sent in the handshake (ETA {@code componentInfo}), used in logs and counter labels.
     */
    public static final String COMPONENT_NAME_PROP_NAME = "mdhub.ripc.component.name";

    /**
     * Default component name.
     */
    public static final String COMPONENT_NAME_DEFAULT = "mdhub";

    /**
     * Pack the messages written between two flushes into packed frames (a lone message goes as a normal frame).
     */
    public static final String PACK_OUTBOUND_PROP_NAME = "mdhub.ripc.pack.outbound";

    /**
     * Default: pack.
     */
    public static final boolean PACK_OUTBOUND_DEFAULT = true;

    /**
     * Host a {@link RipcClient} connects to.
     */
    public static final String CLIENT_HOST_PROP_NAME = "mdhub.ripc.client.host";

    /**
     * Default client host.
     */
    public static final String CLIENT_HOST_DEFAULT = "127.0.0.1";

    /**
     * Port a {@link RipcClient} connects to.
     */
    public static final String CLIENT_PORT_PROP_NAME = "mdhub.ripc.client.port";

    /**
     * Default client port.
     */
    public static final int CLIENT_PORT_DEFAULT = PORT_DEFAULT;

    /**
     * Whether a {@link RipcClient} retries with RIPC13 on a new connection when the server closes a RIPC14 one
     * during the handshake, as ETA does.
     */
    public static final String CLIENT_VERSION_FALLBACK_PROP_NAME = "mdhub.ripc.client.version.fallback";

    /**
     * Default: fall back.
     */
    public static final boolean CLIENT_VERSION_FALLBACK_DEFAULT = true;

    /**
     * Whether a {@link RipcClient} (the {@code client} and {@code source} tools, the distributor's route links)
     * speaks TLS, with the {@code mdhub.tls.*} settings (truststore; keystore for a client certificate).
     */
    public static final String CLIENT_TLS_ENABLED_PROP_NAME = "mdhub.ripc.client.tls.enabled";

    /**
     * Default: plain TCP.
     */
    public static final boolean CLIENT_TLS_ENABLED_DEFAULT = false;

    private RipcConfiguration()
    {
    }

    /**
     * @return the bind address.
     */
    public static String bindAddress()
    {
        return System.getProperty(BIND_ADDRESS_PROP_NAME, BIND_ADDRESS_DEFAULT);
    }

    /**
     * @return the server port.
     */
    public static int port()
    {
        return ConfigValues.getInt(PORT_PROP_NAME, PORT_DEFAULT, 0, 65_535);
    }

    /**
     * @return maxUserMsgSize in bytes.
     */
    public static int maxUserMsgSize()
    {
        return ConfigValues.getSize(MAX_USER_MSG_SIZE_PROP_NAME, MAX_USER_MSG_SIZE_DEFAULT,
            ConnectAckDescriptor.MIN_MAX_USER_MSG_SIZE, ConnectAckDescriptor.MAX_MAX_USER_MSG_SIZE);
    }

    /**
     * @return ping timeout in nanoseconds.
     */
    public static long pingTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            PING_TIMEOUT_PROP_NAME, PING_TIMEOUT_DEFAULT_NS,
            TimeUnit.SECONDS.toNanos(1), TimeUnit.SECONDS.toNanos(255));
    }

    /**
     * @return minimum ping timeout in nanoseconds.
     */
    public static long minPingTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            MIN_PING_TIMEOUT_PROP_NAME, MIN_PING_TIMEOUT_DEFAULT_NS,
            TimeUnit.SECONDS.toNanos(1), TimeUnit.SECONDS.toNanos(255));
    }

    /**
     * @return {@link #ADDRESS_MAX_HANDSHAKES_PROP_NAME} or its default.
     */
    public static int addressMaxHandshakes()
    {
        return ConfigValues.getInt(
            ADDRESS_MAX_HANDSHAKES_PROP_NAME, ADDRESS_MAX_HANDSHAKES_DEFAULT, 1, ADDRESS_BUDGET_MAX);
    }

    /**
     * @return {@link #ADDRESS_ACCEPT_RATE_PROP_NAME} or its default.
     */
    public static int addressAcceptRate()
    {
        return ConfigValues.getInt(ADDRESS_ACCEPT_RATE_PROP_NAME, ADDRESS_ACCEPT_RATE_DEFAULT, 1, ADDRESS_BUDGET_MAX);
    }

    /**
     * @return handshake timeout in nanoseconds.
     */
    public static long handshakeTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            HANDSHAKE_TIMEOUT_PROP_NAME, HANDSHAKE_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MINUTES.toNanos(10));
    }

    /**
     * @return partial-frame timeout in nanoseconds.
     */
    public static long partialFrameTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            PARTIAL_FRAME_TIMEOUT_PROP_NAME, PARTIAL_FRAME_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MINUTES.toNanos(10));
    }

    /**
     * @return the reassembly cap in bytes.
     */
    public static int maxReassembledMessageSize()
    {
        return ConfigValues.getSize(
            MAX_REASSEMBLED_MSG_SIZE_PROP_NAME, MAX_REASSEMBLED_MSG_SIZE_DEFAULT, 1024, 1024 * 1024 * 1024);
    }

    /**
     * @return the per-connection cap on bytes held in reassembly.
     */
    public static int maxReassemblyBytes()
    {
        return ConfigValues.getSize(
            MAX_REASSEMBLY_BYTES_PROP_NAME, MAX_REASSEMBLY_BYTES_DEFAULT, 1024, 1024 * 1024 * 1024);
    }

    /**
     * @return event-loop threads.
     */
    public static int eventLoopThreads()
    {
        return ConfigValues.getInt(EVENT_LOOP_THREADS_PROP_NAME, EVENT_LOOP_THREADS_DEFAULT, 1, EVENT_LOOP_THREADS_MAX);
    }

    /**
     * @return true to use epoll when available.
     */
    public static boolean epoll()
    {
        return ConfigValues.getBoolean(EPOLL_PROP_NAME, EPOLL_DEFAULT);
    }

    /**
     * @return the component name.
     */
    public static String componentName()
    {
        return System.getProperty(COMPONENT_NAME_PROP_NAME, COMPONENT_NAME_DEFAULT);
    }

    /**
     * @return true to pack outbound messages.
     */
    public static boolean packOutbound()
    {
        return ConfigValues.getBoolean(PACK_OUTBOUND_PROP_NAME, PACK_OUTBOUND_DEFAULT);
    }

    /**
     * @return the host a client connects to.
     */
    public static String clientHost()
    {
        return System.getProperty(CLIENT_HOST_PROP_NAME, CLIENT_HOST_DEFAULT);
    }

    /**
     * @return the port a client connects to.
     */
    public static int clientPort()
    {
        return ConfigValues.getInt(CLIENT_PORT_PROP_NAME, CLIENT_PORT_DEFAULT, 1, 65_535);
    }

    /**
     * @return true when a client speaks TLS.
     */
    public static boolean clientTlsEnabled()
    {
        return ConfigValues.getBoolean(CLIENT_TLS_ENABLED_PROP_NAME, CLIENT_TLS_ENABLED_DEFAULT);
    }

    /**
     * @return true when a client falls back to RIPC13.
     */
    public static boolean clientVersionFallback()
    {
        return ConfigValues.getBoolean(CLIENT_VERSION_FALLBACK_PROP_NAME, CLIENT_VERSION_FALLBACK_DEFAULT);
    }
}
