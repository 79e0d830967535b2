package io.mdhub.common.order.client;

import java.nio.ByteOrder;
import java.util.Arrays;

import org.agrona.DirectBuffer;

import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.GroupSizeEncodingDecoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.OrderAckDecoder;
import io.mdhub.common.codecs.order.OrderRejectDecoder;
import io.mdhub.common.codecs.order.PartitionMapDecoder;
import io.mdhub.common.codecs.order.RejectReason;

/**
 * Decodes what one pair's servers answer (PartitionMap, OrderAck, OrderReject) and calls an {@link
 * OrderEgressListener} with primitives, naming the server's link as the answer's session. Every length is checked
 * against the message; messages of another schema, an unknown template or that overrun the message are reported as
 * malformed and skipped. Not thread safe: the client's thread.
 */
final class OrderEgressAdapter
{
    private static final RejectReason[] REASONS = new RejectReason[256];

    static
    {
        Arrays.fill(REASONS, RejectReason.NULL_VAL);
        for (final RejectReason reason : RejectReason.values())
        {
            REASONS[reason.value() & 0xFF] = reason;
        }
    }

    private final int pair;
    private final OrderEgressListener listener;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final PartitionMapDecoder map = new PartitionMapDecoder();
    private final OrderAckDecoder ack = new OrderAckDecoder();
    private final OrderRejectDecoder reject = new OrderRejectDecoder();

    /**
     * @param pair     index of the pair whose stream this is.
     * @param listener receives the decoded messages.
     */
    OrderEgressAdapter(final int pair, final OrderEgressListener listener)
    {
        this.pair = pair;
        this.listener = listener;
    }

    /**
     * One message from a server of the pair.
     *
     * @param sessionId which server's connection it came on (the client's index of the server).
     */
    void onMessage(final int sessionId, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            listener.onMalformed(pair);
            return;
        }
        header.wrap(buffer, offset);
        final int end = offset + length;
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = header.blockLength();
        final int version = header.version();
        if (MessageHeaderDecoder.SCHEMA_ID != header.schemaId() || version < 1 || bodyOffset + blockLength > end)
        {
            listener.onMalformed(pair);
            return;
        }

        switch (header.templateId())
        {
            case OrderAckDecoder.TEMPLATE_ID:
                if (blockLength < OrderAckDecoder.BLOCK_LENGTH)
                {
                    listener.onMalformed(pair);
                    return;
                }
                ack.wrap(buffer, bodyOffset, blockLength, version);
                // raw values: the generated enum getter throws at a value the schema does not name
                listener.onOrderAck(pair, sessionId, ack.clientId(), ack.orderId(), ack.partition(), ack.epoch(),
                    ack.sequence(), BooleanType.TRUE.value() == ack.duplicateRaw(),
                    BooleanType.TRUE.value() == ack.replicatedRaw(), ack.sendTimestampNs());
                return;
            case OrderRejectDecoder.TEMPLATE_ID:
                onReject(buffer, bodyOffset, blockLength, version, end, sessionId);
                return;
            case PartitionMapDecoder.TEMPLATE_ID:
                onPartitionMap(buffer, bodyOffset, blockLength, version, end, sessionId);
                return;
            default:
                listener.onMalformed(pair);
        }
    }

    private void onReject(
        final DirectBuffer buffer,
        final int offset,
        final int blockLength,
        final int version,
        final int end,
        final int sessionId)
    {
        final int textOffset = offset + blockLength + OrderRejectDecoder.textHeaderLength();
        if (blockLength < OrderRejectDecoder.BLOCK_LENGTH || textOffset > end)
        {
            listener.onMalformed(pair);
            return;
        }
        reject.wrap(buffer, offset, blockLength, version);
        final int textLength = reject.textLength();
        if (textOffset + textLength > end)
        {
            listener.onMalformed(pair);
            return;
        }
        listener.onOrderReject(pair, sessionId, reject.clientId(), reject.orderId(), reject.partition(),
            REASONS[reject.reasonRaw() & 0xFF], reject.sendTimestampNs(), buffer, textOffset, textLength);
    }

    private void onPartitionMap(
        final DirectBuffer buffer,
        final int offset,
        final int blockLength,
        final int version,
        final int end,
        final int sessionId)
    {
        final int groupHeaderOffset = offset + blockLength;
        if (blockLength < PartitionMapDecoder.BLOCK_LENGTH ||
            groupHeaderOffset + GroupSizeEncodingDecoder.ENCODED_LENGTH > end)
        {
            listener.onMalformed(pair);
            return;
        }
        final int entryLength = buffer.getShort(groupHeaderOffset, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        final int entries = buffer.getShort(groupHeaderOffset + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        if (entryLength < PartitionMapDecoder.PartitionsDecoder.sbeBlockLength() ||
            groupHeaderOffset + GroupSizeEncodingDecoder.ENCODED_LENGTH + (long)entries * entryLength > end)
        {
            listener.onMalformed(pair);
            return;
        }

        map.wrap(buffer, offset, blockLength, version);
        final int serverId = map.serverId();
        if (!listener.onPartitionMapBegin(pair, sessionId, serverId, map.partitionCount()))
        {
            return;
        }
        for (final PartitionMapDecoder.PartitionsDecoder entry : map.partitions())
        {
            listener.onPartitionMapEntry(pair, serverId, entry.partition(), entry.roleRaw(), entry.epoch());
        }
        listener.onPartitionMapEnd(pair, sessionId, serverId);
    }
}
