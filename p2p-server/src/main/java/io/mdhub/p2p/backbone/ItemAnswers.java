package io.mdhub.p2p.backbone;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;

import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.backbone.protocol.RefreshFlags;
import io.mdhub.p2p.source.ItemSourceListener;

/**
 * What the distributors answer to a backbone item source's requests: refreshes that answer a request, unsolicited
 * images (recovery passes, a provider's resynchronisation, a waited-for item published), item statuses, and
 * refusals. Several distributors may carry one service: an item is bound to the distributor whose image answered
 * its request first, and the others' messages for it are ignored. A refusal counts only from a distributor that
 * carries the service, and is final only once every live distributor of the service has refused the same request
 * (another may still have the item). Owned by the worker's event loop.
 * <p>
 * <b>Items that wait for their provider.</b> A distributor refuses (ClosedRecover, NOT_FOUND) an item of a
 * non-interactive service its cache does not hold: one its provider has not published yet, or one that was live a
 * moment ago at a restarted distributor whose providers have not republished. With {@code itemWait} (the default)
 * neither refusal is passed on: the consumers see Open/Suspect once, the item waits by name, and the provider's
 * first refresh of it, broadcast with its name, makes the source ask for it at once; it is also asked for again on
 * the {@link ItemRetries} schedule, in case that refresh was missed. Without {@code itemWait} a first request for an
 * unknown item is closed at once (Closed/Suspect NOT_FOUND) and an item that had an image is retried for
 * {@code recoveryGraceMs} after the first refusal (then the streams close). An interactive provider's own refusal
 * (Closed) is passed on.
 * <p>
 * <b>Refused for now.</b> Any other refusal with stream state ClosedRecover (a sink-driven service none of whose
 * providers is up at its distributor) is never passed on: the item's consumers see Open/Suspect, and it is asked for
 * again on the same schedule for as long as they want it, and at once when the service is announced up again.
 */
final class ItemAnswers
{
    /** No entry, in the item indexes (the handle index's own marker, so its answers compare with it). */
    private static final long MISSING = HandleIndex.MISSING;

    private final ItemRequests requests;
    private final ItemSourceListener listener;
    private final Carriers carriers;
    private final ItemStatuses statuses;
    private final ItemRetries retries;
    private final UpstreamCloses closes;
    private final NanoClock clock;
    private final long requestIdBase;

    ItemAnswers(
        final ItemRequests requests,
        final ItemSourceListener listener,
        final Carriers carriers,
        final ItemStatuses statuses,
        final ItemRetries retries,
        final UpstreamCloses closes,
        final NanoClock clock,
        final long requestIdBase)
    {
        this.requests = requests;
        this.listener = listener;
        this.carriers = carriers;
        this.statuses = statuses;
        this.retries = retries;
        this.closes = closes;
        this.clock = clock;
        this.requestIdBase = requestIdBase;
    }

