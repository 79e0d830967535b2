package io.mdhub.p2p.order;

import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderAckEncoder;
import io.mdhub.common.codecs.order.OrderRejectEncoder;
import io.mdhub.common.codecs.order.PartitionMapEncoder;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.net.FrameConnection;

/**
 * One order client as a server knows it: its id and the connection its hello came on, where its answers go. An
 * answer is queued on the connection and written with the duty cycle's flush, with every other answer of that
 * cycle. A client that stops reading fills its connection's send limit; it is then disconnected ({@link
 * ClientSessions}), and on its return it resends what it has no answer for and gets the original acks. Owned by
 * the order agent.
 */
final class ClientSession
{
    private static final int MIN_BUFFER_BYTES = 4096; // an ack, or a reject with its text

    final long clientId;
    final FrameConnection connection;
    private final ClientSessions owner;
    private final UnsafeBuffer buffer;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final OrderAckEncoder ack = new OrderAckEncoder();
    private final OrderRejectEncoder reject = new OrderRejectEncoder();
    private final PartitionMapEncoder map = new PartitionMapEncoder();

    /**
     * @param partitionCount the server's partitions: its partition map must fit the encoding buffer (9 bytes each, up
     *                       to the 1,024 allowed).
     */
    ClientSession(
        final ClientSessions owner, final long clientId, final FrameConnection connection, final int partitionCount)
    {
        this.owner = owner;
        this.buffer = new UnsafeBuffer(new byte[Math.max(MIN_BUFFER_BYTES, MessageHeaderEncoder.ENCODED_LENGTH +
            PartitionMapEncoder.BLOCK_LENGTH + PartitionMapEncoder.PartitionsEncoder.sbeHeaderSize() +
            partitionCount * PartitionMapEncoder.PartitionsEncoder.sbeBlockLength())]);
        this.clientId = clientId;
        this.connection = connection;
    }

    /**
     * @return whether answers can go out (the connection is open).
     */
    boolean isOpen()
    {
        return connection.isOpen();
    }

    /**
     * @return false if the answer could not be queued: the connection is closed or the client stopped reading.
     */
    boolean ack(
        final long orderId,
        final int partition,
        final int epoch,
        final long sequence,
        final boolean duplicate,
        final boolean replicated,
        final long sendTimestampNs)
    {
        ack.wrapAndApplyHeader(buffer, 0, header)
            .clientId(clientId)
            .orderId(orderId)
            .partition(partition)
            .epoch(epoch)
            .sequence(sequence)
            .duplicate(duplicate ? BooleanType.TRUE : BooleanType.FALSE)
            .replicated(replicated ? BooleanType.TRUE : BooleanType.FALSE)
            .sendTimestampNs(sendTimestampNs);
        return offer(MessageHeaderEncoder.ENCODED_LENGTH + ack.encodedLength());
    }

    boolean reject(
        final long orderId,
        final int partition,
        final RejectReason reason,
        final long sendTimestampNs,
        final String text)
    {
        reject.wrapAndApplyHeader(buffer, 0, header)
            .clientId(clientId)
            .orderId(orderId)
            .partition(partition)
            .reason(reason)
            .sendTimestampNs(sendTimestampNs)
            .text(text);
        return offer(MessageHeaderEncoder.ENCODED_LENGTH + reject.encodedLength());
    }

    boolean partitionMap(final int serverId, final Partition[] partitions)
    {
        final PartitionMapEncoder.PartitionsEncoder entries = map.wrapAndApplyHeader(buffer, 0, header)
            .serverId(serverId)
            .partitionCount(partitions.length)
            .partitionsCount(partitions.length);
        for (final Partition partition : partitions)
        {
            entries.next().partition(partition.id).role(partition.role).epoch(partition.epoch);
        }
        return offer(MessageHeaderEncoder.ENCODED_LENGTH + map.encodedLength());
    }

    private boolean offer(final int length)
    {
        if (connection.offer(buffer, 0, length))
        {
            return true;
        }
        if (!connection.isClosed())
        {
            // the client reads slower than it is answered, by a whole send limit: it has stopped reading
            owner.stoppedReading(this);
        }
        return false;
    }
}
