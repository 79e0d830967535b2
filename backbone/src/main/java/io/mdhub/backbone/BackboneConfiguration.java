package io.mdhub.backbone;

import io.aeron.CommonContext;
import io.mdhub.common.config.ConfigValues;
import io.mdhub.common.management.ManagementConfiguration;
import io.mdhub.common.concurrent.IdleConfiguration;

/**
 * Settings of the backbone media driver, the MDHub equivalent of the RMDS rrcpd daemon. The only place that reads
 * them from system properties. Defaults fit a small (two-core) host: one shared driver thread that backs off when
 * idle. Keys not covered here can still be set as Aeron's own {@code aeron.*} system properties, which the media
 * driver reads; where a {@code mdhub.backbone.*} key maps onto an Aeron setting, the MDHub key wins.
 */
public final class BackboneConfiguration
{
    /**
     * Port of the management endpoint ({@code /metrics} for Prometheus, {@code /health}): -1 off, 0 any free
     * port.
     */
    public static final String HTTP_PORT_PROP_NAME = "mdhub.backbone.http.port";

    /**
     * Default of {@link #HTTP_PORT_PROP_NAME}: one port per role, so one backbone daemon per host is scraped
     * without settings; a second one on the host logs that the port is taken and runs without the endpoint.
     */
    public static final int HTTP_PORT_DEFAULT = 9470;

    /**
     * Aeron directory (CnC file, log buffers) that every MDHub process on the host shares with this driver.
     */
    public static final String AERON_DIR_PROP_NAME = "mdhub.backbone.aeron.dir";

    /**
     * Driver threading: {@code SHARED} (one thread), {@code SHARED_NETWORK} (conductor + sender/receiver thread) or
     * {@code DEDICATED} (conductor, sender, receiver threads). Aeron's {@code INVOKER} is not supported.
     */
    public static final String THREADING_MODE_PROP_NAME = "mdhub.backbone.threading.mode";

    /**
     * Default for {@link #THREADING_MODE_PROP_NAME}: a single driver thread, right for a two-core host.
     */
    public static final String THREADING_MODE_DEFAULT = "SHARED";

    /**
     * Idle strategy (see {@code IdleStrategies}) of the SHARED driver thread, and default for every per-agent key.
     */
    public static final String IDLE_STRATEGY_PROP_NAME = "mdhub.backbone.idle.strategy";

    /**
     * Default for {@link #IDLE_STRATEGY_PROP_NAME}.
     */
    public static final String IDLE_STRATEGY_DEFAULT = IdleConfiguration.IDLE_STRATEGY_DEFAULT;

    /**
     * Longest park of the SHARED thread's back-off while the driver has no UDP channel (IPC only), in nanoseconds; 0
     * or a value not above the back-off's own longest park keeps the back-off as configured.
     */
    public static final String IPC_ONLY_MAX_PARK_NS_PROP_NAME = "mdhub.backbone.ipc.only.max.park.ns";

    /**
     * Default for {@link #IPC_ONLY_MAX_PARK_NS_PROP_NAME}: 100 ms.
     */
    public static final long IPC_ONLY_MAX_PARK_NS_DEFAULT = 100_000_000L;

    /**
     * Idle strategy of the conductor thread in SHARED_NETWORK and DEDICATED modes.
     */
    public static final String CONDUCTOR_IDLE_STRATEGY_PROP_NAME = "mdhub.backbone.conductor.idle.strategy";

    /**
     * Idle strategy of the sender thread in DEDICATED mode.
     */
    public static final String SENDER_IDLE_STRATEGY_PROP_NAME = "mdhub.backbone.sender.idle.strategy";

    /**
     * Idle strategy of the receiver thread in DEDICATED mode.
     */
    public static final String RECEIVER_IDLE_STRATEGY_PROP_NAME = "mdhub.backbone.receiver.idle.strategy";

    /**
     * Idle strategy of the combined sender/receiver thread in SHARED_NETWORK mode.
     */
    public static final String SHARED_NETWORK_IDLE_STRATEGY_PROP_NAME = "mdhub.backbone.shared.network.idle.strategy";

    /**
     * Term buffer length in bytes of UDP publications (a log is three terms). Power of two, 64 KiB to 1 GiB; a
     * {@code k}, {@code m} or {@code g} suffix is allowed.
     */
    public static final String TERM_BUFFER_LENGTH_PROP_NAME = "mdhub.backbone.term.buffer.length";

