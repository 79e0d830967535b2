package io.mdhub.distributor;

import java.util.concurrent.Executor;

import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.DataTypes;

import io.mdhub.common.cache.CachedImage;
import io.mdhub.common.cache.DeferredUpdates;
import io.mdhub.common.cache.ImageScratch;
import io.mdhub.common.rwf.RwfMsgFlyweight;

/**
 * How the distributor's item images take their updates: a FieldList update is checked and passed on to the backbone
 * at once, and applied to its image by a task queued on the event loop behind the burst's doorbell ring, so the images
 * (cold memory for a large universe) delay neither the burst nor the p2p-servers' wake-up, and the images of a burst
 * are touched together before any is applied (their cache misses overlap). Anything that reads an
 * image goes through {@link CachedItem#cached()}, which applies what waits first; Map updates, whose check is their
 * application, are applied in line. Without an event loop (tests driving the core by hand) every update is applied in
 * line. Owned by the event loop.
 */
final class ImageUpdates
{
    private static final Logger LOG = LoggerFactory.getLogger(ImageUpdates.class);

    private final Executor eventLoop;
    private final DeferredUpdates<CachedItem> deferred = new DeferredUpdates<>();
    private final DeferredUpdates.Applier<CachedItem> applier = this::applyDeferred;
    private final DeferredUpdates.Toucher<CachedItem> toucher = (item) -> item.imageForUpdate().touch();
    private final Runnable applyTask = this::applyQueued;
    // their own: an image read in the middle of a message (a refresh, a status) applies what waits while the core's
    // flyweight and scratch hold that message
    private final RwfMsgFlyweight deferredMsg = new RwfMsgFlyweight();
    private final ImageScratch deferredScratch = new ImageScratch();
    private boolean isTaskQueued;
    private boolean isFailureLogged;

    /**
     * @param eventLoop the distributor's event loop, or null to apply every update in line.
     */
    ImageUpdates(final Executor eventLoop)
    {
        this.eventLoop = eventLoop;
    }

    /**
     * Take an update for an item's image: applied now, or checked and copied now and applied after the burst (see
     * {@link #applyAfterBurst()}).
     *
     * @param item    the item.
     * @param update  the wrapped UpdateMsg.
     * @param scratch the thread's scratch for reading the payload.
     * @return false if the payload does not decode ({@code scratch} says why): the provider is at fault.
     */
    boolean onUpdate(final CachedItem item, final RwfMsgFlyweight update, final ImageScratch scratch)
    {
        if (null == eventLoop || DataTypes.FIELD_LIST != update.containerType())
        {
            return item.cached().applyUpdate(update, scratch); // behind whatever waits, in arrival order
        }
        if (!CachedImage.isWellFormedFieldList(update, scratch))
        {
            return false;
        }
        deferred.add(item, 0, update.buffer(), update.offset(), update.length());
        return true;
    }

    /**
     * Queue the application of what waits, once per burst: called after the update was published, so the task runs
     * behind the doorbell ring that the burst's first publish queued.
     */
    void applyAfterBurst()
    {
        if (!isTaskQueued && !deferred.isEmpty())
        {
            isTaskQueued = true;
            eventLoop.execute(applyTask);
        }
    }

    /**
     * Apply every update that waits: before an image is read or replaced.
     */
    void applyAll()
    {
        deferred.applyAll(toucher, applier);
    }

    private void applyQueued()
    {
        isTaskQueued = false;
        applyAll();
    }

    private void applyDeferred(
        final CachedItem item, final int key, final DirectBuffer buffer, final int offset, final int length)
    {
        // checked before it was passed on: a failure here is a defect, not the provider's fault
        if ((!deferredMsg.wrap(buffer, offset, length) ||
            !item.imageForUpdate().applyUpdate(deferredMsg, deferredScratch)) && !isFailureLogged)
        {
            isFailureLogged = true;
            LOG.error("item {}: a checked update did not apply to its image (logged once)", item.name());
        }
    }
}
