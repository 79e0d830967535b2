package io.mdhub.distributor.backbone;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.CountersManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.backbone.LinkSleep;
import io.mdhub.backbone.protocol.BackbonePublication;
import io.mdhub.backbone.protocol.ControlAdapter;
import io.mdhub.backbone.protocol.MarketDataPublisher;
import io.mdhub.common.concurrent.Doorbell;
import io.mdhub.common.concurrent.DoorbellRinger;
import io.mdhub.common.concurrent.DoorbellSleep;
import io.mdhub.common.concurrent.EventLoopDoorbell;
import io.mdhub.common.concurrent.EventLoopDutyCycle;
import io.mdhub.common.concurrent.CycleWaker;
import io.mdhub.distributor.DistributorListener;
import io.mdhub.distributor.ProviderReadControl;
import io.mdhub.distributor.ServiceDirectory;
import io.mdhub.distributor.ItemPosts;
import io.mdhub.distributor.SinkDrivenItems;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;

/**
 * The distributor's side of the backbone: the data publication (an ExclusivePublication: one publishing thread, the
 * distributor's event loop) fed by {@link #outbound()} with live data, the control subscription answered by
 * {@link BackboneControlHandler}, whole-service recovery and the periodic ServiceAnnouncement. Everything runs on the
 * distributor's event loop: live data inside the provider sessions' reads, the rest in an
 * {@link EventLoopDutyCycle} (poll control, resend a recovery batch, publish waiting live data, announce), so no
 * extra thread and no lock.
 * <p>
 * Back-pressure: live data the stream cannot take waits in a bounded store while provider reading is paused through
 * the {@link ProviderReadControl}; the duty cycle answers requests first (they may use the window live data leaves
 * free), then publishes the waiting live data and resumes reading once it is all out (see {@link BackboneOutbound}).
 * <p>
 * Lifecycle: built by the distributor's Context after its event loop and directory exist, {@link #start()}ed by the
 * distributor, {@link #stop()}ped first at close and {@link #close()}d after the event loop has stopped (publication,
 * subscription and counters; the Aeron client belongs to the {@link Context}).
 * <p>
 * The backbone daemon lost ({@link BackboneLink}): the provider connections stay, the cache goes on taking their
 * messages, live data is not published (nor waited with: provider reading is never paused for it), and nothing is
 * polled or announced. On a new client the publication, the subscription, the ringer and the doorbell are made again,
 * the services are announced at once, and the p2p-servers (which outlive the outage too) ask for every image again,
 * answered from the cache.
 */
