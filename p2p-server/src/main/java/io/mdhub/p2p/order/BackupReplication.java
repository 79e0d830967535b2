package io.mdhub.p2p.order;

import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;

/**
 * The backup's side of replication: store what the primary replicates (Orders region, identity index, write-behind
 * queue), answer the order's client for the primary when asked ({@code mdhub.order.backup.answers}), ask again
 * from a gap, and acknowledge to the primary — at once where the primary waits on the ack, else lazily.
 */
final class BackupReplication
{
    private static final Logger LOG = LoggerFactory.getLogger(BackupReplication.class);
    private static final long GAP_REQUEST_INTERVAL_NS = 100_000_000L;
    /**
     * How long a backup may hold its ack of orders it answered itself: the primary needs it only to complete them
     * (post-process, drain), not to answer anyone, so it rides along with the next message to the primary — with
     * both servers primaries of half the partitions, replication flows both ways whenever orders do — or goes alone
     * after this long. An ack sent alone wakes both servers once more: at a millisecond, one order in eight paid for
     * that at 2,000 orders/s; at ten, a quiet pair pays at most a hundred a second and a busy one none.
     */
    private static final long LAZY_ACK_NS = 10_000_000L;

    private final int serverId;
    private final long startEpochMs;
    private final Partition[] partitions;
    private final OrderStore store;
    private final ClientSessions clients;
    private final PeerLink peer;
    private final OrderCounters counters;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final OrderRecordDecoder recordDecoder = new OrderRecordDecoder();
    private final long[] gapFrom;
    private long lastGapRequestNs;
    private long lazyAckDueNs = Long.MAX_VALUE;

    BackupReplication(
        final int serverId,
        final long startEpochMs,
        final Partition[] partitions,
        final OrderStore store,
        final ClientSessions clients,
        final PeerLink peer,
        final OrderCounters counters)
    {
        this.serverId = serverId;
        this.startEpochMs = startEpochMs;
        this.partitions = partitions;
        this.store = store;
        this.clients = clients;
        this.peer = peer;
        this.counters = counters;
        this.gapFrom = new long[partitions.length];
    }

