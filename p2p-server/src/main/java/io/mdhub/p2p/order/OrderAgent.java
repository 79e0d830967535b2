package io.mdhub.p2p.order;

import java.nio.file.Path;
import java.util.Arrays;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.CatchUpCompleteDecoder;
import io.mdhub.common.codecs.order.CatchUpRequestDecoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.PeerHeartbeatDecoder;
import io.mdhub.common.net.SocketPoller;

/**
 * The order service of one server of an active/active pair, as one agent (one thread, no locks): it takes client
 * orders for the partitions it is primary of, stores them (Orders region, identity index, write-behind queue) and
 * replicates them to the peer; as backup it stores what the peer replicates (region, index, queue) and answers the
 * order's client itself when the primary asks it to ({@code mdhub.order.backup.answers}), before it acknowledges to
 * the primary. Either way a client hears of an order only once it is in both servers' queues. It decides roles:
 * who is primary at start, taking over a dead peer's partitions, catching up after a restart, and handing
 * partitions back to their home server.
 * <p>
 * <b>Completion.</b> On a primary an order is complete — post-processed, acknowledged to its client unless the
 * backup answered it, then drained — when the backup has acknowledged it; with no backup (the peer is certainly
 * dead, or still catching up) at once. When the peer is alive but the replication link is silent, completions are
 * HELD: neither server takes over the other's partitions while the fence says the other is alive, so no order is
 * ever given a sequence twice; the cost is that acks wait until the link is back (those the backup stored before
 * the link went are answered already).
 * <p>
 * The duty cycle composes the parts: {@link OrderIngress} (client messages to stored orders),
 * {@link PrimaryReplication}, {@link BackupReplication}, {@link OrderDrain} (the sink) and the {@link RoleArbiter}
 * (the roles, pure logic); the agent owns the sockets and the store, and sets the poller's deadline from every
 * part's next timer.
 */
final class OrderAgent implements Agent, PeerListener, RoleActions
{
    /**
     * A peer's role byte to its role without the generated getter, which throws at a value the schema does not name
     * (a newer or broken peer): such a role reads as NONE, serving nothing here.
     */
    private static final PartitionRole[] PEER_ROLES = new PartitionRole[256];

