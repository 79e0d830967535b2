package io.mdhub.p2p.backbone;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.NakCodes;

import io.aeron.Aeron;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.backbone.LinkSleep;
import io.mdhub.backbone.protocol.ControlPublisher;
import io.mdhub.backbone.protocol.MarketDataAdapter;
import io.mdhub.backbone.protocol.MarketDataListener;
import io.mdhub.backbone.protocol.RefreshFlags;
import io.mdhub.common.concurrent.Doorbell;
import io.mdhub.common.concurrent.DoorbellSleep;
import io.mdhub.common.concurrent.EventLoopDoorbell;
import io.mdhub.common.concurrent.EventLoopDutyCycle;
import io.mdhub.common.concurrent.CycleWaker;
import io.mdhub.common.rwf.FieldView;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.channel.EventLoop;

/**
 * One fan-out worker's {@link ItemSource} on the Aeron backbone. Item interest goes out on the control stream as
 * ItemRequests whose ids are unique to this p2p-server and worker; images come back as ItemRefreshes echoing them and
 * name the item's handle, by which later updates and statuses arrive. Everything — polling the data stream, the
 * heartbeat, distributor liveness — runs on the worker's event loop in an {@link EventLoopDutyCycle}, so the
 * listener is only ever called on that thread and never from inside {@code open/refresh/close}.
 * <p>
 * <b>Parts.</b> This class is the duty cycle, the wiring to one backbone client and the dispatch of the data stream's
 * messages: an update goes from its distributor's handle index straight to the listener.
 * {@link DistributorTracker} knows the distributors (liveness, restart, takeover) and the directory,
 * {@link ServiceRecovery} checks sequences and recovers what was lost, {@link ItemRequests} holds the open items and
 * their requests, {@link ItemAnswers} applies the distributors' answers, statuses and refusals, {@link ItemRetries}
 * schedules retries and the waits for a provider, {@link UpstreamCloses} keeps the closes the control stream could
 * not take, {@link ItemStatuses} makes the statuses this source gives consumers itself and {@link SourceCounters}
 * counts. They send through {@link ControlSender}, all on the worker's event loop.
 * <p>
 * <b>The backbone daemon lost.</b> When the host's media driver goes ({@link BackboneLink}), every distributor is
 * lost at once: their items turn Open/Suspect as for a dead distributor, nothing is sent (requests and closes wait),
 * and the consumers stay connected. On a new client the subscription, the control publication, the doorbell and the
 * counters are made again; the distributors announce themselves on new sessions, and every item is asked for again
 * as after any distributor's loss (a service that comes back releases its held requests and the items bound to a
 * dead distributor), so its watchers get a fresh refresh.
 */
public final class BackboneItemSource implements ItemSource, MarketDataListener
{
    private static final Logger LOG = LoggerFactory.getLogger(BackboneItemSource.class);

    private static final int FRAGMENT_LIMIT = 256;
    private static final long HOUSEKEEPING_INTERVAL_NS = 10_000_000L;
    private static final long REQUEST_CHECK_INTERVAL_NS = 250_000_000L;
    /** No entry, in the item indexes (the handle index's own marker, so its answers compare with it). */
    private static final long MISSING = HandleIndex.MISSING;

    /** Item closes kept for another try when the control stream pushes back. */
    private static final int PENDING_CLOSE_CAPACITY = 65_536;

