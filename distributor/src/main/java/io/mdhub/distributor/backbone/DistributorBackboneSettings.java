package io.mdhub.distributor.backbone;

import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemEpochNanoClock;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneAttachment;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.backbone.ConductorDuty;
import io.mdhub.common.concurrent.IdleConfiguration;
import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.concurrent.SpinBudget;
import io.mdhub.common.config.BaseContext;

/**
 * Backbone settings of a distributor, the body of {@link DistributorBackbone.Context}: defaults from
 * {@link DistributorBackboneConfiguration}. The backbone is used when {@link #enabled()} and either an {@link Aeron}
 * client is supplied or an Aeron directory is set (then conclude connects a client that this Context owns and
 * closes). A class of its own, generic in the concrete Context as {@code RipcContext} is, so that
 * {@link DistributorBackbone} holds the publishing side and this file the settings.
 *
 * @param <T> the concrete Context type, so fluent setters return it.
 */
public abstract class DistributorBackboneSettings<T extends DistributorBackboneSettings<T>> extends BaseContext<T>
{
    private static final int MAX_STREAM_ID = Integer.MAX_VALUE;

    private boolean enabled = DistributorBackboneConfiguration.enabled();
    private String aeronDirectoryName = DistributorBackboneConfiguration.aeronDir();
    private String channel = DistributorBackboneConfiguration.channel();
    private String controlChannel = DistributorBackboneConfiguration.controlChannel();
    private int dataStreamId = DistributorBackboneConfiguration.dataStreamId();
    private int controlStreamId = DistributorBackboneConfiguration.controlStreamId();
    private int distributorId = DistributorBackboneConfiguration.distributorId();
    private int announceIntervalMs = DistributorBackboneConfiguration.announceIntervalMs();
    private long idleMinNs = DistributorBackboneConfiguration.idleMinNs();
    private long idleMaxNs = DistributorBackboneConfiguration.idleMaxNs();
    private String busyPoll = DistributorBackboneConfiguration.busyPoll();
    private String wake = DistributorBackboneConfiguration.wake();
    private int maxPublishAttempts = DistributorBackboneConfiguration.maxPublishAttempts();
    private int controlFragmentLimit = DistributorBackboneConfiguration.controlFragmentLimit();
    private int recoveryBatch = DistributorBackboneConfiguration.recoveryBatch();
    private int pendingBytes = DistributorBackboneConfiguration.pendingBytes();
    private int answerHeadroomBytes = DistributorBackboneConfiguration.answerHeadroomBytes();
    private long epoch;
    private boolean isEpochAssigned;
    private Aeron aeron;
    private BackboneLink link;
    private boolean ownsAeron;