    /**
     * A refresh answering a request (its requestId): to the item that asked, bound to the distributor that answered
     * first; another server's answer, a superseded request's, or a closed item's is closed back when nobody here
     * wants it. A recovery's answer goes to every watcher (it ends their Suspect), a plain answer to those awaiting
     * it.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // the message's primitives
    void onAnswer(
        final DistributorState distributor,
        final int serviceId,
        final int itemHandle,
        final long requestId,
        final int domainType,
        final int flags,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        final long itemId = requests.itemIdOf(requestId);
        if (MISSING == itemId)
        {
            // another p2p-server's answer, a superseded request, or another distributor was first
            closeUnwanted(distributor, serviceId, itemHandle, requestId, buffer, nameOffset, nameLength);
            return;
        }
        final OpenItem item = requests.item((int)itemId);
        if (null == item)
        {
            requests.forgetRequest(requestId);
            closeUnwanted(distributor, serviceId, itemHandle, requestId, buffer, nameOffset, nameLength);
            return; // closed while the request was out
        }
        if (item.serviceId != serviceId || item.domainType != domainType ||
            !item.isNamed(buffer, nameOffset, nameLength))
        {
            return; // another server's answer under a colliding id: not ours
        }
        // A multi-part refresh answers the request part by part: the request stays outstanding (and its later
        // parts wanted) until the part that completes it.
        final boolean isComplete = 0 != (flags & RefreshFlags.COMPLETE);
        if (isComplete)
        {
            requests.forgetRequest(requestId);
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
            item.bind(distributor, itemHandle);
        }
        final boolean isSolicited = item.isAnswerInParts ? item.isAnswerSolicited : !item.isRecovering;
        item.isAnswerInParts = !isComplete;
        item.isAnswerSolicited = isSolicited;
        item.isRecovering = false;
        item.hadImage = true;
        item.refusedSinceNs = OpenItem.NONE;
        item.retryDelayNs = 0;
        retries.stopWaiting(item);
        listener.onRefresh(item.itemId, isSolicited, buffer, rwfOffset, rwfLength);
        if (isComplete && !item.isStreaming)
        {
            requests.end(item);
        }
    }

    /**
     * A refresh nobody here asked for (a recovery pass, or the provider resynchronised): every watcher of the item
     * bound to that handle takes it; the complete image of an item that waits for its provider makes the source ask
     * for it now.
     */
    void onImage(
        final DistributorState distributor,
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int flags,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        final long itemId = distributor.itemByHandle.get(serviceId, itemHandle);
        if (MISSING != itemId)
        {
            final OpenItem item = requests.item((int)itemId);
            if (null != item)
            {
                // Whole again: this image is later in the stream than any loss seen so far, and its watchers now see
                // Open/Ok — whether it came from the pass the item waited for, another worker's or server's pass, or
                // the provider. A request of its own still out only brings one more image. Not recovering any more,
                // so the next gap turns it Suspect again before the updates that follow that gap reach anyone.
                whole(item);
            }
            listener.onRefresh((int)itemId, false, buffer, rwfOffset, rwfLength);
        }
        else if (retries.hasWaiting() && 0 != (flags & RefreshFlags.COMPLETE))
        {
            onPublished(serviceId, domainType, buffer, nameOffset, nameLength);
        }
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
            requests.request(item);
        }
    }

    private void whole(final OpenItem item)
    {
        item.awaitingPass = null;
        item.isRecovering = false;
        item.isAwaitingRetry = false;
        item.hadImage = true;
        item.refusedSinceNs = OpenItem.NONE;
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
        if ((requestId & ItemRequests.REQUESTER_MASK) != requestIdBase || itemHandle < 0 ||
            MISSING != distributor.itemByHandle.get(serviceId, itemHandle))
        {
            return;
        }
        if (requests.isAskedFor(serviceId, buffer, nameOffset, nameLength))
        {
            return;
        }
        closes.close(distributor.epoch, serviceId, itemHandle);
    }

    /**
     * An item status: a refusal (no handle) of one of this source's requests, or a status of a bound item, which
     * ends the item unless its stream stays open.
     */
    void onStatus(
        final DistributorState distributor,
        final int serviceId,
        final int itemHandle,
        final long requestId,
        final int streamState,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength,
        final long nowNs)
    {
        if (itemHandle < 0)
        {
            onRefusal(distributor, serviceId, requestId, streamState, buffer, rwfOffset, rwfLength, nowNs);
            return;
        }
        final long itemId = distributor.itemByHandle.get(serviceId, itemHandle);
        if (MISSING == itemId)
        {
            return;
        }
        final OpenItem item = requests.item((int)itemId);
        listener.onStatus((int)itemId, buffer, rwfOffset, rwfLength);
        if (null != item && streamState != StreamStates.OPEN)
        {
            requests.end(item);
        }
    }

    private void onRefusal(
        final DistributorState distributor,
        final int serviceId,
        final long requestId,
        final int streamState,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength,
        final long nowNs)
    {
        final long itemId = requests.itemIdOf(requestId);
        if (MISSING == itemId)
        {
            return;
        }
        final OpenItem item = requests.item((int)itemId);
        if (null == item)
        {
            requests.forgetRequest(requestId);
            return;
        }
        if (item.serviceId != serviceId)
        {
            return; // another server's request under a colliding id
        }
        if (!distributor.carries(serviceId) && (item.hadImage || carriers.hasCarrier(serviceId)))
        {
            return; // not its say: a distributor without the service refuses whatever it is asked for it
        }
        if (++item.refusals < carriers.carriers(serviceId))
        {
            return; // another distributor of the service may still have the item
        }
        requests.forgetRequest(requestId);
        item.requestId = 0;
        if (StreamStates.CLOSED_RECOVER == streamState)
        {
            if (retries.isNotFound(buffer, rwfOffset, rwfLength))
            {
                // not in the distributor's cache: its non-interactive provider may publish it
                onNotPublished(item, nowNs);
                return;
            }
            // for now, not for good (no provider of the service is up): asked for again until one answers
            retryLater(item, false, "no provider of the service is up: waiting for one", nowNs);
            return;
        }
        if (item.hadImage && StreamStates.OPEN != streamState &&
            retryLater(item, true, "not (yet) republished by its distributor: retrying", nowNs))
        {
            return; // live before: it may not be republished yet (a restarted distributor's cache fills up again)
        }
        listener.onStatus(item.itemId, buffer, rwfOffset, rwfLength);
        if (streamState != StreamStates.OPEN)
        {
            requests.end(item);
        }
    }

    /**
     * An item its non-interactive provider has not published (yet): with {@code itemWait} its consumers wait for it;
     * without, one that had an image is retried for the grace period (a restarted distributor's cache fills up again)
     * and any other is closed at once, Closed/Suspect NOT_FOUND.
     */
    private void onNotPublished(final OpenItem item, final long nowNs)
    {
        if (retries.isItemWait())
        {
            waitForProvider(item, nowNs);
            return;
        }
        if (item.hadImage && retryLater(item, true, "not (yet) republished by its distributor: retrying", nowNs))
        {
            return;
        }
        statuses.notFound(item, retries.refusalText());
        requests.end(item);
    }

    /**
     * The item's distributors do not have it (yet): its consumers stay Open/Suspect until its provider publishes it.
     */
    private void waitForProvider(final OpenItem item, final long nowNs)
    {
        retryLater(item, false, retries.waitForProvider(item), nowNs);
    }

    /**
     * A refused item is asked for again after a growing wait while its consumers stay Open/Suspect: an item that was
     * live before and is refused while recovering, until {@code recoveryGraceNs} after the first refusal; an item
     * refused for now (ClosedRecover: no provider of its service is up), until it is answered, and at once when its
     * service is announced up again ({@link ItemRequests#retryNow}).
     *
     * @param isGraceBounded stop retrying {@code recoveryGraceNs} after the first refusal.
     * @param text           the Open/Suspect status text its consumers see at the first refusal.
     * @return true if retried later; false when the grace period is over and the refusal is to be passed on.
     */
    private boolean retryLater(final OpenItem item, final boolean isGraceBounded, final String text, final long nowNs)
    {
        final int next = retries.retryLater(item, isGraceBounded, nowNs);
        if (ItemRetries.GIVE_UP == next)
        {
            return false;
        }
        requests.watch(item);
        item.isRecovering = true;
        if (ItemRetries.FIRST == next)
        {
            statuses.suspect(item, text);
        }
        return true;
    }
}
