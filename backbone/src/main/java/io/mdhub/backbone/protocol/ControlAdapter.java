package io.mdhub.backbone.protocol;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import io.aeron.ControlledFragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import io.mdhub.common.codecs.backbone.BooleanType;
import io.mdhub.common.codecs.backbone.ConsumerAnnouncementDecoder;
import io.mdhub.common.codecs.backbone.ItemCloseDecoder;
import io.mdhub.common.codecs.backbone.ItemGenericDecoder;
import io.mdhub.common.codecs.backbone.ItemPostDecoder;
import io.mdhub.common.codecs.backbone.ItemRequestDecoder;
import io.mdhub.common.codecs.backbone.MessageHeaderDecoder;
import io.mdhub.common.codecs.backbone.RecoveryRequestDecoder;

/**
 * Decodes the backbone control stream for a distributor and calls a {@link ControlListener} with primitives.
 * Messages of another schema, an unknown template, or whose lengths overrun the fragment are counted and skipped;
 * a listener that returns false (it could not publish the answer) makes the request come again on the next poll.
 * Not thread safe: one polling thread.
 */
public final class ControlAdapter implements ControlledFragmentHandler
{
    private final ControlListener listener;
    private final AtomicCounter malformedMessages;
    private final ControlledFragmentAssembler assembler = new ControlledFragmentAssembler(this);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ConsumerAnnouncementDecoder announcement = new ConsumerAnnouncementDecoder();
    private final ItemRequestDecoder request = new ItemRequestDecoder();
    private final ItemCloseDecoder close = new ItemCloseDecoder();
    private final RecoveryRequestDecoder recovery = new RecoveryRequestDecoder();
    private final ItemPostDecoder post = new ItemPostDecoder();
    private final ItemGenericDecoder generic = new ItemGenericDecoder();

    /**
     * @param listener          receives the decoded messages.
     * @param malformedMessages counts messages skipped as unknown or malformed.
     */
    public ControlAdapter(final ControlListener listener, final AtomicCounter malformedMessages)
    {
        this.listener = listener;
        this.malformedMessages = malformedMessages;
    }

    /**
     * @param subscription  the control stream.
     * @param fragmentLimit most fragments to take in this poll.
     * @return fragments consumed.
     */
    public int poll(final Subscription subscription, final int fragmentLimit)
    {
        return subscription.controlledPoll(assembler, fragmentLimit);
    }

