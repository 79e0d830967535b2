package io.mdhub.common.status;

import org.agrona.concurrent.status.CountersReader;

/**
 * The ONE registry of MDHub counter type ids, as Aeron's {@code AeronCounters} is for Aeron (0..999) and Artio's
 * {@code FixCountersId} for Artio (10 000+). MDHub ids start at 20 000 so they never collide with either when
 * counters of all three live in one {@code CountersReader}.
 * <p>
 * Rules for later modules: add your ids here, in a block of 100 per area, never reuse or renumber an id (dashboards
 * and the metrics bridge key on it), and give every counter a label of the form {@code "<type>: key=value ..."}
 * (e.g. {@code "ripc-disconnects: reason=ping-timeout component=p2p"}) so the label alone says what it counts.
 * <p>
 * Blocks: 20 000-20 099 RIPC transport; 20 100-20 199 distributor; 20 200-20 299 p2p-server; 20 300-20 399
 * backbone protocol; 20 400-20 499 orders; 20 500-20 599 doorbells; 20 600-20 619 TLS.
 */
public final class MdCounters
{
    /**
     * RIPC: TCP connections accepted (server) or opened (client).
     */
    public static final int RIPC_CONNECTIONS_OPENED_TYPE_ID = 20_000;

    /**
     * RIPC: connections currently open (incremented on open, decremented on close).
     */
    public static final int RIPC_CONNECTIONS_ACTIVE_TYPE_ID = 20_001;

    /**
     * RIPC: handshakes that reached the data phase.
     */
    public static final int RIPC_HANDSHAKES_COMPLETED_TYPE_ID = 20_002;

    /**
     * RIPC: frames received after the handshake (data, packed, fragment and ping frames).
     */
    public static final int RIPC_FRAMES_IN_TYPE_ID = 20_003;

    /**
     * RIPC: frames sent after the handshake (data, packed, fragment and ping frames).
     */
    public static final int RIPC_FRAMES_OUT_TYPE_ID = 20_004;

    /**
     * RIPC: whole RWF messages delivered to the application (after unpacking and reassembly).
     */
    public static final int RIPC_MESSAGES_IN_TYPE_ID = 20_005;

    /**
     * RIPC: whole RWF messages the application wrote.
     */
    public static final int RIPC_MESSAGES_OUT_TYPE_ID = 20_006;

    /**
     * RIPC: bytes read from sockets, handshake included.
     */
    public static final int RIPC_BYTES_IN_TYPE_ID = 20_007;

    /**
     * RIPC: bytes written to sockets, handshake included.
     */
    public static final int RIPC_BYTES_OUT_TYPE_ID = 20_008;

    /**
     * RIPC: ping frames received.
     */
    public static final int RIPC_PINGS_IN_TYPE_ID = 20_009;

    /**
     * RIPC: ping frames sent.
     */
    public static final int RIPC_PINGS_OUT_TYPE_ID = 20_010;

    /**
     * RIPC: disconnects, one counter per reason; the key holds the reason code (int at offset 0) and the label
     * names it ({@code reason=...}).
     */
    public static final int RIPC_DISCONNECTS_TYPE_ID = 20_011;

    /**
     * Distributor: provider connections logged in right now (a level).
     */
    public static final int DISTRIBUTOR_PROVIDERS_ACTIVE_TYPE_ID = 20_100;

    /**
     * Distributor: logins refused (not a provider role, or a second login on another stream).
     */
    public static final int DISTRIBUTOR_LOGINS_REJECTED_TYPE_ID = 20_101;

    /**
     * Distributor: provider connections the distributor ended, one counter per reason; the key holds the reason code
     * and the label names it ({@code reason=...}).
     */
    public static final int DISTRIBUTOR_DISCONNECTS_TYPE_ID = 20_102;

    /**
     * Distributor: item streams refused with a Closed status, one counter per reason ({@code reason=...}).
     */
    public static final int DISTRIBUTOR_ITEMS_REJECTED_TYPE_ID = 20_103;

    /**
     * Distributor: items cached for one service right now (a level; label {@code service=<name>}).
     */
    public static final int DISTRIBUTOR_SERVICE_ITEMS_TYPE_ID = 20_104;

    /**
     * Distributor: updates received for one service.
     */
    public static final int DISTRIBUTOR_SERVICE_UPDATES_IN_TYPE_ID = 20_105;

    /**
     * Distributor: refreshes (parts included) received for one service.
     */
    public static final int DISTRIBUTOR_SERVICE_REFRESHES_IN_TYPE_ID = 20_106;