    /**
     * Default for {@link #TERM_BUFFER_LENGTH_PROP_NAME}: 16 MiB, Aeron's default.
     */
    public static final int TERM_BUFFER_LENGTH_DEFAULT = 16 * 1024 * 1024;

    /**
     * Term buffer length in bytes of IPC publications. Power of two, 64 KiB to 1 GiB; suffixes as above.
     */
    public static final String IPC_TERM_BUFFER_LENGTH_PROP_NAME = "mdhub.backbone.ipc.term.buffer.length";

    /**
     * Default for {@link #IPC_TERM_BUFFER_LENGTH_PROP_NAME}: 16 MiB, a quarter of Aeron's 64 MiB, so a few IPC
     * streams fit in the small /dev/shm of containers and small hosts.
     */
    public static final int IPC_TERM_BUFFER_LENGTH_DEFAULT = 16 * 1024 * 1024;

    /**
     * Whether log buffers are sparse files (pages committed on first touch) instead of pre-touched ones.
     */
    public static final String TERM_BUFFER_SPARSE_FILE_PROP_NAME = "mdhub.backbone.term.buffer.sparse.file";

    /**
     * Default for {@link #TERM_BUFFER_SPARSE_FILE_PROP_NAME}: true, to save memory on small hosts. Latency runs set
     * false so that first writes to a term do not page-fault.
     */
    public static final boolean TERM_BUFFER_SPARSE_FILE_DEFAULT = true;

    /**
     * Delete the Aeron directory on start, even if another driver still uses it. Without it a stale directory is
     * replaced but a live driver's directory makes start fail.
     */
    public static final String DIR_DELETE_ON_START_PROP_NAME = "mdhub.backbone.dir.delete.on.start";

    /**
     * Default for {@link #DIR_DELETE_ON_START_PROP_NAME}.
     */
    public static final boolean DIR_DELETE_ON_START_DEFAULT = false;

    /**
     * Delete the Aeron directory when the driver closes.
     */
    public static final String DIR_DELETE_ON_SHUTDOWN_PROP_NAME = "mdhub.backbone.dir.delete.on.shutdown";

    /**
     * Default for {@link #DIR_DELETE_ON_SHUTDOWN_PROP_NAME}: keep it, so {@code AeronStat}/{@code ErrorStat} can
     * read counters and the error log after a stop.
     */
    public static final boolean DIR_DELETE_ON_SHUTDOWN_DEFAULT = false;

    /**
     * Milliseconds without a client keepalive after which the driver considers that client dead (and after which
     * clients consider a silent driver dead).
     */
    public static final String DRIVER_TIMEOUT_MS_PROP_NAME = "mdhub.backbone.driver.timeout.ms";

    /**
     * Default for {@link #DRIVER_TIMEOUT_MS_PROP_NAME}: 10 s, Aeron's default.
     */
    public static final long DRIVER_TIMEOUT_MS_DEFAULT = 10_000;

    /**
     * How long a distributor or p2p-server waits for its lost backbone daemon (a media driver on the same Aeron
     * directory) to come back, in milliseconds, before it exits with status {@link BackboneLink#EXIT_BACKBONE_LOST};
     * 0 exits at the loss.
     */
    public static final String RECONNECT_TIMEOUT_MS_PROP_NAME = "mdhub.backbone.reconnect.timeout.ms";

    /**
     * Default for {@link #RECONNECT_TIMEOUT_MS_PROP_NAME}: 5 minutes.
     */
    public static final long RECONNECT_TIMEOUT_MS_DEFAULT = 300_000;

    /**
     * Largest {@link #RECONNECT_TIMEOUT_MS_PROP_NAME}: a day.
     */
    public static final long RECONNECT_TIMEOUT_MS_MAX = 86_400_000;

    /**
     * Whether the media driver prints its complete Aeron configuration when it starts.
     */
    public static final String PRINT_CONFIGURATION_PROP_NAME = "mdhub.backbone.print.configuration";

    /**
     * Default for {@link #PRINT_CONFIGURATION_PROP_NAME}.
     */
    public static final boolean PRINT_CONFIGURATION_DEFAULT = false;

    private BackboneConfiguration()
    {
    }

    /**
     * @return the management endpoint's port (-1 off, 0 any free port).
     */
    public static int httpPort()
    {
        return ManagementConfiguration.port(HTTP_PORT_PROP_NAME, HTTP_PORT_DEFAULT);
    }

    /**
     * @return the Aeron directory; Aeron's own default ({@code aeron.dir}, else /dev/shm/aeron-user on Linux).
     */
    public static String aeronDirectoryName()
    {
        return ConfigValues.getString(AERON_DIR_PROP_NAME, CommonContext.getAeronDirectoryName());
    }

