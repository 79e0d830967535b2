package io.mdhub.p2p.order;

import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;
import io.mdhub.common.codecs.order.PartitionRole;

/**
 * The primary's side of replication: send the orders stored here to the backup or a catching-up peer (live orders
 * ahead of catch-up, catch-up in bounded batches), complete them — post-process, answer the client unless the backup
 * did, and count them acknowledged for draining — once the backup has acknowledged them (at once with no synchronous
 * backup), answer a client the backup could not, and resend from where the peer asks.
 * <p>
 * When the peer is alive but the replication link is silent, completions are HELD: neither server takes over the
 * other's partitions while the fence says the other is alive, so no order is ever given a sequence twice.
 */
final class PrimaryReplication
{
    private static final Logger LOG = LoggerFactory.getLogger(PrimaryReplication.class);
    private static final int REPLICATION_BUDGET = 256;
    private static final int COMPLETION_BUDGET = 1024;

    private final int serverId;
    private final int peerId;
    private final boolean isBackupAnswering;
    private final Partition[] partitions;
    private final OrdersRegion region;
    private final OrderQueue queue;
    private final ClientSessions clients;
    private final PeerLink peer;
    private final PeerFence fence;
    private final RoleArbiter roles;
    private final OrderPostProcessor postProcessor;
    private final ProcessorFailures processorFailures;
    private final OrderCounters counters;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final OrderRecordDecoder recordDecoder = new OrderRecordDecoder();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final int catchUpBatch;
    private final int catchUpWindowBytes;
    private boolean isReplicationPending;
    private boolean isCatchUpWaiting;
    private boolean isCompletionPending;
    private boolean wereAcksHeld;

    PrimaryReplication(
        final OrderService.Context ctx,
        final Partition[] partitions,
        final OrdersRegion region,
        final OrderQueue queue,
        final ClientSessions clients,
        final PeerLink peer,
        final PeerFence fence,
        final RoleArbiter roles,
        final ProcessorFailures processorFailures,
        final OrderCounters counters)
    {
        this.serverId = ctx.serverId();
        this.peerId = 1 - serverId;
        this.isBackupAnswering = ctx.backupAnswers();
        this.catchUpBatch = ctx.catchUpBatch();
        this.catchUpWindowBytes = ctx.catchUpWindowBytes();
        this.postProcessor = ctx.postProcessor();
        this.partitions = partitions;
        this.region = region;
        this.queue = queue;
        this.clients = clients;
        this.peer = peer;
        this.fence = fence;
        this.roles = roles;
        this.processorFailures = processorFailures;
        this.counters = counters;
    }

    /**
     * @return true when the next duty cycle must not wait: a budget stopped the last {@link #replicate()} or
     * {@link #complete()} short, or a catch-up stopped at its window that the flush has since made room in (one still
     * full waits for the socket to become writable, which wakes the poller).
     */
    boolean isMoreWorkPending()
    {
        return isReplicationPending || isCompletionPending ||
            isCatchUpWaiting && peer.pendingBytes() < catchUpWindowBytes;
    }

    /**
     * Send what the peer lacks: live replication first, then catch-up. Live orders of a synchronous backup go
     * whole (up to {@link #REPLICATION_BUDGET} a cycle); a catch-up — the peer catching up, or orders resent up to
     * {@link Partition#catchUpEnd} — at most {@code mdhub.order.catch.up.batch} orders a cycle and only while less
     * than {@code mdhub.order.catch.up.window} bytes wait to be written to the peer, so heartbeats, acks and live
     * orders queued after it never wait behind more than that, and the order thread serves its clients between
     * batches.
     *
     * @return orders sent.
     */
    int replicate()
    {
        isReplicationPending = false;
        isCatchUpWaiting = false;
        int sent = replicateLive();
        if (sent >= 0)
        {
            sent += replicateCatchUp();
        }
        else
        {
            sent = 0;
        }
        if (roles.isCatchUpCompleteDue() && isEverythingSent())
        {
            // once the peer has this message it is a backup and may take over if this server dies: from then on
            // this store no longer proves it holds every acknowledged order
            queue.standing(OrderQueue.Standing.PAIRED, "server " + peerId + " caught up");
            if (peer.catchUpComplete(roles.catchUpRequestId(), partitions))
            {
                roles.onCatchUpSent();
            }
        }
        return sent;
    }

    private boolean isCatchingUp(final Partition partition)
    {
        return roles.isPeerCatchingUp() || partition.sent < partition.catchUpEnd;
    }

