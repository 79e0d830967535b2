package io.mdhub.p2p.backbone;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.collections.ArrayListUtil;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.StreamStates;

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
import io.mdhub.backbone.protocol.ServiceSequenceTracker;
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
 * <b>Distributors.</b> Data messages name no distributor; the Aeron session they arrive on does (one publication per
 * distributor process), and the session's announcements give its distributor id and epoch. Sequences are tracked per
 * (distributor, service) and handles per (distributor, service, handle), so several distributors may carry the same
 * service on one stream (a hot standby, or two distributors of one provider service). An item is bound to the
 * distributor whose image answered its request first; the others' messages for it are ignored. A refusal counts
 * only from a distributor that carries the service, and is final only once every live distributor of the service has
 * refused the same request (another may still have the item).
 * <p>
 * <b>Loss and recovery.</b> A sequence gap on a (distributor, service), or an announcement whose lastSequence is ahead
 * of what was seen, turns the items bound to it Open/Suspect and asks for their images again, which reach every
 * watcher as unsolicited refreshes: by one service-level RecoveryRequest when this worker holds at least half of the
 * distributor's items of the service (the distributor resends the whole service in bounded batches), else by item
 * requests at a bounded rate. Items a pass did not bring (it has sent nothing for 2 s) are asked for one by one; a
 * distributor whose pass brought nothing at all (one that ignores RecoveryRequests) is recovered item by item.
 * <p>
 * <b>Liveness.</b> A distributor that sends nothing (any message counts) for {@code missedAnnouncements} announcement
 * intervals is dead: its items turn Open/Suspect; those of a service another live distributor carries are requested
 * again at once (failover), the others keep their binding until the same process comes back (any message of it;
 * then fresh images, and nothing it sends is dropped meanwhile) or another distributor of the service appears (then
 * failover). Silence counts only once this worker has read everything the distributor published (its image has
 * nothing left, or is gone): a worker lagging behind on the stream has not yet reached the messages that prove the
 * distributor alive. A new process announcing the same distributor id (a restart, new session and epoch) replaces
 * the old one at once: all its items are requested again.
 * <p>
 * <b>Items that wait for their provider.</b> A distributor refuses (ClosedRecover, NOT_FOUND) an item of a
 * non-interactive service its cache does not hold: one its provider has not published yet, or one that was live a
 * moment ago at a restarted distributor whose providers have not republished. With {@code itemWait} (the default)
 * neither refusal is passed on: the consumers see Open/Suspect once, the item waits by name in {@link WaitingItems},
 * and the provider's first refresh of it, broadcast with its name, makes the source ask for it at once; it is also
 * asked for again after 1 s, 2 s, 4 s, 8 s, 16 s, then every 30 s, in case that refresh was missed. Without
 * {@code itemWait} a first request for an unknown item is closed at once (Closed/Suspect NOT_FOUND) and an item that
 * had an image is retried for {@code recoveryGraceMs} after the first refusal (then the streams close). An
 * interactive provider's own refusal (Closed) is passed on.
 * <p>
 * <b>Refused for now.</b> Any other refusal with stream state ClosedRecover (a sink-driven service none of whose
 * providers is up at its distributor) is never passed on: the item's consumers see Open/Suspect, and it is asked for
 * again after the same growing waits for as long as they want it, and at once when the service is announced up
 * again.
 * <p>
 * <b>The backbone daemon lost.</b> When the host's media driver goes ({@link BackboneLink}), every distributor is
 * lost at once: their items turn Open/Suspect as for a dead distributor, nothing is sent (requests and closes wait),
 * and the consumers stay connected. On a new client the subscription, the control publication, the doorbell and the
 * counters are made again; the distributors announce themselves on new sessions, and every item is asked for again
 * through the paths above (a service that comes back releases its held requests and the items bound to a dead
 * distributor), so its watchers get a fresh refresh.
 */
public final class BackboneItemSource implements ItemSource, MarketDataListener
{
    private static final Logger LOG = LoggerFactory.getLogger(BackboneItemSource.class);

    private static final int FRAGMENT_LIMIT = 256;
    private static final long HOUSEKEEPING_INTERVAL_NS = 10_000_000L;
    private static final long REQUEST_CHECK_INTERVAL_NS = 250_000_000L;
    /** No entry, in the item indexes (the handle index's own marker, so its answers compare with it). */
    private static final long MISSING = HandleIndex.MISSING;
    private static final long NONE = OpenItem.NONE;
    private static final int PASS_NONE = CarriedService.PASS_NONE;
    private static final int PASS_PENDING = CarriedService.PASS_PENDING;
    private static final int PASS_SENT = CarriedService.PASS_SENT;
    /**
     * A service-level recovery pass that has brought no image for this long is over (a congested distributor sends
     * its recovery images slowly: asking item by item then would only add load).
     */
    private static final long PASS_IDLE_TIMEOUT_NS = 2_000_000_000L;