    /**
     * Distributor: RWF messages received on one provider connection.
     */
    public static final int DISTRIBUTOR_CONNECTION_MESSAGES_IN_TYPE_ID = 20_107;

    /**
     * Distributor: items one provider connection publishes right now (a level).
     */
    public static final int DISTRIBUTOR_CONNECTION_ITEMS_TYPE_ID = 20_108;

    /**
     * Distributor: provider messages dropped without effect (on a stream with no item, or of an unsupported kind).
     */
    public static final int DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID = 20_109;

    /**
     * Distributor: episodes in which the distributor stopped reading its provider connections because the backbone
     * could not take live data (back-pressure passed upstream to the providers' TCP connections).
     */
    public static final int DISTRIBUTOR_READ_PAUSES_TYPE_ID = 20_110;

    /**
     * Distributor: nanoseconds spent with provider reading paused, all episodes together.
     */
    public static final int DISTRIBUTOR_READ_PAUSED_NS_TYPE_ID = 20_111;

    /**
     * Distributor: single socket reads made on a paused provider connection so its pings keep arriving (a pause
     * longer than a fraction of the connection's ping timeout).
     */
    public static final int DISTRIBUTOR_KEEPALIVE_READS_TYPE_ID = 20_112;

    /**
     * Distributor: bytes of live messages waiting for the backbone right now (a level).
     */
    public static final int DISTRIBUTOR_BACKBONE_PENDING_BYTES_TYPE_ID = 20_113;

    /**
     * Distributor: the most bytes of live messages that ever waited for the backbone at once (a high-water mark,
     * exported as a gauge).
     */
    public static final int DISTRIBUTOR_BACKBONE_PENDING_HWM_TYPE_ID = 20_114;

    /**
     * Distributor: sink-driven item streams opened on mounted interactive providers (routes), including re-opens
     * after a route connection was lost.
     */
    public static final int DISTRIBUTOR_SINK_ITEMS_OPENED_TYPE_ID = 20_115;

    /**
     * Distributor: sink-driven items closed upstream because no p2p-server wants them any more.
     */
    public static final int DISTRIBUTOR_SINK_ITEMS_CLOSED_TYPE_ID = 20_116;

    /**
     * Distributor: reissues sent to mounted providers for a fresh refresh (a request for an open item with the cache
     * off, or a recovery).
     */
    public static final int DISTRIBUTOR_SINK_REISSUES_TYPE_ID = 20_117;

    /**
     * Distributor: connection attempts to mounted interactive providers that failed.
     */
    public static final int DISTRIBUTOR_ROUTE_CONNECT_FAILURES_TYPE_ID = 20_118;

    /**
     * Distributor: consumers' posts that came over the backbone, keyed by outcome: applied to a non-interactive
     * service's cache and published, forwarded to a mounted provider, refused (NAK).
     */
    public static final int DISTRIBUTOR_POSTS_TYPE_ID = 20_119;

    /**
     * p2p-server: consumer connections currently open (a level). Block 20 200-20 299 belongs to the p2p-server.
     */
    public static final int P2P_CONNECTIONS_ACTIVE_TYPE_ID = 20_200;

    /**
     * p2p-server: consumer logins accepted.
     */
    public static final int P2P_LOGINS_ACCEPTED_TYPE_ID = 20_201;

    /**
     * p2p-server: distinct items currently open on the item sources of all fan-out workers (a level).
     */
    public static final int P2P_ITEMS_OPEN_TYPE_ID = 20_202;

    /**
     * p2p-server: watchlist entries (consumer item streams) currently open (a level).
     */
    public static final int P2P_WATCHLIST_ENTRIES_TYPE_ID = 20_203;

    /**
     * p2p-server: RWF messages received from consumers.
     */
    public static final int P2P_MESSAGES_IN_TYPE_ID = 20_204;

    /**
     * p2p-server: RWF messages written to consumers.
     */
    public static final int P2P_MESSAGES_OUT_TYPE_ID = 20_205;

    /**
     * p2p-server: item refreshes written to consumers.
     */
    public static final int P2P_REFRESHES_OUT_TYPE_ID = 20_206;

    /**
     * p2p-server: item updates written to consumers.
     */
    public static final int P2P_UPDATES_OUT_TYPE_ID = 20_207;

    /**
     * p2p-server: item status messages written to consumers.
     */
    public static final int P2P_STATUS_OUT_TYPE_ID = 20_208;