    private final ItemSourceListener listener;
    private final ItemStatuses statuses;
    private final DistributorTracker tracker;
    private Subscription data;
    private Publication controlPublication;
    private ControlPublisher control;
    private MarketDataAdapter adapter;
    private final SourceCounters counters = new SourceCounters();
    private final ControlSender sender = new BackboneControl();
    /** The clock of request times (the duty cycle's {@code nowNs} is the clock of everything else). */
    private final NanoClock clock = SystemNanoClock.INSTANCE;
    private Wiring wiring;
    private final long requestIdBase;
    private final int workerIndex;
    private final long announceIntervalNs;
    private final ItemRetries retries;
    private final UpstreamCloses closes;
    /** Wakes the duty cycle (bound once): work queued from outside a cycle, or waiting on its timers. */
    private final Runnable wake;
    private final long epoch;
    private final ItemRequests requests;
    private final ItemAnswers answers;
    private final ServiceRecovery recovery;
    private final EventLoopDutyCycle dutyCycle;
    private final EventLoop eventLoop;
    private final BackboneItemSourceFactory.Settings settings;
    private final boolean wakesOnData;
    private final LinkSleep linkSleep;
    private final BackboneLink.Member backbone;
    private EventLoopDoorbell doorbell;
    /** The backbone daemon is lost: nothing can be sent or read until a new client is wired. */
    private boolean isBackboneDown;
    private long nowNs = System.nanoTime();
    private long nextHousekeepingNs;
    private long nextAnnounceNs;
    private long nextRequestCheckNs;

    BackboneItemSource(
        final int workerIndex,
        final EventLoop eventLoop,
        final ItemSourceListener listener,
        final BackboneItemSourceFactory.Settings settings,
        final Wiring wiring)
    {
        this.listener = listener;
        this.statuses = new ItemStatuses(listener);
        this.workerIndex = workerIndex;
        this.eventLoop = eventLoop;
        this.settings = settings;
        use(wiring);
        this.epoch = wiring.epoch;
        this.requestIdBase = ((long)(settings.consumerId() & 0x7F_FFFF) << 40) | ((long)(workerIndex & 0xFF) << 32);
        this.announceIntervalNs = settings.announceIntervalMs() * 1_000_000L;
        this.retries = new ItemRetries(Math.max(0, settings.recoveryGraceMs()) * 1_000_000L, settings.isItemWait());
        this.tracker = new DistributorTracker(
            workerIndex, settings.missedAnnouncements(), new TrackerEvents(), new DataImages());
        this.wake = this::wakeCycle;
        this.closes = new UpstreamCloses(
            sender, wake, workerIndex, PENDING_CLOSE_CAPACITY, ItemRequests.REQUESTS_PER_CYCLE);
        this.requests = new ItemRequests(
            requestIdBase, listener, sender, tracker, statuses, retries, closes, counters, clock, wake);
        this.recovery = new ServiceRecovery(requests, sender, counters, tracker.distributors(), wake);
        this.answers = new ItemAnswers(requests, listener, tracker, statuses, retries, closes, clock, requestIdBase);
        this.wakesOnData = !settings.isBusyPolling() &&
            BackboneSourceConfiguration.WAKE_DOORBELL.equals(settings.wake()) && Doorbell.isIpc(settings.channel()) &&
            EventLoopDoorbell.canServe(eventLoop);
        if (wakesOnData)
        {
            final DoorbellSleep sleep = new DoorbellSleep(data, this::isNothingTimed);
            this.linkSleep = new LinkSleep(sleep);
            this.dutyCycle = new EventLoopDutyCycle(eventLoop, this::doWork, settings.idleMinNs(),
                settings.idleMaxNs(), linkSleep, settings.wakeTickMs() * 1_000_000L);
            this.doorbell = sleep.doorbell(EventLoopDoorbell.open(
                wiring.aeron, doorbellName(), eventLoop, dutyCycle, settings.dataStreamId()));
            wiring.owned.add(doorbell);
            wiring.cycleWaker.wakeOn(eventLoop, dutyCycle); // a distributor's new image, which rings nothing
        }
        else
        {
            this.linkSleep = null;
            this.dutyCycle = new EventLoopDutyCycle(
                eventLoop, this::doWork, settings.idleMinNs(), settings.idleMaxNs(), settings.newBusyIdle());
            this.doorbell = null;
        }
        this.backbone = wiring.link.join(new LinkListener());
        dutyCycle.start();
    }

    private void wakeCycle()
    {
        dutyCycle.wake(); // a worker asleep on its doorbell would leave queued work to the tick
    }

    private String doorbellName()
    {
        return "p2p-" + settings.consumerId() + "-worker-" + workerIndex;
    }

