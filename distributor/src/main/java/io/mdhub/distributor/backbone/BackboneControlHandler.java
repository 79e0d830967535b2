package io.mdhub.distributor.backbone;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.backbone.protocol.ControlListener;
import io.mdhub.backbone.protocol.RefreshFlags;
import io.mdhub.common.rwf.FieldView;
import io.mdhub.distributor.CachedItem;
import io.mdhub.distributor.DistributedService;
import io.mdhub.distributor.ItemCache;
import io.mdhub.distributor.ItemPosts;
import io.mdhub.distributor.ServiceDirectory;
import io.mdhub.distributor.SinkDrivenItems;

/**
 * Answers the control stream on the distributor's event loop. An ItemRequest is answered from the item cache (found by
 * domain and name) with a solicited image echoing its requestId, or refused with an ItemStatus on handle -1:
 * Closed/Suspect SOURCE_UNKNOWN for an unknown service; ClosedRecover/Suspect NOT_FOUND for an item of that domain and
 * name the cache does not hold (not for good: its non-interactive provider may publish it yet, and the p2p-server's
 * consumers wait for it unless told otherwise); Closed/Suspect with a text saying why for an item held without an
 * image (a payload neither FieldList nor Map). A RecoveryRequest
 * resends one item's image at once (or, for an item gone since, says so in the item's domain, which the request
 * carries), or hands a whole service to {@link ServiceRecovery}. Requests, closes and recoveries of sink-driven
 * services (mounted interactive providers) go to {@link SinkDrivenItems}: a new item is requested from its provider and
 * answered when the provider's refresh comes; a service without cache asks its provider for fresh refreshes. A request
 * for a new item while no provider of its service is up is refused ClosedRecover/Suspect (for now, not for good: the
 * p2p-server asks again). For non-interactive services ItemClose needs no action (they are broadcast), so closes are
 * only counted. ConsumerAnnouncements keep {@link P2pServerTracker} up to date, and every other message of a p2p-server
 * says it is alive. Posts go to {@link ItemPosts} when this distributor carries their service (another distributor
 * answers the others). An answer that meets back-pressure returns false, so the adapter hands the same request back
 * on a later poll instead of queueing it.
 */
final class BackboneControlHandler implements ControlListener
{
    static final String ITEM_NOT_FOUND_TEXT = "item not found";
    static final String SERVICE_NOT_FOUND_TEXT = "service not found";
    static final String ITEM_GONE_TEXT = "item no longer published";
    static final String NO_IMAGE_TEXT = "no cached image for the item (it could not be encoded)";
    static final String ITEM_LIMIT_TEXT = "item limit of the service reached";
    static final String NO_PROVIDER_TEXT = "no mounted provider of the service is up";
    static final String PRIVATE_NOT_SERVED_TEXT =
        "private streams are served by interactive providers only; this service is published non-interactively";

    private static final int REQUEST_FLAGS = RefreshFlags.SOLICITED | RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE;
    private static final int RECOVERY_FLAGS = RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE | RefreshFlags.RECOVERY;

    private final ServiceDirectory directory;
    private final ItemImagePublisher images;
    private final ServiceRecovery recovery;
    private final P2pServerTracker p2pServers;
    private final BackboneCounters counters;
    private final SinkDrivenItems sinkItems;
    private final ItemPosts posts;
    private final long epoch;
    private long nowNs;
    private long requestsForwarded;
    private long itemCloses;
    private long requestsAnswered;
    private long requestsRefused;

    BackboneControlHandler(
        final ServiceDirectory directory,
        final ItemImagePublisher images,
        final ServiceRecovery recovery,
        final P2pServerTracker p2pServers,
        final BackboneCounters counters,
        final SinkDrivenItems sinkItems,
        final ItemPosts posts,
        final long epoch)
    {
        this.sinkItems = sinkItems;
        this.posts = posts;
        this.epoch = epoch;
        this.directory = directory;
        this.images = images;
        this.recovery = recovery;
        this.p2pServers = p2pServers;
        this.counters = counters;
    }

    /**
     * @param nowNs the time of the duty cycle that polls the control stream.
     */
    void now(final long nowNs)
    {
        this.nowNs = nowNs;
    }

