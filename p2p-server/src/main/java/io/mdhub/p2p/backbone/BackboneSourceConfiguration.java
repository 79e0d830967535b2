package io.mdhub.p2p.backbone;

import java.util.concurrent.TimeUnit;


import io.mdhub.common.config.ConfigValues;

/**
 * Settings of the p2p-server's backbone item source: the only place {@code mdhub.p2p.backbone.*} system properties
 * are read. Stream ids and channel must match the distributors' ({@code mdhub.distributor.backbone.*}).
 */
public final class BackboneSourceConfiguration
{
    /**
     * Aeron channel this p2p-server subscribes to for the data stream (and publishes the control stream on, unless
     * {@link #CONTROL_CHANNEL_PROP_NAME} is set).
     */
    public static final String CHANNEL_PROP_NAME = "mdhub.p2p.backbone.channel";

    /**
     * Default channel: IPC, for everything on one host and one media driver.
     */
    public static final String CHANNEL_DEFAULT = "aeron:ipc";

    /**
     * Aeron channel this p2p-server publishes the control stream on (to the distributors' control subscription),
     * when it differs from the data channel: UDP unicast and multi-destination-cast need the distributor's address.
     */
    public static final String CONTROL_CHANNEL_PROP_NAME = "mdhub.p2p.backbone.control.channel";

    /**
     * Default: empty, meaning the data channel.
     */
    public static final String CONTROL_CHANNEL_DEFAULT = "";

    /**
     * Stream id of the data stream (distributors to p2p-servers).
     */
    public static final String DATA_STREAM_ID_PROP_NAME = "mdhub.p2p.backbone.data.stream.id";

    /**
     * Default data stream id.
     */
    public static final int DATA_STREAM_ID_DEFAULT = 1001;

    /**
     * Stream id of the control stream (p2p-servers to distributors).
     */
    public static final String CONTROL_STREAM_ID_PROP_NAME = "mdhub.p2p.backbone.control.stream.id";

    /**
     * Default control stream id.
     */
    public static final int CONTROL_STREAM_ID_DEFAULT = 1002;

    /**
     * This p2p-server's id on the backbone (request ids carry it, so keep it unique among p2p-servers).
     */
    public static final String CONSUMER_ID_PROP_NAME = "mdhub.p2p.backbone.consumer.id";

    /**
     * Default consumer id: derived from the process id.
     */
    public static final int CONSUMER_ID_DEFAULT = (int)(ProcessHandle.current().pid() & 0x7FFFFF);

    /**
     * Heartbeat interval of the p2p-server on the control stream.
     */
    public static final String ANNOUNCE_INTERVAL_MS_PROP_NAME = "mdhub.p2p.backbone.announce.interval.ms";

    /**
     * Default heartbeat interval.
     */
    public static final long ANNOUNCE_INTERVAL_MS_DEFAULT = 1000;

    /**
     * Announcement intervals a distributor may miss before its services are taken down.
     */
    public static final String MISSED_ANNOUNCEMENTS_PROP_NAME = "mdhub.p2p.backbone.missed.announcements";

    /**
     * Default missed announcements.
     */
    public static final int MISSED_ANNOUNCEMENTS_DEFAULT = 3;

    /**
     * How long an item that was live is retried (its consumers Open/Suspect) while its distributor refuses it during
     * a recovery, e.g. after a distributor restart until the providers have republished; then the refusal is passed
     * on and the consumers' streams close.
     */
    public static final String RECOVERY_GRACE_MS_PROP_NAME = "mdhub.p2p.backbone.recovery.grace.ms";

    /**
     * Default recovery grace period.
     */
    public static final long RECOVERY_GRACE_MS_DEFAULT = 30_000;

    /**
     * Whether an item its distributors do not have (yet) keeps its consumers Open/Suspect until its provider publishes
     * it, as an ADS keeps the requests for a non-interactive provider's items: a first request for an unknown item,
     * and an item that was live and is not republished after a restart. When false, the first is closed at once and
     * the second after {@link #RECOVERY_GRACE_MS_PROP_NAME}.
     */
    public static final String ITEM_WAIT_PROP_NAME = "mdhub.p2p.backbone.item.wait";

    /**
     * Default: items wait for their provider.
     */
    public static final boolean ITEM_WAIT_DEFAULT = true;

    /**
     * First idle delay of the polling duty cycle after a poll that found nothing.
     */
    public static final String IDLE_MIN_NS_PROP_NAME = "mdhub.p2p.backbone.idle.min.ns";

    /**
     * Default first idle delay.
     */
    public static final long IDLE_MIN_NS_DEFAULT = TimeUnit.MICROSECONDS.toNanos(10);

    /**
     * Longest idle delay of the polling duty cycle (the worst added latency after a quiet spell).
     */
    public static final String IDLE_MAX_NS_PROP_NAME = "mdhub.p2p.backbone.idle.max.ns";

    /**
     * Default longest idle delay.
     */
    public static final long IDLE_MAX_NS_DEFAULT = TimeUnit.MICROSECONDS.toNanos(200);

    /**
     * How an idle worker waits for the data stream: {@code doorbell} (the default) blocks in {@code epoll_wait} until
     * a distributor that published rings the worker's doorbell, a consumer's socket is readable, or the worker's tick
     * ({@link #WAKE_TICK_MS_PROP_NAME}) is due; {@code timer} polls on the idle timers ({@link #IDLE_MIN_NS_PROP_NAME},
     * {@link #IDLE_MAX_NS_PROP_NAME}). A doorbell serves IPC streams only: on a UDP channel, and while a distributor's
     * publication has not found the doorbell yet, the worker polls on the idle timers. The worker's control
     * publication rings the distributors' doorbells either way.
     */
    public static final String WAKE_PROP_NAME = "mdhub.p2p.backbone.wake";

