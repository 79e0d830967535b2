package io.mdhub.distributor.backbone;

import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.IntArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Publication;
import io.mdhub.backbone.protocol.RefreshFlags;
import io.mdhub.distributor.CachedItem;
import io.mdhub.distributor.DistributedService;
import io.mdhub.distributor.ServiceDirectory;
import io.mdhub.distributor.SinkDrivenItems;

/**
 * Resends every image of a service after a whole-service RecoveryRequest, a bounded batch per duty cycle, so a
 * service of 100 000 items never holds the event loop for long. The cursor is an item handle: handles are
 * distributor-wide, increasing and never reused, so walking from 1 to the last handle given out when the request
 * arrived visits every item the service held then, and items added or dropped meanwhile do no harm (new items
 * announce themselves with their own refresh). A new request for a service already being recovered starts its pass
 * again from the beginning: the new requester may have lost messages after images the pass already sent.
 * <p>
 * Images go out unsolicited with the RECOVERY flag and requestId 0. A back-pressured image is tried again on the next
 * cycle (the cursor stays); {@code NOT_CONNECTED} ends the pass (nobody is listening any more). A sink-driven service
 * without cache has no images: each item is asked of its provider again instead (a reissue, whose fresh refresh is
 * broadcast to every watcher when it comes), in the same bounded batches: 100 000 reissues written in one go hold
 * the event loop (announcements included) for as long as they take, just when the p2p-servers that asked are
 * watching for the distributor's silence. Owned by the distributor's event loop.
 */
final class ServiceRecovery
{
    private static final Logger LOG = LoggerFactory.getLogger(ServiceRecovery.class);
    private static final int IMAGE_FLAGS = RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE | RefreshFlags.RECOVERY;
    private static final int NONE = 0;
    /** Handles looked at per image allowed: other services' handles are skipped quickly but not for free. */
    private static final int PROBES_PER_IMAGE = 16;

    private final ServiceDirectory directory;
    private final ItemImagePublisher images;
    private final BackboneCounters counters;
    private final SinkDrivenItems sinkItems;
    private final int batch;
    private final IntArrayList active = new IntArrayList();
    private final Int2IntHashMap nextHandle = new Int2IntHashMap(NONE);
    private final Int2IntHashMap lastHandle = new Int2IntHashMap(NONE);

    ServiceRecovery(
        final ServiceDirectory directory,
        final ItemImagePublisher images,
        final BackboneCounters counters,
        final SinkDrivenItems sinkItems,
        final int batch)
    {
        this.directory = directory;
        this.images = images;
        this.counters = counters;
        this.sinkItems = sinkItems;
        this.batch = batch;
    }

    /**
     * Start (or restart) resending every image of the service.
     */
    void recoverService(final int serviceId)
    {
        if (NONE == nextHandle.get(serviceId))
        {
            active.addInt(serviceId);
        }
        nextHandle.put(serviceId, 1);
        lastHandle.put(serviceId, directory.lastItemHandle());
    }

    /**
     * Drop every recovery in progress (the backbone daemon is lost: the p2p-servers ask again when it is back).
     */
    void clear()
    {
        active.clear();
        nextHandle.clear();
        lastHandle.clear();
    }

    /**
     * @return true while some service is being recovered.
     */
    boolean isActive()
    {
        return !active.isEmpty();
    }

    /**
     * Resend at most a batch of images, spread over the services being recovered.
     *
     * @return work done (images sent and handles looked at, scaled); 0 when idle or back-pressured.
     */
    int doWork(final long nowNs)
    {
        int work = 0;
        for (int i = active.size() - 1; i >= 0; i--)
        {
            final int serviceId = active.getInt(i);
            final int done = recoverSome(serviceId, batch / active.size() + 1, nowNs);
            if (done < 0)
            {
                return work; // back-pressured: try again next cycle
            }
            work += done;
            if (nextHandle.get(serviceId) > lastHandle.get(serviceId))
            {
                finish(i, serviceId);
            }
        }
        return work;
    }

    private int recoverSome(final int serviceId, final int maxImages, final long nowNs)
    {
        final DistributedService service = directory.service(serviceId);
        if (null == service)
        {
            nextHandle.put(serviceId, Integer.MAX_VALUE);
            return 1;
        }
        int handle = nextHandle.get(serviceId);
        final int last = lastHandle.get(serviceId);
        int sent = 0;
        int probes = 0;
        final int maxProbes = maxImages * PROBES_PER_IMAGE;
        final boolean isReissuing = service.isSinkDriven() && !service.isCaching();
        while (handle <= last && sent < maxImages && probes < maxProbes)
        {
            probes++;
            final CachedItem item = service.cache().item(handle);
            if (null != item && isReissuing)
            {
                if (sinkItems.recover(item))
                {
                    counters.recoveries.increment();
                    sent++;
                }
            }
            else if (null != item)
            {
                final long result = images.publishImage(service, item, 0, IMAGE_FLAGS, false, nowNs);
                if (ItemImagePublisher.isBackPressured(result))
                {
                    nextHandle.put(serviceId, handle);
                    return -1;
                }
                if (Publication.NOT_CONNECTED == result)
                {
                    nextHandle.put(serviceId, Integer.MAX_VALUE);
                    return probes;
                }
                if (result > 0)
                {
                    counters.recoveries.increment();
                    sent++;
                }
            }
            handle++;
        }
        nextHandle.put(serviceId, handle > last ? Integer.MAX_VALUE : handle);
        return probes;
    }

    private void finish(final int index, final int serviceId)
    {
        active.fastUnorderedRemove(index);
        nextHandle.remove(serviceId);
        lastHandle.remove(serviceId);
        LOG.debug("recovery of service {} complete", serviceId);
    }
}
