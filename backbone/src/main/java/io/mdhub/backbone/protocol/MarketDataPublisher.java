package io.mdhub.backbone.protocol;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import io.mdhub.common.codecs.backbone.BooleanType;
import io.mdhub.common.codecs.backbone.ItemRefreshEncoder;
import io.mdhub.common.codecs.backbone.ItemStatusEncoder;
import io.mdhub.common.codecs.backbone.ItemUpdateEncoder;
import io.mdhub.common.codecs.backbone.MessageHeaderEncoder;
import io.mdhub.common.codecs.backbone.PostAckEncoder;
import io.mdhub.common.codecs.backbone.ProviderGenericEncoder;
import io.mdhub.common.codecs.backbone.ServiceAnnouncementEncoder;
import io.mdhub.common.codecs.backbone.ServiceState;

/**
 * Encodes a distributor's data stream: announcements, item refreshes, updates and statuses, and the outcomes of
 * consumers' posts. One encoder per message
 * as a final field, encoded in place in the log when the message fits one frame (see {@link BackbonePublication}).
 * Every method returns the new stream position (positive) or a negative {@code Publication} code; the caller keeps
 * the per-service sequence numbers. Not thread safe.
 */
public final class MarketDataPublisher
{
    private final BackbonePublication publication;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final ServiceAnnouncementEncoder announcement = new ServiceAnnouncementEncoder();
    private final ItemRefreshEncoder refresh = new ItemRefreshEncoder();
    private final ItemUpdateEncoder update = new ItemUpdateEncoder();
    private final ItemStatusEncoder status = new ItemStatusEncoder();
    private final PostAckEncoder postAck = new PostAckEncoder();
    private final ProviderGenericEncoder generic = new ProviderGenericEncoder();
    private final ExpandableArrayBuffer announcementBuffer = new ExpandableArrayBuffer(1024);

    /**
     * @param publication the data stream.
     */
    public MarketDataPublisher(final BackbonePublication publication)
    {
        this.publication = publication;
    }

    /**
     * Announce the distributor's services (its heartbeat), waking no sleeping subscriber.
     *
     * @param distributorId this distributor.
     * @param epoch         changes on every start.
     * @param intervalMs    the announcement interval.
     * @param timestampNs   now.
     * @param services      what to announce.
     * @return position or a negative Publication code.
     */
    public long announce(
        final int distributorId,
        final long epoch,
        final int intervalMs,
        final long timestampNs,
        final AnnouncedServices services)
    {
        announcement.wrapAndApplyHeader(announcementBuffer, 0, header)
            .distributorId(distributorId)
            .epoch(epoch)
            .intervalMs(intervalMs)
            .timestampNs(timestampNs);

        final int count = services.count();
        final ServiceAnnouncementEncoder.ServicesEncoder group = announcement.servicesCount(count);
        for (int i = 0; i < count; i++)
        {
            group.next()
                .serviceId(services.serviceId(i))
                .state(services.isUp(i) ? ServiceState.UP : ServiceState.DOWN)
                .acceptingRequests(services.isAcceptingRequests(i) ? BooleanType.TRUE : BooleanType.FALSE)
                .lastSequence(services.lastSequence(i))
                .itemCount(services.itemCount(i))
                .capabilities(services.capabilities(i))
                .serviceName(services.name(i));
        }

        // a heartbeat: a sleeping p2p-server reads it at its tick rather than waking for it
        return publication.offerQuietly(
            announcementBuffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + announcement.encodedLength());
    }

    /**
     * Publish an item's image (or one part of it).
     *
     * @param serviceId         service.
     * @param itemHandle        the item's handle.
     * @param sequence          the service's next sequence number.
     * @param originTimestampNs when the provider's message arrived.
     * @param requestId         the ItemRequest answered, or 0.
     * @param domainType        RDM domain.
     * @param flags             {@link RefreshFlags} bits.
     * @param name              holds the item name (ASCII).
     * @param nameOffset        where it starts.
     * @param nameLength        its length.
     * @param rwf               holds the RWF refresh.
     * @param rwfOffset         where it starts.
     * @param rwfLength         its length.
     * @return position or a negative Publication code.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public long refresh(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final long requestId,
        final int domainType,
        final int flags,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + ItemRefreshEncoder.BLOCK_LENGTH +
            ItemRefreshEncoder.itemNameHeaderLength() + nameLength + ItemRefreshEncoder.rwfHeaderLength() + rwfLength;
        final long claimed = publication.claim(length);
        if (claimed < 0)
        {
            return claimed;
        }

        refresh.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .serviceId(serviceId)
            .itemHandle(itemHandle)
            .sequence(sequence)
            .originTimestampNs(originTimestampNs)
            .requestId(requestId)
            .domainType((short)domainType);
        refresh.buffer().putByte(refresh.offset() + ItemRefreshEncoder.flagsEncodingOffset(), (byte)flags);
        refresh.putItemName(name, nameOffset, nameLength).putRwf(rwf, rwfOffset, rwfLength);
        return publication.commit();
    }

    /**
     * Publish one update.
     *
     * @param serviceId         service.
     * @param itemHandle        item.
     * @param sequence          the service's next sequence number.
     * @param originTimestampNs when the provider's message arrived.
     * @param rwf               holds the RWF update.
     * @param rwfOffset         where it starts.
     * @param rwfLength         its length.
     * @return position or a negative Publication code.
     */
    public long update(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + ItemUpdateEncoder.BLOCK_LENGTH +
            ItemUpdateEncoder.rwfHeaderLength() + rwfLength;
        final long claimed = publication.claim(length);
        if (claimed < 0)
        {
            return claimed;
        }

        update.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .serviceId(serviceId)
            .itemHandle(itemHandle)
            .sequence(sequence)
            .originTimestampNs(originTimestampNs)
            .putRwf(rwf, rwfOffset, rwfLength);
        return publication.commit();
    }

