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
import io.mdhub.distributor.DistributorListener;
import io.mdhub.distributor.ItemStatusEncoder;

/**
 * Publishes the distributor's live events on the backbone data stream: refreshes, updates and statuses with the
 * provider's RWF bytes, each numbered with the service's next sequence and stamped with {@link System#nanoTime()}
 * when the provider's message was handled. Service changes travel in the announcements (an early one is asked for);
 * a dropped item becomes an ItemStatus Closed.
 * <p>
 * Never blocks: {@code NOT_CONNECTED} (no p2p-server yet; they recover by request when they join) is counted and
 * passed over and asks for an early announcement, sent once a p2p-server subscribes; a message still back-pressured
 * after the bounded retries is dropped and counted, its sequence number stays taken so the gap is visible, and an
 * early announcement carries the service's {@code lastSequence} so p2p-servers see the loss even when nothing
 * follows. Runs on the distributor's event loop.
 */
final class BackboneOutbound implements DistributorListener
{
    private static final Logger LOG = LoggerFactory.getLogger(BackboneOutbound.class);
    private static final String ITEM_CLOSED_TEXT = "item closed by its provider";
    private static final int NO_HANDLE = -1;

    private final MarketDataPublisher publisher;
    private final ServiceSequences sequences;
    private final BackboneCounters counters;
    private final ItemStatusEncoder statusEncoder = new ItemStatusEncoder();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final ExpandableDirectByteBuffer scratch = new ExpandableDirectByteBuffer(256);
    private int closedServiceId = NO_HANDLE;
    private int closedHandle = NO_HANDLE;
    private boolean isFailureLogged;

    BackboneOutbound(
        final MarketDataPublisher publisher, final ServiceSequences sequences, final BackboneCounters counters)
    {
        this.publisher = publisher;
        this.sequences = sequences;
        this.counters = counters;
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
        final long originNs = System.nanoTime();
        final long sequence = sequences.advance(serviceId);
        try
        {
            outcome(publisher.refresh(serviceId, itemHandle, sequence, originNs, 0, domainType,
                refreshFlags(refreshFlags), name, 0, name.capacity(), rwf, rwfOffset, rwfLength));
        }
        catch (final RuntimeException ex)
        {
            failed(serviceId, ex);
        }
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
        final long sequence = sequences.advance(serviceId);
        try
        {
            outcome(publisher.update(serviceId, itemHandle, sequence, originNs, rwf, rwfOffset, rwfLength));
        }
        catch (final RuntimeException ex)
        {
            failed(serviceId, ex);
        }
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
        publishStatus(serviceId, itemHandle, streamState, dataState, rwf, rwfOffset, rwfLength);
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
        publishStatus(serviceId, itemHandle, StreamStates.CLOSED, DataStates.SUSPECT, scratch, 0,
            writer.encodedLength());
    }

    private void publishStatus(
        final int serviceId,
        final int itemHandle,
        final int streamState,
        final int dataState,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final long originNs = System.nanoTime();
        final long sequence = sequences.advance(serviceId);
        try
        {
            outcome(publisher.status(serviceId, itemHandle, sequence, originNs, 0, streamState,
                dataState, rwf, rwfOffset, rwfLength));
        }
        catch (final RuntimeException ex)
        {
            failed(serviceId, ex);
        }
    }

    /**
     * @param rwfFlags RWF RefreshMsg flags.
     * @return the backbone {@link RefreshFlags} of an unsolicited (provider-pushed) refresh.
     */
    static int refreshFlags(final int rwfFlags)
    {
        int flags = 0;
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

    private void outcome(final long result)
    {
        if (result > 0)
        {
            return;
        }
        if (Publication.NOT_CONNECTED == result)
        {
            // announced as soon as a p2p-server subscribes: the joiner learns lastSequence at once
            counters.droppedNotConnected.increment();
            sequences.announcementDue();
        }
        else
        {
            counters.droppedBackPressure.increment();
            sequences.announcementDue();
        }
    }

    private void failed(final int serviceId, final RuntimeException ex)
    {
        // CLOSED / MAX_POSITION_EXCEEDED: the publication needs a restart; the providers must not be hurt by it
        counters.droppedBackPressure.increment();
        if (!isFailureLogged)
        {
            isFailureLogged = true;
            LOG.error("backbone data publication failed (service {}); live data is dropped until restart", serviceId,
                ex);
        }
    }
}
