package io.mdhub.distributor.backbone;

import io.mdhub.backbone.ConductorDuty;
import io.mdhub.common.config.ConfigValues;

/**
 * Backbone settings of the distributor: the only place {@code mdhub.distributor.backbone.*} system properties are
 * read. Each setting is a {@code *_PROP_NAME} / {@code *_DEFAULT} pair whose value seeds a
 * {@link DistributorBackbone.Context} field.
 */
public final class DistributorBackboneConfiguration
{
    /**
     * Publish onto the backbone. Takes effect only when an Aeron client is supplied or an Aeron directory is
     * configured, so a distributor without a backbone (tests, tools) still runs.
     */
    public static final String ENABLED_PROP_NAME = "mdhub.distributor.backbone.enabled";

    /**
     * Default: enabled (when a client or directory is there).
     */
    public static final boolean ENABLED_DEFAULT = true;

    /**
     * Aeron directory of the media driver to connect to (usually the backbone daemon's {@code
     * mdhub.backbone.aeron.dir}); the distributor then owns the Aeron client and closes it.
     */
    public static final String AERON_DIR_PROP_NAME = "mdhub.distributor.backbone.aeron.dir";

    /**
     * Default: none (no backbone unless a client is supplied).
     */
    public static final String AERON_DIR_DEFAULT = "";

    /**
     * Aeron channel of the data stream (distributor to p2p-servers).
     */
    public static final String CHANNEL_PROP_NAME = "mdhub.distributor.backbone.channel";

    /**
     * Default: IPC, for a distributor and p2p-servers on one host's driver.
     */
    public static final String CHANNEL_DEFAULT = "aeron:ipc";

    /**
     * Aeron channel the distributor subscribes to for the control stream (p2p-servers to distributor).
     */
    public static final String CONTROL_CHANNEL_PROP_NAME = "mdhub.distributor.backbone.control.channel";

    /**
     * Default: empty, meaning the data channel.
     */
    public static final String CONTROL_CHANNEL_DEFAULT = "";

    /**
     * Aeron stream id of the data stream.
     */
    public static final String DATA_STREAM_ID_PROP_NAME = "mdhub.distributor.backbone.data.stream.id";

    /**
     * Default data stream id.
     */
    public static final int DATA_STREAM_ID_DEFAULT = 1001;

    /**
     * Aeron stream id of the control stream.
     */
    public static final String CONTROL_STREAM_ID_PROP_NAME = "mdhub.distributor.backbone.control.stream.id";

    /**
     * Default control stream id.
     */
    public static final int CONTROL_STREAM_ID_DEFAULT = 1002;

    /**
     * This distributor's id in announcements; unique among the distributors on a backbone.
     */
    public static final String DISTRIBUTOR_ID_PROP_NAME = "mdhub.distributor.backbone.distributor.id";

    /**
     * Default distributor id.
     */
    public static final int DISTRIBUTOR_ID_DEFAULT = 1;

    /** Largest distributor id (ids travel as service ids do, in 16 bits). */
    public static final int DISTRIBUTOR_ID_MAX = 0xFFFF;

    /**
     * Milliseconds between service announcements (the distributor's heartbeat, carrying each service's last sequence).
     */
    public static final String ANNOUNCE_INTERVAL_MS_PROP_NAME = "mdhub.distributor.backbone.announce.interval.ms";

    /**
     * Default announcement interval.
     */
    public static final int ANNOUNCE_INTERVAL_MS_DEFAULT = 100;

    /** Longest announcement interval. */
    public static final int ANNOUNCE_INTERVAL_MS_MAX = 60_000;

    /**
     * First idle delay of the backbone duty cycle on the event loop after a cycle that found nothing, in nanoseconds;
     * it doubles while idle. 0 ticks every {@link #IDLE_MAX_NS_PROP_NAME} instead, allocating nothing per cycle.
     */
    public static final String IDLE_MIN_NS_PROP_NAME = "mdhub.distributor.backbone.idle.min.ns";

    /**
     * Default: 0, ticking. Each backoff step is a new Netty timer task, about 0.6 MB/s of garbage at one burst of
     * provider messages a millisecond, and the distributor's live path does not wait for the cycle (it publishes as it
     * reads); only control messages and back-pressured data do, up to the period.
     */
    public static final long IDLE_MIN_NS_DEFAULT = 0L;

    /**
     * Longest idle delay of the backbone duty cycle, in nanoseconds: the worst-case delay before a control message is
     * read when the stream was quiet.
     */
    public static final String IDLE_MAX_NS_PROP_NAME = "mdhub.distributor.backbone.idle.max.ns";

    /**
     * Default longest idle delay: 1 millisecond.
     */
    public static final long IDLE_MAX_NS_DEFAULT = 1_000_000L;

