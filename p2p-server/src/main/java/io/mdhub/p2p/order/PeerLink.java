package io.mdhub.p2p.order;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.mdhub.common.codecs.order.AnswerRequestDecoder;
import io.mdhub.common.codecs.order.AnswerRequestEncoder;
import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.CatchUpCompleteDecoder;
import io.mdhub.common.codecs.order.CatchUpCompleteEncoder;
import io.mdhub.common.codecs.order.CatchUpRequestDecoder;
import io.mdhub.common.codecs.order.CatchUpRequestEncoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.PeerHeartbeatDecoder;
import io.mdhub.common.codecs.order.PeerHeartbeatEncoder;
import io.mdhub.common.codecs.order.ReplicateAckDecoder;
import io.mdhub.common.codecs.order.ReplicateAckEncoder;
import io.mdhub.common.codecs.order.ReplicateOrderDecoder;
import io.mdhub.common.codecs.order.ReplicateOrderEncoder;
import io.mdhub.common.concurrent.DoorbellRinger;

/**
 * The replication link between the two servers of a pair: a publication to the peer's peer stream and a
 * subscription on this server's, both SBE. Sends are single attempts that report back-pressure to the caller (the
 * replicator keeps its position and tries again next cycle, so nothing is skipped); malformed or foreign messages
 * are counted and skipped. {@link #severed(boolean)} drops everything both ways while the fence stays up — the
 * replication link lost between two live servers, for split-brain drills.
 */
final class PeerLink implements FragmentHandler, AutoCloseable
{
    private final int serverId;
    private final Publication publication;
    private final DoorbellRinger ringer;
    private final Subscription subscription;
    private final PeerListener listener;
    private final AtomicCounter malformed;
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(8192);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final PeerHeartbeatEncoder heartbeatEncoder = new PeerHeartbeatEncoder();
    private final PeerHeartbeatDecoder heartbeatDecoder = new PeerHeartbeatDecoder();
    private final ReplicateOrderEncoder replicateEncoder = new ReplicateOrderEncoder();
    private final ReplicateOrderDecoder replicateDecoder = new ReplicateOrderDecoder();
    private final ReplicateAckEncoder ackEncoder = new ReplicateAckEncoder();
    private final ReplicateAckDecoder ackDecoder = new ReplicateAckDecoder();
    private final CatchUpRequestEncoder catchUpRequestEncoder = new CatchUpRequestEncoder();
    private final CatchUpRequestDecoder catchUpRequestDecoder = new CatchUpRequestDecoder();
    private final CatchUpCompleteEncoder catchUpCompleteEncoder = new CatchUpCompleteEncoder();
    private final CatchUpCompleteDecoder catchUpCompleteDecoder = new CatchUpCompleteDecoder();
    private final AnswerRequestEncoder answerRequestEncoder = new AnswerRequestEncoder();
    private final AnswerRequestDecoder answerRequestDecoder = new AnswerRequestDecoder();
    private final FragmentHandler assembler = new io.aeron.FragmentAssembler(this);
    private volatile boolean isSevered;
    private final AtomicInteger dropTemplateId = new AtomicInteger(-1);
    private final AtomicInteger dropCount = new AtomicInteger();

    PeerLink(
        final int serverId,
        final Publication publication,
        final DoorbellRinger ringer,
        final Subscription subscription,
        final PeerListener listener,
        final AtomicCounter malformed)
    {
        this.serverId = serverId;
        this.publication = publication;
        this.ringer = ringer;
        this.subscription = subscription;
        this.listener = listener;
        this.malformed = malformed;
    }

    void severed(final boolean isSevered)
    {
        this.isSevered = isSevered;
    }

    boolean isSevered()
    {
        return isSevered;
    }

    /**
     * Fault injection for tests: lose the next {@code count} outgoing messages of one template on the wire (as if
     * the network dropped them).
     *
     * @param templateId the SBE template id of the messages to lose.
     * @param count      how many (0 stops).
     */
    void loseOutgoing(final int templateId, final int count)
    {
        dropCount.set(count);
        dropTemplateId.set(templateId);
    }

    boolean isConnected()
    {
        return !isSevered && publication.isConnected();
    }

    int poll(final int fragmentLimit)
    {
        return subscription.poll(assembler, fragmentLimit);
    }

    boolean heartbeat(
        final long startEpochMs, final long nowNs, final boolean isSteppingDown, final Partition[] partitions)
    {
        final PeerHeartbeatEncoder.PartitionsEncoder entries = heartbeatEncoder
            .wrapAndApplyHeader(buffer, 0, headerEncoder)
            .serverId(serverId)
            .startEpochMs(startEpochMs)
            .timestampNs(nowNs)
            .steppingDown(isSteppingDown ? BooleanType.TRUE : BooleanType.FALSE)
            .partitionsCount(partitions.length);
        for (final Partition partition : partitions)
        {
            entries.next()
                .partition(partition.id)
                .role(partition.role)
                .epoch(partition.epoch)
                .lastSequence(partition.last)
                .drainedSequence(partition.drained)
                .ackedSequence(partition.acked);
        }
        return offer(heartbeatEncoder.encodedLength());
    }