    /**
     * @return true if the bytes are an OrderRecord whose fixed block lies inside them: read before anything else,
     * since the generated decoder throws at another template and reads its fixed fields wherever the block says.
     */
    private boolean isOrderRecord(final DirectBuffer record, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH + OrderRecordDecoder.BLOCK_LENGTH)
        {
            return false;
        }
        headerDecoder.wrap(record, offset);
        final int blockLength = headerDecoder.blockLength();
        return MessageHeaderDecoder.SCHEMA_ID == headerDecoder.schemaId() &&
            OrderRecordDecoder.TEMPLATE_ID == headerDecoder.templateId() &&
            blockLength >= OrderRecordDecoder.BLOCK_LENGTH &&
            MessageHeaderDecoder.ENCODED_LENGTH + blockLength <= length;
    }

    /**
     * @return when the first ack held back lazily is due ({@link Long#MAX_VALUE}: none is).
     */
    long lazyAckDueNs()
    {
        return lazyAckDueNs;
    }

    /**
     * An order the primary replicated: stored when it is the next one, acknowledged again when it is stored
     * already, asked for again after a gap.
     */
    void onReplicateOrder(
        final boolean catchUp,
        final boolean answer,
        final long sendTimestampNs,
        final DirectBuffer record,
        final int offset,
        final int length)
    {
        if (!isOrderRecord(record, offset, length))
        {
            counters.malformed.increment();
            return;
        }
        recordDecoder.wrapAndApplyHeader(record, offset, headerDecoder);
        final int id = recordDecoder.partition();
        if (id < 0 || id >= partitions.length)
        {
            counters.malformed.increment();
            return;
        }
        final Partition partition = partitions[id];
        if (partition.isPrimary())
        {
            return; // stale traffic from before a takeover
        }
        final long sequence = recordDecoder.sequence();
        if (sequence <= partition.last)
        {
            partition.isAckDue = true; // already stored: say so again, at once
            partition.isAckUrgent = true;
            if (answer && !catchUp)
            {
                // a resend: the first copy may not have asked for an answer (a state transfer's did not)
                answerForPeer(partition, recordDecoder.clientId(), recordDecoder.orderId(), recordDecoder.epoch(),
                    sequence, sendTimestampNs);
            }
            return;
        }
        if (sequence != partition.last + 1)
        {
            partition.gaps++;
            counters.gaps.increment();
            final long nowNs = System.nanoTime();
            if (nowNs - lastGapRequestNs > GAP_REQUEST_INTERVAL_NS)
            {
                lastGapRequestNs = nowNs;
                LOG.warn("order server {}: partition {} gap: got {} after {}; asking the primary again", serverId,
                    id, sequence, partition.last);
                for (int i = 0; i < partitions.length; i++)
                {
                    gapFrom[i] = partitions[i].last + 1;
                }
                peer.catchUpRequest(startEpochMs, 0, gapFrom, partitions.length);
            }
            return;
        }
        if (!store.store(record, offset, length))
        {
            // the next sequence, yet refused: truncated, larger than a region chunk here, or this index is full
            // where the primary's was not
            counters.malformed.increment();
            LOG.error("order server {}: partition {} sequence {} ({} bytes) cannot be stored here (region chunk or " +
                "identity index too small)", serverId, id, sequence, length);
            return;
        }
        final int epoch = recordDecoder.epoch();
        partition.last = sequence;
        partition.acked = sequence;
        partition.epoch = Math.max(partition.epoch, epoch);
        counters.replicated.increment();
        final boolean isAnsweredHere = answer && !catchUp && answerForPeer(
            partition, recordDecoder.clientId(), recordDecoder.orderId(), epoch, sequence, sendTimestampNs);
        if (!partition.isAckDue)
        {
            partition.isAckDue = true;
            partition.ackDueByNs = System.nanoTime() + LAZY_ACK_NS;
        }
        partition.isAckUrgent |= !isAnsweredHere; // the primary answers this one once it hears the ack
    }

    /**
     * Answer a client for the primary, the order stored here: one hop sooner than the primary's answer after this
     * server's ack. A client this server cannot answer (no hello here yet, or its answers back up) is left to the
     * primary, asked to answer it instead; should that request be lost too, the client's ack timeout resends it.
     */
    private boolean answerForPeer(
        final Partition partition,
        final long clientId,
        final long orderId,
        final int epoch,
        final long sequence,
        final long sendTimestampNs)
    {
        final ClientSession client = clients.get(clientId);
        if (null != client && client.isOpen() &&
            client.ack(orderId, partition.id, epoch, sequence, false, true, sendTimestampNs))
        {
            counters.answersForPeer.increment();
            return true;
        }
        counters.answerRequests.increment();
        peer.answerRequest(partition.id, sequence);
        return false;
    }

    /**
     * Ack what the backup stored: at once where the primary waits on the ack to answer a client, else with the next
     * message to the primary or {@link #LAZY_ACK_NS} after the first order owed (see there).
     */
    int sendBackupAcks(final long nowNs)
    {
        int work = 0;
        long nextDueNs = Long.MAX_VALUE;
        final boolean isRidingAlong = peer.hasPendingOutput();
        for (final Partition partition : partitions)
        {
            if (partition.isAckDue && !partition.isPrimary())
            {
                if (!partition.isAckUrgent && !isRidingAlong && nowNs - partition.ackDueByNs < 0)
                {
                    nextDueNs = Math.min(nextDueNs, partition.ackDueByNs);
                    continue;
                }
                if (!peer.ack(partition.id, partition.epoch, partition.last))
                {
                    nextDueNs = nowNs + LAZY_ACK_NS; // the link is full: its draining wakes this thread sooner
                    break;
                }
                partition.isAckDue = false;
                partition.isAckUrgent = false;
                work++;
            }
        }
        lazyAckDueNs = nextDueNs;
        return work;
    }
}