    /**
     * p2p-server: consumer connections the server closed, one counter per reason (int key at offset 0,
     * {@code reason=...} in the label), e.g. slow-consumer, malformed-message, provider-login.
     */
    public static final int P2P_DISCONNECTS_TYPE_ID = 20_209;

    /**
     * p2p-server: consumer requests refused with a Closed status, one counter per reason (int key at offset 0,
     * {@code reason=...} in the label), e.g. unknown-service, not-found, too-many-items.
     */
    public static final int P2P_REQUESTS_REJECTED_TYPE_ID = 20_210;

    /**
     * p2p-server: item refreshes for new watchers answered from the p2p-server's own item cache.
     */
    public static final int P2P_CACHE_REFRESHES_TYPE_ID = 20_211;

    /**
     * p2p-server: image requests for open items the cache could not answer (image incomplete, Suspect or not a
     * FieldList) and passed to the backbone.
     */
    public static final int P2P_CACHE_MISSES_TYPE_ID = 20_212;

    /**
     * p2p-server: distinct items of one service open on the item sources of all fan-out workers (a level; the label
     * names the service).
     */
    public static final int P2P_SERVICE_ITEMS_TYPE_ID = 20_213;

    /**
     * p2p-server: updates of one service received from the item sources, summed over the fan-out workers (each
     * worker has its own subscription, so an item watched on two workers counts twice).
     */
    public static final int P2P_SERVICE_UPDATES_IN_TYPE_ID = 20_214;

    /**
     * p2p-server: consumer messages the server does not act on (refreshes or updates sent by a consumer, generic
     * messages on no open stream, anything but a request before the login): counted, and logged once per
     * connection.
     */
    public static final int P2P_MESSAGES_IGNORED_TYPE_ID = 20_215;

    /**
     * p2p-server: consumers' posts, keyed by outcome: sent on to a distributor, acknowledged, refused (NAK, by the
     * p2p-server or upstream), unanswered within the post timeout (NAK NoResponse to the poster).
     */
    public static final int P2P_POSTS_TYPE_ID = 20_216;

    /**
     * p2p-server: updates not written to a consumer because it was behind (conflate slow-consumer policy); the item's
     * latest state reached it later in one conflated update.
     */
    public static final int P2P_UPDATES_CONFLATED_TYPE_ID = 20_217;

    /**
     * p2p-server: usage records appended to the usage log ({@code mdhub.p2p.usage.dir}).
     */
    public static final int P2P_USAGE_RECORDS_TYPE_ID = 20_230;

    /**
     * p2p-server: usage records that could not be appended (disk full, a file that could not be mapped); each is
     * logged, summarised.
     */
    public static final int P2P_USAGE_FAILURES_TYPE_ID = 20_231;

    /**
     * p2p-server: WebSocket API connections whose WebSocket handshake completed (a running total).
     */
    public static final int P2P_WEBSOCKET_CONNECTIONS_TYPE_ID = 20_240;

    /**
     * p2p-server: WebSocket frames read from clients: JSON text frames (each one message or an array of them) and
     * {@code rssl.rwf} binary frames.
     */
    public static final int P2P_WEBSOCKET_FRAMES_IN_TYPE_ID = 20_241;

    /**
     * p2p-server: WebSocket frames written to clients.
     */
    public static final int P2P_WEBSOCKET_FRAMES_OUT_TYPE_ID = 20_242;

    /**
     * p2p-server: client messages refused (JSON the converter does not read, a binary frame on a JSON connection),
     * each answered with an Error message; logged, summarised.
     */
    public static final int P2P_WEBSOCKET_BAD_MESSAGES_TYPE_ID = 20_243;

    /**
     * p2p-server: messages for a WebSocket client that did not convert to JSON and were not sent; logged.
     */
    public static final int P2P_WEBSOCKET_NOT_CONVERTED_TYPE_ID = 20_244;

    /**
     * p2p-server: updates and statuses converted to JSON once for all the JSON consumers of a worker that watch them;
     * beside {@link #P2P_WEBSOCKET_FRAMES_OUT_TYPE_ID} it shows how far the conversions are shared.
     */
    public static final int P2P_WEBSOCKET_JSON_CONVERSIONS_TYPE_ID = 20_245;

    /**
     * p2p-server: WebSocket API connections closed because they sent nothing (not even a pong) within
     * {@code mdhub.p2p.websocket.ping.timeout}; each logged.
     */
    public static final int P2P_WEBSOCKET_PING_TIMEOUTS_TYPE_ID = 20_246;