    boolean replicate(
        final boolean catchUp,
        final boolean answer,
        final long sendTimestampNs,
        final DirectBuffer record,
        final int offset,
        final int length)
    {
        replicateEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .serverId(serverId)
            .catchUp(catchUp ? BooleanType.TRUE : BooleanType.FALSE)
            .answer(answer ? BooleanType.TRUE : BooleanType.FALSE)
            .sendTimestampNs(sendTimestampNs)
            .putRecord(record, offset, length);
        return offer(replicateEncoder.encodedLength());
    }

    boolean ack(final int partition, final int epoch, final long sequence)
    {
        ackEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .serverId(serverId)
            .partition(partition)
            .epoch(epoch)
            .sequence(sequence);
        return offer(ackEncoder.encodedLength());
    }

    boolean answerRequest(final int partition, final long sequence)
    {
        answerRequestEncoder.wrapAndApplyHeader(buffer, 0, headerEncoder)
            .serverId(serverId)
            .partition(partition)
            .sequence(sequence);
        return offer(answerRequestEncoder.encodedLength());
    }

    /**
     * @param fromSequence first sequence wanted per partition, or null for everything (full transfer).
     */
    boolean catchUpRequest(final long startEpochMs, final long[] fromSequence, final int partitions)
    {
        final CatchUpRequestEncoder.PartitionsEncoder entries = catchUpRequestEncoder
            .wrapAndApplyHeader(buffer, 0, headerEncoder)
            .serverId(serverId)
            .startEpochMs(startEpochMs)
            .full(null == fromSequence ? BooleanType.TRUE : BooleanType.FALSE)
            .partitionsCount(null == fromSequence ? 0 : partitions);
        if (null != fromSequence)
        {
            for (int i = 0; i < partitions; i++)
            {
                entries.next().partition(i).fromSequence(fromSequence[i]);
            }
        }
        return offer(catchUpRequestEncoder.encodedLength());
    }

    boolean catchUpComplete(final Partition[] partitions)
    {
        final CatchUpCompleteEncoder.PartitionsEncoder entries = catchUpCompleteEncoder
            .wrapAndApplyHeader(buffer, 0, headerEncoder)
            .serverId(serverId)
            .partitionsCount(partitions.length);
        for (final Partition partition : partitions)
        {
            entries.next()
                .partition(partition.id)
                .epoch(partition.epoch)
                .lastSequence(partition.last)
                .drainedSequence(partition.drained);
        }
        return offer(catchUpCompleteEncoder.encodedLength());
    }

    private boolean offer(final int bodyLength)
    {
        if (isSevered)
        {
            return true; // the link is "cut": the message is lost on the wire, as it would be
        }
        if (dropCount.get() > 0 && buffer.getShort(2, ByteOrder.LITTLE_ENDIAN) == dropTemplateId.get() &&
            dropCount.getAndDecrement() > 0)
        {
            return true; // fault injection: lost on the wire
        }
        final long position = publication.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + bodyLength);
        return ringer.ringIfPublished(position) > 0;
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (isSevered)
        {
            return;
        }
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            malformed.increment();
            return;
        }
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            malformed.increment();
            return;
        }
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        try
        {
            switch (headerDecoder.templateId())
            {
                case PeerHeartbeatDecoder.TEMPLATE_ID:
                    listener.onPeerHeartbeat(heartbeatDecoder.wrap(buffer, bodyOffset, blockLength, version));
                    break;
                case ReplicateOrderDecoder.TEMPLATE_ID:
                    replicateDecoder.wrap(buffer, bodyOffset, blockLength, version);
                    final boolean catchUp = BooleanType.TRUE == replicateDecoder.catchUp();
                    final boolean answer = BooleanType.TRUE == replicateDecoder.answer(); // NULL_VAL before v3
                    final long sendTimestampNs = version >= 3 ? replicateDecoder.sendTimestampNs() : 0;
                    final int recordLength = replicateDecoder.recordLength();
                    final int recordOffset = replicateDecoder.limit() + ReplicateOrderDecoder.recordHeaderLength();
                    if (recordOffset + recordLength > offset + length)
                    {
                        malformed.increment();
                        return;
                    }
                    listener.onReplicateOrder(catchUp, answer, sendTimestampNs, buffer, recordOffset, recordLength);
                    break;
                case ReplicateAckDecoder.TEMPLATE_ID:
                    ackDecoder.wrap(buffer, bodyOffset, blockLength, version);
                    listener.onReplicateAck(ackDecoder.partition(), ackDecoder.epoch(), ackDecoder.sequence());
                    break;
                case AnswerRequestDecoder.TEMPLATE_ID:
                    answerRequestDecoder.wrap(buffer, bodyOffset, blockLength, version);
                    listener.onAnswerRequest(answerRequestDecoder.partition(), answerRequestDecoder.sequence());
                    break;
                case CatchUpRequestDecoder.TEMPLATE_ID:
                    listener.onCatchUpRequest(catchUpRequestDecoder.wrap(buffer, bodyOffset, blockLength, version));
                    break;
                case CatchUpCompleteDecoder.TEMPLATE_ID:
                    listener.onCatchUpComplete(catchUpCompleteDecoder.wrap(buffer, bodyOffset, blockLength, version));
                    break;
                default:
                    malformed.increment();
                    break;
            }
        }
        catch (final IndexOutOfBoundsException ex)
        {
            malformed.increment(); // a group or var field that runs past the fragment
        }
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(ringer, publication, subscription);
    }
}
