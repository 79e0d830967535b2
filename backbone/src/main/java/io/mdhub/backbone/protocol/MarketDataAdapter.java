package io.mdhub.backbone.protocol;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import io.aeron.ControlledFragmentAssembler;
import io.mdhub.common.codecs.backbone.BooleanType;
import io.mdhub.common.codecs.backbone.ItemRefreshDecoder;
import io.mdhub.common.codecs.backbone.ItemStatusDecoder;
import io.mdhub.common.codecs.backbone.ItemUpdateDecoder;
import io.mdhub.common.codecs.backbone.MessageHeaderDecoder;
import io.mdhub.common.codecs.backbone.PostAckDecoder;
import io.mdhub.common.codecs.backbone.ProviderGenericDecoder;
import io.mdhub.common.codecs.backbone.ServiceAnnouncementDecoder;
import io.mdhub.common.codecs.backbone.ServiceState;

/**
 * Decodes a backbone data stream and calls a {@link MarketDataListener} with primitives, so the p2p-server never
 * sees codec types. Large messages arrive reassembled. A message is checked whole before the listener hears any of
 * it: messages of another schema, an unknown template, a fixed block shorter than the schema's, or lengths that
 * overrun the fragment (anywhere, also in the last service of an announcement) are counted and skipped (the stream
 * goes on); a listener that returns false makes the fragment come again on the next poll. During a callback
 * {@link #sessionId()} names the Aeron session, i.e. the one publication (one distributor process) the message came
 * from. Not thread safe: one polling thread.
 */
public final class MarketDataAdapter implements ControlledFragmentHandler
{
    private static final ByteOrder BYTE_ORDER = ServiceAnnouncementDecoder.BYTE_ORDER;

    private final MarketDataListener listener;
    private final AtomicCounter malformedMessages;
    private final ControlledFragmentAssembler assembler = new ControlledFragmentAssembler(this);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ServiceAnnouncementDecoder announcement = new ServiceAnnouncementDecoder();
    private final ItemRefreshDecoder refresh = new ItemRefreshDecoder();
    private final ItemUpdateDecoder update = new ItemUpdateDecoder();
    private final PostAckDecoder postAck = new PostAckDecoder();
    private final ProviderGenericDecoder generic = new ProviderGenericDecoder();
    private final ItemStatusDecoder status = new ItemStatusDecoder();
    private int sessionId;

    /**
     * @param listener          receives the decoded messages.
     * @param malformedMessages counts messages skipped as unknown or malformed.
     */
    public MarketDataAdapter(final MarketDataListener listener, final AtomicCounter malformedMessages)
    {
        this.listener = listener;
        this.malformedMessages = malformedMessages;
    }

    /**
     * @param subscription the data stream.
     * @param fragmentLimit most fragments to take in this poll.
     * @return fragments consumed.
     */
    public int poll(final Subscription subscription, final int fragmentLimit)
    {
        return subscription.controlledPoll(assembler, fragmentLimit);
    }

    /**
     * Poll one image of the data stream only (one distributor's publication), e.g. to find out whether anything of
     * it is still unread.
     *
     * @param image         the image.
     * @param fragmentLimit most fragments to take in this poll.
     * @return fragments consumed.
     */
    public int poll(final Image image, final int fragmentLimit)
    {
        return image.controlledPoll(assembler, fragmentLimit);
    }

    /**
     * @return the Aeron session id of the message being delivered (valid during a listener callback): one per
     * publication, so one per distributor process on the stream.
     */
    public int sessionId()
    {
        return sessionId;
    }