    /**
     * p2p-server: fields left out of messages converted to JSON because the dictionary lacks them (ETA's converter
     * refuses a message with any such field; the others still go out); logged, summarised.
     */
    public static final int P2P_WEBSOCKET_FIELDS_LEFT_OUT_TYPE_ID = 20_247;

    /**
     * Backbone: messages skipped as malformed or of an unknown schema/template, per stream reader.
     */
    public static final int BACKBONE_MALFORMED_TYPE_ID = 20_300;

    /**
     * Backbone: publication attempts that met back-pressure or an admin action (each retry counts).
     */
    public static final int BACKBONE_BACK_PRESSURE_TYPE_ID = 20_301;

    /**
     * Backbone: sequence gaps detected on a data stream (each triggers recovery of the service's open items).
     */
    public static final int BACKBONE_GAPS_TYPE_ID = 20_302;

    /**
     * Backbone: item images re-requested to recover from loss, a restart or a service coming back.
     */
    public static final int BACKBONE_RECOVERIES_TYPE_ID = 20_303;

    /**
     * Backbone: item messages (refreshes, updates, statuses) taken in sequence from a data stream, per stream reader,
     * whether or not anything there watches the item: what reached the reader (duplicates are not counted).
     */
    public static final int BACKBONE_MESSAGES_IN_TYPE_ID = 20_304;

    /**
     * Backbone: new Aeron clients a server connected after its backbone daemon was lost (one per process).
     */
    public static final int BACKBONE_RECONNECTS_TYPE_ID = 20_305;

    /**
     * Backbone: 1 while the server holds a client of a live backbone daemon, 0 while it waits for one (a level).
     */
    public static final int BACKBONE_UP_TYPE_ID = 20_306;

    /**
     * Order service: new orders accepted on a primary (sequenced). Block 20 400-20 499 belongs to the order service.
     */
    public static final int ORDER_ACCEPTED_TYPE_ID = 20_400;

    /**
     * Order service: orders acknowledged to their clients (stored on primary and backup, or alone when degraded).
     */
    public static final int ORDER_ACKED_TYPE_ID = 20_401;

    /**
     * Order service: resends answered with the original acknowledgement.
     */
    public static final int ORDER_DUPLICATES_TYPE_ID = 20_402;

    /**
     * Order service: orders refused (malformed FIX, invalid, not primary, oversize, unknown partition or client).
     */
    public static final int ORDER_REJECTED_TYPE_ID = 20_403;

    /**
     * Order service: orders stored from the peer (as backup or in a catch-up).
     */
    public static final int ORDER_REPLICATED_TYPE_ID = 20_404;

    /**
     * Order service: sequence gaps seen in a partition (in either role).
     */
    public static final int ORDER_GAPS_TYPE_ID = 20_405;

    /**
     * Order service: partitions taken over from a dead peer.
     */
    public static final int ORDER_FAILOVERS_TYPE_ID = 20_406;

    /**
     * Order service: malformed or foreign messages skipped on the ingress or peer streams.
     */
    public static final int ORDER_MALFORMED_TYPE_ID = 20_408;

    /**
     * Order service: duty cycles in which acknowledgements were held because the backup is alive but unreachable.
     */
    public static final int ORDER_HELD_TYPE_ID = 20_409;

    /**
     * Order service: takeovers an operator forced (JMX takeOverPeerPartitions) for a peer the fence could not
     * prove dead.
     */
    public static final int ORDER_FORCED_TAKEOVERS_TYPE_ID = 20_410;

    /**
     * Order service: fence connections to the peer lost (closed, reset, or silent past mdhub.order.fence.timeout).
     */
    public static final int ORDER_FENCE_LOST_TYPE_ID = 20_411;

    /**
     * Order service: downstream sink writes or flushes that failed (the batch is written again).
     */
    public static final int ORDER_SINK_ERRORS_TYPE_ID = 20_412;

    /**
     * Order service: orders from a client that has not said hello (no channel to answer on: dropped, the client's
     * ack timeout makes it say hello and resend).
     */
    public static final int ORDER_UNKNOWN_CLIENT_TYPE_ID = 20_413;

    /**
     * Order service: acks this server sent as backup for orders its peer sequenced (the primary asked it to answer).
     */
    public static final int ORDER_ANSWERS_FOR_PEER_TYPE_ID = 20_414;