    /**
     * Take the streams and counters of one client.
     */
    private void use(final Wiring wiring)
    {
        this.wiring = wiring;
        this.data = wiring.data;
        this.controlPublication = wiring.controlPublication;
        this.control = wiring.control;
        this.adapter = new MarketDataAdapter(this, wiring.malformed);
        counters.use(wiring.gaps, wiring.recoveries, wiring.messagesIn);
    }

    /**
     * @return true while nothing waits on the clock: requests, closes or recovery passes that the control stream could
     * not take yet (the worker then polls on its idle timers rather than sleep on its doorbell).
     */
    private boolean isNothingTimed()
    {
        // with no distributor listening nothing can be sent: the tick retries, and a distributor that comes wakes the
        // worker through its new image
        return !sender.isConnected() ||
            (closes.isEmpty() && requests.isQueueEmpty() && !recovery.hasPendingPasses());
    }

    @Override
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public void open(
        final int itemId,
        final int domainType,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final boolean streaming,
        final FieldView view)
    {
        requests.open(itemId, domainType, serviceId, name, nameOffset, nameLength, streaming, view);
    }

    @Override
    public void widenView(final int itemId, final FieldView view)
    {
        requests.widenView(itemId, view);
    }

    @Override
    public boolean openPrivate(
        final int itemId,
        final int domainType,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final FieldView view)
    {
        return requests.openPrivate(itemId, domainType, serviceId, name, nameOffset, nameLength, view);
    }

    @Override
    public void refresh(final int itemId)
    {
        requests.refresh(itemId);
    }

    @Override
    public void close(final int itemId)
    {
        requests.close(itemId);
    }

    @Override
    public boolean generic(final int itemId, final DirectBuffer rwf, final int offset, final int length)
    {
        final OpenItem item = requests.item(itemId);
        return !isBackboneDown && null != item && item.handle >= 0 && null != item.distributor &&
            control.generic(item.distributor.epoch, item.serviceId, item.handle, rwf, offset, length) > 0;
    }

    @Override
    public void onItemGeneric(
        final int serviceId, final int itemHandle, final DirectBuffer buffer, final int rwfOffset, final int rwfLength)
    {
        final DistributorState distributor = tracker.onLiveMessage(adapter.sessionId(), nowNs);
        final long itemId = distributor.itemByHandle.get(serviceId, itemHandle);
        if (MISSING != itemId)
        {
            listener.onGeneric((int)itemId, buffer, rwfOffset, rwfLength);
        }
    }

    @Override
    public List<ServiceInfo> services()
    {
        return tracker.services();
    }

    /**
     * @return distributors announced and heard within their liveness timeout, not replaced by a restart.
     */
    @Override
    public int liveUpstreams()
    {
        return tracker.liveUpstreams();
    }

    @Override
    public void close()
    {
        dutyCycle.close();
        wiring.close();
        backbone.close();
    }

    private int doWork(final long nowNs)
    {
        // first: nothing below that throws may keep the client from its keepalives; it may also find the backbone
        // lost or back, and rewire this source
        backbone.doWork(nowNs);
        this.nowNs = nowNs;
        // one poll is one burst for the worker: its consumers get one write each at the end, not one per message
        listener.onBatchStart();
        int work;
        try
        {
            work = adapter.poll(data, FRAGMENT_LIMIT);
        }
        finally
        {
            listener.onBatchEnd();
        }
        if (requests.hasLostPrivates())
        {
            work += requests.closeLostPrivates();
        }
        if (nowNs >= nextHousekeepingNs)
        {
            nextHousekeepingNs = nowNs + HOUSEKEEPING_INTERVAL_NS;
            if (nowNs >= nextRequestCheckNs)
            {
                nextRequestCheckNs = nowNs + REQUEST_CHECK_INTERVAL_NS;
                recovery.endIdlePasses(nowNs);
                work += requests.resendUnanswered(nowNs);
            }
            work += closes.sendPending();
            work += requests.sendQueued();
            if (recovery.hasPendingPasses())
            {
                work += recovery.sendPendingPasses(nowNs);
            }
            work += tracker.checkLiveness(nowNs);
            if (nowNs >= nextAnnounceNs && controlPublication.isConnected())
            {
                nextAnnounceNs = nowNs + announceIntervalNs;
                control.announce(epoch, (int)(announceIntervalNs / 1_000_000L), nowNs);
            }
        }
        return work;
    }

