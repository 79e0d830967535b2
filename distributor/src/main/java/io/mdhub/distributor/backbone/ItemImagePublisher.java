package io.mdhub.distributor.backbone;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;

import io.aeron.Publication;
import io.mdhub.backbone.protocol.MarketDataPublisher;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.StatusMsgEncoder;
import io.mdhub.distributor.CachedItem;
import io.mdhub.distributor.DistributedService;

/**
 * Publishes answers that are retried until they go out: item images encoded from the cache (answers to requests,
 * recovery) and refusals (ItemStatus with handle -1). The service's sequence number is taken only when the message
 * was published, so a back-pressured answer that is tried again later leaves no gap. An image of an item whose live
 * messages still wait in {@link PendingLiveMessages} is held back (answered as back-pressured) until they are out:
 * the cache already reflects them, so publishing the image first would put their effect ahead of their sequence
 * numbers. The scratch buffer grows to the largest image and is then reused. Owned by the distributor's event loop.
 */
final class ItemImagePublisher
{
    /** Returned when the item has no image to send (payload neither a FieldList nor a Map, or encoding failed). */
    static final long NO_IMAGE = Long.MIN_VALUE;

    private static final int MAX_IMAGE_LENGTH = 16 * 1024 * 1024;
    private static final int ENCODING_SLACK = 256; // message header and key around the payload
    private static final int STATUS_HEADROOM = 128;

    private final MarketDataPublisher publisher;
    private final ServiceSequences sequences;
    private final PendingLiveMessages pending;
    private final StatusMsgEncoder statusEncoder = new StatusMsgEncoder();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final ExpandableDirectByteBuffer scratch = new ExpandableDirectByteBuffer(4096);

    ItemImagePublisher(
        final MarketDataPublisher publisher, final ServiceSequences sequences, final PendingLiveMessages pending)
    {
        this.publisher = publisher;
        this.sequences = sequences;
        this.pending = pending;
    }

    /**
     * @param service   the item's service.
     * @param item      the item.
     * @param requestId the request answered, or 0.
     * @param flags     backbone RefreshFlags.
     * @param solicited RWF SOLICITED on the refresh.
     * @param nowNs     the origin timestamp.
     * @return the Publication result, or {@link #NO_IMAGE}; {@code BACK_PRESSURED} also while live messages of the
     * item wait to be published.
     */
    long publishImage(
        final DistributedService service,
        final CachedItem item,
        final long requestId,
        final int flags,
        final boolean solicited,
        final long nowNs)
    {
        if (pending.hasPending(item.handle()))
        {
            return Publication.BACK_PRESSURED;
        }
        final int serviceId = service.id();
        // sized from the image's own bound first, as the p2p cache does: a large book is encoded once, not once per
        // doubling; the loop stays for what the bound does not cover
        scratch.checkLimit(Math.min(
            item.cached().encodedPayloadLength() + item.nameBuffer().capacity() + ENCODING_SLACK, MAX_IMAGE_LENGTH));
        int length;
        while (true)
        {
            length = service.cache().encodeRefresh(
                item.handle(), 0, serviceId, solicited, scratch, 0, scratch.capacity());
            if (CodecReturnCodes.BUFFER_TOO_SMALL != length || scratch.capacity() >= MAX_IMAGE_LENGTH)
            {
                break;
            }
            scratch.checkLimit(Math.min(scratch.capacity() * 2, MAX_IMAGE_LENGTH));
        }
        if (length <= 0)
        {
            return NO_IMAGE;
        }
        final DirectBuffer name = item.nameBuffer();
        final long sequence = sequences.peekNext(serviceId);
        final long result = publisher.refresh(serviceId, item.handle(), sequence, nowNs, requestId,
            item.domainType(), flags, name, 0, name.capacity(), scratch, 0, length);
        if (result > 0)
        {
            sequences.commit(serviceId, sequence);
        }
        return result;
    }

    /**
     * Refuse a request: ItemStatus with handle -1, echoing the requestId. Closed/Suspect ends the request for good;
     * ClosedRecover/Suspect says the refusal is passing (no provider of the service is up) and the item may be asked
     * for again.
     *
     * @param streamState {@code StreamStates.CLOSED} or {@code StreamStates.CLOSED_RECOVER}.
     * @return the Publication result.
     */
    long publishRefusal(
        final int serviceId,
        final int itemHandle,
        final long requestId,
        final int domainType,
        final int streamState,
        final int stateCode,
        final String text,
        final long nowNs)
    {
        final int capacity = STATUS_HEADROOM + text.length();
        scratch.checkLimit(capacity);
        final int encoded = statusEncoder.encode(writer.begin(scratch, 0, capacity), domainType, 0,
            streamState, DataStates.SUSPECT, stateCode, text);
        if (CodecReturnCodes.SUCCESS != encoded)
        {
            throw new IllegalStateException("status encoding failed: " + CodecReturnCodes.toString(encoded));
        }
        final long sequence = sequences.peekNext(serviceId);
        final long result = publisher.status(serviceId, itemHandle, sequence, nowNs, requestId, streamState,
            DataStates.SUSPECT, scratch, 0, writer.encodedLength());
        if (result > 0)
        {
            sequences.commit(serviceId, sequence);
        }
        return result;
    }

    /**
     * @param result a Publication result.
     * @return true when the stream was back-pressured, so the same answer should be tried again later.
     */
    static boolean isBackPressured(final long result)
    {
        return Publication.BACK_PRESSURED == result || Publication.ADMIN_ACTION == result;
    }
}