    /**
     * Publish a state change of an item, or refuse an item request (handle -1, the request's id).
     *
     * @param serviceId         service.
     * @param itemHandle        item, or -1 when refusing a request for an unknown item.
     * @param sequence          the service's next sequence number.
     * @param originTimestampNs when the provider's message arrived (or the distributor noticed the change).
     * @param requestId         the ItemRequest refused, or 0.
     * @param streamState       RWF StreamState.
     * @param dataState         RWF DataState.
     * @param rwf               holds the RWF status message.
     * @param rwfOffset         where it starts.
     * @param rwfLength         its length.
     * @return position or a negative Publication code.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public long status(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final long requestId,
        final int streamState,
        final int dataState,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + ItemStatusEncoder.BLOCK_LENGTH +
            ItemStatusEncoder.rwfHeaderLength() + rwfLength;
        final long claimed = publication.claim(length);
        if (claimed < 0)
        {
            return claimed;
        }

        status.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .serviceId(serviceId)
            .itemHandle(itemHandle)
            .sequence(sequence)
            .originTimestampNs(originTimestampNs)
            .requestId(requestId)
            .streamState((short)streamState)
            .dataState((short)dataState)
            .putRwf(rwf, rwfOffset, rwfLength);
        return publication.commit();
    }

    /**
     * A provider's GenericMsg on an item stream, for the item's watchers. Not sequenced: not part of the image.
     *
     * @param serviceId  service.
     * @param itemHandle item.
     * @param rwf        holds the GenericMsg.
     * @param rwfOffset  where it starts.
     * @param rwfLength  its length.
     * @return position or a negative Publication code.
     */
    public long generic(
        final int serviceId, final int itemHandle, final DirectBuffer rwf, final int rwfOffset, final int rwfLength)
    {
        final long claimed = publication.claim(MessageHeaderEncoder.ENCODED_LENGTH +
            ProviderGenericEncoder.BLOCK_LENGTH + ProviderGenericEncoder.rwfHeaderLength() + rwfLength);
        if (claimed < 0)
        {
            return claimed;
        }
        generic.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .serviceId(serviceId)
            .itemHandle(itemHandle)
            .putRwf(rwf, rwfOffset, rwfLength);
        return publication.commit();
    }

    /**
     * The outcome of a consumer's post, addressed to the p2p-server item source that sent it. Not sequenced: it is
     * not an item event, and a lost one ends in the poster's timeout.
     *
     * @param consumerId    the posting p2p-server.
     * @param sourceIndex   its posting item source.
     * @param postRequestId the ItemPost's id.
     * @param serviceId     the service posted to.
     * @param nakCode       RWF NakCode, 0 when accepted.
     * @param text          why, for a NAK (ASCII), or empty.
     * @return position or a negative Publication code.
     */
    public long postAck(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final int serviceId,
        final int nakCode,
        final String text)
    {
        final int textLength = Math.min(text.length(), 1024);
        final long claimed = publication.claim(MessageHeaderEncoder.ENCODED_LENGTH + PostAckEncoder.BLOCK_LENGTH +
            PostAckEncoder.textHeaderLength() + textLength);
        if (claimed < 0)
        {
            return claimed;
        }
        postAck.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .consumerId(consumerId)
            .sourceIndex((short)sourceIndex)
            .postRequestId(postRequestId)
            .serviceId(serviceId)
            .nakCode((short)nakCode)
            .text(text.length() > textLength ? text.substring(0, textLength) : text);
        return publication.commit();
    }
}