    // ---- data stream -------------------------------------------------------------------------------------------

    @Override
    public void onAnnouncement(
        final int distributorId, final long epoch, final int intervalMs, final long timestampNs, final int count)
    {
        tracker.onAnnouncement(
            tracker.onMessage(adapter.sessionId(), nowNs), distributorId, epoch, intervalMs, count);
    }

    @Override
    public void onServiceAnnounced(
        final int distributorId,
        final int serviceId,
        final boolean isUp,
        final boolean isAcceptingRequests,
        final long lastSequence,
        final int itemCount,
        final long capabilities,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        tracker.onServiceAnnounced(tracker.onMessage(adapter.sessionId(), nowNs), serviceId, isUp,
            isAcceptingRequests, lastSequence, itemCount, capabilities, buffer, nameOffset, nameLength);
    }

    @Override
    public boolean onItemRefresh(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final long requestId,
        final int domainType,
        final int flags,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        final DistributorState distributor = tracker.onLiveMessage(adapter.sessionId(), nowNs);
        if (!recovery.inSequence(distributor, serviceId, sequence, nowNs) || !distributor.isAlive)
        {
            return true; // a duplicate, or from a replaced distributor (a dead one was revived by this message)
        }

        if (0 != requestId)
        {
            answers.onAnswer(distributor, serviceId, itemHandle, requestId, domainType, flags, buffer, nameOffset,
                nameLength, rwfOffset, rwfLength);
            return true;
        }

        if (0 != (flags & RefreshFlags.RECOVERY))
        {
            recovery.onRecoveryImage(distributor, serviceId, nowNs); // a pass (ours or another server's) under way
        }
        answers.onImage(distributor, serviceId, itemHandle, domainType, flags, buffer, nameOffset, nameLength,
            rwfOffset, rwfLength);
        return true;
    }

    @Override
    public boolean onItemUpdate(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
        final DistributorState distributor = tracker.onLiveMessage(adapter.sessionId(), nowNs);
        if (recovery.inSequence(distributor, serviceId, sequence, nowNs))
        {
            final long itemId = distributor.itemByHandle.get(serviceId, itemHandle);
            if (MISSING != itemId)
            {
                listener.onUpdate((int)itemId, buffer, rwfOffset, rwfLength);
            }
        }
        return true;
    }

    @Override
    public boolean onItemStatus(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final long requestId,
        final int streamState,
        final int dataState,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
        final DistributorState distributor = tracker.onLiveMessage(adapter.sessionId(), nowNs);
        if (!recovery.inSequence(distributor, serviceId, sequence, nowNs) || !distributor.isAlive)
        {
            return true;
        }
        answers.onStatus(
            distributor, serviceId, itemHandle, requestId, streamState, buffer, rwfOffset, rwfLength, nowNs);
        return true;
    }

    // ---- posts -------------------------------------------------------------------------------------------------

    /**
     * A consumer's post goes out on the control stream, its id carrying this source's requester bits so that only
     * this source takes the PostAck; the distributor that carries the service answers (one per live carrier).
     */
    @Override
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public int post(
        final long postRequestId,
        final int itemId,
        final int serviceId,
        final int domainType,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        if (!tracker.hasCarrier(serviceId) || isBackboneDown)
        {
            return tracker.isListed(serviceId) ? NakCodes.SOURCE_DOWN : NakCodes.SOURCE_UNKNOWN;
        }
        // on-stream: to the distributor the item is bound to only (another carrier may not have it, or would apply
        // or forward it a second time); off-stream: any carrier of the service
        final OpenItem item = itemId >= 0 ? requests.item(itemId) : null;
        final long distributorEpoch = null != item && null != item.distributor ? item.distributor.epoch : 0;
        final long result = control.post(requestIdBase | (postRequestId & 0xFFFF_FFFFL), distributorEpoch, serviceId,
            domainType, name, nameOffset, nameLength, rwf, rwfOffset, rwfLength);
        return result > 0 ? POST_SENT : NakCodes.NO_RESOURCES;
    }

