package io.mdhub.distributor.backbone;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;

import io.aeron.Publication;
import io.mdhub.backbone.protocol.MarketDataPublisher;
import io.mdhub.backbone.protocol.RefreshFlags;
import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.StatusMsgEncoder;
import io.mdhub.distributor.DistributorListener;
import io.mdhub.distributor.ProviderReadControl;

/**
 * Publishes the distributor's live events on the backbone data stream: refreshes, updates and statuses with the
 * provider's RWF bytes, each numbered with the service's next sequence when it is published and stamped with
 * {@link System#nanoTime()} when the provider's message was handled. Service changes travel in the announcements
 * (an early one is asked for); a dropped item becomes an ItemStatus Closed.
 * <p>
 * <b>Back-pressure goes upstream.</b> A live message the stream cannot take now ({@code BACK_PRESSURED} or
 * {@code ADMIN_ACTION} after the bounded attempts, a closed publication, or less window left than the answers'
 * headroom) waits in the bounded {@link PendingLiveMessages} store and the distributor stops reading its provider
 * connections ({@link ProviderReadControl#pauseReading()}), so the providers' TCP writes back up instead of data being
 * lost. Every later live message queues behind it (one FIFO for the whole distributor), the duty cycle calls
 * {@link #drain()} to publish the backlog in order as the stream frees up, and reading resumes once the store is
 * empty. Sequence numbers are taken at publication, so they follow publication order and have no holes from waiting.
 * Only a message that finds the store full is dropped: counted, logged once per episode, its sequence number taken
 * at once so p2p-servers see the gap, and an early announcement asked for to show it even when nothing follows.
 * <p>
 * <b>Headroom for answers.</b> Live data (direct or from the store) is published only while at least
 * {@code headroomBytes} of the publication window would remain; answers to item and recovery requests and
 * announcements may use the whole window, and the duty cycle serves them before the backlog, so live traffic never
 * starves them. An answer for an item with live messages still waiting is held back until they are out, because the
 * image comes from the cache, which already holds them: an image at sequence S always reflects exactly the item's
 * messages published before S.
 * <p>
 * {@code NOT_CONNECTED} (no p2p-server yet; they recover by request when they join) is counted and passed over with
 * its sequence number taken, and asks for an early announcement, which goes out as soon as a p2p-server subscribes
 * so it learns each service's {@code lastSequence} at once. Runs on the distributor's event loop; never blocks and
 * allocates nothing in steady state.
 */
final class BackboneOutbound implements DistributorListener, PendingLiveMessages.Sink
{
    private static final Logger LOG = LoggerFactory.getLogger(BackboneOutbound.class);
    private static final String ITEM_CLOSED_TEXT = "item closed by its provider";
    private static final int NO_HANDLE = -1;
    /** Most waiting messages published per duty cycle; the cycle runs again at once while there is work. */
    private static final int DRAIN_LIMIT = 1024;
    /** Backbone framing around the name and RWF bytes (Aeron frame, SBE header, block, length fields), rounded up. */
    private static final int FRAMING_BYTES = 128;
    /** The publication threw while still open: this message cannot be published (too long, position exhausted). */
    private static final long REJECTED = Long.MIN_VALUE;

    private final MarketDataPublisher publisher;
    private Publication publication;
    private final ServiceSequences sequences;
    private final BackboneCounters counters;
    private final PendingLiveMessages pending;
    private final ProviderReadControl reads;
    private final long headroomBytes;
    private final StatusMsgEncoder statusEncoder = new StatusMsgEncoder();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final ExpandableDirectByteBuffer scratch = new ExpandableDirectByteBuffer(256);
    private int closedServiceId = NO_HANDLE;
    private int closedHandle = NO_HANDLE;
    private boolean isWaiting;
    private boolean isBackboneDown;
    private boolean isFailureLogged;
    private long episodeDrops;

    /**
     * @param publisher     encodes onto the data stream.
     * @param publication   the data stream's publication (connection, window and closed checks).
     * @param sequences     the per-service sequence numbers.
     * @param counters      drop and pending counters.
     * @param pending       where live messages wait.
     * @param reads         pauses and resumes provider reading.
     * @param headroomBytes window kept free for answers and announcements.
     */
    BackboneOutbound(
        final MarketDataPublisher publisher,
        final Publication publication,
        final ServiceSequences sequences,
        final BackboneCounters counters,
        final PendingLiveMessages pending,
        final ProviderReadControl reads,
        final int headroomBytes)
    {
        this.publisher = publisher;
        this.publication = publication;
        this.sequences = sequences;
        this.counters = counters;
        this.pending = pending;
        this.reads = reads;
        this.headroomBytes = headroomBytes;
        pending.sink(this);
    }

