package io.mdhub.p2p.backbone;

import java.util.ArrayList;

import org.agrona.DirectBuffer;
import org.agrona.collections.ArrayListUtil;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.rwf.FieldView;
import io.mdhub.p2p.source.ItemSourceListener;

/**
 * The items a backbone item source holds open, and their requests: ids unique to this p2p-server and worker
 * ({@code requestIdBase}), sent at once or queued (back-pressure, recovery) and sent by housekeeping at a bounded
 * rate, held while no live distributor carries the service, sent again when unanswered for 1 s. An item is bound to
 * the distributor whose image answered first (its handle then names it); refusals, retries, waits for the provider,
 * failover and private streams lost upstream are handled here. Owned by the worker's event loop; the wake-up runs
 * the duty cycle soon for work queued outside it.
 */
final class ItemRequests implements RecoverableItems
{
    /** The bits of a requestId that name the requesting p2p-server and worker ({@code requestIdBase}). */
    static final long REQUESTER_MASK = 0xFFFF_FFFF_0000_0000L;
    /**
     * Queued item requests (recoveries, and requests that met back-pressure) sent per 10 ms housekeeping cycle:
     * at most 25,600 a second, so a recovery of a whole service cannot flood the distributor.
     */
    static final int REQUESTS_PER_CYCLE = 256;
    /**
     * An item request unanswered for this long is sent again (its answer may have been published while this
     * p2p-server's image of the data stream was not connected, or have gone to a distributor that died).
     */
    static final long REQUEST_TIMEOUT_NS = 1_000_000_000L;
    /** Most outstanding requests {@link #isAskedFor} scans for the same item. */
    private static final int UNWANTED_SCAN_LIMIT = 4096;
    /** No entry, in the item indexes (the handle index's own marker, so its answers compare with it). */
    private static final long MISSING = HandleIndex.MISSING;

    private final Int2ObjectHashMap<OpenItem> items = new Int2ObjectHashMap<>();
    /**
     * The items with something outstanding: a request not answered yet, a retry due, a recovery pass awaited. The
     * request check walks these, not every item, so that a check costs what is outstanding, not what is open.
     */
    private final ArrayList<OpenItem> outstanding = new ArrayList<>();
    private final Long2LongHashMap itemByRequest = new Long2LongHashMap(MISSING);
    private final IntArrayList queued = new IntArrayList();
    private final IntArrayList lostPrivates = new IntArrayList();
    private final IntArrayList itemScratch = new IntArrayList();
    private final long requestIdBase;
    private final ItemSourceListener listener;
    private final ControlSender control;
    private final Carriers carriers;
    private final ItemStatuses statuses;
    private final ItemRetries retries;
    private final UpstreamCloses closes;
    private final SourceCounters counters;
    private final NanoClock clock;
    private final Runnable wake;
    private int nextRequest = java.util.concurrent.ThreadLocalRandom.current().nextInt(); // ids differ per start

    ItemRequests(
        final long requestIdBase,
        final ItemSourceListener listener,
        final ControlSender control,
        final Carriers carriers,
        final ItemStatuses statuses,
        final ItemRetries retries,
        final UpstreamCloses closes,
        final SourceCounters counters,
        final NanoClock clock,
        final Runnable wake)
    {
        this.requestIdBase = requestIdBase;
        this.listener = listener;
        this.control = control;
        this.carriers = carriers;
        this.statuses = statuses;
        this.retries = retries;
        this.closes = closes;
        this.counters = counters;
        this.clock = clock;
        this.wake = wake;
    }

    /**
     * @return the open item, or null.
     */
    OpenItem item(final int itemId)
    {
        return items.get(itemId);
    }

    /**
     * @return how many items are open.
     */
    int size()
    {
        return items.size();
    }

    /**
     * @return how many open items are bound to a distributor.
     */
    int boundItems()
    {
        int bound = 0;
        for (final OpenItem item : items.values())
        {
            bound += null == item.distributor ? 0 : 1;
        }
        return bound;
    }

    /**
     * @return how many items the request check walks.
     */
    int outstandingItems()
    {
        return outstanding.size();
    }

    boolean isQueueEmpty()
    {
        return queued.isEmpty();
    }

    boolean hasLostPrivates()
    {
        return !lostPrivates.isEmpty();
    }