    /**
     * Order service: orders this server stored as backup and was asked to answer but could not (client unknown here,
     * or its answers backed up), so it asked the primary to answer them.
     */
    public static final int ORDER_ANSWER_REQUESTS_TYPE_ID = 20_415;

    /**
     * Order service: exceptions thrown by the configured pre- or post-processor (the order is refused, or completed
     * anyway) and by the order agent's duty cycle.
     */
    public static final int ORDER_ERRORS_TYPE_ID = 20_416;

    /**
     * Order service: clients disconnected because they stopped reading (their answers passed the connection's send
     * limit).
     */
    public static final int ORDER_CLIENTS_EVICTED_TYPE_ID = 20_418;

    /**
     * Order service: 16 MiB chunks of order store memory the order thread had to allocate and fault in itself because
     * the preparing thread had no spare ready (each one a few to tens of milliseconds on the order path).
     */
    public static final int ORDER_STORE_INLINE_CHUNKS_TYPE_ID = 20_419;

    /**
     * Order service: catch-up requests a serving server ignored as stale (an attempt of the rejoining peer it had
     * already taken, e.g. a retry that crossed the transfer's end on the wire).
     */
    public static final int ORDER_CATCH_UP_STALE_TYPE_ID = 20_420;

    /**
     * Order service: connections to the order or peer port closed as they were accepted because their remote address
     * was over its budget (in their handshake at once, or new ones a second).
     */
    public static final int ORDER_CONNECTIONS_REFUSED_TYPE_ID = 20_421;

    /**
     * Order service: client connections closed for sending what is not the order protocol (no order header, unknown
     * message, fields past the message), and orders refused MALFORMED_FIX for FIX bytes that do not parse.
     */
    public static final int ORDER_GARBAGE_TYPE_ID = 20_422;

    /**
     * Order service: orders a serving server sent its peer as part of a catch-up (state transfer, or a resend after
     * a retry), beside live replication.
     */
    public static final int ORDER_CATCH_UP_SENT_TYPE_ID = 20_423;

    /**
     * Order service: client connections closed because they had not said hello (their TLS handshake included)
     * within {@code mdhub.order.handshake.timeout}.
     */
    public static final int ORDER_HANDSHAKE_TIMEOUTS_TYPE_ID = 20_424;

    /**
     * A thread's doorbell on the media driver (see {@code Doorbell}): its key names the IPC streams it polls and its
     * socket; its value is 1 while the thread may block (a publisher must ring), 0 while it runs. A state, not a total.
     */
    public static final int DOORBELL_TYPE_ID = 20_500;

    /**
     * Connections to a doorbell's socket that it closed for not speaking the ringers' protocol (a hello, then rings).
     */
    public static final int DOORBELL_REFUSED_TYPE_ID = 20_501;

    /**
     * Entitlements: entitlement file versions loaded after the first (a change the servers applied).
     */
    public static final int ENTITLEMENT_RELOADS_TYPE_ID = 20_700;

    /**
     * Entitlements: changes of the entitlement file that were not valid (the previous version stayed in force).
     */
    public static final int ENTITLEMENT_RELOAD_FAILURES_TYPE_ID = 20_701;

    /**
     * Entitlements: services a provider announced that it may not publish (refused, their items dropped).
     */
    public static final int ENTITLEMENT_SERVICES_REFUSED_TYPE_ID = 20_702;

    /**
     * RIPC over TLS: TLS handshakes that did not complete (a plain-TCP or otherwise non-TLS peer, a certificate
     * not trusted, no common protocol or suite, a timeout or a close during the handshake).
     */
    public static final int RIPC_TLS_HANDSHAKE_FAILURES_TYPE_ID = 20_600;

    /**
     * RIPC over TLS: TLS handshakes completed.
     */
    public static final int RIPC_TLS_HANDSHAKES_COMPLETED_TYPE_ID = 20_601;

    /**
     * Orders over TLS: TLS handshakes on an order port that did not complete (as for RIPC).
     */
    public static final int ORDER_TLS_HANDSHAKE_FAILURES_TYPE_ID = 20_610;

    /**
     * Orders over TLS: TLS handshakes on an order port completed.
     */
    public static final int ORDER_TLS_HANDSHAKES_COMPLETED_TYPE_ID = 20_611;

    /** Remote JMX logins refused for a wrong user name or password, or a user without a role. */
    public static final int JMX_LOGINS_FAILED_TYPE_ID = 20_640;