    @Override
    public void onConsumerAnnouncement(
        final int consumerId, final long epoch, final int intervalMs, final long timestampNs)
    {
        p2pServers.onAnnouncement(consumerId, epoch, intervalMs, nowNs);
    }

    @Override
    @SuppressWarnings("checkstyle:ParameterNumber") // the listener's primitives
    public boolean onItemRequest(
        final int consumerId,
        final int sourceIndex,
        final long requestId,
        final int serviceId,
        final int domainType,
        final boolean isStreaming,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int viewOffset,
        final int viewLength)
    {
        p2pServers.heard(consumerId, nowNs);
        final DistributedService service = directory.service(serviceId);
        if (null == service)
        {
            return refuse(serviceId, requestId, domainType, StateCodes.SOURCE_UNKNOWN, SERVICE_NOT_FOUND_TEXT);
        }
        final CachedItem item;
        if (service.isSinkDriven())
        {
            switch (sinkItems.request(SinkDrivenItems.watcher(consumerId, sourceIndex), requestId, service, domainType,
                isStreaming, buffer, nameOffset, nameLength, FieldView.read(buffer, viewOffset, viewLength)))
            {
                case SinkDrivenItems.ANSWER_FROM_CACHE:
                    item = sinkItems.answerItem();
                    break;
                case SinkDrivenItems.FORWARDED:
                    requestsForwarded++;
                    return true;
                case SinkDrivenItems.REFUSED_FULL:
                    return refuse(serviceId, requestId, domainType, StateCodes.TOO_MANY_ITEMS, ITEM_LIMIT_TEXT);
                case SinkDrivenItems.REFUSED_NO_PROVIDER:
                    // passing: the p2p-server keeps its consumers Open/Suspect and asks again when a provider is up
                    return refuse(serviceId, requestId, domainType, StreamStates.CLOSED_RECOVER, StateCodes.NONE,
                        NO_PROVIDER_TEXT);
                default:
                    return refuse(serviceId, requestId, domainType, StateCodes.NOT_FOUND, ITEM_NOT_FOUND_TEXT);
            }
        }
        else
        {
            final ItemCache cache = service.cache();
            final int handle = cache.handle(domainType, buffer, nameOffset, nameLength);
            item = ItemCache.NO_HANDLE == handle ? null : cache.item(handle);
            if (null == item)
            {
                return refuse(serviceId, requestId, domainType, StreamStates.CLOSED_RECOVER, StateCodes.NOT_FOUND,
                    ITEM_NOT_FOUND_TEXT);
            }
        }
        final long result = images.publishImage(service, item, requestId, REQUEST_FLAGS, true, nowNs);
        if (ItemImagePublisher.NO_IMAGE == result)
        {
            final String why = item.cached().noImageText();
            return refuse(serviceId, requestId, domainType, StateCodes.NONE, null != why ? why : NO_IMAGE_TEXT);
        }
        if (ItemImagePublisher.isBackPressured(result))
        {
            return false;
        }
        requestsAnswered++;
        return true;
    }

    private boolean refuse(
        final int serviceId, final long requestId, final int domainType, final int stateCode, final String text)
    {
        return refuse(serviceId, requestId, domainType, StreamStates.CLOSED, stateCode, text);
    }

    private boolean refuse(
        final int serviceId,
        final long requestId,
        final int domainType,
        final int streamState,
        final int stateCode,
        final String text)
    {
        final long result = images.publishRefusal(
            serviceId, -1, requestId, domainType, streamState, stateCode, text, nowNs);
        if (ItemImagePublisher.isBackPressured(result))
        {
            return false;
        }
        requestsRefused++;
        return true;
    }