    /**
     * The backbone daemon is lost: live messages are not published (nor waited with) until it is back — the
     * distributor's cache holds them, and the p2p-servers ask for every image again then. Waiting messages are dropped
     * by the next {@link #drain()}, which then resumes provider reading.
     */
    void backboneLost()
    {
        isBackboneDown = true;
    }

    /**
     * A new data publication on a new client: live messages go out again.
     *
     * @param publication the new publication.
     */
    void backboneRestored(final Publication publication)
    {
        this.publication = publication;
        isBackboneDown = false;
        isFailureLogged = false;
    }

    @Override
    public void onServiceChanged(
        final int serviceId, final String serviceName, final int serviceState, final int acceptingRequests)
    {
        sequences.announcementDue();
    }

    @Override
    public void onItemRefresh(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int refreshFlags,
        final long connectionId,
        final DirectBuffer name,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        publishRefresh(serviceId, itemHandle, 0, domainType, refreshFlags, name, rwf, rwfOffset, rwfLength);
    }

    @Override
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public void onItemAnswer(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int refreshFlags,
        final long requestId,
        final long connectionId,
        final DirectBuffer name,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        publishRefresh(serviceId, itemHandle, requestId, domainType, refreshFlags, name, rwf, rwfOffset, rwfLength);
    }

    @Override
    public void onRequestRefused(
        final int serviceId,
        final long requestId,
        final int domainType,
        final int streamState,
        final int dataState,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        publishStatus(serviceId, NO_HANDLE, requestId, streamState, dataState, rwf, rwfOffset, rwfLength);
    }

    /**
     * Publish a provider's refresh in order with the item's live messages: broadcast (requestId 0) or answering a
     * request (then marked solicited).
     */
    private void publishRefresh(
        final int serviceId,
        final int itemHandle,
        final long requestId,
        final int domainType,
        final int refreshFlags,
        final DirectBuffer name,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final long originNs = System.nanoTime();
        final int nameLength = name.capacity();
        if (isBackboneDown)
        {
            counters.droppedNotConnected.increment();
            return;
        }
        if (pending.isEmpty() && hasWindow(nameLength + rwfLength))
        {
            final long sequence = sequences.peekNext(serviceId);
            long result;
            try
            {
                result = publisher.refresh(serviceId, itemHandle, sequence, originNs, requestId, domainType,
                    refreshFlags(refreshFlags, requestId), name, 0, nameLength, rwf, rwfOffset, rwfLength);
            }
            catch (final RuntimeException ex)
            {
                result = failed(serviceId, ex);
            }
            if (isDone(serviceId, sequence, result))
            {
                return;
            }
        }
        waiting(serviceId, pending.appendRefresh(serviceId, itemHandle, requestId, originNs, domainType, refreshFlags,
            name, 0, nameLength, rwf, rwfOffset, rwfLength));
    }

    @Override
    public void onItemUpdate(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int updateType,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final long originNs = System.nanoTime();
        if (isBackboneDown)
        {
            counters.droppedNotConnected.increment();
            return;
        }
        if (pending.isEmpty() && hasWindow(rwfLength))
        {
            final long sequence = sequences.peekNext(serviceId);
            long result;
            try
            {
                result = publisher.update(serviceId, itemHandle, sequence, originNs, rwf, rwfOffset, rwfLength);
            }
            catch (final RuntimeException ex)
            {
                result = failed(serviceId, ex);
            }
            if (isDone(serviceId, sequence, result))
            {
                return;
            }
        }
        waiting(serviceId, pending.appendUpdate(serviceId, itemHandle, originNs, rwf, rwfOffset, rwfLength));
    }

    @Override
    public void onItemStatus(
        final int serviceId,
        final int itemHandle,
        final int streamState,
        final int dataState,
        final int stateCode,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        // a provider's Closed status is followed by onItemDropped for the same item: it already says Closed
        final boolean isClosed = StreamStates.CLOSED == streamState || StreamStates.CLOSED_RECOVER == streamState ||
            StreamStates.REDIRECTED == streamState;
        closedServiceId = isClosed ? serviceId : NO_HANDLE;
        closedHandle = isClosed ? itemHandle : NO_HANDLE;
        publishStatus(serviceId, itemHandle, 0, streamState, dataState, rwf, rwfOffset, rwfLength);
    }

    /**
     * A provider's generic message is not part of the item's image: published at once, outside the services'
     * sequences, or dropped and counted when the stream pushes back.
     */
    @Override
    public void onItemGeneric(
        final int serviceId, final int itemHandle, final DirectBuffer rwf, final int rwfOffset, final int rwfLength)
    {
        if (isBackboneDown || publisher.generic(serviceId, itemHandle, rwf, rwfOffset, rwfLength) < 0)
        {
            counters.genericsDropped.increment();
        }
    }