    static
    {
        Arrays.fill(PEER_ROLES, PartitionRole.NONE);
        for (final PartitionRole role : PartitionRole.values())
        {
            if (PartitionRole.NULL_VAL != role)
            {
                PEER_ROLES[role.value() & 0xFF] = role;
            }
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(OrderAgent.class);
    private final int serverId;
    private final SocketPoller poller;
    private final SocketPoller.Listener ingressListener;
    private final OrderIngress ingress;
    private final AddressGate ingressGate;
    private final PeerLink peer;
    private final PeerFence fence;
    private final OrderQueue queue;
    private final OrderStore store;
    private final OrderCounters counters;
    private final Partition[] partitions;
    private final ClientSessions clients;
    private final RoleArbiter roles;
    private final PrimaryReplication primary;
    private final BackupReplication backup;
    private final OrderDrain drain;
    private final long startEpochMs = System.currentTimeMillis();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final OrderRecordDecoder recordDecoder = new OrderRecordDecoder();
    private final long[] catchUpFrom;

    OrderAgent(
        final OrderService.Context ctx,
        final SocketPoller poller,
        final PeerFence fence,
        final OrderQueue queue,
        final OrderCounters counters)
    {
        this.serverId = ctx.serverId();
        this.poller = poller;
        this.fence = fence;
        this.queue = queue;
        this.counters = counters;
        this.partitions = new Partition[ctx.partitions()];
        this.catchUpFrom = new long[partitions.length];
        for (int i = 0; i < partitions.length; i++)
        {
            partitions[i] = new Partition(i, i % 2);
        }
        this.store = new OrderStore(partitions.length, ctx.expectedOrders(),
            OrderServiceConfiguration.processName(serverId), queue, counters.storeInlineChunks);
        this.clients = new ClientSessions(serverId, partitions.length, counters);
        this.peer = new PeerLink(serverId, poller, ctx.peerAddress(), ctx.peerRemoteAddress(),
            ctx.peerSendLimitBytes(), this, counters.malformed, new AddressGate(serverId, "peer port",
            ctx.addressMaxHandshakes(), ctx.addressAcceptRate(), counters.connectionsRefused));
        final ProcessorFailures processorFailures = new ProcessorFailures(serverId, counters);
        this.roles = new RoleArbiter(ctx, partitions, fence, this, counters);
        this.primary = new PrimaryReplication(
            ctx, partitions, store.region, queue, clients, peer, fence, roles, processorFailures, counters);
        this.backup = new BackupReplication(
            serverId, startEpochMs, partitions, store, clients, peer, counters);
        this.drain = new OrderDrain(ctx, partitions, store.region, queue, counters);
        this.ingressGate = new AddressGate(serverId, "order port", ctx.addressMaxHandshakes(),
            ctx.addressAcceptRate(), counters.connectionsRefused, ctx.handshakeTimeoutNs(), counters.handshakeTimeouts);
        this.ingress = new OrderIngress(ctx, partitions, store, clients, roles, processorFailures, counters,
            ingressGate);
        this.ingressListener = poller.listen(ctx.address(), ingress, ingressGate, ctx.serverEngines());
        poller.blockAfterWork(true); // every duty cycle sets the deadline to its next timer, or now with work left
        fence.watchOn(poller); // served when its sockets are ready or its timers due, not on a tick
    }

    @Override
    public void onStart()
    {
        final long records = queue.replay(this::rebuild);
        for (final Partition partition : partitions)
        {
            // everything queued counts as complete: orders a primary stored but had not completed when it stopped
            // are answered to the clients that resend them (as duplicates)
            partition.acked = partition.last;
            partition.drained = Math.min(queue.drained(partition.id), partition.last); // durable downstream
            partition.written = partition.drained;
        }
        roles.start(System.nanoTime());
        LOG.info("order server {}: rebuilt {} orders from {} (standing {}); waiting for the peer", serverId,
            records, queue.directory(), queue.standing());
    }

    private void rebuild(final DirectBuffer record, final int length)
    {
        recordDecoder.wrapAndApplyHeader(record, 0, headerDecoder);
        final int id = recordDecoder.partition();
        if (id < 0 || id >= partitions.length)
        {
            counters.malformed.increment();
            return;
        }
        final Partition partition = partitions[id];
        final long sequence = recordDecoder.sequence();
        if (!store.restore(record, 0, length))
        {
            partition.gaps++;
            counters.gaps.increment();
            LOG.error("order server {}: queue has partition {} sequence {} after {}: not contiguous", serverId, id,
                sequence, partition.last);
            return;
        }
        partition.last = sequence;
        partition.epoch = Math.max(partition.epoch, recordDecoder.epoch());
    }

    @Override
    public String roleName()
    {
        return OrderServiceConfiguration.processName(serverId);
    }

    @Override
    public int doWork()
    {
        final long nowNs = System.nanoTime();
        int work = 0;
        if (fence.isDue(nowNs))
        {
            work += fence.poll(nowNs);
        }
        work += peer.poll(nowNs);
        work += poller.poll();
        work += ingressGate.closeExpired(nowNs);
        if (roles.isHeartbeatDue(nowNs))
        {
            // ahead of this cycle's replication: behind a catch-up it would wait for the batch to be written
            peer.heartbeat(startEpochMs, nowNs, roles.isSteppingDown(), partitions);
            work++;
        }
        work += primary.replicate();
        work += backup.sendBackupAcks(nowNs);
        work += primary.complete();
        work += drain.drain(nowNs);
        final int decided = roles.decide(nowNs);
        work += decided;
        work += clients.closeStopped();
        if (roles.takeMapDue())
        {
            clients.partitionMaps(partitions);
        }
        poller.flush(); // every answer and replication message of the cycle: one write per connection
        work += ingress.closeGarbled(); // after their answers were written
        // a budget stopped replication or completion short, a catch-up has room again after the flush, or a role
        // changed (a heartbeat may be due): what it makes due runs next cycle
        final boolean isMoreWorkPending = primary.isMoreWorkPending() || decided > 0;
        // the next wait ends at the first timer, or at once when a budget stopped this cycle short (see blockAfterWork)
        poller.deadlineNs(isMoreWorkPending ? nowNs : Math.min(
            Math.min(Math.min(fence.deadlineNs(nowNs), roles.nextHeartbeatNs()), roles.nextDecisionNs(nowNs)),
            Math.min(Math.min(peer.deadlineNs(), backup.lazyAckDueNs()),
            Math.min(drain.drainDueNs(), ingressGate.deadlineNs()))));
        return work;
    }

    // ---------------------------------------------------------------- what the peer says

    @Override
    public void onPeerHeartbeat(final PeerHeartbeatDecoder heartbeat)
    {
        roles.onPeerHeartbeat(
            System.nanoTime(), heartbeat.startEpochMs(), BooleanType.TRUE.value() == heartbeat.steppingDownRaw());
        for (final PeerHeartbeatDecoder.PartitionsDecoder entry : heartbeat.partitions())
        {
            final long peerAcked = entry.ackedSequence();
            roles.onPeerPartition(entry.partition(), PEER_ROLES[entry.roleRaw() & 0xFF], entry.epoch(),
                entry.lastSequence(), entry.drainedSequence(),
                PeerHeartbeatDecoder.PartitionsDecoder.ackedSequenceNullValue() == peerAcked ?
                Partition.UNKNOWN : peerAcked);
        }
    }

    @Override
    public void onReplicateOrder(
        final boolean catchUp,
        final boolean answer,
        final long sendTimestampNs,
        final DirectBuffer record,
        final int offset,
        final int length)
    {
        backup.onReplicateOrder(catchUp, answer, sendTimestampNs, record, offset, length);
    }

    @Override
    public void onReplicateAck(final int partition, final int epoch, final long sequence)
    {
        primary.onReplicateAck(partition, epoch, sequence);
    }

    @Override
    public void onAnswerRequest(final int partition, final long sequence)
    {
        primary.onAnswerRequest(partition, sequence);
    }

    @Override
    public void onCatchUpRequest(final CatchUpRequestDecoder request)
    {
        if (ServerState.SERVING != roles.state())
        {
            return; // nothing authoritative to give yet; the peer asks again
        }
        if (BooleanType.TRUE.value() == request.fullRaw())
        {
            final long requestId = request.requestId(); // the null value (negative) from a version 3 peer
            final RoleArbiter.CatchUpAnswer answer = roles.onCatchUpRequest(request.startEpochMs(), requestId);
            if (RoleArbiter.CatchUpAnswer.STALE == answer)
            {
                return;
            }
            boolean hasPositions = false;
            for (final CatchUpRequestDecoder.PartitionsDecoder entry : request.partitions())
            {
                roles.catchUpFrom(entry.partition(), entry.fromSequence(), answer);
                hasPositions = true;
            }
            if (!hasPositions)
            {
                for (final Partition partition : partitions)
                {
                    roles.catchUpFrom(partition.id, 1, answer); // a peer that does not say: everything
                }
            }
            return;
        }
        for (final CatchUpRequestDecoder.PartitionsDecoder entry : request.partitions())
        {
            primary.resendFrom(entry.partition(), entry.fromSequence());
        }
    }

    @Override
    public void onCatchUpComplete(final CatchUpCompleteDecoder complete)
    {
        if (ServerState.CATCHING_UP != roles.state())
        {
            return;
        }
        final long nowNs = System.nanoTime();
        final long requestId = complete.requestId() > 0 ? complete.requestId() : Long.MAX_VALUE; // v3: unsaid
        for (final CatchUpCompleteDecoder.PartitionsDecoder entry : complete.partitions())
        {
            if (!roles.onPartitionCaughtUp(
                nowNs, requestId, entry.partition(), entry.lastSequence(), entry.epoch(), entry.drainedSequence()))
            {
                return;
            }
        }
        roles.onCaughtUp(nowNs);
    }

    // ---------------------------------------------------------------- what the roles do here

    @Override
    public OrderQueue.Standing standing()
    {
        return queue.standing();
    }

    @Override
    public void standing(final OrderQueue.Standing standing, final String why)
    {
        queue.standing(standing, why);
    }

    @Override
    public Path discardStore()
    {
        return store.discard();
    }

    @Override
    public void drained(final int partition, final long sequence)
    {
        queue.drained(partition, sequence);
    }

    @Override
    public void requestCatchUp(final long requestId)
    {
        for (int i = 0; i < partitions.length; i++)
        {
            catchUpFrom[i] = partitions[i].last + 1;
        }
        peer.catchUpRequest(startEpochMs, requestId, catchUpFrom, partitions.length);
    }

    @Override
    public void postProcessTakenOver(final Partition partition)
    {
        primary.postProcessTakenOver(partition);
    }

    @Override
    public boolean isLinkSevered()
    {
        return peer.isSevered();
    }

    @Override
    public boolean isLinkConnected()
    {
        return peer.isConnected();
    }

    // ---------------------------------------------------------------- views for JMX and tests

    ServerState state()
    {
        return roles.state();
    }

    Partition[] partitions()
    {
        return partitions;
    }

    boolean isLinkUp()
    {
        return roles.isLinkUp();
    }

    void stepDown(final boolean isSteppingDown)
    {
        roles.stepDown(isSteppingDown);
        poller.wakeup();
    }

    boolean isSteppingDown()
    {
        return roles.isSteppingDown();
    }

    void severPeerLink(final boolean isSevered)
    {
        peer.severed(isSevered);
        poller.wakeup();
    }

    /**
     * @return where clients connect (any thread: fixed once the agent is made).
     */
    java.net.InetSocketAddress address()
    {
        return ingressListener.boundAddress();
    }

    PeerLink peerLink()
    {
        return peer;
    }

    /**
     * @return the client ingress (tests feed it messages on the agent's thread, as the order port does).
     */
    OrderIngress ingress()
    {
        return ingress;
    }

    /**
     * @return the sessions of the clients that said hello.
     */
    ClientSessions clients()
    {
        return clients;
    }

    /**
     * Ask the agent to take the peer's partitions over (an operator's decision) and wait for it to be done.
     *
     * @param reason  the operator's reason, logged.
     * @param timeoutNs how long to wait for the agent.
     * @return what was done.
     */
    String takeOverPeerPartitions(final String reason, final long timeoutNs)
    {
        final long before = roles.takeOversDone();
        roles.requestTakeOver(null == reason || reason.isBlank() ? "no reason given" : reason);
        poller.wakeup();
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (roles.takeOversDone() == before)
        {
            if (System.nanoTime() - deadlineNs > 0 || Thread.currentThread().isInterrupted())
            {
                return "requested; not done yet (the order agent did not answer in time)";
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
        return roles.takeOverResult();
    }

    String fenceState()
    {
        return roles.lastFenceState() + " (" + fence.reason() + ")";
    }

    boolean isPeerDeclaredDead()
    {
        return roles.isPeerDeclaredDead();
    }

    @Override
    public void onClose()
    {
        CloseHelper.quietCloseAll(ingressListener, peer, poller, store);
        ingress.flushLogs();
    }
}