    /** Wake on a doorbell's ring. */
    public static final String WAKE_DOORBELL = "doorbell";

    /** Poll on timers. */
    public static final String WAKE_TIMER = "timer";

    /**
     * Period of the tick that runs a worker's housekeeping (distributor liveness, request resends, its announcements)
     * while it waits for its doorbell, in milliseconds.
     */
    public static final String WAKE_TICK_MS_PROP_NAME = "mdhub.p2p.backbone.wake.tick.ms";

    /**
     * Default tick: 100 ms, a third of the default silence after which a distributor counts as gone.
     */
    public static final long WAKE_TICK_MS_DEFAULT = 100;

    /**
     * Busy polling: empty (the default) lets each worker sleep in {@code epoll_wait} between socket events and poll
     * the backbone on timers ({@link #IDLE_MIN_NS_PROP_NAME}, {@link #IDLE_MAX_NS_PROP_NAME}); a non-sleeping idle
     * strategy ({@code spin}, {@code yield}, {@code noop}) makes every worker's loop poll its sockets and the backbone
     * without ever sleeping, for the lowest latency at the cost of one core per worker (counted against
     * {@code mdhub.spin.cores}).
     */
    public static final String BUSY_POLL_PROP_NAME = "mdhub.p2p.backbone.busy.poll";

    private BackboneSourceConfiguration()
    {
    }

    /**
     * @return {@link #WAKE_PROP_NAME} or its default.
     */
    public static String wake()
    {
        return ConfigValues.getString(WAKE_PROP_NAME, WAKE_DOORBELL);
    }

    /**
     * @return {@link #WAKE_TICK_MS_PROP_NAME} or its default.
     */
    public static long wakeTickMs()
    {
        return ConfigValues.getLong(WAKE_TICK_MS_PROP_NAME, WAKE_TICK_MS_DEFAULT, 1, 60_000);
    }

    /**
     * @return {@link #CONTROL_CHANNEL_PROP_NAME}, empty for "the data channel".
     */
    public static String controlChannel()
    {
        return System.getProperty(CONTROL_CHANNEL_PROP_NAME, CONTROL_CHANNEL_DEFAULT);
    }

    /**
     * @return {@link #CHANNEL_PROP_NAME} or its default.
     */
    public static String channel()
    {
        return System.getProperty(CHANNEL_PROP_NAME, CHANNEL_DEFAULT);
    }

    /**
     * @return {@link #DATA_STREAM_ID_PROP_NAME} or its default.
     */
    public static int dataStreamId()
    {
        return ConfigValues.getInt(DATA_STREAM_ID_PROP_NAME, DATA_STREAM_ID_DEFAULT, 1, Integer.MAX_VALUE);
    }

    /**
     * @return {@link #CONTROL_STREAM_ID_PROP_NAME} or its default.
     */
    public static int controlStreamId()
    {
        return ConfigValues.getInt(CONTROL_STREAM_ID_PROP_NAME, CONTROL_STREAM_ID_DEFAULT, 1, Integer.MAX_VALUE);
    }

    /**
     * @return {@link #CONSUMER_ID_PROP_NAME} or its default.
     */
    public static int consumerId()
    {
        return ConfigValues.getInt(CONSUMER_ID_PROP_NAME, CONSUMER_ID_DEFAULT, 0, Integer.MAX_VALUE);
    }

    /**
     * @return {@link #ANNOUNCE_INTERVAL_MS_PROP_NAME} or its default.
     */
    public static long announceIntervalMs()
    {
        return ConfigValues.getLong(ANNOUNCE_INTERVAL_MS_PROP_NAME, ANNOUNCE_INTERVAL_MS_DEFAULT, 1, 600_000);
    }

    /**
     * @return {@link #MISSED_ANNOUNCEMENTS_PROP_NAME} or its default.
     */
    public static int missedAnnouncements()
    {
        return ConfigValues.getInt(MISSED_ANNOUNCEMENTS_PROP_NAME, MISSED_ANNOUNCEMENTS_DEFAULT, 1, 1_000);
    }

    /**
     * @return {@link #RECOVERY_GRACE_MS_PROP_NAME} or its default.
     */
    public static long recoveryGraceMs()
    {
        return ConfigValues.getLong(RECOVERY_GRACE_MS_PROP_NAME, RECOVERY_GRACE_MS_DEFAULT, 0, 86_400_000);
    }

    /**
     * @return {@link #ITEM_WAIT_PROP_NAME} or its default.
     */
    public static boolean itemWait()
    {
        return ConfigValues.getBoolean(ITEM_WAIT_PROP_NAME, ITEM_WAIT_DEFAULT);
    }

    /**
     * @return {@link #IDLE_MIN_NS_PROP_NAME} or its default (duration suffixes allowed).
     */
    public static long idleMinNs()
    {
        return ConfigValues.getDurationNs(IDLE_MIN_NS_PROP_NAME, IDLE_MIN_NS_DEFAULT, 0, TimeUnit.SECONDS.toNanos(1));
    }

    /**
     * @return {@link #IDLE_MAX_NS_PROP_NAME} or its default (duration suffixes allowed).
     */
    public static long idleMaxNs()
    {
        return ConfigValues.getDurationNs(IDLE_MAX_NS_PROP_NAME, IDLE_MAX_NS_DEFAULT, 1, TimeUnit.SECONDS.toNanos(1));
    }

    /**
     * @return {@link #BUSY_POLL_PROP_NAME}, empty when off.
     */
    public static String busyPoll()
    {
        return System.getProperty(BUSY_POLL_PROP_NAME, "").trim();
    }
}
