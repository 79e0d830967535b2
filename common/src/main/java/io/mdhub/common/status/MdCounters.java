package io.mdhub.common.status;

/**
 * The ONE registry of MDHub counter type ids, as Aeron's {@code AeronCounters} is for Aeron (0..999) and Artio's
 * {@code FixCountersId} for Artio (10 000+). MDHub ids start at 20 000 so they never collide with either when
 * counters of all three live in one {@code CountersReader}.
 * <p>
 * Rules for later modules: add your ids here, in a block of 100 per area, never reuse or renumber an id (dashboards
 * and the metrics bridge key on it), and give every counter a label of the form {@code "<type>: key=value ..."}
 * (e.g. {@code "ripc-disconnects: reason=ping-timeout component=p2p"}) so the label alone says what it counts.
 * <p>
 * Blocks: 20 000-20 099 RIPC transport; 20 100-20 199 distributor; the next ones are free (backbone, p2p-server,
 * orders).
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
        return (typeId >= RIPC_CONNECTIONS_OPENED_TYPE_ID && typeId <= RIPC_DISCONNECTS_TYPE_ID &&
            RIPC_CONNECTIONS_ACTIVE_TYPE_ID != typeId) || isMonotonicDistributorType(typeId);
    }

    private static boolean isMonotonicDistributorType(final int typeId)
    {
        return typeId >= DISTRIBUTOR_PROVIDERS_ACTIVE_TYPE_ID && typeId <= DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID &&
            DISTRIBUTOR_PROVIDERS_ACTIVE_TYPE_ID != typeId && DISTRIBUTOR_SERVICE_ITEMS_TYPE_ID != typeId &&
            DISTRIBUTOR_CONNECTION_ITEMS_TYPE_ID != typeId;
    }
}