    /**
     * A post's outcome is not an item event: it is published at once, outside the services' sequences, or dropped
     * and counted when the stream pushes back (the poster's own timeout then answers it).
     */
    @Override
    public void onPostAck(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final int serviceId,
        final int nakCode,
        final String text)
    {
        if (isBackboneDown || publisher.postAck(consumerId, sourceIndex, postRequestId, serviceId, nakCode, text) < 0)
        {
            counters.postAcksDropped.increment();
        }
    }

    @Override
    public void onItemDropped(final int serviceId, final int itemHandle, final int domainType)
    {
        if (serviceId == closedServiceId && itemHandle == closedHandle)
        {
            closedServiceId = NO_HANDLE;
            closedHandle = NO_HANDLE;
            return;
        }
        final int capacity = 128 + ITEM_CLOSED_TEXT.length();
        scratch.checkLimit(capacity);
        final int result = statusEncoder.encode(writer.begin(scratch, 0, capacity), domainType, 0,
            StreamStates.CLOSED, DataStates.SUSPECT, StateCodes.NONE, ITEM_CLOSED_TEXT);
        if (CodecReturnCodes.SUCCESS != result)
        {
            LOG.error("item closed status not encoded: {}", CodecReturnCodes.toString(result));
            return;
        }
        publishStatus(serviceId, itemHandle, 0, StreamStates.CLOSED, DataStates.SUSPECT, scratch, 0,
            writer.encodedLength());
    }

    private void publishStatus(
        final int serviceId,
        final int itemHandle,
        final long requestId,
        final int streamState,
        final int dataState,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final long originNs = System.nanoTime();
        if (isBackboneDown)
        {
            counters.droppedNotConnected.increment();
            return;
        }
        if (pending.isEmpty() && hasWindow(rwfLength))
        {
            final long sequence = sequences.peekNext(serviceId);
            long result;
            try
            {
                result = publisher.status(serviceId, itemHandle, sequence, originNs, requestId, streamState,
                    dataState, rwf, rwfOffset, rwfLength);
            }
            catch (final RuntimeException ex)
            {
                result = failed(serviceId, ex);
            }
            if (isDone(serviceId, sequence, result))
            {
                return;
            }
        }
        waiting(serviceId, pending.appendStatus(
            serviceId, itemHandle, requestId, originNs, streamState, dataState, rwf, rwfOffset, rwfLength));
    }

    /**
     * Publish waiting live messages, oldest first, while the stream takes them; resume provider reading on the cycle
     * after none is left. Called by the duty cycle after the answers, so the cycle that finds the store empty has
     * served the answers first: an answer held back for an item's waiting messages goes out before reading resumes
     * and new live data for the item arrives (a busy item's image is never starved).
     *
     * @return 1 if something was published or reading resumed, else 0.
     */
    int drain()
    {
        if (!isWaiting)
        {
            return 0;
        }
        if (pending.isEmpty())
        {
            endEpisode();
            return 1;
        }
        final int bytes = pending.drain(DRAIN_LIMIT);
        return bytes > 0 || pending.isEmpty() ? 1 : 0;
    }

    /**
     * @return true while live messages wait (provider reading is paused).
     */
    boolean isWaiting()
    {
        return isWaiting;
    }

    /**
     * @param itemHandle an item.
     * @return true while live messages of the item wait: an image of it must wait too.
     */
    boolean hasPending(final int itemHandle)
    {
        return pending.hasPending(itemHandle);
    }

    @Override
    public boolean publishPending(final DirectBuffer record, final int offset)
    {
        if (isBackboneDown)
        {
            counters.droppedNotConnected.increment();
            return true; // dropped: the p2p-servers recover every item from the cache when the backbone is back
        }
        final int nameLength = PendingLiveMessages.nameLength(record, offset);
        final int rwfLength = PendingLiveMessages.rwfLength(record, offset);
        if (publication.isClosed() || !hasWindow(nameLength + rwfLength))
        {
            return false;
        }
        final int serviceId = PendingLiveMessages.serviceId(record, offset);
        final int itemHandle = PendingLiveMessages.itemHandle(record, offset);
        final long originNs = PendingLiveMessages.originNs(record, offset);
        final long requestId = PendingLiveMessages.requestId(record, offset);
        final int rwfOffset = PendingLiveMessages.rwfOffset(record, offset);
        final long sequence = sequences.peekNext(serviceId);
        long result;
        try
        {
            switch (PendingLiveMessages.kind(record, offset))
            {
                case PendingLiveMessages.REFRESH:
                    result = publisher.refresh(serviceId, itemHandle, sequence, originNs, requestId,
                        PendingLiveMessages.fieldA(record, offset),
                        refreshFlags(PendingLiveMessages.fieldB(record, offset), requestId), record,
                        PendingLiveMessages.nameOffset(offset), nameLength, record, rwfOffset, rwfLength);
                    break;
                case PendingLiveMessages.UPDATE:
                    result = publisher.update(serviceId, itemHandle, sequence, originNs, record, rwfOffset, rwfLength);
                    break;
                default:
                    result = publisher.status(serviceId, itemHandle, sequence, originNs, requestId,
                        PendingLiveMessages.fieldA(record, offset), PendingLiveMessages.fieldB(record, offset), record,
                        rwfOffset, rwfLength);
                    break;
            }
        }
        catch (final RuntimeException ex)
        {
            result = failed(serviceId, ex);
        }
        return isDone(serviceId, sequence, result);
    }