    @Override
    protected void concludeContext()
    {
        if (!isActive())
        {
            return;
        }
        if (null == channel || channel.isEmpty())
        {
            throw new IllegalArgumentException(DistributorBackboneConfiguration.CHANNEL_PROP_NAME + " is empty");
        }
        if (null == controlChannel || controlChannel.isEmpty())
        {
            controlChannel = channel;
        }
        requireRange(DistributorBackboneConfiguration.DATA_STREAM_ID_PROP_NAME, dataStreamId, 1, MAX_STREAM_ID);
        requireRange(
            DistributorBackboneConfiguration.CONTROL_STREAM_ID_PROP_NAME, controlStreamId, 1, MAX_STREAM_ID);
        if (controlChannel.equals(channel) && dataStreamId == controlStreamId)
        {
            throw new IllegalArgumentException("data and control streams are the same: " + channel + " stream " +
                dataStreamId);
        }
        requireRange(DistributorBackboneConfiguration.DISTRIBUTOR_ID_PROP_NAME, distributorId, 1,
            DistributorBackboneConfiguration.DISTRIBUTOR_ID_MAX);
        requireRange(DistributorBackboneConfiguration.ANNOUNCE_INTERVAL_MS_PROP_NAME, announceIntervalMs, 1,
            DistributorBackboneConfiguration.ANNOUNCE_INTERVAL_MS_MAX);
        requireRange(DistributorBackboneConfiguration.IDLE_MIN_NS_PROP_NAME, idleMinNs, 0, Long.MAX_VALUE);
        // the loop's cycle runs its Aeron client's conductor: an idle loop must cycle well within the client's
        // liveness timeout
        requireRange(DistributorBackboneConfiguration.IDLE_MAX_NS_PROP_NAME, idleMaxNs, Math.max(1, idleMinNs),
            ConductorDuty.MAX_LOOP_PERIOD_NS);
        if (!DistributorBackboneConfiguration.WAKE_DOORBELL.equals(wake) &&
            !DistributorBackboneConfiguration.WAKE_TIMER.equals(wake))
        {
            throw new IllegalArgumentException(DistributorBackboneConfiguration.WAKE_PROP_NAME + " is " +
                DistributorBackboneConfiguration.WAKE_DOORBELL + " or " +
                DistributorBackboneConfiguration.WAKE_TIMER + ": " + wake);
        }
        if (!busyPoll.isEmpty())
        {
            new SpinBudget("distributor", IdleConfiguration.spinCores())
                .add("busy-polling event loop", newBusyIdle())
                .check();
        }
        requirePositive(DistributorBackboneConfiguration.MAX_PUBLISH_ATTEMPTS_PROP_NAME, maxPublishAttempts);
        requirePositive(DistributorBackboneConfiguration.CONTROL_FRAGMENT_LIMIT_PROP_NAME, controlFragmentLimit);
        requirePositive(DistributorBackboneConfiguration.RECOVERY_BATCH_PROP_NAME, recoveryBatch);
        requireRange(DistributorBackboneConfiguration.PENDING_BYTES_PROP_NAME, pendingBytes,
            PendingLiveMessages.MIN_CAPACITY, PendingLiveMessages.MAX_CAPACITY);
        requireRange(DistributorBackboneConfiguration.ANSWER_HEADROOM_BYTES_PROP_NAME, answerHeadroomBytes, 0,
            Integer.MAX_VALUE);
        if (0 == epoch)
        {
            // wall-clock nanoseconds: differs on every start, even of a process restarted at once
            epoch = new SystemEpochNanoClock().nanoTime();
            isEpochAssigned = true;
        }
        if (null == link)
        {
            if (null == aeron)
            {
                ownsAeron = true;
                aeron = Aeron.connect(BackboneAttachment.clientContext(aeronDirectoryName));
            }
            link = BackboneLink.of(aeron);
        }
    }

    /**
     * @return true when the backbone will be used: enabled, and a client or a directory is given.
     */
    public boolean isActive()
    {
        return enabled && (null != link || null != aeron ||
            (null != aeronDirectoryName && !aeronDirectoryName.isEmpty()));
    }

    /**
     * Close the Aeron client if this Context connected it.
     */
    @Override
    public void close()
    {
        if (ownsAeron)
        {
            ownsAeron = false;
            CloseHelper.quietClose(aeron);
            aeron = null;
        }
    }

    /**
     * @return a copy with the same settings that owns no client.
     */
    @Override
    public T clone()
    {
        final T clone = super.clone();
        final DistributorBackboneSettings<T> copy = clone; // private fields are reached through the class, not T
        if (ownsAeron)
        {
            copy.aeron = null;
            copy.link = null;
        }
        copy.ownsAeron = false;
        if (isEpochAssigned)
        {
            copy.epoch = 0;
            copy.isEpochAssigned = false;
        }
        return clone;
    }

    /**
     * @param enabled use the backbone (when a client or directory is given).
     * @return this.
     */
    public T enabled(final boolean enabled)
    {
        checkNotConcluded();
        this.enabled = enabled;
        return self();
    }

    /**
     * @return true when enabled.
     */
    public boolean enabled()
    {
        return enabled;
    }

    /**
     * @param aeron a connected client supplied by the caller, who keeps owning it.
     * @return this.
     */
    public T aeron(final Aeron aeron)
    {
        checkNotConcluded();
        this.aeron = aeron;
        return self();
    }