    @Override
    public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return skip();
        }
        header.wrap(buffer, offset);
        if (MessageHeaderDecoder.SCHEMA_ID != header.schemaId() || header.version() < 1)
        {
            return skip();
        }

        final int end = offset + length;
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        if (bodyOffset + blockLength > end)
        {
            return skip();
        }
        sessionId = aeronHeader.sessionId();

        switch (header.templateId())
        {
            case ItemUpdateDecoder.TEMPLATE_ID:
                return blockLength < ItemUpdateDecoder.BLOCK_LENGTH ?
                    skip() : onUpdate(buffer, bodyOffset, blockLength, version, end);
            case ItemRefreshDecoder.TEMPLATE_ID:
                return blockLength < ItemRefreshDecoder.BLOCK_LENGTH ?
                    skip() : onRefresh(buffer, bodyOffset, blockLength, version, end);
            case ItemStatusDecoder.TEMPLATE_ID:
                return blockLength < ItemStatusDecoder.BLOCK_LENGTH ?
                    skip() : onStatus(buffer, bodyOffset, blockLength, version, end);
            case ServiceAnnouncementDecoder.TEMPLATE_ID:
                return blockLength < ServiceAnnouncementDecoder.BLOCK_LENGTH ?
                    skip() : onAnnouncement(buffer, bodyOffset, blockLength, version, end);
            case ProviderGenericDecoder.TEMPLATE_ID:
                return blockLength < ProviderGenericDecoder.BLOCK_LENGTH ?
                    skip() : onGeneric(buffer, bodyOffset, blockLength, version, end);
            case PostAckDecoder.TEMPLATE_ID:
                return blockLength < PostAckDecoder.BLOCK_LENGTH ?
                    skip() : onPostAck(buffer, bodyOffset, blockLength, version, end);
            default:
                return skip();
        }
    }

    private Action onGeneric(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        generic.wrap(buffer, offset, blockLength, version);
        final int rwfOffset = generic.limit() + ProviderGenericDecoder.rwfHeaderLength();
        if (rwfOffset > end)
        {
            return skip();
        }
        final long rwfLength = generic.rwfLength() & 0xFFFF_FFFFL;
        if (rwfLength > end - rwfOffset)
        {
            return skip();
        }
        listener.onItemGeneric(generic.serviceId(), generic.itemHandle(), buffer, rwfOffset, (int)rwfLength);
        return Action.CONTINUE;
    }

    private Action onPostAck(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        postAck.wrap(buffer, offset, blockLength, version);
        final int textOffset = postAck.limit() + PostAckDecoder.textHeaderLength();
        if (textOffset > end)
        {
            return skip();
        }
        final int textLength = postAck.textLength();
        if (textOffset + textLength > end)
        {
            return skip();
        }
        listener.onPostAck(postAck.consumerId(), postAck.sourceIndex(), postAck.postRequestId(),
            postAck.serviceId(), postAck.nakCode(), buffer, textOffset, textLength);
        return Action.CONTINUE;
    }

    private Action onUpdate(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        update.wrap(buffer, offset, blockLength, version);
        final int rwfOffset = update.limit() + ItemUpdateDecoder.rwfHeaderLength();
        if (rwfOffset > end)
        {
            return skip();
        }
        final long rwfLength = update.rwfLength() & 0xFFFF_FFFFL;
        if (rwfLength > end - rwfOffset)
        {
            return skip();
        }
        return action(listener.onItemUpdate(
            update.serviceId(), update.itemHandle(), update.sequence(), update.originTimestampNs(),
            buffer, rwfOffset, (int)rwfLength));
    }

    private Action onRefresh(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        refresh.wrap(buffer, offset, blockLength, version);
        final int nameOffset = refresh.limit() + ItemRefreshDecoder.itemNameHeaderLength();
        if (nameOffset > end)
        {
            return skip();
        }
        final int nameLength = refresh.itemNameLength();
        final int rwfLengthOffset = nameOffset + nameLength;
        if (rwfLengthOffset + ItemRefreshDecoder.rwfHeaderLength() > end)
        {
            return skip();
        }
        refresh.skipItemName();
        final long rwfLength = refresh.rwfLength() & 0xFFFF_FFFFL;
        final int rwfOffset = rwfLengthOffset + ItemRefreshDecoder.rwfHeaderLength();
        if (rwfLength > end - rwfOffset)
        {
            return skip();
        }
        final int flags = buffer.getByte(offset + ItemRefreshDecoder.flagsEncodingOffset()) & 0xFF;
        return action(listener.onItemRefresh(
            refresh.serviceId(), refresh.itemHandle(), refresh.sequence(), refresh.originTimestampNs(),
            refresh.requestId(), refresh.domainType(), flags, buffer, nameOffset, nameLength, rwfOffset,
            (int)rwfLength));
    }

    private Action onStatus(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        status.wrap(buffer, offset, blockLength, version);
        final int rwfOffset = status.limit() + ItemStatusDecoder.rwfHeaderLength();
        if (rwfOffset > end)
        {
            return skip();
        }
        final long rwfLength = status.rwfLength() & 0xFFFF_FFFFL;
        if (rwfLength > end - rwfOffset)
        {
            return skip();
        }
        return action(listener.onItemStatus(
            status.serviceId(), status.itemHandle(), status.sequence(), status.originTimestampNs(),
            status.requestId(), status.streamState(), status.dataState(), buffer, rwfOffset, (int)rwfLength));
    }

    private Action onAnnouncement(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        if (!isWholeAnnouncement(buffer, offset, blockLength, version, end))
        {
            return skip(); // nothing of it reaches the listener: a half-applied directory would be worse than none
        }

        announcement.wrap(buffer, offset, blockLength, version);
        final int distributorId = announcement.distributorId();
        final long epoch = announcement.epoch();
        final int intervalMs = announcement.intervalMs();
        final long timestampNs = announcement.timestampNs();
        final ServiceAnnouncementDecoder.ServicesDecoder services = announcement.services();
        listener.onAnnouncement(distributorId, epoch, intervalMs, timestampNs, services.count());
        while (services.hasNext())
        {
            services.next();
            final int nameOffset = announcement.limit() +
                ServiceAnnouncementDecoder.ServicesDecoder.serviceNameHeaderLength();
            listener.onServiceAnnounced(
                distributorId,
                services.serviceId(),
                ServiceState.UP.value() == services.stateRaw(),
                BooleanType.TRUE.value() == services.acceptingRequestsRaw(),
                services.lastSequence(),
                services.itemCount(),
                services.capabilities(),
                buffer,
                nameOffset,
                services.serviceNameLength());
            services.skipServiceName();
        }
        return Action.CONTINUE;
    }

    /**
     * Walk the announcement's group without telling anyone: every entry's fixed block and name must lie inside the
     * message.
     */
    private boolean isWholeAnnouncement(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        announcement.wrap(buffer, offset, blockLength, version);
        if (announcement.limit() + ServiceAnnouncementDecoder.ServicesDecoder.sbeHeaderSize() > end)
        {
            return false;
        }
        final ServiceAnnouncementDecoder.ServicesDecoder services = announcement.services();
        final int entryLength = services.actingBlockLength();
        if (entryLength < ServiceAnnouncementDecoder.ServicesDecoder.sbeBlockLength())
        {
            return false;
        }
        final int nameHeaderLength = ServiceAnnouncementDecoder.ServicesDecoder.serviceNameHeaderLength();
        int limit = announcement.limit();
        for (int i = 0, count = services.count(); i < count; i++)
        {
            final int nameOffset = limit + entryLength + nameHeaderLength;
            if (nameOffset > end)
            {
                return false;
            }
            limit = nameOffset + (buffer.getShort(nameOffset - nameHeaderLength, BYTE_ORDER) & 0xFFFF);
            if (limit > end)
            {
                return false;
            }
        }
        return true;
    }

    private Action skip()
    {
        malformedMessages.increment();
        return Action.CONTINUE;
    }

    private static Action action(final boolean isConsumed)
    {
        return isConsumed ? Action.CONTINUE : Action.ABORT;
    }
}
