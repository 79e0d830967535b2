package io.mdhub.p2p.cache;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.cache.CachedImage;
import io.mdhub.common.cache.DeferredUpdates;
import io.mdhub.common.cache.ImageRefreshEncoder;
import io.mdhub.common.cache.ImageScratch;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ItemSourceFactory;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.channel.EventLoop;

/**
 * An {@link ItemSource} that sits between a fan-out worker and the worker's real source and keeps the image of every
 * streaming item: refreshes, updates and statuses pass through on their way to the worker and are applied to a
 * {@link CachedImage} (fields or Map entries off-heap). When the worker asks for the image of an open item for a new
 * watcher ({@link #refresh(int)}) and the cached image is complete and Ok, the answer is written from the cache on a
 * later task of the worker's event loop — encoded at that moment, so it includes every update the worker has already
 * passed over for the waiting watcher — and nothing goes upstream. An image that is incomplete, Suspect or neither a
 * FieldList nor a Map sends the request upstream as before.
 * <p>
 * The updates of a source batch are applied after the worker has written the batch to its consumers
 * ({@link DeferredUpdates}), and before anything reads or replaces an image.
 * <p>
 * Snapshot items are not cached (the source forgets them after their one refresh). Everything runs on the worker's
 * event loop, like the worker and the source.
 */
public final class CachingItemSource implements ItemSource, ItemSourceListener
{
    private static final Logger LOG = LoggerFactory.getLogger(CachingItemSource.class);
    private static final int INITIAL_ITEMS = 1024;
    private static final int MAX_NAME_LENGTH = 255;

    private final EventLoop eventLoop;
    private final ItemSourceListener worker;
    private final AtomicCounter servedFromCache;
    private final AtomicCounter passedUpstream;
    private final RwfMsgFlyweight msg = new RwfMsgFlyweight();
    private final ImageScratch imageScratch = new ImageScratch();
    private final ImageRefreshEncoder encoder = new ImageRefreshEncoder();
    private final ExpandableDirectByteBuffer encoded = new ExpandableDirectByteBuffer(1024);
    private final IntArrayList answersDue = new IntArrayList();
    private final Runnable answerTask = this::answerFromCache;
    private final DeferredUpdates<CacheEntry> deferredUpdates = new DeferredUpdates<>();
    private final DeferredUpdates.Applier<CacheEntry> applier = this::applyUpdate;
    private final DeferredUpdates.Toucher<CacheEntry> toucher = (entry) -> entry.image.touch();
    private boolean isInBatch;
    private CacheEntry[] entries = new CacheEntry[INITIAL_ITEMS];
    private ItemSource upstream;
    private boolean isAnswerTaskScheduled;
    private boolean isMalformedLogged;

    private CachingItemSource(
        final EventLoop eventLoop,
        final ItemSourceListener worker,
        final AtomicCounter servedFromCache,
        final AtomicCounter passedUpstream)
    {
        this.eventLoop = eventLoop;
        this.worker = worker;
        this.servedFromCache = servedFromCache;
        this.passedUpstream = passedUpstream;
    }

    /**
     * Wrap a factory so every worker's source is cached.
     *
     * @param upstream        makes the real sources.
     * @param servedFromCache counts refreshes answered from the cache (shared by the workers).
     * @param passedUpstream  counts image requests the cache could not answer and passed on.
     * @return a factory making caching sources.
     */
    public static ItemSourceFactory factory(
        final ItemSourceFactory upstream, final AtomicCounter servedFromCache, final AtomicCounter passedUpstream)
    {
        return (workerIndex, eventLoop, listener) ->
        {
            final CachingItemSource cache = new CachingItemSource(eventLoop, listener, servedFromCache, passedUpstream);
            cache.upstream = upstream.newItemSource(workerIndex, eventLoop, cache);
            return cache;
        };
    }