    @Override
    public void onPostAck(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final int serviceId,
        final int nakCode,
        final DirectBuffer buffer,
        final int textOffset,
        final int textLength)
    {
        if ((postRequestId & ItemRequests.REQUESTER_MASK) == requestIdBase)
        {
            listener.onPostAck(postRequestId & 0xFFFF_FFFFL, nakCode, buffer, textOffset, textLength);
        }
    }

    /**
     * @return how many items the request check walks (read on the worker's event loop).
     */
    int outstandingItems()
    {
        return requests.outstandingItems();
    }

    // ---- the backbone daemon lost and back ----------------------------------------------------------------------

    /**
     * The driver is gone (on the worker's loop, before the lost client's memory is unmapped): never touch its doorbell,
     * counters or streams again; every distributor is lost with it, their items turn Open/Suspect, and nothing is sent
     * until a new client is wired (requests wait in the queue, closes in theirs).
     */
    private void backboneLost()
    {
        if (isBackboneDown)
        {
            return; // a new client whose wiring failed: the lost one's memory may be gone, nothing of it is touched
        }
        isBackboneDown = true;
        if (null != linkSleep)
        {
            linkSleep.delegate(null);
        }
        doorbell = null;
        final Wiring lost = wiring;
        lost.malformedValue = lost.malformed.get();
        lost.backPressureValue = lost.backPressure.get();
        counters.detach(); // before the lost client's memory goes
        lost.close();
        tracker.lostAll("backbone lost: recovering");
        final int lostItems = requests.boundItems();
        recovery.reset();
        LOG.warn("worker {}: backbone lost: {} item(s) Open/Suspect, consumers stay connected", workerIndex,
            lostItems);
    }

    /**
     * A new client (on the worker's loop): make the streams, counters and doorbell again; the distributors announce
     * themselves on it and every item is asked for again through the usual recovery.
     */
    private void backboneRestored(final Aeron aeron)
    {
        final Wiring lost = wiring;
        final Wiring next = lost.rewire.apply(aeron);
        next.malformed.setOrdered(lost.malformedValue);
        next.backPressure.setOrdered(lost.backPressureValue);
        counters.reattach(next.gaps, next.recoveries, next.messagesIn);
        use(next);
        isBackboneDown = false;
        nextHousekeepingNs = nowNs;
        nextRequestCheckNs = nowNs;
        nextAnnounceNs = nowNs; // the distributors hear of this server at once
        if (wakesOnData)
        {
            final DoorbellSleep sleep = new DoorbellSleep(next.data, this::isNothingTimed);
            linkSleep.delegate(sleep); // polls on timers until its doorbell is open
            next.cycleWaker.wakeOn(eventLoop, dutyCycle);
            LinkSleep.openDoorbell(aeron, doorbellName(), eventLoop, dutyCycle, settings.dataStreamId(), (opened) ->
            {
                if (wiring == next && !isBackboneDown)
                {
                    doorbell = sleep.doorbell(opened);
                    next.owned.add(opened);
                }
                else
                {
                    CloseHelper.quietClose(opened);
                }
            });
        }
        LOG.info("worker {}: backbone back: subscribed again, {} item(s) to recover", workerIndex, requests.size());
        dutyCycle.wake();
    }

    /**
     * The control stream as the parts see it: the current client's publication, nothing while the backbone is lost.
     */
    private final class BackboneControl implements ControlSender
    {
        @Override
        public boolean isDown()
        {
            return isBackboneDown;
        }

        @Override
        public boolean isConnected()
        {
            return controlPublication.isConnected();
        }

        @Override
        @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
        public long requestItem(
            final long requestId,
            final int serviceId,
            final int domainType,
            final boolean isStreaming,
            final boolean isPrivate,
            final DirectBuffer name,
            final int nameOffset,
            final int nameLength,
            final FieldView view)
        {
            return control.requestItem(
                requestId, serviceId, domainType, isStreaming, isPrivate, name, nameOffset, nameLength, view);
        }