    /**
     * @return the threading mode name.
     */
    public static String threadingMode()
    {
        return ConfigValues.getString(THREADING_MODE_PROP_NAME, THREADING_MODE_DEFAULT);
    }

    /**
     * @return the idle strategy of the shared thread and default of the per-agent ones.
     */
    public static String idleStrategy()
    {
        return ConfigValues.getString(IDLE_STRATEGY_PROP_NAME, IDLE_STRATEGY_DEFAULT);
    }

    /**
     * @return the longest park of the shared thread while the driver has no UDP channel.
     */
    public static long ipcOnlyMaxParkNs()
    {
        return ConfigValues.getLong(
            IPC_ONLY_MAX_PARK_NS_PROP_NAME, IPC_ONLY_MAX_PARK_NS_DEFAULT, 1_000L, 10_000_000_000L);
    }

    /**
     * @return the conductor idle strategy.
     */
    public static String conductorIdleStrategy()
    {
        return ConfigValues.getString(CONDUCTOR_IDLE_STRATEGY_PROP_NAME, idleStrategy());
    }

    /**
     * @return the sender idle strategy.
     */
    public static String senderIdleStrategy()
    {
        return ConfigValues.getString(SENDER_IDLE_STRATEGY_PROP_NAME, idleStrategy());
    }

    /**
     * @return the receiver idle strategy.
     */
    public static String receiverIdleStrategy()
    {
        return ConfigValues.getString(RECEIVER_IDLE_STRATEGY_PROP_NAME, idleStrategy());
    }

    /**
     * @return the shared network idle strategy.
     */
    public static String sharedNetworkIdleStrategy()
    {
        return ConfigValues.getString(SHARED_NETWORK_IDLE_STRATEGY_PROP_NAME, idleStrategy());
    }

    /**
     * @return UDP publication term length in bytes.
     */
    public static int termBufferLength()
    {
        return ConfigValues.getSize(
            TERM_BUFFER_LENGTH_PROP_NAME, TERM_BUFFER_LENGTH_DEFAULT, 64 * 1024, 1024 * 1024 * 1024);
    }

    /**
     * @return IPC publication term length in bytes.
     */
    public static int ipcTermBufferLength()
    {
        return ConfigValues.getSize(
            IPC_TERM_BUFFER_LENGTH_PROP_NAME, IPC_TERM_BUFFER_LENGTH_DEFAULT, 64 * 1024, 1024 * 1024 * 1024);
    }

    /**
     * @return whether log buffers are sparse files.
     */
    public static boolean termBufferSparseFile()
    {
        return ConfigValues.getBoolean(TERM_BUFFER_SPARSE_FILE_PROP_NAME, TERM_BUFFER_SPARSE_FILE_DEFAULT);
    }

    /**
     * @return whether to delete the Aeron directory on start.
     */
    public static boolean dirDeleteOnStart()
    {
        return ConfigValues.getBoolean(DIR_DELETE_ON_START_PROP_NAME, DIR_DELETE_ON_START_DEFAULT);
    }

    /**
     * @return whether to delete the Aeron directory on shutdown.
     */
    public static boolean dirDeleteOnShutdown()
    {
        return ConfigValues.getBoolean(DIR_DELETE_ON_SHUTDOWN_PROP_NAME, DIR_DELETE_ON_SHUTDOWN_DEFAULT);
    }

    /**
     * @return driver/client liveness timeout in milliseconds.
     */
    public static long driverTimeoutMs()
    {
        return ConfigValues.getLong(DRIVER_TIMEOUT_MS_PROP_NAME, DRIVER_TIMEOUT_MS_DEFAULT, 100, 600_000);
    }

    /**
     * @return {@link #RECONNECT_TIMEOUT_MS_PROP_NAME} or its default.
     * @throws IllegalArgumentException when outside [0, {@link #RECONNECT_TIMEOUT_MS_MAX}].
     */
    public static long reconnectTimeoutMs()
    {
        return ConfigValues.getLong(
            RECONNECT_TIMEOUT_MS_PROP_NAME, RECONNECT_TIMEOUT_MS_DEFAULT, 0, RECONNECT_TIMEOUT_MS_MAX);
    }

    /**
     * @return whether the driver prints its configuration on start.
     */
    public static boolean printConfiguration()
    {
        return ConfigValues.getBoolean(PRINT_CONFIGURATION_PROP_NAME, PRINT_CONFIGURATION_DEFAULT);
    }
}
