package io.mdhub.p2p.source;

import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

import com.refinitiv.eta.codec.NakCodes;

import io.mdhub.common.rwf.FieldView;

/**
 * Where a fan-out worker gets market data: items opened by (domain, serviceId, name), answered with refreshes,
 * updates and statuses through the worker's {@link ItemSourceListener}, plus a view of the service directory.
 * <p>
 * <b>Threading.</b> Each fan-out worker has its OWN instance, made by an {@link ItemSourceFactory}. The worker
 * calls every method on its own event-loop thread, and the source calls the listener on that same thread only
 * (never from another thread, never re-entrantly from inside {@code open/refresh/close}: answers are delivered
 * from a later task or poll on the worker's event loop). Nothing here may block.
 * <p>
 * <b>Item ids.</b> The worker names each open item with a small non-negative {@code itemId} of its own choice and
 * the source uses it in every callback, so no lookup by name happens on the update path. An id is reused only after
 * {@link #close(int)}.
 * <p>
 * <b>Messages.</b> The callbacks carry one complete RWF message as the provider sent it (any streamId, SOLICITED or
 * not); the worker rewrites what the consumer must see.
 */
public interface ItemSource extends AutoCloseable
{
    /**
     * Start interest in an item. The source answers with one complete refresh
     * ({@link ItemSourceListener#onRefresh}, {@code solicited = true}) or a status that closes the item (e.g.
     * Closed/Suspect NOT_FOUND). Calling open again for an item opened as a snapshot upgrades it to streaming and
     * asks for a new refresh.
     *
     * @param itemId     the worker's id for this item.
     * @param domainType RDM domain (6 MarketPrice, ...); non-admin domains are opaque to the worker.
     * @param serviceId  id of a service in {@link #services()}.
     * @param name       buffer holding the item name (only valid during the call).
     * @param nameOffset first byte of the name.
     * @param nameLength length of the name.
     * @param streaming  true for updates after the refresh; false for a snapshot (one refresh, then the source
     *                   forgets the item).
     * @param view       the fields its consumers want, or null for every field: an upstream that can ask its
     *                   provider for them (an ADS asks an interactive provider for the union of its consumers' views)
     *                   asks for the view.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    void open(
        int itemId,
        int domainType,
        int serviceId,
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        boolean streaming,
        FieldView view);

    /**
     * Ask for the current image of an open item, for a new watcher. Answered with a solicited refresh, possibly at
     * once from a cache (but always from a later task, never inside this call).
     *
     * @param itemId an open item.
     */
    void refresh(int itemId);

    /**
     * End interest in an item; does nothing for an unknown or already finished item.
     *
     * @param itemId the item.
     */
    void close(int itemId);

    /**
     * The service directory as the source sees it now. Changes arrive through
     * {@link ItemSourceListener#onServiceChanged} and {@link ItemSourceListener#onServiceRemoved}.
     *
     * @return the services (read on the worker thread; the list may be a copy).
     */
    List<ServiceInfo> services();

    /**
     * @return how many upstream publishers (distributors on the backbone) this source hears now, or
     * {@link #NO_UPSTREAMS} for a source that has none (read on the worker thread).
     */
    default int liveUpstreams()
    {
        return NO_UPSTREAMS;
    }

    /**
     * What {@link #liveUpstreams()} says of a source without upstream publishers (one fed in process).
     */
    int NO_UPSTREAMS = -1;

    /**
     * A consumer now wants fields outside the view the item was opened with: ask upstream again, for the wider view
     * (null: every field), never from a cache. The answer is a refresh like {@link #refresh}'s.
     *
     * @param itemId an open item.
     * @param view   the fields now wanted, or null for every field.
     */
    default void widenView(final int itemId, final FieldView view)
    {
        refresh(itemId);
    }

    /** {@link #writeImage} result: this source keeps no image of the item (no cache, not imaged, closed). */
    int NO_IMAGE = -1;

    /**
     * Write the latest image of an open streaming item, as a complete refresh (streamId 0, not solicited), from the
     * image this source keeps of it: for a consumer that missed updates (the conflate slow-consumer policy). It holds
     * every update delivered to the listener so far. Answered within the call; a source without images answers
     * {@link #NO_IMAGE}, and the worker asks for a refresh instead.
     *
     * @param itemId an open item.
     * @param target where to write (grown as needed).
     * @return the refresh's length in bytes from offset 0, or {@link #NO_IMAGE}.
     */
    default int writeImage(final int itemId, final ExpandableDirectByteBuffer target)
    {
        return NO_IMAGE;
    }

    /**
     * Open a private stream: a stream of its own to the item's (interactive) provider, never cached and never shared
     * with another watcher; answered and closed like {@link #open}.
     *
     * @param itemId     the worker's id for this stream.
     * @param domainType RDM domain.
     * @param serviceId  service.
     * @param name       holds the item name.
     * @param nameOffset where it starts.
     * @param nameLength its length.
     * @param view       the fields wanted, or null for every field.
     * @return false when this source serves no private streams (the worker refuses the request).
     */
    default boolean openPrivate(
        final int itemId,
        final int domainType,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final FieldView view)
    {
        return false;
    }

    /**
     * Send a consumer's GenericMsg on an open item's stream towards its provider.
     *
     * @param itemId an open item.
     * @param rwf    holds the GenericMsg.
     * @param offset where it starts.
     * @param length its length.
     * @return false when it cannot go (no upstream stream bound yet, back-pressure, a source without generics).
     */
    default boolean generic(final int itemId, final DirectBuffer rwf, final int offset, final int length)
    {
        return false;
    }

    /** {@link #post} result: the post is on its way; {@link ItemSourceListener#onPostAck} brings its outcome. */
    int POST_SENT = 0;

    /**
     * Send a consumer's post towards the item's provider (or the cache that stands for it).
     *
     * @param postRequestId echoed in {@link ItemSourceListener#onPostAck}; unique within this source.
     * @param itemId        the open item posted to on its stream, or -1 for an off-stream post.
     * @param serviceId     service.
     * @param domainType    the item's domain.
     * @param name          holds the item name.
     * @param nameOffset    where it starts.
     * @param nameLength    its length.
     * @param rwf           holds the consumer's PostMsg.
     * @param rwfOffset     where it starts.
     * @param rwfLength     its length.
     * @return {@link #POST_SENT}, or an RWF NakCode when the post cannot be sent (no upstream carries the service,
     * back-pressure, a source that takes no posts).
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    default int post(
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
        return NakCodes.DENIED_BY_SRC;
    }

    /**
     * Release the source's resources; called once on the worker thread when the server closes.
     */
    @Override
    void close();
}