    /**
     * An item request unanswered for this long is sent again (its answer may have been published while this
     * p2p-server's image of the data stream was not connected, or have gone to a distributor that died).
     */
    private static final long REQUEST_TIMEOUT_NS = 1_000_000_000L;
    /**
     * Queued item requests (recoveries, and requests that met back-pressure) sent per 10 ms housekeeping cycle:
     * at most 25,600 a second, so a recovery of a whole service cannot flood the distributor.
     */
    private static final int REQUESTS_PER_CYCLE = 256;
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
    private final Int2ObjectHashMap<OpenItem> items = new Int2ObjectHashMap<>();
    /**
     * The items with something outstanding: a request not answered yet, a retry due, a recovery pass awaited. The
     * request check walks these, not every item: a walk of 100,000 items every 250 ms took the worker off its
     * sockets and the backbone for milliseconds, the same tail in the latency of every rate.
     */
    private final ArrayList<OpenItem> outstanding = new ArrayList<>();
    private final Long2LongHashMap itemByRequest = new Long2LongHashMap(MISSING);
    /** The bits of a requestId that name the requesting p2p-server and worker ({@link #requestIdBase}). */
    private static final long REQUESTER_MASK = 0xFFFF_FFFF_0000_0000L;
    /** Most outstanding requests {@link #closeUnwanted} scans for the same item. */
    private static final int UNWANTED_SCAN_LIMIT = 4096;
    private final IntArrayList queued = new IntArrayList();
    private final IntArrayList lostPrivates = new IntArrayList();
    private final IntArrayList itemScratch = new IntArrayList();
    private final EventLoopDutyCycle dutyCycle;
    private final EventLoop eventLoop;
    private final BackboneItemSourceFactory.Settings settings;
    private final boolean wakesOnData;
    private final LinkSleep linkSleep;
    private final BackboneLink.Member backbone;
    private EventLoopDoorbell doorbell;
    /** The backbone daemon is lost: nothing can be sent or read until a new client is wired. */
    private boolean isBackboneDown;
    private int pendingPasses;
    private int nextRequest = java.util.concurrent.ThreadLocalRandom.current().nextInt(); // ids differ per start
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
        this.wake = dutyCycle::wake;
        this.closes = new UpstreamCloses(sender, wake, workerIndex, PENDING_CLOSE_CAPACITY, REQUESTS_PER_CYCLE);
        this.backbone = wiring.link.join(new LinkListener());
        dutyCycle.start();
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
            (closes.isEmpty() && queued.isEmpty() && 0 == pendingPasses);
    }

    /**
     * An item some of whose consumers want only some fields: every request for it carries the view (the union of
     * the fields its consumers want), which a distributor passes on to an interactive provider.
     */
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
        OpenItem item = items.get(itemId);
        if (null == item)
        {
            final byte[] copy = new byte[nameLength];
            name.getBytes(nameOffset, copy);
            item = new OpenItem(itemId, domainType, serviceId, new UnsafeBuffer(copy));
            items.put(itemId, item);
        }
        item.isStreaming = streaming;
        item.view = view;
        request(item);
    }

    @Override
    public void widenView(final int itemId, final FieldView view)
    {
        final OpenItem item = items.get(itemId);
        if (null != item && !item.isPrivate)
        {
            item.view = view;
            request(item);
        }
        else
        {
            refresh(itemId);
        }
    }

    /**
     * A private stream is requested like any item, flagged so that the distributor opens a stream of its own for it;
     * it is never asked for again by name (that would open another): a fresh image comes by a RecoveryRequest for its
     * handle, and a private stream whose upstream is lost (its distributor died or restarted, data lost) is closed
     * ClosedRecover, for its consumer to open again, as an ADS does.
     */
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
        final byte[] copy = new byte[nameLength];
        name.getBytes(nameOffset, copy);
        final OpenItem item = new OpenItem(itemId, domainType, serviceId, new UnsafeBuffer(copy));
        item.isPrivate = true;
        item.view = view;
        item.isStreaming = true;
        items.put(itemId, item);
        request(item);
        return true;
    }

    @Override
    public boolean generic(final int itemId, final DirectBuffer rwf, final int offset, final int length)
    {
        final OpenItem item = items.get(itemId);
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
    public void refresh(final int itemId)
    {
        final OpenItem item = items.get(itemId);
        if (null != item && item.isPrivate)
        {
            if (item.handle >= 0 && !sender.isDown())
            {
                sender.requestRecovery(item.serviceId, item.handle, item.domainType, 0);
            }
            return;
        }
        if (null != item && item.handle >= 0)
        {
            request(item);
        }
        // no handle yet: the answer to the first request is on its way and serves this watcher too
    }

    @Override
    public void close(final int itemId)
    {
        final OpenItem item = items.remove(itemId);
        if (null == item)
        {
            return;
        }
        final int handle = item.handle;
        final long distributorEpoch = null == item.distributor ? 0 : item.distributor.epoch;
        forget(item);
        if (handle >= 0)
        {
            closes.close(distributorEpoch, item.serviceId, handle);
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
        if (!lostPrivates.isEmpty())
        {
            work += closeLostPrivates();
        }
        if (nowNs >= nextHousekeepingNs)
        {
            nextHousekeepingNs = nowNs + HOUSEKEEPING_INTERVAL_NS;
            if (nowNs >= nextRequestCheckNs)
            {
                nextRequestCheckNs = nowNs + REQUEST_CHECK_INTERVAL_NS;
                work += resendUnanswered(nowNs);
            }
            work += closes.sendPending();
            work += sendQueued();
            if (pendingPasses > 0)
            {
                work += sendPendingPasses();
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
        if (!inSequence(distributor, serviceId, sequence) || !distributor.isAlive)
        {
            return true; // a duplicate, or from a replaced distributor (a dead one was revived by this message)
        }

        if (0 != requestId)
        {
            final long itemId = itemByRequest.get(requestId);
            if (MISSING == itemId)
            {
                // another p2p-server's answer, a superseded request, or another distributor was first
                closeUnwanted(distributor, serviceId, itemHandle, requestId, buffer, nameOffset, nameLength);
                return true;
            }
            final OpenItem item = items.get((int)itemId);
            if (null == item)
            {
                itemByRequest.remove(requestId);
                closeUnwanted(distributor, serviceId, itemHandle, requestId, buffer, nameOffset, nameLength);
                return true; // closed while the request was out
            }
            if (item.serviceId != serviceId || item.domainType != domainType ||
                !sameBytes(item.name, buffer, nameOffset, nameLength))
            {
                return true; // another server's answer under a colliding id: not ours
            }
            // A multi-part refresh answers the request part by part: the request stays outstanding (and its later
            // parts wanted) until the part that completes it.
            final boolean isComplete = 0 != (flags & RefreshFlags.COMPLETE);
            if (isComplete)
            {
                itemByRequest.remove(requestId);
                if (item.requestId == requestId)
                {
                    item.requestId = 0; // answered: nothing outstanding for this item any more
                }
            }
            else if (item.requestId == requestId)
            {
                item.requestedAtNs = clock.nanoTime(); // still arriving: not a request to send again yet
            }
            if (item.distributor != distributor || item.handle != itemHandle)
            {
                bind(item, distributor, itemHandle);
            }
            // a recovery's answer goes to every watcher (it ends their Suspect), a plain answer to those awaiting it
            final boolean isSolicited = item.isAnswerInParts ? item.isAnswerSolicited : !item.isRecovering;
            item.isAnswerInParts = !isComplete;
            item.isAnswerSolicited = isSolicited;
            item.isRecovering = false;
            item.hadImage = true;
            item.refusedSinceNs = NONE;
            item.retryDelayNs = 0;
            retries.stopWaiting(item);
            listener.onRefresh(item.itemId, isSolicited, buffer, rwfOffset, rwfLength);
            if (isComplete && !item.isStreaming && items.get(item.itemId) == item)
            {
                items.remove(item.itemId);
                forget(item);
            }
            return true;
        }

        if (0 != (flags & RefreshFlags.RECOVERY))
        {
            final CarriedService service = distributor.services.get(serviceId);
            if (null != service)
            {
                service.lastPassImageNs = nowNs; // a pass (ours or another server's) is under way
                service.passImages++;
                service.isPassIgnored = false;
            }
        }
        final long itemId = distributor.itemByHandle.get(serviceId, itemHandle);
        if (MISSING != itemId)
        {
            final OpenItem item = items.get((int)itemId);
            if (null != item)
            {
                // Whole again: this image is later in the stream than any loss seen so far, and its watchers now see
                // Open/Ok — whether it came from the pass the item waited for, another worker's or server's pass, or
                // the provider. A request of its own still out only brings one more image. Not recovering any more,
                // so the next gap turns it Suspect again before the updates that follow that gap reach anyone.
                whole(item);
            }
            // a recovery pass, or the provider resynchronised: every watcher takes the new image
            listener.onRefresh((int)itemId, false, buffer, rwfOffset, rwfLength);
        }
        else if (retries.hasWaiting() && 0 != (flags & RefreshFlags.COMPLETE))
        {
            onPublished(serviceId, domainType, buffer, nameOffset, nameLength);
        }
        return true;
    }

    /**
     * A provider published an item: if someone here waits for it, its image is asked for now, not at the next retry.
     */
    private void onPublished(
        final int serviceId,
        final int domainType,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        final OpenItem item = retries.waitingFor(serviceId, domainType, buffer, nameOffset, nameLength);
        if (null != item && 0 == item.requestId)
        {
            request(item);
        }
    }

    private void whole(final OpenItem item)
    {
        item.awaitingPass = null;
        item.isRecovering = false;
        item.isAwaitingRetry = false;
        item.hadImage = true;
        item.refusedSinceNs = NONE;
        item.retryDelayNs = 0;
        retries.stopWaiting(item);
    }

    /**
     * An answer to one of this source's own requests that nobody here wants any more (the item closed, or a newer
     * request superseded it) still registered interest at the distributor: a sink-driven item would stay open
     * upstream for nobody. Close it, unless the handle is bound to an open item here or a request for the same item
     * is out (its answer relies on that interest; a close now would arrive after that request). The check scans the
     * outstanding requests, so it is skipped, and the interest kept until this server restarts, while too many are
     * out.
     */
    private void closeUnwanted(
        final DistributorState distributor,
        final int serviceId,
        final int itemHandle,
        final long requestId,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        if ((requestId & REQUESTER_MASK) != requestIdBase || itemHandle < 0 ||
            MISSING != distributor.itemByHandle.get(serviceId, itemHandle))
        {
            return;
        }
        if (itemByRequest.size() > UNWANTED_SCAN_LIMIT)
        {
            return;
        }
        final Long2LongHashMap.ValueIterator it = itemByRequest.values().iterator();
        while (it.hasNext())
        {
            final OpenItem other = items.get((int)it.nextValue());
            if (null != other && other.serviceId == serviceId && sameBytes(other.name, buffer, nameOffset, nameLength))
            {
                return;
            }
        }
        closes.close(distributor.epoch, serviceId, itemHandle);
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
        if (inSequence(distributor, serviceId, sequence))
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
        if (!inSequence(distributor, serviceId, sequence) || !distributor.isAlive)
        {
            return true;
        }
        if (itemHandle < 0)
        {
            onRefusal(distributor, serviceId, requestId, streamState, buffer, rwfOffset, rwfLength);
            return true;
        }
        final long itemId = distributor.itemByHandle.get(serviceId, itemHandle);
        if (MISSING == itemId)
        {
            return true;
        }
        final OpenItem item = items.get((int)itemId);
        listener.onStatus((int)itemId, buffer, rwfOffset, rwfLength);
        if (null != item && streamState != StreamStates.OPEN && items.get(item.itemId) == item)
        {
            items.remove(item.itemId);
            forget(item);
        }
        return true;
    }

    private void onRefusal(
        final DistributorState distributor,
        final int serviceId,
        final long requestId,
        final int streamState,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
        final long itemId = itemByRequest.get(requestId);
        if (MISSING == itemId)
        {
            return;
        }
        final OpenItem item = items.get((int)itemId);
        if (null == item)
        {
            itemByRequest.remove(requestId);
            return;
        }
        if (item.serviceId != serviceId)
        {
            return; // another server's request under a colliding id
        }
        if (!distributor.carries(serviceId) && (item.hadImage || tracker.hasCarrier(serviceId)))
        {
            return; // not its say: a distributor without the service refuses whatever it is asked for it
        }
        if (++item.refusals < tracker.carriers(serviceId))
        {
            return; // another distributor of the service may still have the item
        }
        itemByRequest.remove(requestId);
        item.requestId = 0;
        if (StreamStates.CLOSED_RECOVER == streamState)
        {
            if (retries.isNotFound(buffer, rwfOffset, rwfLength))
            {
                onNotPublished(item); // not in the distributor's cache: its non-interactive provider may publish it
                return;
            }
            // for now, not for good (no provider of the service is up): asked for again until one answers
            retryLater(item, false, "no provider of the service is up: waiting for one");
            return;
        }
        if (item.hadImage && StreamStates.OPEN != streamState &&
            retryLater(item, true, "not (yet) republished by its distributor: retrying"))
        {
            return; // live before: it may not be republished yet (a restarted distributor's cache fills up again)
        }
        listener.onStatus(item.itemId, buffer, rwfOffset, rwfLength);
        if (streamState != StreamStates.OPEN && items.get(item.itemId) == item)
        {
            items.remove(item.itemId);
            forget(item);
        }
    }

    /**
     * An item its non-interactive provider has not published (yet): with {@code itemWait} its consumers wait for it;
     * without, one that had an image is retried for the grace period (a restarted distributor's cache fills up again)
     * and any other is closed at once, Closed/Suspect NOT_FOUND.
     */
    private void onNotPublished(final OpenItem item)
    {
        if (retries.isItemWait())
        {
            waitForProvider(item);
            return;
        }
        if (item.hadImage && retryLater(item, true, "not (yet) republished by its distributor: retrying"))
        {
            return;
        }
        statuses.notFound(item, retries.refusalText());
        if (items.get(item.itemId) == item)
        {
            items.remove(item.itemId);
            forget(item);
        }
    }

    /**
     * The item's distributors do not have it (yet): its consumers stay Open/Suspect until its provider publishes it.
     */
    private void waitForProvider(final OpenItem item)
    {
        retryLater(item, false, retries.waitForProvider(item));
    }

    /**
     * @return how many items wait for their provider (read on the worker's event loop).
     */
    int waitingItems()
    {
        return retries.waitingItems();
    }

    /**
     * A refused item is asked for again after a growing wait while its consumers stay Open/Suspect: an item that was
     * live before and is refused while recovering, until {@code recoveryGraceNs} after the first refusal; an item
     * refused for now (ClosedRecover: no provider of its service is up), until it is answered, and at once when its
     * service is announced up again ({@link #retryNow}).
     *
     * @param isGraceBounded stop retrying {@code recoveryGraceNs} after the first refusal.
     * @param text           the Open/Suspect status text its consumers see at the first refusal.
     * @return true if retried later; false when the grace period is over and the refusal is to be passed on.
     */
    private boolean retryLater(final OpenItem item, final boolean isGraceBounded, final String text)
    {
        final int next = retries.retryLater(item, isGraceBounded, nowNs);
        if (ItemRetries.GIVE_UP == next)
        {
            return false;
        }
        watch(item);
        item.isRecovering = true;
        if (ItemRetries.FIRST == next)
        {
            statuses.suspect(item, text);
        }
        return true;
    }

    /**
     * A service is announced up again: its items waiting for their next try are asked for at the next request check,
     * not after the rest of their wait.
     */
    private void retryNow(final int serviceId)
    {
        for (final OpenItem item : items.values())
        {
            if (item.serviceId == serviceId && item.isAwaitingRetry)
            {
                item.retryAtNs = nowNs;
            }
        }
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
        final OpenItem item = itemId >= 0 ? items.get(itemId) : null;
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
        if ((postRequestId & REQUESTER_MASK) == requestIdBase)
        {
            listener.onPostAck(postRequestId & 0xFFFF_FFFFL, nakCode, buffer, textOffset, textLength);
        }
    }

    // ---- distributors and the directory ------------------------------------------------------------------------

    /**
     * A distributor fell silent: its items turn Open/Suspect. Those of a service another live distributor carries
     * are requested again at once (failover); the others keep their binding, since the same process may come back
     * (a long pause, a network partition shorter than the image timeout) and its handles would still hold — or
     * another distributor of the service may appear, and they fail over to it then. Its recovery passes end with it.
     */
    private void failOver(final DistributorState distributor, final String text)
    {
        itemScratch.clear();
        for (final OpenItem item : items.values())
        {
            if (item.distributor == distributor)
            {
                itemScratch.addInt(item.itemId);
            }
        }
        for (int i = 0, size = itemScratch.size(); i < size; i++)
        {
            final OpenItem item = items.get(itemScratch.getInt(i));
            if (null == item)
            {
                continue;
            }
            counters.onRecovery();
            item.isRecovering = true;
            if (tracker.hasCarrier(item.serviceId))
            {
                unbind(item);
                queueRequest(item);
            }
            else
            {
                item.awaitingPass = null; // its pass died with it
            }
            statuses.suspect(item, text);
        }
        requestUnansweredAgain(distributor);
        for (final CarriedService service : distributor.services.values())
        {
            service.passState = PASS_NONE;
        }
    }

    /**
     * Items awaiting an answer the lost process may never send: ask the live distributors now.
     */
    private void requestUnansweredAgain(final DistributorState distributor)
    {
        for (final OpenItem item : items.values())
        {
            if (null == item.distributor && 0 != item.requestId && !item.isQueued && !item.isHeld &&
                !item.isAwaitingRetry && distributor.services.containsKey(item.serviceId))
            {
                queueRequest(item);
            }
        }
    }

    /**
     * Unbind the items of a distributor (one service, or -1 for all), turn them Open/Suspect and request them again.
     */
    private void rerequest(final DistributorState distributor, final int serviceId, final String text)
    {
        itemScratch.clear();
        for (final OpenItem item : items.values())
        {
            if (item.distributor == distributor && (serviceId < 0 || item.serviceId == serviceId))
            {
                itemScratch.addInt(item.itemId);
            }
        }
        for (int i = 0, size = itemScratch.size(); i < size; i++)
        {
            final OpenItem item = items.get(itemScratch.getInt(i));
            if (null != item)
            {
                unbind(item);
                counters.onRecovery();
                item.isRecovering = true;
                queueRequest(item);
                statuses.suspect(item, text);
            }
        }
    }

    // ---- recovery ----------------------------------------------------------------------------------------------

    private boolean inSequence(final DistributorState distributor, final int serviceId, final long sequence)
    {
        final long result = distributor.sequences.onMessage(serviceId, sequence);
        if (ServiceSequenceTracker.DUPLICATE == result)
        {
            return false;
        }
        counters.onMessageIn();
        if (result > 0)
        {
            counters.onGap();
            recover(distributor, serviceId, "gap on the backbone: recovering");
        }
        return true;
    }

    /**
     * Loss on one distributor's service: its items there turn Open/Suspect and their images are asked for again —
     * by one service-level RecoveryRequest when this worker holds at least half of the distributor's items of the
     * service (resending the whole service then costs at most twice the images, and one request instead of
     * thousands), else item by item. A null text sends no status (the items are Suspect already).
     */
    private void recover(final DistributorState distributor, final int serviceId, final String text)
    {
        itemScratch.clear();
        for (final OpenItem item : items.values())
        {
            if (item.distributor == distributor && item.serviceId == serviceId)
            {
                if (item.isRecovering && (0 != item.requestId || null != item.awaitingPass))
                {
                    // Its image is still to come, later in the ordered stream than this loss, so it covers the loss
                    // too: asking again would only add load (and, under load, more loss: a recovery storm).
                    continue;
                }
                itemScratch.addInt(item.itemId);
            }
        }
        final int affected = itemScratch.size();
        final CarriedService service = distributor.services.get(serviceId);
        final boolean isServiceWide = affected > 0 && null != service && !service.isPassIgnored &&
            PASS_NONE == service.passState && 2L * affected >= service.itemCount;
        for (int i = 0; i < affected; i++)
        {
            final OpenItem item = items.get(itemScratch.getInt(i));
            if (null == item)
            {
                continue;
            }
            counters.onRecovery();
            item.isRecovering = true;
            if (isServiceWide)
            {
                item.awaitingPass = service;
                watch(item);
            }
            else
            {
                queueRequest(item); // sent by housekeeping at a bounded rate
            }
            if (null != text)
            {
                statuses.suspect(item, text);
            }
        }
        if (isServiceWide)
        {
            service.passState = PASS_PENDING;
            service.passImages = 0;
            if (!sendPass(service))
            {
                pendingPasses++;
                dutyCycle.wake();
            }
        }
    }

    private boolean sendPass(final CarriedService service)
    {
        if (!sender.isDown() && sender.requestRecovery(service.serviceId, -1, 0,
            service.distributor.sequences.lastSequence(service.serviceId)) > 0)
        {
            service.passState = PASS_SENT;
            service.lastPassImageNs = nowNs;
            return true;
        }
        return false; // back-pressure or nobody listening: housekeeping tries again
    }

    private int sendPendingPasses()
    {
        final List<DistributorState> distributors = tracker.distributors();
        int sent = 0;
        int stillPending = 0;
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            for (final CarriedService service : distributors.get(i).services.values())
            {
                if (PASS_PENDING == service.passState)
                {
                    if (sendPass(service))
                    {
                        sent++;
                    }
                    else
                    {
                        stillPending++;
                    }
                }
            }
        }
        pendingPasses = stillPending; // recounted: services of distributors lost meanwhile are gone
        return sent;
    }

    /**
     * A service-level recovery is over once its distributor has sent no recovery image for a while (the pass
     * finished, or the distributor ignores RecoveryRequests: then its services are recovered item by item from now
     * on). Items of the pass still without an image are asked for one by one.
     */
    private void endIdlePasses(final long nowNs)
    {
        final List<DistributorState> distributors = tracker.distributors();
        for (int i = 0, size = distributors.size(); i < size; i++)
        {
            for (final CarriedService service : distributors.get(i).services.values())
            {
                if (PASS_SENT == service.passState && nowNs - service.lastPassImageNs > PASS_IDLE_TIMEOUT_NS)
                {
                    service.passState = PASS_NONE;
                    service.isPassIgnored = 0 == service.passImages;
                }
            }
        }
    }

    // ---- requests ----------------------------------------------------------------------------------------------

    private void request(final OpenItem item)
    {
        if (isLostPrivate(item))
        {
            return;
        }
        item.isHeld = false;
        supersede(item);
        if (item.isQueued || !tracker.hasCarrier(item.serviceId) || !send(item))
        {
            enqueue(item); // no distributor of the service yet, or back-pressure: retried by housekeeping
        }
    }

    private void queueRequest(final OpenItem item)
    {
        if (isLostPrivate(item))
        {
            return;
        }
        item.isHeld = false;
        supersede(item);
        enqueue(item);
    }

    /**
     * A private stream that was live is never asked for again by name: while its distributor lives (a gap, a
     * recovery) a fresh image comes by a RecoveryRequest for its handle; when the distributor died or was replaced,
     * its upstream stream is lost and it is closed at the next duty cycle (not here: the callers walk the items).
     */
    private boolean isLostPrivate(final OpenItem item)
    {
        if (!item.isPrivate || !item.hadImage)
        {
            return false;
        }
        final DistributorState distributor = item.distributor;
        if (null != distributor && distributor.isAlive && !distributor.isReplaced && item.handle >= 0)
        {
            if (sender.isDown())
            {
                return true; // not reached: every distributor is dead while the backbone is down
            }
            sender.requestRecovery(item.serviceId, item.handle, item.domainType, 0);
            return true;
        }
        if (!item.isLost)
        {
            item.isLost = true;
            lostPrivates.addInt(item.itemId);
            dutyCycle.wake();
        }
        return true;
    }

    private int closeLostPrivates()
    {
        final int count = lostPrivates.size();
        for (int i = 0; i < count; i++)
        {
            final OpenItem item = items.get(lostPrivates.getInt(i));
            if (null == item || !item.isLost)
            {
                continue;
            }
            items.remove(item.itemId);
            final int handle = item.handle;
            final long distributorEpoch = null == item.distributor ? 0 : item.distributor.epoch;
            forget(item);
            if (handle >= 0)
            {
                closes.close(distributorEpoch, item.serviceId, handle);
            }
            statuses.lostPrivate(item); // its consumer opens it again, upstream closed first
        }
        lostPrivates.clear();
        return count;
    }

    private void supersede(final OpenItem item)
    {
        if (item.requestId != 0)
        {
            itemByRequest.remove(item.requestId); // a newer request supersedes it
        }
        item.requestId = requestIdBase | (++nextRequest & 0xFFFF_FFFFL);
        item.refusals = 0;
        item.isAwaitingRetry = false;
        item.awaitingPass = null;
        itemByRequest.put(item.requestId, item.itemId);
        watch(item);
    }

    private int resendUnanswered(final long nowNs)
    {
        endIdlePasses(nowNs);
        int resent = 0;
        for (int i = 0; i < outstanding.size(); )
        {
            final OpenItem item = outstanding.get(i);
            if (item != items.get(item.itemId) || !hasOutstanding(item))
            {
                item.isOutstanding = false;
                ArrayListUtil.fastUnorderedRemove(outstanding, i); // the last one moves here: look at i again
                continue;
            }
            i++;
            if (null != item.awaitingPass)
            {
                if (PASS_NONE == item.awaitingPass.passState || !item.awaitingPass.distributor.isAlive)
                {
                    queueRequest(item); // the pass is over and brought no image of it
                    resent++;
                }
            }
            else if (item.isAwaitingRetry)
            {
                if (nowNs - item.retryAtNs >= 0)
                {
                    counters.onRecovery();
                    queueRequest(item);
                    resent++;
                }
            }
            else if (0 != item.requestId && !item.isQueued && !item.isHeld &&
                nowNs - item.requestedAtNs > REQUEST_TIMEOUT_NS)
            {
                counters.onRecovery();
                supersede(item);
                enqueue(item);
                resent++;
            }
        }
        return resent;
    }

    /**
     * @return how many items the request check walks (read on the worker's event loop).
     */
    int outstandingItems()
    {
        return outstanding.size();
    }

    private static boolean hasOutstanding(final OpenItem item)
    {
        return 0 != item.requestId || item.isAwaitingRetry || null != item.awaitingPass;
    }

    /**
     * Put the item on the request check's list, if it is not there yet; it leaves when nothing is outstanding.
     */
    private void watch(final OpenItem item)
    {
        if (!item.isOutstanding)
        {
            item.isOutstanding = true;
            outstanding.add(item);
        }
    }

    private boolean send(final OpenItem item)
    {
        item.requestedAtNs = clock.nanoTime();
        return !sender.isDown() && sender.requestItem(item.requestId, item.serviceId, item.domainType,
            item.isStreaming, item.isPrivate, item.name, 0, item.name.capacity(), item.view) > 0;
    }

    private void enqueue(final OpenItem item)
    {
        if (!item.isQueued)
        {
            item.isQueued = true;
            queued.addInt(item.itemId);
            dutyCycle.wake(); // a worker asleep on its doorbell would leave it to the tick
        }
    }

    private int sendQueued()
    {
        int sent = 0;
        while (!queued.isEmpty() && sent < REQUESTS_PER_CYCLE && sender.isConnected())
        {
            final int itemId = queued.getInt(queued.size() - 1);
            final OpenItem item = items.get(itemId);
            if (null != item && item.isQueued)
            {
                if (!tracker.hasCarrier(item.serviceId))
                {
                    item.isHeld = true; // no live distributor of the service: the request waits for one
                }
                else if (!send(item))
                {
                    break; // back-pressure: try again next cycle
                }
                else
                {
                    sent++;
                }
                item.isQueued = false;
            }
            queued.removeAt(queued.size() - 1);
        }
        return sent;
    }

    /**
     * A live distributor (again) carries the service: requests that waited for one go out, and items still bound to
     * a dead distributor of the service fail over.
     */
    private void releaseHeld(final int serviceId)
    {
        for (final OpenItem item : items.values())
        {
            if (item.serviceId != serviceId)
            {
                continue;
            }
            if (null != item.distributor && !item.distributor.isAlive)
            {
                unbind(item);
                queueRequest(item);
            }
            else if (item.isHeld)
            {
                queueRequest(item);
            }
        }
    }

    private static void bind(final OpenItem item, final DistributorState distributor, final int handle)
    {
        unbind(item);
        item.distributor = distributor;
        item.handle = handle;
        distributor.itemByHandle.put(item.serviceId, handle, item.itemId);
    }

    private static void unbind(final OpenItem item)
    {
        if (null != item.distributor)
        {
            item.distributor.itemByHandle.remove(item.serviceId, item.handle);
            item.distributor = null;
        }
        item.handle = -1;
    }

    private void forget(final OpenItem item)
    {
        retries.stopWaiting(item);
        unbind(item);
        if (item.requestId != 0)
        {
            itemByRequest.remove(item.requestId);
            item.requestId = 0;
        }
    }

    private static boolean sameBytes(
        final UnsafeBuffer expected, final DirectBuffer buffer, final int offset, final int length)
    {
        if (expected.capacity() != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (expected.getByte(i) != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
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
        int lostItems = 0;
        tracker.lostAll("backbone lost: recovering");
        for (final OpenItem item : items.values())
        {
            lostItems += null == item.distributor ? 0 : 1;
        }
        pendingPasses = 0;
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
        LOG.info("worker {}: backbone back: subscribed again, {} item(s) to recover", workerIndex, items.size());
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
            releaseHeld(serviceId);
        }

        @Override
        public void onServiceBackUp(final int serviceId)
        {
            retryNow(serviceId);
        }

        @Override
        public void onServiceWithdrawn(final DistributorState distributor, final int serviceId, final String text)
        {
            rerequest(distributor, serviceId, text);
        }

        @Override
        public void onServiceSequence(final DistributorState distributor, final int serviceId, final long lastSequence)
        {
            if (distributor.sequences.missingBefore(serviceId, lastSequence) > 0)
            {
                counters.onGap();
                distributor.sequences.onMessage(serviceId, lastSequence);
                recover(distributor, serviceId, "tail loss on the backbone: recovering");
            }
        }

        @Override
        public void onDistributorDied(final DistributorState distributor, final String text)
        {
            failOver(distributor, text);
        }

        @Override
        public void onDistributorReplaced(final DistributorState distributor, final String text)
        {
            rerequest(distributor, -1, text);
            requestUnansweredAgain(distributor);
        }

        @Override
        public void onDistributorRevived(final DistributorState distributor, final int serviceId)
        {
            releaseHeld(serviceId);
            recover(distributor, serviceId, null);
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