    // ---------------------------------------------------------------- worker -> source

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
        applyDeferredUpdates();
        if (streaming && nameLength <= MAX_NAME_LENGTH)
        {
            entry(itemId).activate(domainType, serviceId, name, nameOffset, nameLength);
        }
        upstream.open(itemId, domainType, serviceId, name, nameOffset, nameLength, streaming, view);
    }

    /**
     * The image here lacks the fields now wanted: the answer must come from upstream, and it replaces the image.
     */
    @Override
    public void widenView(final int itemId, final FieldView view)
    {
        applyDeferredUpdates();
        final CacheEntry entry = activeEntry(itemId);
        if (null != entry)
        {
            entry.isAnswerDue = false; // the narrow image must not answer the watchers the wide refresh is for
        }
        passedUpstream.increment();
        upstream.widenView(itemId, view);
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
        applyDeferredUpdates();
        return upstream.openPrivate(itemId, domainType, serviceId, name, nameOffset, nameLength, view); // not cached
    }

    @Override
    public boolean generic(final int itemId, final DirectBuffer rwf, final int offset, final int length)
    {
        return upstream.generic(itemId, rwf, offset, length);
    }

    @Override
    public void onGeneric(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        worker.onGeneric(itemId, buffer, offset, length);
    }

    @Override
    public void refresh(final int itemId)
    {
        applyDeferredUpdates();
        final CacheEntry entry = activeEntry(itemId);
        if (null != entry && entry.image.isServable())
        {
            if (!entry.isAnswerDue)
            {
                entry.isAnswerDue = true;
                answersDue.addInt(itemId);
            }
            if (!isAnswerTaskScheduled)
            {
                isAnswerTaskScheduled = true;
                eventLoop.execute(answerTask); // never answer from inside the call (the ItemSource contract)
            }
            return;
        }
        passedUpstream.increment();
        upstream.refresh(itemId);
    }

    /**
     * The cached image as a refresh, whatever its data state (an item gone Suspect still has its latest fields; the
     * status that said so has passed to the consumers already): any complete FieldList or Map image.
     */
    @Override
    public int writeImage(final int itemId, final ExpandableDirectByteBuffer target)
    {
        applyDeferredUpdates();
        final CacheEntry entry = activeEntry(itemId);
        if (null == entry || !entry.image.isImaged() || !entry.image.isRefreshComplete())
        {
            return NO_IMAGE;
        }
        final int length = encodeImage(entry, false, target);
        return length > 0 ? length : NO_IMAGE;
    }

    /**
     * The entry's image as a complete refresh from offset 0 of target, grown to hold it.
     *
     * @return its length, or the encoder's failure (not above 0).
     */
    private int encodeImage(final CacheEntry entry, final boolean solicited, final ExpandableDirectByteBuffer target)
    {
        target.checkLimit(entry.image.encodedPayloadLength() + entry.nameLength + 256);
        return encoder.encode(entry.image, 0, entry.serviceId, entry.name, entry.nameLength, solicited, target, 0,
            target.capacity());
    }

    @Override
    public void close(final int itemId)
    {
        applyDeferredUpdates();
        final CacheEntry entry = activeEntry(itemId);
        if (null != entry)
        {
            entry.deactivate();
        }
        upstream.close(itemId);
    }

    @Override
    public List<ServiceInfo> services()
    {
        return upstream.services();
    }

    @Override
    public int liveUpstreams()
    {
        return upstream.liveUpstreams();
    }

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
        // a post changes the item at its provider or distributor; the change comes back as an update like any other
        return upstream.post(postRequestId, itemId, serviceId, domainType, name, nameOffset, nameLength, rwf,
            rwfOffset, rwfLength);
    }

    @Override
    public void onPostAck(
        final long postRequestId, final int nakCode, final DirectBuffer text, final int offset, final int length)
    {
        worker.onPostAck(postRequestId, nakCode, text, offset, length);
    }

    @Override
    public void close()
    {
        upstream.close();
    }

    private void answerFromCache()
    {
        isAnswerTaskScheduled = false;
        applyDeferredUpdates();
        worker.onBatchStart();
        for (int i = 0, size = answersDue.size(); i < size; i++)
        {
            final int itemId = answersDue.getInt(i);
            final CacheEntry entry = activeEntry(itemId);
            if (null == entry || !entry.isAnswerDue)
            {
                continue; // closed (and perhaps reused) since the request
            }
            entry.isAnswerDue = false;
            if (!entry.image.isServable())
            {
                // went Suspect or was cleared while the answer waited: the source answers when it can
                passedUpstream.increment();
                upstream.refresh(itemId);
                continue;
            }
            final int length = encodeImage(entry, true, encoded);
            if (length > 0)
            {
                servedFromCache.increment();
                worker.onRefresh(itemId, true, encoded, 0, length);
            }
            else
            {
                LOG.warn("item {}: cannot encode a refresh from the cache ({}), asking the source", itemId, length);
                passedUpstream.increment();
                upstream.refresh(itemId);
            }
        }
        answersDue.clear();
        worker.onBatchEnd();
    }

    // ---------------------------------------------------------------- source -> worker

    @Override
    public void onRefresh(
        final int itemId, final boolean solicited, final DirectBuffer buffer, final int offset, final int length)
    {
        applyDeferredUpdates();
        final CacheEntry entry = activeEntry(itemId);
        if (null != entry)
        {
            if (msg.wrap(buffer, offset, length) && RwfMsgDescriptor.REFRESH == msg.msgClass())
            {
                if (!entry.image.applyRefresh(msg, imageScratch))
                {
                    uncache(entry, itemId, imageScratch.errorDescription());
                }
            }
            else
            {
                uncache(entry, itemId, msg.errorReason());
            }
        }
        worker.onRefresh(itemId, solicited, buffer, offset, length);
    }

    @Override
    public void onUpdate(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        final CacheEntry entry = activeEntry(itemId);
        if (null != entry)
        {
            if (isInBatch)
            {
                deferredUpdates.add(entry, itemId, buffer, offset, length); // applied once the batch is written
            }
            else
            {
                applyUpdate(entry, itemId, buffer, offset, length);
            }
        }
        worker.onUpdate(itemId, buffer, offset, length);
    }

    private void applyUpdate(
        final CacheEntry entry, final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        if (!msg.wrap(buffer, offset, length))
        {
            uncache(entry, itemId, msg.errorReason());
        }
        else if (!entry.image.applyUpdate(msg, imageScratch))
        {
            uncache(entry, itemId, imageScratch.errorDescription());
        }
    }

    /**
     * Apply the batch's updates to the images: before anything reads or replaces an image, and once the worker has
     * written the batch to its consumers.
     */
    private void applyDeferredUpdates()
    {
        deferredUpdates.applyAll(toucher, applier);
    }

    @Override
    public void onStatus(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        applyDeferredUpdates();
        final CacheEntry entry = activeEntry(itemId);
        if (null != entry)
        {
            if (msg.wrap(buffer, offset, length))
            {
                entry.image.applyStatus(msg);
            }
            else
            {
                uncache(entry, itemId, msg.errorReason());
            }
        }
        worker.onStatus(itemId, buffer, offset, length);
    }

    @Override
    public void onServiceChanged(final ServiceInfo service)
    {
        worker.onServiceChanged(service);
    }

    @Override
    public void onServiceRemoved(final int serviceId)
    {
        worker.onServiceRemoved(serviceId);
    }

    @Override
    public void onBatchStart()
    {
        isInBatch = true;
        worker.onBatchStart();
    }

    @Override
    public void onBatchEnd()
    {
        worker.onBatchEnd(); // the consumers' writes first: the images can wait, the consumers should not
        isInBatch = false;
        applyDeferredUpdates();
    }

    /**
     * A message the cache cannot follow: forget the image until the next good refresh, so a stale image is never
     * served (the worker still gets the message and decides what it means for its consumers).
     */
    private void uncache(final CacheEntry entry, final int itemId, final String reason)
    {
        entry.image.clear();
        if (!isMalformedLogged)
        {
            isMalformedLogged = true;
            LOG.warn("item {}: the source sent a message the cache cannot apply ({}); the item is served from the " +
                "source until its next refresh (logged once)", itemId, reason);
        }
    }

    private CacheEntry activeEntry(final int itemId)
    {
        if (itemId < 0 || itemId >= entries.length)
        {
            return null;
        }
        final CacheEntry entry = entries[itemId];
        return null != entry && entry.isActive ? entry : null;
    }

    private CacheEntry entry(final int itemId)
    {
        if (itemId >= entries.length)
        {
            entries = Arrays.copyOf(entries, Math.max(entries.length * 2, itemId + 1));
        }
        CacheEntry entry = entries[itemId];
        if (null == entry)
        {
            entry = new CacheEntry();
            entries[itemId] = entry; // kept when the item closes: the next item with this id reuses its buffers
        }
        return entry;
    }

    private static final class CacheEntry
    {
        final ByteBuffer name = ByteBuffer.allocate(MAX_NAME_LENGTH);
        CachedImage image;
        int nameLength;
        int serviceId;
        boolean isActive;
        boolean isAnswerDue;

        void activate(
            final int domainType,
            final int serviceId,
            final DirectBuffer nameBuffer,
            final int nameOffset,
            final int nameLength)
        {
            if (isActive)
            {
                return; // re-opened (a snapshot upgraded to streaming): same item, keep what is cached
            }
            if (null == image)
            {
                image = new CachedImage(domainType);
            }
            image.clear();
            nameBuffer.getBytes(nameOffset, name.array(), 0, nameLength);
            this.nameLength = nameLength;
            this.serviceId = serviceId;
            isActive = true;
            isAnswerDue = false;
        }

        void deactivate()
        {
            isActive = false;
            isAnswerDue = false;
            image.clear();
        }
    }
}