    @Override
    @SuppressWarnings("checkstyle:ParameterNumber") // the listener's primitives
    public boolean onPrivateItemRequest(
        final int consumerId,
        final int sourceIndex,
        final long requestId,
        final int serviceId,
        final int domainType,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int viewOffset,
        final int viewLength)
    {
        p2pServers.heard(consumerId, nowNs);
        final DistributedService service = directory.service(serviceId);
        if (null == service)
        {
            return refuse(serviceId, requestId, domainType, StateCodes.SOURCE_UNKNOWN, SERVICE_NOT_FOUND_TEXT);
        }
        if (!service.isSinkDriven())
        {
            return refuse(serviceId, requestId, domainType, StateCodes.NONE, PRIVATE_NOT_SERVED_TEXT);
        }
        switch (sinkItems.requestPrivate(SinkDrivenItems.watcher(consumerId, sourceIndex), requestId, service,
            domainType, buffer, nameOffset, nameLength, FieldView.read(buffer, viewOffset, viewLength)))
        {
            case SinkDrivenItems.FORWARDED:
                requestsForwarded++;
                return true;
            case SinkDrivenItems.REFUSED_FULL:
                return refuse(serviceId, requestId, domainType, StateCodes.TOO_MANY_ITEMS, ITEM_LIMIT_TEXT);
            default:
                return refuse(serviceId, requestId, domainType, StreamStates.CLOSED_RECOVER, StateCodes.NONE,
                    NO_PROVIDER_TEXT);
        }
    }

    @Override
    public void onItemGeneric(
        final int consumerId,
        final int sourceIndex,
        final long distributorEpoch,
        final int serviceId,
        final int itemHandle,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
        p2pServers.heard(consumerId, nowNs);
        if (0 != distributorEpoch && epoch != distributorEpoch)
        {
            return; // another distributor's handle
        }
        final DistributedService service = directory.service(serviceId);
        final CachedItem item = null == service ? null : service.cache().item(itemHandle);
        if (null != item)
        {
            sinkItems.generic(item, buffer, rwfOffset, rwfLength);
        }
    }

    @Override
    public boolean onItemPost(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final long distributorEpoch,
        final int serviceId,
        final int domainType,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        p2pServers.heard(consumerId, nowNs);
        if (0 != distributorEpoch && epoch != distributorEpoch)
        {
            return true; // a post on a stream another distributor serves
        }
        final DistributedService service = directory.service(serviceId);
        if (null != service)
        {
            posts.onPost(consumerId, sourceIndex, postRequestId, service, domainType, buffer, nameOffset, nameLength,
                rwfOffset, rwfLength);
        }
        return true;
    }

    @Override
    public void onItemClose(
        final int consumerId,
        final int sourceIndex,
        final long distributorEpoch,
        final int serviceId,
        final int itemHandle)
    {
        p2pServers.heard(consumerId, nowNs);
        if (0 != distributorEpoch && epoch != distributorEpoch)
        {
            return; // another distributor's handle
        }
        itemCloses++;
        final DistributedService service = directory.service(serviceId);
        if (null != service && service.isSinkDriven())
        {
            sinkItems.close(SinkDrivenItems.watcher(consumerId, sourceIndex), service, itemHandle);
        }
    }

    @Override
    public boolean onRecoveryRequest(
        final int consumerId, final int serviceId, final int itemHandle, final int domainType, final long lastSequence)
    {
        p2pServers.heard(consumerId, nowNs);
        final DistributedService service = directory.service(serviceId);
        if (null == service)
        {
            return true; // nothing to recover; the announcements say which services exist
        }
        if (service.isSinkDriven() && (!service.isCaching() || sinkItems.isPrivate(service, itemHandle)))
        {
            // no images here: the provider sends fresh refreshes, broadcast to every watcher when they come
            if (itemHandle < 0)
            {
                recovery.recoverService(serviceId); // its items reissued in bounded batches
            }
            else if (sinkItems.recover(service, itemHandle))
            {
                counters.recoveries.increment();
            }
            return true;
        }
        if (itemHandle < 0)
        {
            recovery.recoverService(serviceId);
            return true;
        }
        final CachedItem item = service.cache().item(itemHandle);
        final long result;
        if (null == item)
        {
            // the requester missed the item's Closed status: say it again, in the domain the requester knows it by
            result = images.publishRefusal(
                serviceId, itemHandle, 0, domainType, StreamStates.CLOSED, StateCodes.NOT_FOUND, ITEM_GONE_TEXT, nowNs);
        }
        else
        {
            result = images.publishImage(service, item, 0, RECOVERY_FLAGS, false, nowNs);
            if (result > 0)
            {
                counters.recoveries.increment();
            }
        }
        return !ItemImagePublisher.isBackPressured(result);
    }

    long itemCloses()
    {
        return itemCloses;
    }

    long requestsAnswered()
    {
        return requestsAnswered;
    }

    long requestsRefused()
    {
        return requestsRefused;
    }

    long requestsForwarded()
    {
        return requestsForwarded;
    }
}
