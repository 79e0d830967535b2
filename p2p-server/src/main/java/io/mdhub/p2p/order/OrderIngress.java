package io.mdhub.p2p.order;

import java.util.ArrayList;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.ClientHelloDecoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.codecs.order.SubmitOrderDecoder;
import io.mdhub.common.log.LogSummary;
import io.mdhub.common.net.ConnectionHandler;
import io.mdhub.common.net.FrameConnection;

/**
 * Client connections: their hellos, and their orders checked, pre-processed and stored (Orders region, identity
 * index, write-behind queue) on the partitions this server is primary of, for {@link PrimaryReplication} to send to
 * the backup; duplicates answered with their original ack; and the connections' end.
 * <p>
 * Bad input stays with its sender: an order whose FIX does not parse is refused MALFORMED_FIX to its client; a
 * message that is not the order protocol at all (no order header, unknown message, fields past its end) closes the
 * connection it came on, once the answers already queued on it are written. Both count in {@code order-garbage}
 * and are logged a few lines per reason and 10 s, then summed up ({@link LogSummary}). So does a TLS connection past
 * its handshake that sends a record that does not decrypt, or ends inside a record: it is closed at once.
 */
final class OrderIngress implements ConnectionHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderIngress.class);
    private static final int GARBAGE_LOG_PROTOCOL = 0;
    private static final int GARBAGE_LOG_FIX = 1;
    private static final int GARBAGE_LOG_TLS = 2;

    private final int serverId;
    private final int maxOrderBytes;
    private final Partition[] partitions;
    private final OrderStore store;
    private final ClientSessions clients;
    private final OrderPreProcessor preProcessor;
    private final RoleArbiter roles;
    private final ProcessorFailures processorFailures;
    private final OrderCounters counters;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ClientHelloDecoder helloDecoder = new ClientHelloDecoder();
    private final SubmitOrderDecoder submitDecoder = new SubmitOrderDecoder();
    private final OrderRecordEncoder recordEncoder = new OrderRecordEncoder();
    private final ExpandableDirectByteBuffer recordBuffer = new ExpandableDirectByteBuffer(1024);
    private final LogSummary garbageLog;
    private final LogSummary tlsLog;
    private final LogInterval unknownClientLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private final AddressGate gate;
    private final ArrayList<FrameConnection> closing = new ArrayList<>();

    OrderIngress(
        final OrderService.Context ctx,
        final Partition[] partitions,
        final OrderStore store,
        final ClientSessions clients,
        final RoleArbiter roles,
        final ProcessorFailures processorFailures,
        final OrderCounters counters,
        final AddressGate gate)
    {
        this.serverId = ctx.serverId();
        this.gate = gate;
        this.garbageLog = new LogSummary(LOG, "order server " + serverId, "garbage from clients", 3);
        this.tlsLog = new LogSummary(LOG, "order server " + serverId, "failed TLS handshakes", 1);
        this.maxOrderBytes = ctx.maxOrderBytes();
        this.preProcessor = ctx.preProcessor();
        this.partitions = partitions;
        this.store = store;
        this.clients = clients;
        this.roles = roles;
        this.processorFailures = processorFailures;
        this.counters = counters;
    }

    @Override
    public void onTlsReady(final FrameConnection connection)
    {
        counters.tlsHandshakesCompleted.increment();
    }

    @Override
    public void onOpen(final FrameConnection connection)
    {
        gate.opened(connection);
    }

    @Override
    public void onMessage(
        final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
    {
        if (connection.isClosed() || connection.attachment() == closing)
        {
            return; // closing for garbage: what it sent after is not read
        }
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            malformed("shorter than a message header", length, connection);
            return;
        }
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            malformed("not the order protocol (schema id)", length, connection);
            return;
        }
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final String shortBlock = shortBlock(headerDecoder.templateId(), headerDecoder.blockLength(),
            offset + length - bodyOffset);
        if (null != shortBlock)
        {
            // checked before any field is read: the receive buffer goes on past this message (with the next one), so
            // a read beyond it would take another message's bytes, not fail
            malformed(shortBlock, length, connection);
            return;
        }
        try
        {
            switch (headerDecoder.templateId())
            {
                case ClientHelloDecoder.TEMPLATE_ID:
                    helloDecoder.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                    clients.onHello(helloDecoder.clientId(), connection, partitions);
                    gate.established(connection);
                    break;
                case SubmitOrderDecoder.TEMPLATE_ID:
                    submitDecoder.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                    onSubmit(connection, buffer, offset + length);
                    break;
                default:
                    malformed("unknown template id", length, connection);
                    break;
            }
        }
        catch (final IndexOutOfBoundsException | IllegalArgumentException ex)
        {
            malformed("a field runs past the message or holds no valid value", length, connection);
        }
    }

    /**
     * @param bodyLength what the message holds after its header.
     * @return null if the message's fixed block (and a SubmitOrder's FIX length field) lies within the message and
     * holds every field the server reads, else what is wrong.
     */
    private static String shortBlock(final int templateId, final int blockLength, final int bodyLength)
    {
        if (blockLength > bodyLength)
        {
            return "its fixed block runs past the message";
        }
        if (ClientHelloDecoder.TEMPLATE_ID == templateId && blockLength < ClientHelloDecoder.BLOCK_LENGTH)
        {
            return "a ClientHello fixed block too short for its fields";
        }
        if (SubmitOrderDecoder.TEMPLATE_ID == templateId && (blockLength < SubmitOrderDecoder.BLOCK_LENGTH ||
            blockLength + SubmitOrderDecoder.fixHeaderLength() > bodyLength))
        {
            return "a SubmitOrder fixed block too short for its fields or no room for its FIX length";
        }
        return null;
    }

    @Override
    public void onClose(final FrameConnection connection, final String reason)
    {
        if (connection.isTls() && !connection.isTlsReady())
        {
            counters.tlsHandshakeFailures.increment(); // refused (plain TCP, untrusted certificate) or abandoned
            if (null != connection.tlsFailure() &&
                tlsLog.admit(0, "tls-handshake", true, connection.remoteAddress() + " " + reason))
            {
                LOG.warn("order server {}: closed the connection from {}: {}", serverId, connection.remoteAddress(),
                    reason);
            }
        }
        else if (null != connection.tlsFailure())
        {
            counters.garbage.increment(); // a record that does not decrypt, or one cut short by the end of stream
            if (garbageLog.admit(GARBAGE_LOG_TLS, "bad-tls-record", true, connection.remoteAddress() + " " + reason))
            {
                LOG.warn("order server {}: closed the connection from {}: {}", serverId, connection.remoteAddress(),
                    reason);
            }
        }
        gate.closed(connection);
        clients.onClose(connection, reason);
    }

    /**
     * Close the connections that sent garbage, after the duty cycle's flush wrote what was queued for them (their
     * rejects among it).
     *
     * @return connections closed.
     */
    int closeGarbled()
    {
        final int count = closing.size();
        for (int i = 0; i < count; i++)
        {
            final FrameConnection connection = closing.get(i);
            connection.attach(null);
            connection.close("sent what is not the order protocol");
        }
        closing.clear();
        return count;
    }

    /**
     * Log the summaries of garbage and refused connections still pending (at close).
     */
    void flushLogs()
    {
        garbageLog.flush();
        gate.flushLog();
    }

    /**
     * A message that is not the order protocol (no client to answer: the sender is unknown): counted, logged (summed
     * up past a few lines), and its connection stops being read and is closed after this duty cycle's flush.
     */
    private void malformed(final String what, final int length, final FrameConnection connection)
    {
        counters.malformed.increment();
        counters.garbage.increment();
        if (garbageLog.admit(GARBAGE_LOG_PROTOCOL, "not-order-protocol", true, what + " from " +
            connection.remoteAddress()))
        {
            LOG.warn("order server {}: closing the connection from {}: a message of {} bytes is not the order " +
                "protocol ({})", serverId, connection.remoteAddress(), length, what);
        }
        connection.readPaused(true);
        clients.onClose(connection, "sent garbage"); // no more answers are queued on it
        connection.attach(closing);
        closing.add(connection);
    }

    /**
     * An order whose FIX does not parse (the caller refuses it MALFORMED_FIX to its client): counted in
     * {@code order-garbage} and logged, summed up past a few lines.
     */
    private void malformedFix(final long clientId, final long orderId, final String why)
    {
        counters.garbage.increment();
        if (garbageLog.admit(GARBAGE_LOG_FIX, "malformed-fix", true, "order " + orderId + " of client " + clientId +
            ": " + why))
        {
            LOG.warn("order server {}: order {} of client {} refused MALFORMED_FIX: {}", serverId, orderId, clientId,
                why);
        }
    }

    private void onSubmit(final FrameConnection connection, final DirectBuffer buffer, final int fragmentEnd)
    {
        final long clientId = submitDecoder.clientId();
        final long orderId = submitDecoder.orderId();
        final int id = submitDecoder.partition();
        final long sendNs = submitDecoder.sendTimestampNs();
        final int fixLength = submitDecoder.fixLength();
        final int fixOffset = submitDecoder.limit() + SubmitOrderDecoder.fixHeaderLength();
        final ClientSession client = clients.get(clientId);
        if (null == client)
        {
            // no hello: not taken, and refused on the connection it came on; the client says hello and sends it again
            counters.unknownClient.increment();
            clients.rejectUnknown(connection, clientId, orderId, id, sendNs);
            if (unknownClientLog.onEvent(System.nanoTime()) > 0)
            {
                LOG.warn("order server {}: order {} from client {} that has not said hello: refused UNKNOWN_CLIENT",
                    serverId, orderId, clientId);
            }
            return;
        }
        if (fixOffset + fixLength > fragmentEnd)
        {
            malformedFix(clientId, orderId, "its FIX runs past the message");
            reject(client, orderId, id, RejectReason.MALFORMED_FIX, sendNs, "truncated message");
            return;
        }
        if (id < 0 || id >= partitions.length)
        {
            reject(client, orderId, id, RejectReason.UNKNOWN_PARTITION, sendNs, "unknown partition");
            return;
        }
        final Partition partition = partitions[id];
        final long known = store.index.sequence(clientId, orderId);
        if (OrderKeyIndex.MISSING != known)
        {
            // completed, or stored on the backup too (it said so): the original ack again, now
            if (known <= partition.acked || known <= partition.backupAcked || store.index.lastPartition() != id)
            {
                counters.duplicates.increment();
                client.ack(orderId, store.index.lastPartition(), store.index.lastEpoch(), known, true,
                    roles.isSynchronous(partition), sendNs);
            }
            else if (partition.isAnsweredByBackup(known))
            {
                partition.resent(known, true); // the backup answers the first copy only: this one on completion
            }
            return; // still on its way to the backup: its ack follows
        }
        if (!partition.isPrimary() || partition.isHandingOver)
        {
            reject(client, orderId, id, RejectReason.NOT_PRIMARY, sendNs, "not primary here");
            roles.mapDue();
            return;
        }
        if (fixLength > maxOrderBytes)
        {
            reject(client, orderId, id, RejectReason.OVERSIZE, sendNs, "order larger than the maximum");
            return;
        }
        if (store.index.isFull())
        {
            // the pair holds every order in memory; at this size it takes no more until it is restarted empty
            reject(client, orderId, id, RejectReason.UNAVAILABLE, sendNs, "order store full");
            return;
        }
        final long sequence = partition.last + 1;
        recordEncoder.wrapAndApplyHeader(recordBuffer, 0, headerEncoder)
            .partition(id)
            .epoch(partition.epoch)
            .sequence(sequence)
            .clientId(clientId)
            .orderId(orderId)
            .storedTimeMs(System.currentTimeMillis());
        if (!preProcess(client, orderId, id, sendNs, buffer, fixOffset, fixLength))
        {
            return;
        }
        final int recordLength = MessageHeaderEncoder.ENCODED_LENGTH + recordEncoder.encodedLength();
        // queued as stored, before it is replicated: an order the backup answers is then in both queues, whatever
        // moment the primary stops at (completing it later would leave a window where only the backup's has it)
        if (!store.store(recordBuffer, 0, recordLength))
        {
            reject(client, orderId, id, RejectReason.OVERSIZE, sendNs, "record does not fit");
            return;
        }
        partition.last = sequence;
        partition.sendTimestampNs[Partition.slot(sequence)] = sendNs;
        partition.storedNs[Partition.slot(sequence)] = System.nanoTime();
        counters.ordersAccepted.increment();
    }

    /**
     * Run the configured pre-processor over the order being stored ({@link #recordEncoder}).
     *
     * @return true to store it; false when it was refused (answered already).
     */
    private boolean preProcess(
        final ClientSession client,
        final long orderId,
        final int partition,
        final long sendNs,
        final DirectBuffer buffer,
        final int fixOffset,
        final int fixLength)
    {
        final RejectReason refused;
        try
        {
            refused = preProcessor.preProcess(buffer, fixOffset, fixLength, recordEncoder);
        }
        catch (final RuntimeException ex)
        {
            // the configured pre-processor's failure is this order's, not the pair's: refused for good, so the
            // client does not send it again into the same failure
            processorFailures.processorFailed("pre-processor", partition, orderId, ex);
            reject(client, orderId, partition, RejectReason.INVALID_ORDER, sendNs,
                "the pre-processor failed on this order");
            return false;
        }
        if (null != refused)
        {
            if (RejectReason.MALFORMED_FIX == refused)
            {
                malformedFix(client.clientId, orderId, preProcessor.lastRejectText());
            }
            reject(client, orderId, partition, refused, sendNs, preProcessor.lastRejectText());
            return false;
        }
        return true;
    }

    private void reject(
        final ClientSession client,
        final long orderId,
        final int partition,
        final RejectReason reason,
        final long sendNs,
        final String text)
    {
        counters.rejected.increment();
        client.reject(orderId, partition, reason, sendNs, text);
    }
}