    /**
     * @return orders sent, or -1 when the link refused one (back-pressure: the position stays, and no catch-up goes).
     */
    private int replicateLive()
    {
        int sent = 0;
        for (final Partition partition : partitions)
        {
            if (!partition.isPrimary() || !roles.hasBackupTarget(partition) || isCatchingUp(partition))
            {
                continue;
            }
            // a synchronous backup answers the client itself
            final boolean answer = isBackupAnswering && PartitionRole.BACKUP == partition.peerRole;
            while (partition.sent < partition.last && sent < REPLICATION_BUDGET)
            {
                if (!send(partition, false, answer))
                {
                    return -1;
                }
                sent++;
            }
            isReplicationPending |= partition.sent < partition.last && sent >= REPLICATION_BUDGET;
        }
        return sent;
    }

    private int replicateCatchUp()
    {
        int sent = 0;
        for (final Partition partition : partitions)
        {
            if (!partition.isPrimary() || !roles.hasBackupTarget(partition) || !isCatchingUp(partition))
            {
                continue;
            }
            while (partition.sent < partition.last && sent < catchUpBatch)
            {
                // orders of a state transfer are answered from here, never by the peer
                if (peer.pendingBytes() >= catchUpWindowBytes || !send(partition, true, false))
                {
                    isCatchUpWaiting = true;
                    counters.catchUpSent.getAndAdd(sent);
                    return sent;
                }
                sent++;
            }
            isReplicationPending |= partition.sent < partition.last && sent >= catchUpBatch;
        }
        counters.catchUpSent.getAndAdd(sent);
        return sent;
    }

    private boolean send(final Partition partition, final boolean isCatchUp, final boolean answer)
    {
        final long sequence = partition.sent + 1;
        final int length = region.wrap(partition.id, sequence, view);
        final long sendNs = answer ? partition.sendTimestampNs[Partition.slot(sequence)] : 0;
        if (!peer.replicate(isCatchUp, answer, sendNs, view, 0, length))
        {
            return false; // back-pressure: the position stays, a later cycle resumes from it
        }
        partition.backupAnswers(sequence, answer);
        if (0 == partition.replicationSentSequence)
        {
            partition.replicationSentSequence = sequence;
            partition.replicationSentNs = System.nanoTime();
        }
        partition.sent = sequence;
        return true;
    }

    private boolean isEverythingSent()
    {
        for (final Partition partition : partitions)
        {
            if (partition.isPrimary() && partition.sent < partition.last)
            {
                return false;
            }
        }
        return true;
    }

    int complete()
    {
        isCompletionPending = false;
        if (roles.isSuperseded())
        {
            return 0; // the peer took this server's partitions over: what is held here is never acknowledged
        }
        int work = 0;
        boolean isHeld = false;
        for (final Partition partition : partitions)
        {
            if (!partition.isPrimary())
            {
                continue;
            }
            final boolean isSynchronous = roles.isSynchronous(partition);
            final long limit = isSynchronous ? Math.min(partition.backupAcked, partition.last) : partition.last;
            isHeld |= isSynchronous && !roles.isLinkUp() && partition.acked < partition.last;
            if (!isSynchronous && partition.acked < limit && OrderQueue.Standing.SOLE != queue.standing())
            {
                // acknowledging without a synchronous backup: this store must say it is the complete one first
                queue.standing(OrderQueue.Standing.SOLE, "acknowledging without a synchronous backup");
            }
            if (!isSynchronous && partition.acked < limit && LOG.isDebugEnabled())
            {
                LOG.debug("order server {}: partition {} completes without a backup (peer role {}, fence {}, link {})",
                    serverId, partition.id, partition.peerRole, fence.state(), roles.isLinkUp() ? "up" : "down");
            }
            while (partition.acked < limit && work < COMPLETION_BUDGET)
            {
                completeOne(partition, partition.acked + 1, isSynchronous);
                work++;
            }
            isCompletionPending |= partition.acked < limit;
        }
        if (isHeld && !wereAcksHeld)
        {
            counters.heldAcks.increment();
            LOG.warn("order server {}: holding acknowledgements: the backup is alive but unreachable", serverId);
        }
        wereAcksHeld = isHeld;
        return work;
    }