    /**
     * @param rwfFlags  RWF RefreshMsg flags.
     * @param requestId the backbone request the refresh answers, or 0 for a provider-pushed one.
     * @return the backbone {@link RefreshFlags}.
     */
    static int refreshFlags(final int rwfFlags, final long requestId)
    {
        int flags = 0 == requestId ? 0 : RefreshFlags.SOLICITED;
        if (0 != (rwfFlags & RwfMsgFlags.Refresh.CLEAR_CACHE))
        {
            flags |= RefreshFlags.CLEAR_CACHE;
        }
        if (0 != (rwfFlags & RwfMsgFlags.Refresh.REFRESH_COMPLETE))
        {
            flags |= RefreshFlags.COMPLETE;
        }
        return flags;
    }

    /**
     * Live data may use the window down to the headroom; when nobody is connected the publication answers
     * {@code NOT_CONNECTED} whatever its window, and that is handled as such.
     */
    private boolean hasWindow(final int bodyLength)
    {
        return 0 == headroomBytes || !publication.isConnected() ||
            publication.availableWindow() >= headroomBytes + FRAMING_BYTES + bodyLength;
    }

    /**
     * @return true when the message is done with: published (sequence committed) or passed over for want of a
     * subscriber (sequence taken, so a joining p2p-server's view of lastSequence stays true); false when it must wait.
     */
    private boolean isDone(final int serviceId, final long sequence, final long result)
    {
        if (result > 0)
        {
            sequences.commit(serviceId, sequence);
            return true;
        }
        if (Publication.NOT_CONNECTED == result)
        {
            sequences.commit(serviceId, sequence);
            counters.droppedNotConnected.increment();
            sequences.announcementDue();
            return true;
        }
        if (REJECTED == result)
        {
            // waiting would not help and would block everything behind it: drop, the gap shows
            sequences.commit(serviceId, sequence);
            counters.droppedRejected.increment();
            sequences.announcementDue();
            return true;
        }
        return false;
    }

    private void waiting(final int serviceId, final boolean isAppended)
    {
        if (!isWaiting)
        {
            isWaiting = true;
            reads.pauseReading();
        }
        if (!isAppended)
        {
            // the store is full: drop, keeping the sequence number taken so the gap shows (ahead of the service's
            // messages still waiting, which is harmless: the p2p-server re-images the service's items either way)
            sequences.advance(serviceId);
            sequences.announcementDue();
            counters.droppedPendingFull.increment();
            if (0 == episodeDrops++)
            {
                LOG.warn("backbone pending store full ({} of {} bytes): live messages are dropped until it drains " +
                    "(counter distributor-messages-dropped reason=backbone-pending-full)", pending.size(),
                    pending.capacity());
            }
        }
    }

    private void endEpisode()
    {
        isWaiting = false;
        isFailureLogged = false;
        reads.resumeReading();
        if (episodeDrops > 0)
        {
            LOG.info("backbone pending store drained; {} live messages were dropped while it was full", episodeDrops);
            episodeDrops = 0;
        }
    }

    /**
     * A closed publication needs a restart: until then live data waits (and the store overflows), with provider reading
     * paused. An open publication that throws refuses this message (longer than the stream's maxMessageLength,
     * MAX_POSITION_EXCEEDED): it is dropped, or it would block everything behind it.
     */
    private long failed(final int serviceId, final RuntimeException ex)
    {
        final boolean isClosed = publication.isClosed();
        if (!isFailureLogged)
        {
            isFailureLogged = true;
            LOG.error(isClosed ?
                "backbone data publication closed (service {}); live data waits, provider reading is paused" :
                "backbone data publication refused a live message (service {}); dropped, the gap shows", serviceId,
                ex);
        }
        return isClosed ? Publication.CLOSED : REJECTED;
    }
}
