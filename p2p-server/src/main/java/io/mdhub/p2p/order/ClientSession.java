package io.mdhub.p2p.order;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Publication;
import io.mdhub.common.concurrent.DoorbellRinger;
import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderAckEncoder;
import io.mdhub.common.codecs.order.OrderRejectEncoder;
import io.mdhub.common.codecs.order.PartitionMapEncoder;
import io.mdhub.common.codecs.order.RejectReason;

/**
 * One order client as a server knows it: its id and the publication its answers go to (the channel and stream it
 * named in its hello). An answer the publication cannot take now waits, in order, in a bounded off-heap backlog
 * that {@link #flush()} retries every duty cycle: while the publication is still opening ({@link ClientSessions} adds
 * it asynchronously, and {@link #open} hands it over), and under back-pressure (the client reads slower than the
 * burst). Only past the bound (a client that is gone or stopped reading) is an answer counted and dropped — the client
 * then resends the order and gets the original ack again, so nothing is lost by it. Owned by the order agent.
 */
final class ClientSession implements AutoCloseable
{
    private static final int OFFER_ATTEMPTS = 3;
    private static final int BACKLOG_BYTES = 4 * 1024 * 1024;
    private static final int MIN_BUFFER_BYTES = 4096; // an ack, or a reject with its text
    private static final Logger LOG = LoggerFactory.getLogger(ClientSession.class);

    final long clientId;
    final long registrationId;
    private final String channel;
    private final int streamId;
    private Publication publication;
    private DoorbellRinger ringer;
    private final AtomicCounter dropped;
    private final UnsafeBuffer buffer;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final OrderAckEncoder ack = new OrderAckEncoder();
    private final OrderRejectEncoder reject = new OrderRejectEncoder();
    private final PartitionMapEncoder map = new PartitionMapEncoder();
    private final org.agrona.ExpandableRingBuffer backlog = new org.agrona.ExpandableRingBuffer(4096, BACKLOG_BYTES,
        true);
    private final org.agrona.ExpandableRingBuffer.MessageConsumer sender = this::sendFromBacklog;
    private final LogInterval dropLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private long lastListenedToNs;

    /**
     * @param partitionCount the server's partitions: its partition map must fit the encoding buffer (9 bytes each, up
     *                       to the 1,024 allowed).
     * @param nowNs          {@link System#nanoTime()}: the client listens now (it has just said hello).
     */
    ClientSession(
        final long clientId,
        final String channel,
        final int streamId,
        final long registrationId,
        final AtomicCounter dropped,
        final int partitionCount,
        final long nowNs)
    {
        this.buffer = new UnsafeBuffer(new byte[Math.max(MIN_BUFFER_BYTES, MessageHeaderEncoder.ENCODED_LENGTH +
            PartitionMapEncoder.BLOCK_LENGTH + PartitionMapEncoder.PartitionsEncoder.sbeHeaderSize() +
            partitionCount * PartitionMapEncoder.PartitionsEncoder.sbeBlockLength())]);
        this.clientId = clientId;
        this.channel = channel;
        this.streamId = streamId;
        this.registrationId = registrationId;
        this.dropped = dropped;
        this.lastListenedToNs = nowNs;
    }

    /**
     * The response publication is open: answers go out from now on, those that waited first.
     *
     * @param publication the publication the hello asked for.
     * @param ringer      its doorbell ringer.
     */
    void open(final Publication publication, final DoorbellRinger ringer)
    {
        this.publication = publication;
        this.ringer = ringer;
    }

    /**
     * @return the response channel the client's hello named.
     */
    String channel()
    {
        return channel;
    }

    /**
     * @return the response stream the client's hello named.
     */
    int streamId()
    {
        return streamId;
    }

    /**
     * @return whether the response publication is open.
     */
    boolean isOpen()
    {
        return null != publication;
    }

    /**
     * @return whether the client's subscription is there to take answers (the publication is open and connected).
     */
    boolean isListenedTo()
    {
        return null != publication && publication.isConnected();
    }

    /**
     * Look whether the client still listens: a look that finds it listening restarts the clock.
     *
     * @param nowNs     {@link System#nanoTime()}.
     * @param timeoutNs how long nobody may listen.
     * @return true once nobody has listened on the response channel for the timeout.
     */
    boolean isUnheardFor(final long nowNs, final long timeoutNs)
    {
        if (isListenedTo())
        {
            lastListenedToNs = nowNs;
            return false;
        }
        return nowNs - lastListenedToNs >= timeoutNs;
    }

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
        if (backlog.isEmpty() && null != publication)
        {
            for (int i = 0; i < OFFER_ATTEMPTS; i++)
            {
                if (ringer.ringIfPublished(publication.offer(buffer, 0, length)) > 0)
                {
                    return true;
                }
            }
        }
        if (!backlog.append(buffer, 0, length))
        {
            dropped.increment();
            final long droppedSinceLog = dropLog.onEvent(System.nanoTime());
            if (droppedSinceLog > 0)
            {
                // the client reads slower than it is answered (or is gone): it will resend and be answered again
                LOG.warn("order client {}: {} answer(s) dropped, its backlog is full ({} bytes; response " +
                    "publication connected: {}); counted in order-answers-dropped", clientId, droppedSinceLog,
                    BACKLOG_BYTES, isListenedTo());
            }
            return false;
        }
        return true;
    }

    /**
     * @return true if this session answers on that channel and stream (as the client's hello names them).
     */
    boolean answersOn(final String channel, final int streamId)
    {
        return this.streamId == streamId && this.channel.equals(channel);
    }

    /**
     * Send what waits in the backlog, oldest first, until the publication pushes back.
     *
     * @return answers sent.
     */
    int flush()
    {
        if (backlog.isEmpty() || null == publication)
        {
            return 0;
        }
        final int sent = backlog.consume(sender, Integer.MAX_VALUE);
        if (sent > 0)
        {
            ringer.ring();
        }
        return sent;
    }

    private boolean sendFromBacklog(
        final org.agrona.MutableDirectBuffer message, final int offset, final int length, final int headOffset)
    {
        return publication.offer(message, offset, length) > 0;
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(ringer, publication);
    }
}