    /**
     * How the event loop waits for the control stream when it has nothing to do: {@code doorbell} (the default) blocks
     * in {@code epoll_wait} until a p2p-server that published rings the loop's doorbell, a provider's socket is
     * readable, or the periodic tick (the announcement interval, at most 100 ms) is due; {@code timer} polls the
     * stream on the idle timers ({@link #IDLE_MIN_NS_PROP_NAME}, {@link #IDLE_MAX_NS_PROP_NAME}). A doorbell serves IPC
     * streams only: on a UDP control channel, or until every p2p-server's publication has found the doorbell, the loop
     * polls on the idle timers. The data publication rings the p2p-servers' doorbells either way.
     */
    public static final String WAKE_PROP_NAME = "mdhub.distributor.backbone.wake";

    /** Wake on a doorbell's ring (the default). */
    public static final String WAKE_DOORBELL = "doorbell";

    /** Poll on the idle timers. */
    public static final String WAKE_TIMER = "timer";

    /**
     * Busy polling: empty (the default) lets the distributor's event loop sleep in {@code epoll_wait} between socket
     * events and poll the backbone on timers ({@link #IDLE_MIN_NS_PROP_NAME}, {@link #IDLE_MAX_NS_PROP_NAME}); a
     * non-sleeping idle strategy ({@code spin}, {@code yield}, {@code noop}) makes the loop poll provider sockets and
     * the control stream without ever sleeping, so no wake-up stands between a provider's message and the backbone,
     * at the cost of a core (counted against {@code mdhub.spin.cores}).
     */
    public static final String BUSY_POLL_PROP_NAME = "mdhub.distributor.backbone.busy.poll";

    /**
     * Attempts per message while the data stream is back-pressured before the message has to wait (live data: in the
     * pending store, provider reading paused; answers to requests: retried on a later cycle).
     */
    public static final String MAX_PUBLISH_ATTEMPTS_PROP_NAME = "mdhub.distributor.backbone.max.publish.attempts";

    /**
     * Default attempts.
     */
    public static final int MAX_PUBLISH_ATTEMPTS_DEFAULT = 3;

    /**
     * Most control-stream fragments read per duty cycle.
     */
    public static final String CONTROL_FRAGMENT_LIMIT_PROP_NAME = "mdhub.distributor.backbone.control.fragment.limit";

    /**
     * Default fragments per cycle.
     */
    public static final int CONTROL_FRAGMENT_LIMIT_DEFAULT = 64;

    /**
     * Most item images resent per duty cycle while answering a whole-service recovery request, so a large service does
     * not stall the event loop.
     */
    public static final String RECOVERY_BATCH_PROP_NAME = "mdhub.distributor.backbone.recovery.batch";

    /**
     * Default images per cycle.
     */
    public static final int RECOVERY_BATCH_DEFAULT = 256;

    /**
     * Most bytes of live messages (refreshes, updates, statuses) that may wait for a back-pressured backbone while
     * provider reading is paused. Must hold what the providers' connections deliver after the pause began (one socket
     * read each, up to 64 KiB, plus a partial frame); beyond it a live message is dropped (counted, its sequence
     * number taken so p2p-servers see the gap). Memory grows with use, to at most twice this (ring padding).
     */
    public static final String PENDING_BYTES_PROP_NAME = "mdhub.distributor.backbone.pending.bytes";

    /**
     * Default pending store: 4 MiB.
     */
    public static final int PENDING_BYTES_DEFAULT = 4 * 1024 * 1024;

    /**
     * Bytes of the data stream's publication window live data leaves free for answers (item images for requests and
     * recovery, refusals) and announcements: live data counts as back-pressured once less than this would remain, so
     * p2p-servers' requests are answered even while live traffic keeps the stream full. Capped at an eighth of the
     * publication's term length.
     */
    public static final String ANSWER_HEADROOM_BYTES_PROP_NAME = "mdhub.distributor.backbone.answer.headroom.bytes";

    /**
     * Default headroom: 64 KiB.
     */
    public static final int ANSWER_HEADROOM_BYTES_DEFAULT = 64 * 1024;

    private DistributorBackboneConfiguration()
    {
    }

    /**
     * @return the value of {@link #ENABLED_PROP_NAME}.
     */
    public static boolean enabled()
    {
        return ConfigValues.getBoolean(ENABLED_PROP_NAME, ENABLED_DEFAULT);
    }

    /**
     * @return the value of {@link #AERON_DIR_PROP_NAME}.
     */
    public static String aeronDir()
    {
        return ConfigValues.getString(AERON_DIR_PROP_NAME, AERON_DIR_DEFAULT);
    }

