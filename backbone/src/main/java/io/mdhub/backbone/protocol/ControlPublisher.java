package io.mdhub.backbone.protocol;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import io.mdhub.common.codecs.backbone.BooleanType;
import io.mdhub.common.codecs.backbone.ConsumerAnnouncementEncoder;
import io.mdhub.common.codecs.backbone.ItemCloseEncoder;
import io.mdhub.common.codecs.backbone.ItemRequestEncoder;
import io.mdhub.common.codecs.backbone.ItemGenericEncoder;
import io.mdhub.common.codecs.backbone.ItemPostEncoder;
import io.mdhub.common.codecs.backbone.MessageHeaderEncoder;
import io.mdhub.common.codecs.backbone.RecoveryRequestEncoder;
import io.mdhub.common.rwf.FieldView;

/**
 * Encodes a p2p-server's control stream to the distributors: heartbeats, item requests and closes, recovery
 * requests, consumers' posts and generic messages. Every method returns the new stream position (positive) or a
 * negative {@code Publication} code.
 * Not thread safe.
 */
public final class ControlPublisher
{
    private final BackbonePublication publication;
    private final int consumerId;
    private final short sourceIndex;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final ConsumerAnnouncementEncoder announcement = new ConsumerAnnouncementEncoder();
    private final ItemRequestEncoder request = new ItemRequestEncoder();
    private final ItemCloseEncoder close = new ItemCloseEncoder();
    private final RecoveryRequestEncoder recovery = new RecoveryRequestEncoder();
    private final ItemPostEncoder post = new ItemPostEncoder();
    private final ItemGenericEncoder generic = new ItemGenericEncoder();
    private final ExpandableArrayBuffer viewScratch = new ExpandableArrayBuffer(64);

    /**
     * @param publication the control stream.
     * @param consumerId  this p2p-server's id, stamped on every message.
     */
    public ControlPublisher(final BackbonePublication publication, final int consumerId)
    {
        this(publication, consumerId, 0);
    }

    /**
     * @param publication the control stream.
     * @param consumerId  this p2p-server's id, stamped on every message.
     * @param sourceIndex the item source (fan-out worker, 0..255) within the p2p-server that publishes through this:
     *                    distributors count interest in sink-driven items per (consumerId, sourceIndex).
     */
    public ControlPublisher(final BackbonePublication publication, final int consumerId, final int sourceIndex)
    {
        if (sourceIndex < 0 || sourceIndex > 0xFF)
        {
            throw new IllegalArgumentException("sourceIndex must be 0..255: " + sourceIndex);
        }
        this.publication = publication;
        this.consumerId = consumerId;
        this.sourceIndex = (short)sourceIndex;
    }

    /**
     * @param epoch       changes on every start.
     * @param intervalMs  heartbeat interval.
     * @param timestampNs now.
     * @return position or a negative Publication code.
     */
    public long announce(final long epoch, final int intervalMs, final long timestampNs)
    {
        final long claimed = publication.claim(
            MessageHeaderEncoder.ENCODED_LENGTH + ConsumerAnnouncementEncoder.BLOCK_LENGTH);
        if (claimed < 0)
        {
            return claimed;
        }
        announcement.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .consumerId(consumerId)
            .epoch(epoch)
            .intervalMs(intervalMs)
            .timestampNs(timestampNs);
        return publication.commitQuietly(); // a heartbeat: a sleeping distributor reads it at its tick
    }

    /**
     * @param requestId   echoed in the answering refresh.
     * @param serviceId   service.
     * @param domainType  RDM domain.
     * @param isStreaming false for a snapshot.
     * @param name        holds the item name (ASCII).
     * @param nameOffset  where it starts.
     * @param nameLength  its length.
     * @return position or a negative Publication code.
     */
    public long requestItem(
        final long requestId,
        final int serviceId,
        final int domainType,
        final boolean isStreaming,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength)
    {
        return requestItem(requestId, serviceId, domainType, isStreaming, false, name, nameOffset, nameLength, null);
    }

    /**
     * @param requestId   echoed in the answering refresh.
     * @param serviceId   service.
     * @param domainType  RDM domain.
     * @param isStreaming false for a snapshot.
     * @param isPrivate   a private stream: its own stream to an interactive provider, never cached or shared.
     * @param name        holds the item name (ASCII).
     * @param nameOffset  where it starts.
     * @param nameLength  its length.
     * @param view        the fields the requester's consumers want, or null for every field.
     * @return position or a negative Publication code.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public long requestItem(
        final long requestId,
        final int serviceId,
        final int domainType,
        final boolean isStreaming,
        final boolean isPrivate,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final FieldView view)
    {
        final int viewLength = null == view ? 0 : view.size() * Short.BYTES;
        final long claimed = publication.claim(MessageHeaderEncoder.ENCODED_LENGTH + ItemRequestEncoder.BLOCK_LENGTH +
            ItemRequestEncoder.itemNameHeaderLength() + nameLength + ItemRequestEncoder.viewHeaderLength() +
            viewLength);
        if (claimed < 0)
        {
            return claimed;
        }
        request.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .consumerId(consumerId)
            .requestId(requestId)
            .serviceId(serviceId)
            .domainType((short)domainType)
            .streaming(isStreaming ? BooleanType.TRUE : BooleanType.FALSE)
            .sourceIndex(sourceIndex)
            .privateStream(isPrivate ? BooleanType.TRUE : BooleanType.FALSE)
            .putItemName(name, nameOffset, nameLength)
            .putView(viewBytes(view), 0, viewLength);
        return publication.commit();
    }

    private DirectBuffer viewBytes(final FieldView view)
    {
        if (null != view)
        {
            final int[] fieldIds = view.fieldIds();
            for (int i = 0; i < fieldIds.length; i++)
            {
                viewScratch.putShort(i * Short.BYTES, (short)fieldIds[i], ByteOrder.LITTLE_ENDIAN);
            }
        }
        return viewScratch;
    }

    /**
     * @param serviceId  service.
     * @param itemHandle item.
     * @return position or a negative Publication code.
     */
    public long closeItem(final int serviceId, final int itemHandle)
    {
        return closeItem(0, serviceId, itemHandle);
    }