    private void completeOne(final Partition partition, final long sequence, final boolean isReplicated)
    {
        region.wrap(partition.id, sequence, view);
        postProcess(partition.id, sequence);
        partition.acked = sequence;
        counters.ordersAcked.increment();
        recordDecoder.wrapAndApplyHeader(view, 0, headerDecoder);
        final int slot = Partition.slot(sequence);
        // a backup that stored the order has answered it (or asked this server to); one that may not have — dead
        // since, or never asked — leaves the answer to this server, and a second answer is harmless to the client
        final boolean isAnswered = isReplicated && partition.isAnsweredByBackup(sequence);
        final boolean isResentAfterAnswer = isAnswered && partition.isResent(sequence);
        final ClientSession client = isAnswered && !isResentAfterAnswer ? null : clients.get(recordDecoder.clientId());
        if (null != client)
        {
            // the echo is this server's record of the send time (0 for an order it took over from its peer)
            client.ack(recordDecoder.orderId(), partition.id, recordDecoder.epoch(), sequence, isResentAfterAnswer,
                isReplicated, partition.sendTimestampNs[slot]);
        }
        partition.sendTimestampNs[slot] = 0;
        counters.ackLatency.completed(partition.storedNs[slot], System.nanoTime());
        partition.storedNs[slot] = 0;
        partition.backupAnswers(sequence, false);
        partition.resent(sequence, false);
    }

    void onAnswerRequest(final int id, final long sequence)
    {
        if (id < 0 || id >= partitions.length)
        {
            counters.malformed.increment();
            return;
        }
        final Partition partition = partitions[id];
        if (!partition.isPrimary() || sequence <= 0 || sequence > partition.last)
        {
            return; // roles changed since: the client's ack timeout resends it, and the resend is answered
        }
        // stored on both servers: the backup asked only after it had stored it
        if (region.wrap(partition.id, sequence, view) <= 0)
        {
            return;
        }
        recordDecoder.wrapAndApplyHeader(view, 0, headerDecoder);
        final ClientSession client = clients.get(recordDecoder.clientId());
        if (null != client)
        {
            final int slot = Partition.slot(sequence);
            client.ack(recordDecoder.orderId(), partition.id, recordDecoder.epoch(), sequence, false, true,
                partition.sendTimestampNs[slot]);
        }
    }

    void onReplicateAck(final int id, final int epoch, final long sequence)
    {
        if (id < 0 || id >= partitions.length)
        {
            counters.malformed.increment();
            return;
        }
        final Partition partition = partitions[id];
        if (sequence > partition.backupAcked && sequence <= partition.last)
        {
            partition.backupAcked = sequence;
            if (0 != partition.replicationSentSequence && sequence >= partition.replicationSentSequence)
            {
                partition.lastRoundTripNs = System.nanoTime() - partition.replicationSentNs;
                partition.maxRoundTripNs = Math.max(partition.maxRoundTripNs, partition.lastRoundTripNs);
                partition.replicationSentSequence = 0;
            }
        }
    }


    /**
     * The backup missed orders (a gap): send again from where it asks.
     */
    void resendFrom(final int id, final long fromSequence)
    {
        if (id >= 0 && id < partitions.length && partitions[id].isPrimary())
        {
            partitions[id].sent = Math.min(partitions[id].sent, Math.max(0, fromSequence - 1));
        }
    }

    /**
     * The orders of a taken-over partition the dead primary may not have completed — after the last completed
     * position it reported (its drained position if it never said) — are post-processed here, as they become
     * complete on this server. Those it completed just before its last heartbeat are post-processed a second time
     * (at least once across a failover, like the sink).
     */
    void postProcessTakenOver(final Partition partition)
    {
        final long from = Partition.UNKNOWN == partition.peerAcked ? partition.drained : partition.peerAcked;
        for (long sequence = Math.max(0, from) + 1; sequence <= partition.last; sequence++)
        {
            region.wrap(partition.id, sequence, view);
            postProcess(partition.id, sequence);
        }
    }

    /**
     * Hand the order in {@link #view} to the post-processor. An exception it throws is counted and logged, and the
     * order completes anyway: stored on both servers, it is acknowledged; thrown on, the same order would fail again
     * on every duty cycle and hold every partition, heartbeats included.
     */
    private void postProcess(final int partition, final long sequence)
    {
        recordDecoder.wrapAndApplyHeader(view, 0, headerDecoder);
        try
        {
            postProcessor.postProcess(recordDecoder);
        }
        catch (final RuntimeException ex)
        {
            recordDecoder.wrapAndApplyHeader(view, 0, headerDecoder);
            if (Thread.currentThread().isInterrupted())
            {
                // the runner interrupts only an agent that does not stop when closed: a post-processor hung in this
                // order. Completed as a failure, it and every order after it would be reported done to the peer,
                // which would then never post-process them; not completed, the peer does on taking over
                throw new AgentTerminationException("closed while post-processing order " +
                    recordDecoder.orderId() + " of partition " + partition);
            }
            processorFailures.processorFailed("post-processor", partition, recordDecoder.orderId(), ex);
        }
    }

}