    /**
     * An item some of whose consumers want only some fields: every request for it carries the view (the union of
     * the fields its consumers want), which a distributor passes on to an interactive provider.
     */
    void open(
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

    void widenView(final int itemId, final FieldView view)
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
    boolean openPrivate(
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

    void refresh(final int itemId)
    {
        final OpenItem item = items.get(itemId);
        if (null != item && item.isPrivate)
        {
            if (item.handle >= 0 && !control.isDown())
            {
                control.requestRecovery(item.serviceId, item.handle, item.domainType, 0);
            }
            return;
        }
        if (null != item && item.handle >= 0)
        {
            request(item);
        }
        // no handle yet: the answer to the first request is on its way and serves this watcher too
    }

    void close(final int itemId)
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

    /**
     * A service is announced up again: its items waiting for their next try are asked for at the next request check,
     * not after the rest of their wait.
     */
    void retryNow(final int serviceId, final long nowNs)
    {
        for (final OpenItem item : items.values())
        {
            if (item.serviceId == serviceId && item.isAwaitingRetry)
            {
                item.retryAtNs = nowNs;
            }
        }
    }

    void request(final OpenItem item)
    {
        if (isLostPrivate(item))
        {
            return;
        }
        item.isHeld = false;
        supersede(item);
        if (item.isQueued || !carriers.hasCarrier(item.serviceId) || !send(item))
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
            if (control.isDown())
            {
                return true; // not reached: every distributor is dead while the backbone is down
            }
            control.requestRecovery(item.serviceId, item.handle, item.domainType, 0);
            return true;
        }
        if (!item.isLost)
        {
            item.isLost = true;
            lostPrivates.addInt(item.itemId);
            wake.run();
        }
        return true;
    }

    int closeLostPrivates()
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

    int resendUnanswered(final long nowNs)
    {
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
                if (CarriedService.PASS_NONE == item.awaitingPass.passState || !item.awaitingPass.distributor.isAlive)
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

    private static boolean hasOutstanding(final OpenItem item)
    {
        return 0 != item.requestId || item.isAwaitingRetry || null != item.awaitingPass;
    }

    /**
     * Put the item on the request check's list, if it is not there yet; it leaves when nothing is outstanding.
     */
    void watch(final OpenItem item)
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
        return !control.isDown() && control.requestItem(item.requestId, item.serviceId, item.domainType,
            item.isStreaming, item.isPrivate, item.name, 0, item.name.capacity(), item.view) > 0;
    }

    private void enqueue(final OpenItem item)
    {
        if (!item.isQueued)
        {
            item.isQueued = true;
            queued.addInt(item.itemId);
            wake.run(); // a worker asleep on its doorbell would leave it to the tick
        }
    }

    int sendQueued()
    {
        int sent = 0;
        while (!queued.isEmpty() && sent < REQUESTS_PER_CYCLE && control.isConnected())
        {
            final int itemId = queued.getInt(queued.size() - 1);
            final OpenItem item = items.get(itemId);
            if (null != item && item.isQueued)
            {
                if (!carriers.hasCarrier(item.serviceId))
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
    void releaseHeld(final int serviceId)
    {
        for (final OpenItem item : items.values())
        {
            if (item.serviceId != serviceId)
            {
                continue;
            }
            if (null != item.distributor && !item.distributor.isAlive)
            {
                item.unbind();
                queueRequest(item);
            }
            else if (item.isHeld)
            {
                queueRequest(item);
            }
        }
    }

    /**
     * A distributor fell silent: its items turn Open/Suspect. Those of a service another live distributor carries
     * are requested again at once (failover); the others keep their binding, since the same process may come back
     * (a long pause, a network partition shorter than the image timeout) and its handles would still hold — or
     * another distributor of the service may appear, and they fail over to it then. Its recovery passes end with it.
     */
    void failOver(final DistributorState distributor, final String text)
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
            if (carriers.hasCarrier(item.serviceId))
            {
                item.unbind();
                queueRequest(item);
            }
            else
            {
                item.awaitingPass = null; // its pass died with it
            }
            statuses.suspect(item, text);
        }
        requestUnansweredAgain(distributor);
    }

    /**
     * Items awaiting an answer the lost process may never send: ask the live distributors now.
     */
    void requestUnansweredAgain(final DistributorState distributor)
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
    void rerequest(final DistributorState distributor, final int serviceId, final String text)
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
                item.unbind();
                counters.onRecovery();
                item.isRecovering = true;
                queueRequest(item);
                statuses.suspect(item, text);
            }
        }
    }

    @Override
    public void collectRecoverable(final DistributorState distributor, final int serviceId, final IntArrayList out)
    {
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
                out.addInt(item.itemId);
            }
        }
    }

    @Override
    public void recoverItems(final IntArrayList itemIds, final CarriedService pass, final String text)
    {
        for (int i = 0, size = itemIds.size(); i < size; i++)
        {
            final OpenItem item = items.get(itemIds.getInt(i));
            if (null == item)
            {
                continue;
            }
            counters.onRecovery();
            item.isRecovering = true;
            if (null != pass)
            {
                item.awaitingPass = pass;
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
    }

    private void forget(final OpenItem item)
    {
        retries.stopWaiting(item);
        item.unbind();
        if (item.requestId != 0)
        {
            itemByRequest.remove(item.requestId);
            item.requestId = 0;
        }
    }

    /**
     * @return the item that sent the request, or {@link HandleIndex#MISSING}.
     */
    long itemIdOf(final long requestId)
    {
        return itemByRequest.get(requestId);
    }

    /**
     * The request is answered or refused for good: its answers and refusals are not this item's any more.
     */
    void forgetRequest(final long requestId)
    {
        itemByRequest.remove(requestId);
    }

    /**
     * The item's stream ended (closed upstream, a snapshot complete): it is forgotten, if still the open one.
     */
    void end(final OpenItem item)
    {
        if (items.get(item.itemId) == item)
        {
            items.remove(item.itemId);
            forget(item);
        }
    }

    /**
     * @return true if a request for the same item is out, or too many are out to tell (more than
     * {@link #UNWANTED_SCAN_LIMIT}: the check scans them).
     */
    boolean isAskedFor(final int serviceId, final DirectBuffer name, final int nameOffset, final int nameLength)
    {
        if (itemByRequest.size() > UNWANTED_SCAN_LIMIT)
        {
            return true;
        }
        final Long2LongHashMap.ValueIterator it = itemByRequest.values().iterator();
        while (it.hasNext())
        {
            final OpenItem other = items.get((int)it.nextValue());
            if (null != other && other.serviceId == serviceId && other.isNamed(name, nameOffset, nameLength))
            {
                return true;
            }
        }
        return false;
    }
}