    /**
     * @return the Aeron client in use (after conclude: the link's current one, null while the backbone daemon is
     * lost).
     */
    public Aeron aeron()
    {
        return null != link ? link.aeron() : aeron;
    }

    /**
     * @param link the link to the backbone daemon, supplied by the caller, who keeps owning it: the distributor
     *             outlives a restart of the daemon.
     * @return this.
     */
    public T link(final BackboneLink link)
    {
        checkNotConcluded();
        this.link = link;
        return self();
    }

    /**
     * @return the link to the backbone (after conclude: the one in use).
     */
    public BackboneLink link()
    {
        return link;
    }

    /**
     * @param aeronDirectoryName the media driver's directory, to connect a client of our own.
     * @return this.
     */
    public T aeronDirectoryName(final String aeronDirectoryName)
    {
        checkNotConcluded();
        this.aeronDirectoryName = aeronDirectoryName;
        return self();
    }

    /**
     * @return the media driver's directory, or empty.
     */
    public String aeronDirectoryName()
    {
        return aeronDirectoryName;
    }

    /**
     * @param channel the data stream's channel.
     * @return this.
     */
    public T channel(final String channel)
    {
        checkNotConcluded();
        this.channel = channel;
        return self();
    }

    /**
     * @return the data stream's channel.
     */
    public String channel()
    {
        return channel;
    }

    /**
     * @param controlChannel the control stream's channel; empty for the data channel.
     * @return this.
     */
    public T controlChannel(final String controlChannel)
    {
        checkNotConcluded();
        this.controlChannel = controlChannel;
        return self();
    }

    /**
     * @return the control stream's channel.
     */
    public String controlChannel()
    {
        return controlChannel;
    }

    /**
     * @param dataStreamId the data stream id.
     * @return this.
     */
    public T dataStreamId(final int dataStreamId)
    {
        checkNotConcluded();
        this.dataStreamId = dataStreamId;
        return self();
    }

    /**
     * @return the data stream id.
     */
    public int dataStreamId()
    {
        return dataStreamId;
    }

    /**
     * @param controlStreamId the control stream id.
     * @return this.
     */
    public T controlStreamId(final int controlStreamId)
    {
        checkNotConcluded();
        this.controlStreamId = controlStreamId;
        return self();
    }

    /**
     * @return the control stream id.
     */
    public int controlStreamId()
    {
        return controlStreamId;
    }

    /**
     * @param distributorId this distributor's id in announcements.
     * @return this.
     */
    public T distributorId(final int distributorId)
    {
        checkNotConcluded();
        this.distributorId = distributorId;
        return self();
    }

    /**
     * @return the distributor id.
     */
    public int distributorId()
    {
        return distributorId;
    }

    /**
     * @param announceIntervalMs milliseconds between announcements.
     * @return this.
     */
    public T announceIntervalMs(final int announceIntervalMs)
    {
        checkNotConcluded();
        this.announceIntervalMs = announceIntervalMs;
        return self();
    }

    /**
     * @return milliseconds between announcements.
     */
    public int announceIntervalMs()
    {
        return announceIntervalMs;
    }

    /**
     * @param idleMinNs first idle delay of the duty cycle, 0 to tick every {@link #idleMaxNs()}.
     * @return this.
     */
    public T idleMinNs(final long idleMinNs)
    {
        checkNotConcluded();
        this.idleMinNs = idleMinNs;
        return self();
    }

    /**
     * @return first idle delay of the duty cycle.
     */
    public long idleMinNs()
    {
        return idleMinNs;
    }

    /**
     * @param idleMaxNs longest idle delay of the duty cycle.
     * @return this.
     */
    public T idleMaxNs(final long idleMaxNs)
    {
        checkNotConcluded();
        this.idleMaxNs = idleMaxNs;
        return self();
    }

    /**
     * @return longest idle delay of the duty cycle.
     */
    public long idleMaxNs()
    {
        return idleMaxNs;
    }