    /**
     * Remote JMX logins refused unchecked because their address used up its failed logins of the last minute
     * ({@code mdhub.jmx.login.failures.per.minute}).
     */
    public static final int JMX_LOGINS_THROTTLED_TYPE_ID = 20_641;

    /** Remote JMX logins accepted. */
    public static final int JMX_LOGINS_ACCEPTED_TYPE_ID = 20_642;

    /** Remote JMX requests refused for the user's role (a monitor invoking an operation, an MBean created). */
    public static final int JMX_ACCESS_DENIED_TYPE_ID = 20_643;

    private MdCounters()
    {
    }

    /**
     * Whether counters of a type only ever grow, so the metrics bridge exports them as counters (rates in a
     * dashboard) rather than gauges. Every MDHub type is a running total except those that track a current level.
     *
     * @param typeId a counter type id.
     * @return true for MDHub's running totals; false for levels and for ids outside MDHub's range.
     */
    public static boolean isMonotonic(final int typeId)
    {
        switch (typeId)
        {
            case RIPC_CONNECTIONS_ACTIVE_TYPE_ID:
            case DISTRIBUTOR_PROVIDERS_ACTIVE_TYPE_ID:
            case DISTRIBUTOR_SERVICE_ITEMS_TYPE_ID:
            case DISTRIBUTOR_CONNECTION_ITEMS_TYPE_ID:
            case DISTRIBUTOR_BACKBONE_PENDING_BYTES_TYPE_ID:
            case DISTRIBUTOR_BACKBONE_PENDING_HWM_TYPE_ID:
            case P2P_CONNECTIONS_ACTIVE_TYPE_ID:
            case P2P_ITEMS_OPEN_TYPE_ID:
            case P2P_WATCHLIST_ENTRIES_TYPE_ID:
            case P2P_SERVICE_ITEMS_TYPE_ID:
            case BACKBONE_UP_TYPE_ID:
                return false; // levels (a high-water mark is a level too)
            default:
                return (typeId >= RIPC_CONNECTIONS_OPENED_TYPE_ID && typeId <= RIPC_DISCONNECTS_TYPE_ID) ||
                    (typeId >= DISTRIBUTOR_PROVIDERS_ACTIVE_TYPE_ID &&
                        typeId <= DISTRIBUTOR_POSTS_TYPE_ID) ||
                    (typeId >= P2P_CONNECTIONS_ACTIVE_TYPE_ID && typeId <= P2P_UPDATES_CONFLATED_TYPE_ID) ||
                    (typeId >= P2P_USAGE_RECORDS_TYPE_ID && typeId <= P2P_USAGE_FAILURES_TYPE_ID) ||
                    (typeId >= BACKBONE_MALFORMED_TYPE_ID && typeId <= BACKBONE_RECONNECTS_TYPE_ID) ||
                    (typeId >= ORDER_ACCEPTED_TYPE_ID && typeId <= ORDER_HANDSHAKE_TIMEOUTS_TYPE_ID) ||
                    (typeId >= ENTITLEMENT_RELOADS_TYPE_ID && typeId <= ENTITLEMENT_SERVICES_REFUSED_TYPE_ID) ||
                    (typeId >= RIPC_TLS_HANDSHAKE_FAILURES_TYPE_ID &&
                        typeId <= ORDER_TLS_HANDSHAKES_COMPLETED_TYPE_ID) ||
                    (typeId >= JMX_LOGINS_FAILED_TYPE_ID && typeId <= JMX_ACCESS_DENIED_TYPE_ID) ||
                    DOORBELL_REFUSED_TYPE_ID == typeId;
        }
    }

    /**
     * @param counters a counters reader: a component's own, or a media driver's (every client's counters are there).
     * @param typeId   a counter type id.
     * @return the sum of the values of every allocated counter of that type (a per-worker counter over all workers).
     */
    public static long sum(final CountersReader counters, final int typeId)
    {
        final long[] sum = {0};
        counters.forEach((counterId, type, keyBuffer, label) ->
        {
            if (type == typeId)
            {
                sum[0] += counters.getCounterValue(counterId);
            }
        });
        return sum[0];
    }

    /**
     * @param counters a counters reader.
     * @param typeId   a counter type id.
     * @return how many counters of that type are allocated (for a per-reader counter: how many readers).
     */
    public static int count(final CountersReader counters, final int typeId)
    {
        final int[] count = {0};
        counters.forEach((counterId, type, keyBuffer, label) -> count[0] += type == typeId ? 1 : 0);
        return count[0];
    }
}
