package io.mdhub.p2p.backbone;

import org.agrona.concurrent.IdleStrategy;

import io.aeron.Aeron;
import io.aeron.Counter;
import io.aeron.ExclusivePublication;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.backbone.ConductorDuty;
import io.mdhub.backbone.protocol.BackbonePublication;
import io.mdhub.backbone.protocol.ControlPublisher;
import io.mdhub.common.concurrent.DoorbellRinger;
import io.mdhub.common.concurrent.CycleWaker;
import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.status.MdCounters;
import io.mdhub.p2p.source.ItemSourceFactory;
import io.mdhub.p2p.source.ItemSourceListener;
import io.netty.channel.EventLoop;

/**
 * Makes each fan-out worker its own {@link BackboneItemSource}: its own subscription to the data stream, its own
 * exclusive publication on the control stream, and its counters in the Aeron client's counters file (so the
 * backbone daemon's JMX bridge and AeronStat show them). The Aeron client is shared, held by a {@link BackboneLink}
 * owned by the caller; after a lost backbone daemon each source makes its streams and counters again on the new
 * client ({@link #wire}).
 */
public final class BackboneItemSourceFactory implements ItemSourceFactory
{
    private static final int PUBLISH_ATTEMPTS = 3;

    private final BackboneLink link;
    private final Settings settings;
    /**
     * One epoch for the whole p2p-server: every worker announces itself under the server's consumer id, so they must
     * agree on it, or the distributors take the server for restarted at every announcement.
     */
    private final long epoch = System.currentTimeMillis();

    /**
     * @param aeron    a connected client of the host's media driver (owned by the caller, outlives the server).
     * @param settings streams and timings.
     */
    public BackboneItemSourceFactory(final Aeron aeron, final Settings settings)
    {
        this(BackboneLink.of(aeron), settings);
    }

    /**
     * @param link     the link to the host's media driver (owned by the caller, outlives the server).
     * @param settings streams and timings.
     */
    public BackboneItemSourceFactory(final BackboneLink link, final Settings settings)
    {
        settings.check();
        this.link = link;
        this.settings = settings;
    }

    @Override
    public IdleStrategy busyPollIdle()
    {
        return settings.newBusyIdle();
    }

    @Override
    public BackboneItemSource newItemSource(
        final int workerIndex, final EventLoop eventLoop, final ItemSourceListener listener)
    {
        final Aeron aeron = link.aeron();
        if (null == aeron)
        {
            throw new IllegalStateException("the backbone is down: no client to subscribe with");
        }
        final BackboneItemSource.Wiring wiring = wire(aeron, workerIndex, eventLoop);
        try
        {
            return new BackboneItemSource(workerIndex, eventLoop, listener, settings, wiring);
        }
        catch (final RuntimeException ex)
        {
            wiring.close();
            throw ex;
        }
    }

    /**
     * Make one source's streams and counters on a client: at start, and again (by the wiring's {@code rewire}) on
     * each new client after a lost backbone daemon.
     */
    private BackboneItemSource.Wiring wire(final Aeron aeron, final int workerIndex, final EventLoop eventLoop)
    {
        final BackboneItemSource.Wiring wiring = new BackboneItemSource.Wiring();
        wiring.epoch = epoch;
        wiring.link = link;
        wiring.rewire = (restored) -> wire(restored, workerIndex, eventLoop);
        try
        {
            final String suffix = ": consumer=" + settings.consumerId() + " worker=" + workerIndex;
            wiring.malformed = add(aeron, wiring, MdCounters.BACKBONE_MALFORMED_TYPE_ID, "backbone-malformed" + suffix);
            wiring.backPressure =
                add(aeron, wiring, MdCounters.BACKBONE_BACK_PRESSURE_TYPE_ID, "backbone-back-pressure" + suffix);
            wiring.gaps = add(aeron, wiring, MdCounters.BACKBONE_GAPS_TYPE_ID, "backbone-gaps" + suffix);
            wiring.recoveries =
                add(aeron, wiring, MdCounters.BACKBONE_RECOVERIES_TYPE_ID, "backbone-recoveries" + suffix);
            wiring.messagesIn =
                add(aeron, wiring, MdCounters.BACKBONE_MESSAGES_IN_TYPE_ID, "backbone-messages-in" + suffix);
            final CycleWaker cycleWaker = new CycleWaker();
            wiring.cycleWaker = cycleWaker;
            wiring.data = aeron.addSubscription(settings.channel(), settings.dataStreamId(),
                (image) -> cycleWaker.run(), (image) -> cycleWaker.run());
            wiring.owned.add(wiring.data);
            final ExclusivePublication controlPublication =
                aeron.addExclusivePublication(settings.controlChannel(), settings.controlStreamId());
            wiring.owned.add(controlPublication);
            wiring.controlPublication = controlPublication;
            final DoorbellRinger ringer = BackboneSourceConfiguration.WAKE_DOORBELL.equals(settings.wake()) ?
                DoorbellRinger.forPublication(aeron, controlPublication).ringAfterBurstOn(eventLoop) :
                DoorbellRinger.NONE;
            wiring.owned.add(ringer);
            wiring.control = new ControlPublisher(
                new BackbonePublication(controlPublication, PUBLISH_ATTEMPTS, wiring.backPressure, ringer),
                settings.consumerId(), workerIndex);
            wiring.aeron = aeron;
            return wiring;
        }
        catch (final RuntimeException ex)
        {
            wiring.close();
            throw ex;
        }
    }

