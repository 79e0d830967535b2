package io.mdhub.p2p.order;

import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.AnswerRequestDecoder;
import io.mdhub.common.codecs.order.AnswerRequestEncoder;
import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.CatchUpCompleteDecoder;
import io.mdhub.common.codecs.order.CatchUpCompleteEncoder;
import io.mdhub.common.codecs.order.CatchUpRequestDecoder;
import io.mdhub.common.codecs.order.CatchUpRequestEncoder;
import io.mdhub.common.codecs.order.GroupSizeEncodingDecoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.PeerHeartbeatDecoder;
import io.mdhub.common.codecs.order.PeerHeartbeatEncoder;
import io.mdhub.common.codecs.order.ReplicateAckDecoder;
import io.mdhub.common.codecs.order.ReplicateAckEncoder;
import io.mdhub.common.codecs.order.ReplicateOrderDecoder;
import io.mdhub.common.codecs.order.ReplicateOrderEncoder;
import io.mdhub.common.net.ConnectionHandler;
import io.mdhub.common.net.FrameConnection;
import io.mdhub.common.net.SocketPoller;

/**
 * The replication link between the two servers of a pair, over TCP on the order agent's {@link SocketPoller}: each
 * server connects to its peer's peer address and sends everything on that connection, and takes what the peer sends
 * on the connection the peer opened to it (the Aeron shape, a publication to the peer and a subscription here, kept
 * because it needs no agreement on who connects). Both are SBE. Sends are queued on the connection and written with the
 * duty cycle's flush; one that the connection cannot take (closed, connecting, or its send limit reached) is reported
 * to the caller, which keeps its position and tries again next cycle, so nothing is skipped. A lost connection is made
 * again {@link SocketPoller#RECONNECT_INTERVAL_NS} later, for as long as it takes. Malformed or foreign messages are
 * counted and skipped. {@link #severed(boolean)} drops everything both ways while the fence stays up — the replication
 * link lost between two live servers, for split-brain drills.
 */