    /**
     * @return the value of {@link #CHANNEL_PROP_NAME}.
     */
    public static String channel()
    {
        return ConfigValues.getString(CHANNEL_PROP_NAME, CHANNEL_DEFAULT);
    }

    /**
     * @return the value of {@link #CONTROL_CHANNEL_PROP_NAME}.
     */
    public static String controlChannel()
    {
        return ConfigValues.getString(CONTROL_CHANNEL_PROP_NAME, CONTROL_CHANNEL_DEFAULT);
    }

    /**
     * @return the value of {@link #DATA_STREAM_ID_PROP_NAME}.
     */
    public static int dataStreamId()
    {
        return ConfigValues.getInt(DATA_STREAM_ID_PROP_NAME, DATA_STREAM_ID_DEFAULT, 1, Integer.MAX_VALUE);
    }

    /**
     * @return the value of {@link #CONTROL_STREAM_ID_PROP_NAME}.
     */
    public static int controlStreamId()
    {
        return ConfigValues.getInt(CONTROL_STREAM_ID_PROP_NAME, CONTROL_STREAM_ID_DEFAULT, 1, Integer.MAX_VALUE);
    }

    /**
     * @return the value of {@link #DISTRIBUTOR_ID_PROP_NAME}.
     */
    public static int distributorId()
    {
        return ConfigValues.getInt(DISTRIBUTOR_ID_PROP_NAME, DISTRIBUTOR_ID_DEFAULT, 1, DISTRIBUTOR_ID_MAX);
    }

    /**
     * @return the value of {@link #ANNOUNCE_INTERVAL_MS_PROP_NAME}.
     */
    public static int announceIntervalMs()
    {
        return ConfigValues.getInt(
            ANNOUNCE_INTERVAL_MS_PROP_NAME, ANNOUNCE_INTERVAL_MS_DEFAULT, 1, ANNOUNCE_INTERVAL_MS_MAX);
    }

    /**
     * @return {@link #WAKE_PROP_NAME} or its default.
     */
    public static String wake()
    {
        return ConfigValues.getString(WAKE_PROP_NAME, WAKE_DOORBELL);
    }

    /**
     * @return the value of {@link #IDLE_MIN_NS_PROP_NAME}.
     */
    public static long idleMinNs()
    {
        return ConfigValues.getLong(IDLE_MIN_NS_PROP_NAME, IDLE_MIN_NS_DEFAULT, 0, 1_000_000_000L);
    }

    /**
     * @return the value of {@link #IDLE_MAX_NS_PROP_NAME}.
     */
    public static long idleMaxNs()
    {
        return ConfigValues.getLong(
            IDLE_MAX_NS_PROP_NAME, IDLE_MAX_NS_DEFAULT, 1_000L, ConductorDuty.MAX_LOOP_PERIOD_NS);
    }

    /**
     * @return {@link #BUSY_POLL_PROP_NAME}, empty when off.
     */
    public static String busyPoll()
    {
        return System.getProperty(BUSY_POLL_PROP_NAME, "").trim();
    }

    /**
     * @return the value of {@link #MAX_PUBLISH_ATTEMPTS_PROP_NAME}.
     */
    public static int maxPublishAttempts()
    {
        return ConfigValues.getInt(MAX_PUBLISH_ATTEMPTS_PROP_NAME, MAX_PUBLISH_ATTEMPTS_DEFAULT, 1, 1_000);
    }

    /**
     * @return the value of {@link #CONTROL_FRAGMENT_LIMIT_PROP_NAME}.
     */
    public static int controlFragmentLimit()
    {
        return ConfigValues.getInt(CONTROL_FRAGMENT_LIMIT_PROP_NAME, CONTROL_FRAGMENT_LIMIT_DEFAULT, 1, 65_536);
    }

    /**
     * @return the value of {@link #RECOVERY_BATCH_PROP_NAME}.
     */
    public static int recoveryBatch()
    {
        return ConfigValues.getInt(RECOVERY_BATCH_PROP_NAME, RECOVERY_BATCH_DEFAULT, 1, 1_000_000);
    }

    /**
     * @return the value of {@link #PENDING_BYTES_PROP_NAME}.
     */
    public static int pendingBytes()
    {
        return ConfigValues.getSize(PENDING_BYTES_PROP_NAME, PENDING_BYTES_DEFAULT, 64 * 1024, 1024 * 1024 * 1024);
    }

    /**
     * @return the value of {@link #ANSWER_HEADROOM_BYTES_PROP_NAME}.
     */
    public static int answerHeadroomBytes()
    {
        return ConfigValues.getSize(
            ANSWER_HEADROOM_BYTES_PROP_NAME, ANSWER_HEADROOM_BYTES_DEFAULT, 0, 128 * 1024 * 1024);
    }
}