        @Override
        public long closeItem(final long distributorEpoch, final int serviceId, final int itemHandle)
        {
            return control.closeItem(distributorEpoch, serviceId, itemHandle);
        }

        @Override
        public long requestRecovery(
            final int serviceId, final int itemHandle, final int domainType, final long lastSequence)
        {
            return control.requestRecovery(serviceId, itemHandle, domainType, lastSequence);
        }
    }

    /**
     * The worker's reaction to the backbone daemon lost and back, run on its loop by {@link BackboneLink.Member}.
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
     * What the tracker's decisions mean for this source's items and its consumers' directory.
     */
    private final class TrackerEvents implements DistributorTracker.Listener
    {
        @Override
        public void onServiceChanged(final ServiceInfo service)
        {
            listener.onServiceChanged(service);
        }

        @Override
        public void onServiceCarried(final int serviceId)
        {
            requests.releaseHeld(serviceId);
        }

        @Override
        public void onServiceBackUp(final int serviceId)
        {
            requests.retryNow(serviceId, nowNs);
        }

        @Override
        public void onServiceWithdrawn(final DistributorState distributor, final int serviceId, final String text)
        {
            requests.rerequest(distributor, serviceId, text);
        }

        @Override
        public void onServiceSequence(final DistributorState distributor, final int serviceId, final long lastSequence)
        {
            recovery.onServiceSequence(distributor, serviceId, lastSequence, nowNs);
        }

        @Override
        public void onDistributorDied(final DistributorState distributor, final String text)
        {
            requests.failOver(distributor, text);
            recovery.onDistributorDied(distributor);
        }

        @Override
        public void onDistributorReplaced(final DistributorState distributor, final String text)
        {
            requests.rerequest(distributor, -1, text);
            requests.requestUnansweredAgain(distributor);
        }

        @Override
        public void onDistributorRevived(final DistributorState distributor, final int serviceId)
        {
            requests.releaseHeld(serviceId);
            recovery.recover(distributor, serviceId, null, nowNs);
        }
    }

    /**
     * The data stream's images, polled by the tracker's liveness check.
     */
    private final class DataImages implements DistributorTracker.StreamImages
    {
        /**
         * Silence is only evidence of death when this subscriber has read everything the distributor published: a
         * worker that lags behind on the stream (busy, thousands of fragments pending) has simply not reached its
         * messages yet. So the distributor's own image is polled: anything still to read (read now, so it counts)
         * means not dead yet.
         */
        @Override
        public boolean hasUnread(final int sessionId)
        {
            final Image image = data.imageBySessionId(sessionId);
            if (null == image || image.isClosed())
            {
                return false;
            }
            final long position = image.position();
            return adapter.poll(image, FRAGMENT_LIMIT) > 0 || image.position() != position;
        }

        @Override
        public boolean isGone(final int sessionId)
        {
            return null == data.imageBySessionId(sessionId);
        }
    }

    /**
     * What the factory made for one source on one client: streams, counters, and everything to close with it.
     */
    static final class Wiring implements AutoCloseable
    {
        final List<AutoCloseable> owned = new ArrayList<>();
        Aeron aeron;
        BackboneLink link;
        Function<Aeron, Wiring> rewire;
        CycleWaker cycleWaker = new CycleWaker();
        Subscription data;
        Publication controlPublication;
        ControlPublisher control;
        AtomicCounter malformed;
        AtomicCounter backPressure;
        AtomicCounter gaps;
        AtomicCounter recoveries;
        AtomicCounter messagesIn;
        long malformedValue;
        long backPressureValue;
        long epoch = System.currentTimeMillis();

        /**
         * Close everything made, newest first (quietly: after a lost driver they are closed already).
         */
        @Override
        public void close()
        {
            for (int i = owned.size() - 1; i >= 0; i--)
            {
                CloseHelper.quietClose(owned.get(i));
            }
            owned.clear();
        }
    }
}