    private static Counter add(
        final Aeron aeron, final BackboneItemSource.Wiring wiring, final int typeId, final String label)
    {
        final Counter counter = aeron.addCounter(typeId, label);
        wiring.owned.add(counter);
        return counter;
    }

    /**
     * Streams and timings of the backbone item sources; defaults from {@link BackboneSourceConfiguration}.
     */
    public static final class Settings
    {
        private String channel = BackboneSourceConfiguration.channel();
        private String controlChannel = BackboneSourceConfiguration.controlChannel();
        private int dataStreamId = BackboneSourceConfiguration.dataStreamId();
        private int controlStreamId = BackboneSourceConfiguration.controlStreamId();
        private int consumerId = BackboneSourceConfiguration.consumerId();
        private long announceIntervalMs = BackboneSourceConfiguration.announceIntervalMs();
        private int missedAnnouncements = BackboneSourceConfiguration.missedAnnouncements();
        private long recoveryGraceMs = BackboneSourceConfiguration.recoveryGraceMs();
        private boolean isItemWait = BackboneSourceConfiguration.itemWait();
        private long idleMinNs = BackboneSourceConfiguration.idleMinNs();
        private long idleMaxNs = BackboneSourceConfiguration.idleMaxNs();
        private String busyPoll = BackboneSourceConfiguration.busyPoll();
        private String wake = BackboneSourceConfiguration.wake();
        private long wakeTickMs = BackboneSourceConfiguration.wakeTickMs();

        /**
         * @param channel the backbone channel.
         * @return this.
         */
        public Settings channel(final String channel)
        {
            this.channel = channel;
            return this;
        }

        /**
         * @return the backbone channel.
         */
        public String channel()
        {
            return channel;
        }

        /**
         * @param controlChannel the channel to publish the control stream on (the distributors' control channel);
         *                       empty for the data channel.
         * @return this.
         */
        public Settings controlChannel(final String controlChannel)
        {
            this.controlChannel = controlChannel;
            return this;
        }

        /**
         * @return the control channel (the data channel unless set).
         */
        public String controlChannel()
        {
            return null == controlChannel || controlChannel.isEmpty() ? channel : controlChannel;
        }

        /**
         * @param dataStreamId data stream id.
         * @return this.
         */
        public Settings dataStreamId(final int dataStreamId)
        {
            this.dataStreamId = dataStreamId;
            return this;
        }

        /**
         * @return data stream id.
         */
        public int dataStreamId()
        {
            return dataStreamId;
        }

        /**
         * @param controlStreamId control stream id.
         * @return this.
         */
        public Settings controlStreamId(final int controlStreamId)
        {
            this.controlStreamId = controlStreamId;
            return this;
        }

        /**
         * @return control stream id.
         */
        public int controlStreamId()
        {
            return controlStreamId;
        }

        /**
         * @param consumerId this p2p-server's backbone id.
         * @return this.
         */
        public Settings consumerId(final int consumerId)
        {
            this.consumerId = consumerId;
            return this;
        }

        /**
         * @return this p2p-server's backbone id.
         */
        public int consumerId()
        {
            return consumerId;
        }

        /**
         * @param announceIntervalMs heartbeat interval.
         * @return this.
         */
        public Settings announceIntervalMs(final long announceIntervalMs)
        {
            this.announceIntervalMs = announceIntervalMs;
            return this;
        }

        /**
         * @return heartbeat interval.
         */
        public long announceIntervalMs()
        {
            return announceIntervalMs;
        }

        /**
         * @param missedAnnouncements intervals a distributor may miss.
         * @return this.
         */
        public Settings missedAnnouncements(final int missedAnnouncements)
        {
            this.missedAnnouncements = missedAnnouncements;
            return this;
        }

        /**
         * @return intervals a distributor may miss.
         */
        public int missedAnnouncements()
        {
            return missedAnnouncements;
        }