    @Override
    public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header aeronHeader)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return skip();
        }
        header.wrap(buffer, offset);
        final int end = offset + length;
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        if (MessageHeaderDecoder.SCHEMA_ID != header.schemaId() || version < 1 || bodyOffset + blockLength > end)
        {
            return skip();
        }

        if (blockLength < minBlockLength(header.templateId()))
        {
            return skip(); // its fixed fields would be read from beyond it
        }
        switch (header.templateId())
        {
            case ItemRequestDecoder.TEMPLATE_ID:
                return onItemRequest(buffer, bodyOffset, blockLength, version, end);
            case ItemCloseDecoder.TEMPLATE_ID:
                close.wrap(buffer, bodyOffset, blockLength, version);
                listener.onItemClose(close.consumerId(), close.sourceIndex(), close.distributorEpoch(),
                    close.serviceId(), close.itemHandle());
                return Action.CONTINUE;
            case RecoveryRequestDecoder.TEMPLATE_ID:
                recovery.wrap(buffer, bodyOffset, blockLength, version);
                return action(listener.onRecoveryRequest(recovery.consumerId(), recovery.serviceId(),
                    recovery.itemHandle(), recovery.domainType(), recovery.lastSequence()));
            case ItemPostDecoder.TEMPLATE_ID:
                return onItemPost(buffer, bodyOffset, blockLength, version, end);
            case ItemGenericDecoder.TEMPLATE_ID:
                return onItemGeneric(buffer, bodyOffset, blockLength, version, end);
            case ConsumerAnnouncementDecoder.TEMPLATE_ID:
                announcement.wrap(buffer, bodyOffset, blockLength, version);
                listener.onConsumerAnnouncement(announcement.consumerId(), announcement.epoch(),
                    announcement.intervalMs(), announcement.timestampNs());
                return Action.CONTINUE;
            default:
                return skip();
        }
    }

    /**
     * @return the schema's fixed block length of a template (an unknown one: none, it is skipped anyway).
     */
    private static int minBlockLength(final int templateId)
    {
        switch (templateId)
        {
            case ItemRequestDecoder.TEMPLATE_ID:
                return ItemRequestDecoder.BLOCK_LENGTH;
            case ItemCloseDecoder.TEMPLATE_ID:
                return ItemCloseDecoder.BLOCK_LENGTH;
            case RecoveryRequestDecoder.TEMPLATE_ID:
                return RecoveryRequestDecoder.BLOCK_LENGTH;
            case ItemPostDecoder.TEMPLATE_ID:
                return ItemPostDecoder.BLOCK_LENGTH;
            case ItemGenericDecoder.TEMPLATE_ID:
                return ItemGenericDecoder.BLOCK_LENGTH;
            case ConsumerAnnouncementDecoder.TEMPLATE_ID:
                return ConsumerAnnouncementDecoder.BLOCK_LENGTH;
            default:
                return 0;
        }
    }

    private Action onItemRequest(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        request.wrap(buffer, offset, blockLength, version);
        final int nameOffset = request.limit() + ItemRequestDecoder.itemNameHeaderLength();
        if (nameOffset > end)
        {
            return skip();
        }
        final int nameLength = request.itemNameLength();
        final int viewLengthOffset = nameOffset + nameLength;
        if (viewLengthOffset + ItemRequestDecoder.viewHeaderLength() > end)
        {
            return skip();
        }
        request.limit(viewLengthOffset);
        final long viewLength = request.viewLength() & 0xFFFF_FFFFL; // SBE's int getter turns 2^31.. negative
        final int viewOffset = viewLengthOffset + ItemRequestDecoder.viewHeaderLength();
        if (viewOffset + viewLength > end || 0 != (viewLength & 1))
        {
            return skip();
        }
        if (BooleanType.TRUE.value() == request.privateStreamRaw())
        {
            return action(listener.onPrivateItemRequest(request.consumerId(), request.sourceIndex(),
                request.requestId(), request.serviceId(), request.domainType(), buffer, nameOffset, nameLength,
                viewOffset, (int)viewLength));
        }
        return action(listener.onItemRequest(
            request.consumerId(), request.sourceIndex(), request.requestId(), request.serviceId(),
            request.domainType(), BooleanType.TRUE.value() == request.streamingRaw(), buffer, nameOffset, nameLength,
            viewOffset, (int)viewLength));
    }

    private Action onItemPost(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        post.wrap(buffer, offset, blockLength, version);
        final int nameOffset = post.limit() + ItemPostDecoder.itemNameHeaderLength();
        if (nameOffset > end)
        {
            return skip();
        }
        final int nameLength = post.itemNameLength();
        final int rwfLengthOffset = nameOffset + nameLength;
        if (rwfLengthOffset + ItemPostDecoder.rwfHeaderLength() > end)
        {
            return skip();
        }
        post.limit(rwfLengthOffset);
        final long rwfLength = post.rwfLength() & 0xFFFF_FFFFL; // SBE's int getter turns 2^31.. negative
        final int rwfOffset = rwfLengthOffset + ItemPostDecoder.rwfHeaderLength();
        if (rwfLength > end - rwfOffset)
        {
            return skip();
        }
        return action(listener.onItemPost(post.consumerId(), post.sourceIndex(), post.postRequestId(),
            post.distributorEpoch(), post.serviceId(), post.domainType(), buffer, nameOffset, nameLength, rwfOffset,
            (int)rwfLength));
    }

    private Action onItemGeneric(
        final DirectBuffer buffer, final int offset, final int blockLength, final int version, final int end)
    {
        generic.wrap(buffer, offset, blockLength, version);
        final int rwfLengthOffset = generic.limit();
        if (rwfLengthOffset + ItemGenericDecoder.rwfHeaderLength() > end)
        {
            return skip();
        }
        final long rwfLength = generic.rwfLength() & 0xFFFF_FFFFL;
        final int rwfOffset = rwfLengthOffset + ItemGenericDecoder.rwfHeaderLength();
        if (rwfLength > end - rwfOffset)
        {
            return skip();
        }
        listener.onItemGeneric(generic.consumerId(), generic.sourceIndex(), generic.distributorEpoch(),
            generic.serviceId(), generic.itemHandle(), buffer, rwfOffset, (int)rwfLength);
        return Action.CONTINUE;
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