final class PeerLink implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PeerLink.class);

    private final int serverId;
    private final SocketPoller poller;
    private final InetSocketAddress remoteAddress;
    private final int sendLimitBytes;
    private final PeerListener listener;
    private final AtomicCounter malformed;
    private final SocketPoller.Listener acceptor;
    private final AddressGate gate;
    private final ConnectionHandler inbound = new Inbound();
    private final ConnectionHandler outboundHandler = new Outbound();
    private FrameConnection outbound;
    private long nextConnectNs;
    private String lastOutboundLoss;
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
    private volatile boolean isSevered;
    private final AtomicInteger dropTemplateId = new AtomicInteger(-1);
    private final AtomicInteger dropCount = new AtomicInteger();

    /**
     * @param listenAddress this server's peer address, where the peer connects.
     * @param remoteAddress the peer's peer address.
     * @param sendLimitBytes how much replication may wait to be written before sends are refused.
     */
    PeerLink(
        final int serverId,
        final SocketPoller poller,
        final InetSocketAddress listenAddress,
        final InetSocketAddress remoteAddress,
        final int sendLimitBytes,
        final PeerListener listener,
        final AtomicCounter malformed,
        final AddressGate gate)
    {
        this.gate = gate;
        this.serverId = serverId;
        this.poller = poller;
        this.remoteAddress = remoteAddress;
        this.sendLimitBytes = sendLimitBytes;
        this.listener = listener;
        this.malformed = malformed;
        this.acceptor = poller.listen(listenAddress, inbound, gate);
    }

    /**
     * Connect to the peer when there is no connection, at most every {@link SocketPoller#RECONNECT_INTERVAL_NS}.
     *
     * @param nowNs {@link System#nanoTime()}.
     * @return 1 if a connect was started.
     */
    int poll(final long nowNs)
    {
        if (null != outbound && !outbound.isClosed() || nowNs - nextConnectNs < 0)
        {
            return 0;
        }
        nextConnectNs = nowNs + SocketPoller.RECONNECT_INTERVAL_NS;
        outbound = poller.connect(remoteAddress, outboundHandler);
        outbound.sendLimitBytes(sendLimitBytes);
        return 1;
    }

    /**
     * @return when the next connect is due while there is no connection, else {@link Long#MAX_VALUE}: the agent
     * sleeps no longer than that.
     */
    long deadlineNs()
    {
        return null != outbound && !outbound.isClosed() ? Long.MAX_VALUE : nextConnectNs;
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

    /**
     * @return true if something is queued for the peer and not yet written (a message added now shares its write).
     */
    boolean hasPendingOutput()
    {
        return null != outbound && outbound.pendingBytes() > 0;
    }

    /**
     * @return bytes queued for the peer and not yet written; {@link Integer#MAX_VALUE} while there is no open
     * connection (nothing can be queued, so a sender must wait for the connection, not try again at once).
     */
    int pendingBytes()
    {
        return null != outbound && outbound.isOpen() ? outbound.pendingBytes() : Integer.MAX_VALUE;
    }

    boolean isConnected()
    {
        return !isSevered && null != outbound && outbound.isOpen();
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
     * @param requestId    the catch-up's attempt (from 1), or 0 for a backup's request after a gap.
     * @param fromSequence first sequence wanted per partition.
     */
    boolean catchUpRequest(
        final long startEpochMs, final long requestId, final long[] fromSequence, final int partitions)
    {
        final CatchUpRequestEncoder.PartitionsEncoder entries = catchUpRequestEncoder
            .wrapAndApplyHeader(buffer, 0, headerEncoder)
            .serverId(serverId)
            .startEpochMs(startEpochMs)
            .full(requestId > 0 ? BooleanType.TRUE : BooleanType.FALSE)
            .requestId(requestId)
            .partitionsCount(partitions);
        for (int i = 0; i < partitions; i++)
        {
            entries.next().partition(i).fromSequence(fromSequence[i]);
        }
        return offer(catchUpRequestEncoder.encodedLength());
    }

    boolean catchUpComplete(final long requestId, final Partition[] partitions)
    {
        final CatchUpCompleteEncoder.PartitionsEncoder entries = catchUpCompleteEncoder
            .wrapAndApplyHeader(buffer, 0, headerEncoder)
            .serverId(serverId)
            .requestId(requestId)
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
        return null != outbound && outbound.isOpen() &&
            outbound.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + bodyLength);
    }

    /**
     * One message from the peer, as its inbound connection hands it over (package-private for the fuzz test).
     *
     * @return false if the message is not the order protocol (counted; the connection is no peer's).
     */
    boolean onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (isSevered)
        {
            return true;
        }
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            malformed.increment();
            return false;
        }
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            malformed.increment();
            return false;
        }
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int blockLength = headerDecoder.blockLength();
        final int version = headerDecoder.version();
        if (!isWhole(headerDecoder.templateId(), version, buffer, bodyOffset, blockLength, offset + length))
        {
            malformed.increment();
            return false;
        }
        try
        {
            switch (headerDecoder.templateId())
            {
                case PeerHeartbeatDecoder.TEMPLATE_ID:
                    listener.onPeerHeartbeat(heartbeatDecoder.wrap(buffer, bodyOffset, blockLength, version));
                    break;
                case ReplicateOrderDecoder.TEMPLATE_ID:
                    replicateDecoder.wrap(buffer, bodyOffset, blockLength, version);
                    final boolean catchUp = BooleanType.TRUE.value() == replicateDecoder.catchUpRaw();
                    final boolean answer = version >= ReplicateOrderDecoder.answerSinceVersion() &&
                        BooleanType.TRUE.value() == replicateDecoder.answerRaw();
                    final long sendTimestampNs = version >= 3 ? replicateDecoder.sendTimestampNs() : 0;
                    final int recordLength = replicateDecoder.recordLength();
                    final int recordOffset = replicateDecoder.limit() + ReplicateOrderDecoder.recordHeaderLength();
                    if (recordOffset + recordLength > offset + length)
                    {
                        malformed.increment();
                        return false;
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
                    return false;
            }
        }
        catch (final IndexOutOfBoundsException ex)
        {
            malformed.increment(); // isWhole checked every length: only a listener's own fault gets here
            return false;
        }
        return true;
    }

    /**
     * Check a message's lengths before anything reads it, so no field is read from beyond it (a read past the
     * message in the receive buffer would not throw but read the next message's bytes): the fixed block holds
     * every field of the sender's version, and a group's entries lie inside the message. Raw enum values are read
     * without the generated getters, which throw at a value the schema does not name.
     */
    private static boolean isWhole(
        final int templateId,
        final int version,
        final DirectBuffer buffer,
        final int bodyOffset,
        final int blockLength,
        final int end)
    {
        if (bodyOffset + blockLength > end)
        {
            return false;
        }
        switch (templateId)
        {
            case PeerHeartbeatDecoder.TEMPLATE_ID:
                return blockLength >= PeerHeartbeatDecoder.BLOCK_LENGTH && isGroupWhole(buffer, bodyOffset +
                    blockLength, end, version >= PeerHeartbeatDecoder.PartitionsDecoder.ackedSequenceSinceVersion() ?
                    PeerHeartbeatDecoder.PartitionsDecoder.sbeBlockLength() :
                    PeerHeartbeatDecoder.PartitionsDecoder.ackedSequenceEncodingOffset());
            case ReplicateOrderDecoder.TEMPLATE_ID:
                return blockLength >= (version >= ReplicateOrderDecoder.sendTimestampNsSinceVersion() ?
                    ReplicateOrderDecoder.BLOCK_LENGTH : ReplicateOrderDecoder.answerEncodingOffset()) &&
                    bodyOffset + blockLength + ReplicateOrderDecoder.recordHeaderLength() <= end;
            case ReplicateAckDecoder.TEMPLATE_ID:
                return blockLength >= ReplicateAckDecoder.BLOCK_LENGTH;
            case AnswerRequestDecoder.TEMPLATE_ID:
                return blockLength >= AnswerRequestDecoder.BLOCK_LENGTH;
            case CatchUpRequestDecoder.TEMPLATE_ID:
                return blockLength >= (version >= CatchUpRequestDecoder.requestIdSinceVersion() ?
                    CatchUpRequestDecoder.BLOCK_LENGTH : CatchUpRequestDecoder.requestIdEncodingOffset()) &&
                    isGroupWhole(buffer, bodyOffset + blockLength, end,
                    CatchUpRequestDecoder.PartitionsDecoder.sbeBlockLength());
            case CatchUpCompleteDecoder.TEMPLATE_ID:
                return blockLength >= (version >= CatchUpCompleteDecoder.requestIdSinceVersion() ?
                    CatchUpCompleteDecoder.BLOCK_LENGTH : CatchUpCompleteDecoder.requestIdEncodingOffset()) &&
                    isGroupWhole(buffer, bodyOffset + blockLength, end,
                    CatchUpCompleteDecoder.PartitionsDecoder.sbeBlockLength());
            default:
                return true; // an unknown template is the switch's to refuse
        }
    }

    /**
     * @return true if the group whose size header starts at offset has entries of at least minEntryLength bytes,
     * all inside the message.
     */
    private static boolean isGroupWhole(
        final DirectBuffer buffer, final int offset, final int end, final int minEntryLength)
    {
        if (offset + GroupSizeEncodingDecoder.ENCODED_LENGTH > end)
        {
            return false;
        }
        final int entryLength = buffer.getShort(offset, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        final int entries = buffer.getShort(offset + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        return entryLength >= minEntryLength &&
            offset + GroupSizeEncodingDecoder.ENCODED_LENGTH + (long)entries * entryLength <= end;
    }

    @Override
    public void close()
    {
        acceptor.close();
        if (null != outbound)
        {
            outbound.close("closed locally");
        }
        gate.flushLog();
    }

    /**
     * What the peer sends, on the connections it opened to this server.
     */
    private final class Inbound implements ConnectionHandler
    {
        @Override
        public void onOpen(final FrameConnection connection)
        {
            gate.opened(connection);
            LOG.info("order server {}: peer connected from {}", serverId, connection.remoteAddress());
        }

        @Override
        public void onMessage(
            final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
        {
            if (PeerLink.this.onMessage(buffer, offset, length))
            {
                gate.established(connection);
            }
            else
            {
                // the peer speaks nothing else: whoever sent it is no peer, and its connection costs this thread
                connection.close("sent what is not the peer protocol");
            }
        }

        @Override
        public void onClose(final FrameConnection connection, final String reason)
        {
            gate.closed(connection);
            LOG.info("order server {}: peer connection from {} ended: {}", serverId, connection.remoteAddress(),
                reason);
        }
    }

    /**
     * This server's connection to the peer, which carries everything it sends.
     */
    private final class Outbound implements ConnectionHandler
    {
        @Override
        public void onOpen(final FrameConnection connection)
        {
            lastOutboundLoss = null;
            LOG.info("order server {}: connected to the peer at {}", serverId, connection.remoteAddress());
        }

        @Override
        public void onMessage(
            final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
        {
            malformed.increment(); // the peer sends on its own connection, never back on this one
        }

        @Override
        public void onClose(final FrameConnection connection, final String reason)
        {
            if (!reason.equals(lastOutboundLoss))
            {
                lastOutboundLoss = reason; // a peer that is down refuses every 50 ms: said once
                LOG.info("order server {}: connection to the peer at {} ended: {}", serverId, remoteAddress, reason);
            }
        }
    }
}