        /**
         * @param recoveryGraceMs how long a refused item that was live is retried, its consumers Open/Suspect.
         * @return this.
         */
        public Settings recoveryGraceMs(final long recoveryGraceMs)
        {
            this.recoveryGraceMs = recoveryGraceMs;
            return this;
        }

        /**
         * @return how long a refused item that was live is retried, its consumers Open/Suspect.
         */
        public long recoveryGraceMs()
        {
            return recoveryGraceMs;
        }

        /**
         * @param isItemWait keep the consumers of an item no distributor has (yet) Open/Suspect until it is published.
         * @return this.
         */
        public Settings itemWait(final boolean isItemWait)
        {
            this.isItemWait = isItemWait;
            return this;
        }

        /**
         * @return whether items no distributor has (yet) wait for their provider.
         */
        public boolean isItemWait()
        {
            return isItemWait;
        }

        /**
         * @param idleMinNs first idle delay of the poller.
         * @param idleMaxNs longest idle delay of the poller.
         * @return this.
         */
        public Settings idle(final long idleMinNs, final long idleMaxNs)
        {
            this.idleMinNs = idleMinNs;
            this.idleMaxNs = idleMaxNs;
            return this;
        }

        /**
         * @return first idle delay of the poller.
         */
        public long idleMinNs()
        {
            return idleMinNs;
        }

        /**
         * @return longest idle delay of the poller.
         */
        public long idleMaxNs()
        {
            return idleMaxNs;
        }

        /**
         * @param busyPoll empty for timer-scheduled polls, else the non-sleeping idle strategy of busy polling
         *                 ({@link BackboneSourceConfiguration#BUSY_POLL_PROP_NAME}).
         * @return this.
         */
        public Settings busyPoll(final String busyPoll)
        {
            this.busyPoll = null == busyPoll ? "" : busyPoll.trim();
            return this;
        }

        /**
         * @return whether the workers busy-poll.
         */
        public boolean isBusyPolling()
        {
            return !busyPoll.isEmpty();
        }

        /**
         * @return a new instance of the busy-polling idle strategy, or null when the workers poll on timers.
         */
        public IdleStrategy newBusyIdle()
        {
            return busyPoll.isEmpty() ? null : IdleStrategies.parse(busyPoll);
        }

        /**
         * @param wake   how an idle worker waits for the data stream
         *               ({@link BackboneSourceConfiguration#WAKE_PROP_NAME}): {@code doorbell} or {@code timer}.
         * @param tickMs the tick of a worker that waits for its doorbell, in milliseconds (1 to 1,000).
         * @return this.
         * @throws IllegalArgumentException for another way or a tick outside 1 ms to 1 s.
         */
        public Settings wake(final String wake, final long tickMs)
        {
            this.wake = null == wake ? "" : wake.trim();
            this.wakeTickMs = tickMs;
            check();
            return this;
        }

        /**
         * @throws IllegalArgumentException when the way to wake or its tick is not one there is (a misspelt setting
         *                                  is refused, not taken for the timer), or the longest idle delay exceeds
         *                                  what keeps the worker's Aeron client alive.
         */
        void check()
        {
            final String way = wake;
            if (!BackboneSourceConfiguration.WAKE_DOORBELL.equals(way) &&
                !BackboneSourceConfiguration.WAKE_TIMER.equals(way))
            {
                throw new IllegalArgumentException(BackboneSourceConfiguration.WAKE_PROP_NAME + " is " +
                    BackboneSourceConfiguration.WAKE_DOORBELL + " or " + BackboneSourceConfiguration.WAKE_TIMER +
                    ": " + wake);
            }
            // the worker's cycle runs its Aeron client's conductor: an idle worker must cycle well within the client's
            // liveness timeout
            if (wakeTickMs < 1 || wakeTickMs * 1_000_000L > ConductorDuty.MAX_LOOP_PERIOD_NS)
            {
                throw new IllegalArgumentException(BackboneSourceConfiguration.WAKE_TICK_MS_PROP_NAME + " is 1 to " +
                    ConductorDuty.MAX_LOOP_PERIOD_NS / 1_000_000L + ": " + wakeTickMs);
            }
            if (idleMaxNs > ConductorDuty.MAX_LOOP_PERIOD_NS)
            {
                throw new IllegalArgumentException(BackboneSourceConfiguration.IDLE_MAX_NS_PROP_NAME + " > " +
                    ConductorDuty.MAX_LOOP_PERIOD_NS + " ns: " + idleMaxNs);
            }
        }

        /**
         * @return how an idle worker waits for the data stream: {@code doorbell} or {@code timer}.
         */
        public String wake()
        {
            return wake;
        }

        /**
         * @return the tick of a worker that waits for its doorbell, in milliseconds.
         */
        public long wakeTickMs()
        {
            return wakeTickMs;
        }
    }
}