public final class DistributorBackbone implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(DistributorBackbone.class);
    /** Longest tick of a loop that waits for its doorbell. */
    private static final long MAX_WAKE_TICK_NS = 100_000_000L;

    private final Context ctx;
    private ExclusivePublication publication;
    private Subscription subscription;
    private final BackboneCounters counters;
    private final BackboneOutbound outbound;
    private final ControlAdapter controlAdapter;
    private final BackboneControlHandler controlHandler;
    private final ServiceRecovery recovery;
    private final ServiceAnnouncer announcer;
    private final BackboneLink.Member backbone;
    private final BackbonePublication backbonePublication;
    private final EventExecutor eventLoop;
    private final LinkSleep linkSleep;
    private final P2pServerTracker p2pServers;
    private final SinkDrivenItems sinkItems;
    private final EventLoopDutyCycle dutyCycle;
    private final CycleWaker cycleWaker = new CycleWaker();
    private DoorbellRinger ringer;
    private EventLoopDoorbell doorbell;
    private boolean isBackboneDown;
    private final int controlFragmentLimit;
    private final long expiryCheckIntervalNs;
    private long nextExpiryCheckNs;

    /**
     * Create the publication and subscription and everything that works on them; nothing runs until
     * {@link #start()}.
     *
     * @param ctx             the concluded backbone settings with an Aeron client.
     * @param directory       the distributor's services and caches.
     * @param countersManager where the backbone counters go (allocated here, on the caller's thread).
     * @param component       component name for counter labels.
     * @param eventLoop       the distributor's event loop, which owns the directory.
     * @param reads           pauses provider reading while live data waits for the stream.
     * @param sinkItems       the items of mounted providers' services.
     * @param posts           takes the consumers' posts.
     */
    public DistributorBackbone(
        final Context ctx,
        final ServiceDirectory directory,
        final CountersManager countersManager,
        final String component,
        final EventExecutor eventLoop,
        final ProviderReadControl reads,
        final SinkDrivenItems sinkItems,
        final ItemPosts posts)
    {
        this.ctx = ctx;
        this.eventLoop = eventLoop;
        this.controlFragmentLimit = ctx.controlFragmentLimit();
        this.expiryCheckIntervalNs = ctx.announceIntervalMs() * 1_000_000L;
        ExclusivePublication pub = null;
        Subscription sub = null;
        BackboneCounters allocated = null;
        try
        {
            allocated = new BackboneCounters(countersManager, component);
            pub = ctx.aeron().addExclusivePublication(ctx.channel(), ctx.dataStreamId());
            sub = subscribeControl(ctx.aeron());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(sub, pub, allocated);
            throw ex;
        }
        this.publication = pub;
        this.subscription = sub;
        this.counters = allocated;

        final int headroomBytes = Math.min(ctx.answerHeadroomBytes(), publication.termBufferLength() / 8);
        DoorbellRinger ringerMade = null;
        try
        {
            final boolean usesDoorbells = DistributorBackboneConfiguration.WAKE_DOORBELL.equals(ctx.wake());
            ringerMade = ringerOf(publication, ctx.aeron());
            this.ringer = ringerMade;
            final ServiceSequences sequences = new ServiceSequences();
            this.backbonePublication =
                new BackbonePublication(publication, ctx.maxPublishAttempts(), counters.backPressure, ringer);
            final MarketDataPublisher publisher = new MarketDataPublisher(backbonePublication);
            final PendingLiveMessages pending = new PendingLiveMessages(
                ctx.pendingBytes(), counters.pendingBytes, counters.pendingHighWater);
            final ItemImagePublisher images = new ItemImagePublisher(publisher, sequences, pending);
            this.outbound = new BackboneOutbound(
                publisher, publication, sequences, counters, pending, wakingOnPause(reads, cycleWaker), headroomBytes);
            this.recovery = new ServiceRecovery(directory, images, counters, sinkItems, ctx.recoveryBatch());
            this.sinkItems = sinkItems;
            this.p2pServers = new P2pServerTracker(sinkItems::consumerGone);
            this.controlHandler = new BackboneControlHandler(
                directory, images, recovery, p2pServers, counters, sinkItems, posts, ctx.epoch());
            this.controlAdapter = new ControlAdapter(controlHandler, counters.malformedControl);
            this.announcer = new ServiceAnnouncer(directory, sequences, publisher, publication, ctx.distributorId(),
                ctx.epoch(), ctx.announceIntervalMs());
            // a late cycle is a late announcement: p2p-servers count a distributor dead after a few silent intervals
            if (usesDoorbells && ctx.busyPoll().isEmpty() && Doorbell.isIpc(ctx.controlChannel()) &&
                EventLoopDoorbell.canServe(eventLoop))
            {
                // the announcement interval (an announcement is due a tenth early, so a tick is never one too late), at
                // most MAX_WAKE_TICK_NS: the tick also notices a new subscriber of the data stream (owed an early
                // announcement), which rings nothing
                final long tickNs = Math.min(expiryCheckIntervalNs, MAX_WAKE_TICK_NS);
                final DoorbellSleep sleep = new DoorbellSleep(subscription, this::isNothingTimed);
                this.linkSleep = new LinkSleep(sleep);
                this.dutyCycle = new EventLoopDutyCycle(eventLoop, this::doWork, ctx.idleMinNs(), ctx.idleMaxNs(),
                    linkSleep, tickNs).warnWhenLate("backbone", Math.max(expiryCheckIntervalNs, 2 * tickNs) + tickNs);
                this.doorbell = sleep.doorbell(EventLoopDoorbell.open(ctx.aeron(), doorbellName(),
                    (EventLoop)eventLoop, dutyCycle, ctx.controlStreamId()));
                cycleWaker.wakeOn(eventLoop, dutyCycle);
            }
            else
            {
                this.dutyCycle = new EventLoopDutyCycle(
                    eventLoop, this::doWork, ctx.idleMinNs(), ctx.idleMaxNs(), ctx.newBusyIdle())
                    .warnWhenLate("backbone", Math.max(expiryCheckIntervalNs / 2, 2 * ctx.idleMaxNs()));
                this.doorbell = null;
                this.linkSleep = null;
            }
            this.backbone = ctx.link().join(new LinkListener());
            ctx.link().counters(counters.reconnects, counters.up);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(doorbell, ringerMade, sub, pub, allocated);
            throw ex;
        }
        LOG.info("backbone: distributor {} epoch {} data {} stream {}, control {} stream {}, pending store {} bytes, " +
            "answer headroom {} bytes", ctx.distributorId(), ctx.epoch(), ctx.channel(), ctx.dataStreamId(),
            ctx.controlChannel(), ctx.controlStreamId(), ctx.pendingBytes(), headroomBytes);
    }

    /**
     * Provider reading paused for live data the stream refused: the cycle that publishes it must run, on its timers,
     * even when the loop was asleep on its doorbell (the driver frees room in the stream and rings no one).
     */
    private static ProviderReadControl wakingOnPause(final ProviderReadControl reads, final Runnable cycle)
    {
        return new ProviderReadControl()
        {
            @Override
            public void pauseReading()
            {
                reads.pauseReading();
                cycle.run();
            }

            @Override
            public void resumeReading()
            {
                reads.resumeReading();
            }
        };
    }

    /**
     * @return the listener that publishes the distributor's live events.
     */
    public DistributorListener outbound()
    {
        return outbound;
    }

    /**
     * Start the duty cycle on the event loop.
     */
    public void start()
    {
        dutyCycle.start();
    }

    /**
     * Stop the duty cycle after the cycle in progress (from any thread).
     */
    public void stop()
    {
        dutyCycle.close();
    }

    /**
     * @return p2p-servers heard from recently (call on the event loop).
     */
    public int p2pServerCount()
    {
        return p2pServers.count();
    }

    /**
     * @return ItemClose messages received (call on the event loop).
     */
    public long itemCloses()
    {
        return controlHandler.itemCloses();
    }

    /**
     * @return ItemRequests answered with an image (call on the event loop).
     */
    public long requestsAnswered()
    {
        return controlHandler.requestsAnswered();
    }

    /**
     * @return ItemRequests refused with a status (call on the event loop).
     */
    public long requestsRefused()
    {
        return controlHandler.requestsRefused();
    }

    /**
     * @return the settings.
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * @return true while live data waits for the stream and provider reading is paused (call on the event loop).
     */
    public boolean isLiveDataWaiting()
    {
        return outbound.isWaiting();
    }

    /**
     * @return true while nothing waits on the clock: live data waiting for room in the stream (the driver frees room
     * and rings no one), or a recovery in progress (the loop then polls on its idle timers rather than sleep).
     */
    private boolean isNothingTimed()
    {
        return !outbound.isWaiting() && !recovery.isActive();
    }

    int doWork(final long nowNs)
    {
        // first: nothing below that throws may keep the client from its keepalives; it may also find the backbone
        // lost or back, and rewire the streams
        backbone.doWork(nowNs);
        if (isBackboneDown)
        {
            sinkItems.flush(); // requests to mounted providers go on: their items feed the cache
            return outbound.drain(); // drops what waited, then resumes provider reading
        }
        controlHandler.now(nowNs);
        // answers first: they get the window freed since the last cycle before the waiting live data does
        int work = controlAdapter.poll(subscription, controlFragmentLimit);
        if (recovery.isActive())
        {
            work += recovery.doWork(nowNs);
        }
        sinkItems.flush(); // requests and reissues for mounted providers: one flush per connection per cycle
        work += outbound.drain();
        work += announcer.doWork(nowNs);
        if (nowNs - nextExpiryCheckNs >= 0)
        {
            nextExpiryCheckNs = nowNs + expiryCheckIntervalNs;
            p2pServers.expire(nowNs);
        }
        return work;
    }

    /**
     * Close the subscription, the publication and the counters. Call after the event loop stopped.
     */
    @Override
    public void close()
    {
        dutyCycle.close();
        CloseHelper.closeAll(doorbell, ringer, subscription, publication, counters, backbone);
    }

    private String doorbellName()
    {
        return "distributor-" + ctx.distributorId();
    }

    /**
     * The driver is gone (on the event loop, before the lost client's memory is unmapped): never touch its doorbell,
     * ringer or streams again.
     */
    private void backboneLost()
    {
        if (isBackboneDown)
        {
            return; // a new client whose streams could not be made: nothing of the lost one is touched again
        }
        isBackboneDown = true;
        if (null != linkSleep)
        {
            linkSleep.delegate(null);
        }
        CloseHelper.quietCloseAll(doorbell, ringer, subscription, publication);
        doorbell = null;
        ringer = DoorbellRinger.NONE;
        backbonePublication.retarget(publication, DoorbellRinger.NONE);
        outbound.backboneLost();
        recovery.clear();
        LOG.warn("backbone lost: distributor {} keeps its providers and its cache, publishes nothing until it is back",
            ctx.distributorId());
    }

    /**
     * A new client (on the event loop): make the streams again and announce the services at once; the p2p-servers ask
     * for their items again, answered from the cache.
     */
    private void backboneRestored(final Aeron aeron)
    {
        ExclusivePublication pub = null;
        Subscription sub = null;
        final DoorbellRinger ringerMade;
        try
        {
            pub = aeron.addExclusivePublication(ctx.channel(), ctx.dataStreamId());
            sub = subscribeControl(aeron);
            ringerMade = ringerOf(pub, aeron);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(sub, pub);
            throw ex;
        }
        final Subscription restored = sub;
        publication = pub;
        subscription = sub;
        ringer = ringerMade;
        backbonePublication.retarget(pub, ringerMade);
        outbound.backboneRestored(pub);
        announcer.publication(pub);
        p2pServers.renew(System.nanoTime());
        isBackboneDown = false;
        if (null != linkSleep)
        {
            final DoorbellSleep sleep = new DoorbellSleep(restored, this::isNothingTimed);
            linkSleep.delegate(sleep); // polls on timers until its doorbell is open
            LinkSleep.openDoorbell(aeron, doorbellName(), (EventLoop)eventLoop, dutyCycle, ctx.controlStreamId(),
                (opened) ->
                {
                    if (subscription == restored && !isBackboneDown)
                    {
                        doorbell = sleep.doorbell(opened);
                    }
                    else
                    {
                        CloseHelper.quietClose(opened);
                    }
                });
        }
        LOG.info("backbone back: distributor {} publishes again (data {} stream {}), announcing its services",
            ctx.distributorId(), ctx.channel(), ctx.dataStreamId());
        dutyCycle.wake();
    }

    private Subscription subscribeControl(final Aeron aeron)
    {
        // a p2p-server's new control image wakes the loop (a loop asleep on its doorbell would not look at it)
        return aeron.addSubscription(ctx.controlChannel(), ctx.controlStreamId(),
            (image) -> cycleWaker.run(), (image) -> cycleWaker.run());
    }

    private DoorbellRinger ringerOf(final ExclusivePublication pub, final Aeron aeron)
    {
        // the p2p-servers' workers sleep until the data they wait for is published: one ring per burst of the loop
        return DistributorBackboneConfiguration.WAKE_DOORBELL.equals(ctx.wake()) ?
            DoorbellRinger.forPublication(aeron, pub).ringAfterBurstOn(eventLoop) : DoorbellRinger.NONE;
    }

    /**
     * The event loop's reaction to the backbone daemon lost and back, run by {@link BackboneLink.Member}.
     */
    private final class LinkListener implements BackboneLink.Listener
    {
        @Override
        public void onBackboneLost()
        {
            backboneLost();
        }

        @Override
        public void onBackboneRestored(final Aeron aeron)
        {
            backboneRestored(aeron);
        }
    }

    /**
     * Backbone settings of a distributor; defaults from {@link DistributorBackboneConfiguration}. The backbone is
     * used when {@link #enabled()} and either an {@link Aeron} client is supplied or an Aeron directory is set (then
     * conclude connects a client that this Context owns and closes). Every setting, its setter and getter are in
     * {@link DistributorBackboneSettings}.
     */
    public static final class Context extends DistributorBackboneSettings<Context>
    {
    }
}