    /**
     * @param busyPoll empty for timer-scheduled polls, else the non-sleeping idle strategy of busy polling
     *                 ({@link DistributorBackboneConfiguration#BUSY_POLL_PROP_NAME}).
     * @return this.
     */
    public T busyPoll(final String busyPoll)
    {
        checkNotConcluded();
        this.busyPoll = null == busyPoll ? "" : busyPoll.trim();
        return self();
    }

    /**
     * @return the busy-polling idle strategy's name, empty when the duty cycle runs on timers.
     */
    public String busyPoll()
    {
        return busyPoll;
    }

    /**
     * @return a new instance of the busy-polling idle strategy, or null when the duty cycle runs on timers.
     */
    public IdleStrategy newBusyIdle()
    {
        return busyPoll.isEmpty() ? null : IdleStrategies.parse(busyPoll);
    }

    /**
     * @param wake how the loop waits for the control stream
     *             ({@link DistributorBackboneConfiguration#WAKE_PROP_NAME}): {@code doorbell} or {@code timer}.
     * @return this.
     */
    public T wake(final String wake)
    {
        checkNotConcluded();
        this.wake = null == wake ? "" : wake.trim();
        return self();
    }

    /**
     * @return how the loop waits for the control stream: {@code doorbell} or {@code timer}.
     */
    public String wake()
    {
        return wake;
    }

    /**
     * @param maxPublishAttempts attempts per message while back-pressured.
     * @return this.
     */
    public T maxPublishAttempts(final int maxPublishAttempts)
    {
        checkNotConcluded();
        this.maxPublishAttempts = maxPublishAttempts;
        return self();
    }

    /**
     * @return attempts per message while back-pressured.
     */
    public int maxPublishAttempts()
    {
        return maxPublishAttempts;
    }

    /**
     * @param controlFragmentLimit control fragments read per duty cycle.
     * @return this.
     */
    public T controlFragmentLimit(final int controlFragmentLimit)
    {
        checkNotConcluded();
        this.controlFragmentLimit = controlFragmentLimit;
        return self();
    }

    /**
     * @return control fragments read per duty cycle.
     */
    public int controlFragmentLimit()
    {
        return controlFragmentLimit;
    }

    /**
     * @param recoveryBatch images resent per duty cycle during a whole-service recovery.
     * @return this.
     */
    public T recoveryBatch(final int recoveryBatch)
    {
        checkNotConcluded();
        this.recoveryBatch = recoveryBatch;
        return self();
    }

    /**
     * @return images resent per duty cycle during a whole-service recovery.
     */
    public int recoveryBatch()
    {
        return recoveryBatch;
    }

    /**
     * @param pendingBytes cap on the bytes of live messages waiting for a back-pressured stream.
     * @return this.
     */
    public T pendingBytes(final int pendingBytes)
    {
        checkNotConcluded();
        this.pendingBytes = pendingBytes;
        return self();
    }

    /**
     * @return cap on the bytes of live messages waiting for a back-pressured stream.
     */
    public int pendingBytes()
    {
        return pendingBytes;
    }

    /**
     * @param answerHeadroomBytes publication window live data leaves free for answers and announcements (at most
     *                            an eighth of the term length is used); 0 for none.
     * @return this.
     */
    public T answerHeadroomBytes(final int answerHeadroomBytes)
    {
        checkNotConcluded();
        this.answerHeadroomBytes = answerHeadroomBytes;
        return self();
    }

    /**
     * @return publication window live data leaves free for answers and announcements.
     */
    public int answerHeadroomBytes()
    {
        return answerHeadroomBytes;
    }

    /**
     * @param epoch the epoch to announce; 0 (the default) takes the wall clock in nanoseconds at conclude.
     * @return this.
     */
    public T epoch(final long epoch)
    {
        checkNotConcluded();
        this.epoch = epoch;
        return self();
    }

    /**
     * @return the epoch announced.
     */
    public long epoch()
    {
        return epoch;
    }
}