    /**
     * @param distributorEpoch epoch of the distributor that assigned the handle (0 if unknown: all apply it).
     * @param serviceId        service.
     * @param itemHandle       item.
     * @return position or a negative Publication code.
     */
    public long closeItem(final long distributorEpoch, final int serviceId, final int itemHandle)
    {
        final long claimed = publication.claim(MessageHeaderEncoder.ENCODED_LENGTH + ItemCloseEncoder.BLOCK_LENGTH);
        if (claimed < 0)
        {
            return claimed;
        }
        close.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .consumerId(consumerId)
            .serviceId(serviceId)
            .itemHandle(itemHandle)
            .sourceIndex(sourceIndex)
            .distributorEpoch(distributorEpoch);
        return publication.commit();
    }

    /**
     * Ask for every item of a service again.
     *
     * @param serviceId    service.
     * @param itemHandle   -1 (every item of the service).
     * @param lastSequence the last sequence held.
     * @return position or a negative Publication code.
     */
    public long requestRecovery(final int serviceId, final int itemHandle, final long lastSequence)
    {
        return requestRecovery(serviceId, itemHandle, 0, lastSequence);
    }

    /**
     * @param serviceId    service.
     * @param itemHandle   one item, or -1 for all of the service.
     * @param domainType   the item's RDM domain (echoed if the item is gone); 0 for all of the service.
     * @param lastSequence the last sequence held.
     * @return position or a negative Publication code.
     */
    public long requestRecovery(
        final int serviceId, final int itemHandle, final int domainType, final long lastSequence)
    {
        final long claimed = publication.claim(
            MessageHeaderEncoder.ENCODED_LENGTH + RecoveryRequestEncoder.BLOCK_LENGTH);
        if (claimed < 0)
        {
            return claimed;
        }
        recovery.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .consumerId(consumerId)
            .serviceId(serviceId)
            .itemHandle(itemHandle)
            .lastSequence(lastSequence)
            .domainType((short)domainType);
        return publication.commit();
    }

    /**
     * A consumer's GenericMsg on an item stream, for the item's provider.
     *
     * @param distributorEpoch epoch of the distributor that assigned the handle.
     * @param serviceId        service.
     * @param itemHandle       item.
     * @param rwf              holds the GenericMsg.
     * @param rwfOffset        where it starts.
     * @param rwfLength        its length.
     * @return position or a negative Publication code.
     */
    public long generic(
        final long distributorEpoch,
        final int serviceId,
        final int itemHandle,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final long claimed = publication.claim(MessageHeaderEncoder.ENCODED_LENGTH + ItemGenericEncoder.BLOCK_LENGTH +
            ItemGenericEncoder.rwfHeaderLength() + rwfLength);
        if (claimed < 0)
        {
            return claimed;
        }
        generic.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .consumerId(consumerId)
            .sourceIndex(sourceIndex)
            .serviceId(serviceId)
            .itemHandle(itemHandle)
            .distributorEpoch(distributorEpoch)
            .putRwf(rwf, rwfOffset, rwfLength);
        return publication.commit();
    }

    /**
     * @param postRequestId    echoed in the PostAck.
     * @param distributorEpoch epoch of the distributor the item is bound to, or 0 for any carrier of the service.
     * @param serviceId     service.
     * @param domainType    RDM domain of the item.
     * @param name          holds the item name (ASCII).
     * @param nameOffset    where it starts.
     * @param nameLength    its length.
     * @param rwf           holds the consumer's PostMsg.
     * @param rwfOffset     where it starts.
     * @param rwfLength     its length.
     * @return position or a negative Publication code.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public long post(
        final long postRequestId,
        final long distributorEpoch,
        final int serviceId,
        final int domainType,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final long claimed = publication.claim(MessageHeaderEncoder.ENCODED_LENGTH + ItemPostEncoder.BLOCK_LENGTH +
            ItemPostEncoder.itemNameHeaderLength() + nameLength + ItemPostEncoder.rwfHeaderLength() + rwfLength);
        if (claimed < 0)
        {
            return claimed;
        }
        post.wrapAndApplyHeader(publication.buffer(), publication.offset(), header)
            .consumerId(consumerId)
            .sourceIndex(sourceIndex)
            .postRequestId(postRequestId)
            .serviceId(serviceId)
            .domainType((short)domainType)
            .distributorEpoch(distributorEpoch)
            .putItemName(name, nameOffset, nameLength)
            .putRwf(rwf, rwfOffset, rwfLength);
        return publication.commit();
    }
}
