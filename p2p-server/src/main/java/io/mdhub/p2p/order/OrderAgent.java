package io.mdhub.p2p.order;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.mdhub.common.codecs.order.CatchUpCompleteDecoder;
import io.mdhub.common.codecs.order.CatchUpRequestDecoder;
import io.mdhub.common.codecs.order.ClientHelloDecoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.PeerHeartbeatDecoder;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.codecs.order.SubmitOrderDecoder;

/**
 * The order service of one server of an active/active pair, as one agent (one thread, no locks): it takes client
 * orders for the partitions it is primary of, stores them (Orders region, identity index), replicates them to the
 * peer and acknowledges each once the peer has stored it; as backup it stores what the peer replicates and appends
 * it to its queue before acknowledging. It decides roles: who is primary at start, taking over a dead peer's
 * partitions, catching up after a restart, and handing partitions back to their home server.
 * <p>
 * <b>Completion.</b> On a primary an order is complete — post-processed, appended to this server's write-behind
 * queue, acknowledged to its client — when the backup has acknowledged it; with no backup (the peer is certainly
 * dead, or still catching up) at once. When the peer is alive but the replication link is silent, completions are
 * HELD: neither server takes over the other's partitions while the fence says the other is alive, so no order is
 * ever acknowledged twice or given a sequence twice; the cost is that acks wait until the link is back.
 */
final class OrderAgent implements Agent, PeerListener
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderAgent.class);
    private static final int FRAGMENT_LIMIT = 64;
    private static final int REPLICATION_BUDGET = 256;
    private static final int COMPLETION_BUDGET = 1024;
    private static final int DRAIN_BUDGET = 1024;
    private static final long CATCH_UP_RETRY_NS = 1_000_000_000L;
    private static final long GAP_REQUEST_INTERVAL_NS = 100_000_000L;

    /**
     * Where this server stands in the pair.
     */
    enum ServerState
    {
        /** Rebuilt from its queue, waiting to hear the peer (or to give up on it). */
        STARTING,
        /** Discarded its store, receiving everything from the serving peer. */
        CATCHING_UP,
        /** Primary or backup of every partition. */
        SERVING
    }

    private final OrderService.Context ctx;
    private final int serverId;
    private final int peerId;
    private final Aeron aeron;
    private final Subscription ingress;
    private final PeerLink peer;
    private final PeerFence fence;
    private final OrderQueue queue;
    private final OrdersRegion region;
    private final OrderKeyIndex index;
    private final OrderPreProcessor preProcessor;
    private final OrderPostProcessor postProcessor;
    private final OrderSink sink;
    private final OrderCounters counters;
    private final Partition[] partitions;
    private final Long2ObjectHashMap<ClientSession> clients = new Long2ObjectHashMap<>();
    private final long startEpochMs = System.currentTimeMillis();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ClientHelloDecoder helloDecoder = new ClientHelloDecoder();
    private final SubmitOrderDecoder submitDecoder = new SubmitOrderDecoder();
    private final OrderRecordEncoder recordEncoder = new OrderRecordEncoder();
    private final OrderRecordDecoder recordDecoder = new OrderRecordDecoder();
    private final ExpandableDirectByteBuffer recordBuffer = new ExpandableDirectByteBuffer(1024);
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final FragmentHandler ingressHandler = new io.aeron.FragmentAssembler(this::onIngress);
    private final long[] gapFrom;
    private ServerState state = ServerState.STARTING;
    private long startedNs;
    private long nextHeartbeatNs;
    private long peerHeardNs;
    private long peerStartEpochMs;
    private boolean isPeerHeard;
    private boolean isLinkUp;
    private boolean isPeerCatchingUp;
    private boolean isCatchUpComplete;
    private long catchUpRequestedNs;
    private long lastGapRequestNs;
    private boolean isMapDue;
    private boolean wereAcksHeld;
    private boolean isPeerDead;
    private volatile boolean isSteppingDown;
    private boolean isPeerSteppingDown;

    OrderAgent(
        final OrderService.Context ctx,
        final Aeron aeron,
        final Subscription ingress,
        final PeerFence fence,
        final OrderQueue queue,
        final OrderCounters counters)
    {
        this.ctx = ctx;
        this.serverId = ctx.serverId();
        this.peerId = 1 - serverId;
        this.aeron = aeron;
        this.ingress = ingress;
        this.fence = fence;
        this.queue = queue;
        this.counters = counters;
        this.preProcessor = ctx.preProcessor();
        this.postProcessor = ctx.postProcessor();
        this.sink = ctx.sink();
        this.partitions = new Partition[ctx.partitions()];
        for (int i = 0; i < partitions.length; i++)
        {
            partitions[i] = new Partition(i, i % 2);
        }
        this.gapFrom = new long[partitions.length];
        this.region = new OrdersRegion(partitions.length);
        this.index = new OrderKeyIndex(64 * 1024);
        this.peer = new PeerLink(serverId,
            aeron.addExclusivePublication(ctx.peerRemoteChannel(), ctx.peerRemoteStreamId()),
            aeron.addSubscription(ctx.peerChannel(), ctx.peerStreamId()), this, counters.malformed);
    }

    @Override
    public void onStart()
    {
        final long records = queue.replay(this::rebuild);
        for (final Partition partition : partitions)
        {
            partition.acked = partition.last; // everything in the queue was completed (or stored as backup)
        }
        startedNs = System.nanoTime();
        LOG.info("order server {}: rebuilt {} orders from {}; waiting for the peer", serverId, records,
            queue.directory());
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
        if (!region.put(id, sequence, record, 0, length))
        {
            partition.gaps++;
            counters.gaps.increment();
            LOG.error("order server {}: queue has partition {} sequence {} after {}: not contiguous", serverId, id,
                sequence, partition.last);
            return;
        }
        index.put(recordDecoder.clientId(), recordDecoder.orderId(), id, recordDecoder.epoch(), sequence);
        partition.last = sequence;
        partition.epoch = Math.max(partition.epoch, recordDecoder.epoch());
    }

    @Override
    public String roleName()
    {
        return "order-server-" + serverId;
    }

    @Override
    public int doWork()
    {
        final long nowNs = System.nanoTime();
        int work = fence.poll(nowNs);
        work += peer.poll(FRAGMENT_LIMIT);
        work += ingress.poll(ingressHandler, FRAGMENT_LIMIT);
        work += sendBackupAcks();
        work += replicate();
        work += complete();
        work += drain();
        work += decide(nowNs);
        if (nowNs >= nextHeartbeatNs && ServerState.STARTING != state || nowNs >= nextHeartbeatNs && isRebuilt())
        {
            nextHeartbeatNs = nowNs + ctx.heartbeatIntervalNs();
            peer.heartbeat(startEpochMs, nowNs, isSteppingDown, partitions);
            work++;
        }
        for (final ClientSession client : clients.values())
        {
            work += client.flush();
        }
        if (isMapDue)
        {
            isMapDue = false;
            for (final ClientSession client : clients.values())
            {
                client.partitionMap(serverId, partitions);
            }
        }
        return work;
    }

    private boolean isRebuilt()
    {
        return startedNs > 0;
    }

    // ---------------------------------------------------------------- roles

    private int decide(final long nowNs)
    {
        final boolean wasLinkUp = isLinkUp;
        isLinkUp = isPeerHeard && nowNs - peerHeardNs < ctx.peerTimeoutNs() && !peer.isSevered();
        // the fence says the process is gone AND it has stopped talking (a DOWN from before it started is stale)
        isPeerDead = PeerFence.State.DOWN == fence.state() &&
            (!isPeerHeard || nowNs - peerHeardNs >= ctx.peerTimeoutNs());
        if (wasLinkUp && !isLinkUp)
        {
            LOG.warn("order server {}: replication link to server {} lost (fence: {}, publication connected: {}, " +
                "last heard {} ms ago)", serverId, peerId, fence.state(), peer.isConnected(),
                (nowNs - peerHeardNs) / 1_000_000);
        }
        switch (state)
        {
            case STARTING:
                return decideAtStart(nowNs, isPeerDead);
            case CATCHING_UP:
                if (!isCatchUpComplete && nowNs - catchUpRequestedNs > CATCH_UP_RETRY_NS && isLinkUp)
                {
                    requestFullCatchUp(nowNs); // the request or its answer was lost: ask again, from scratch
                }
                return 0;
            default:
                int work = 0;
                if (isPeerDead)
                {
                    work += takeOver();
                }
                if (isLinkUp && !wasLinkUp)
                {
                    resumeReplication();
                }
                if (isLinkUp)
                {
                    work += handBack();
                }
                return work;
        }
    }

    private int decideAtStart(final long nowNs, final boolean isPeerDead)
    {
        if (isLinkUp)
        {
            if (isPeerServing())
            {
                requestFullCatchUp(nowNs);
                return 1;
            }
            if (isAuthority())
            {
                serveEverything("the pair starts and this server holds the most");
                return 1;
            }
            requestFullCatchUp(nowNs);
            return 1;
        }
        final long waitNs = ctx.startupPeerWaitNs();
        if (isPeerDead && waitNs >= 0 && nowNs - startedNs >= waitNs)
        {
            LOG.warn("order server {}: peer {} not running after {} ms: serving every partition alone (orders the " +
                "peer acknowledged alone after this server stopped would be missing)", serverId, peerId,
                waitNs / 1_000_000);
            serveEverything("peer not running");
            return 1;
        }
        return 0;
    }

    private boolean isPeerServing()
    {
        for (final Partition partition : partitions)
        {
            if (PartitionRole.PRIMARY == partition.peerRole)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Both servers start: the one whose store dominates (each partition's epoch, then sequence, at least the
     * peer's) serves; the other takes everything from it. Acknowledged orders are on both or on the survivor of
     * the last failure, which is the dominant one; ties go to server 0.
     */
    private boolean isAuthority()
    {
        boolean isAhead = false;
        boolean isBehind = false;
        for (final Partition partition : partitions)
        {
            final int compare = partition.epoch != partition.peerEpoch ?
                Integer.compare(partition.epoch, partition.peerEpoch) :
                Long.compare(partition.last, partition.peerLast);
            isAhead |= compare > 0;
            isBehind |= compare < 0;
        }
        if (isAhead && isBehind)
        {
            LOG.error("order server {}: the stores of the pair diverge (each is ahead in some partition); server 0 " +
                "serves and server 1 discards its store", serverId);
        }
        return isAhead && !isBehind || !isAhead && !isBehind && 0 == serverId || isAhead && 0 == serverId;
    }

    private void serveEverything(final String why)
    {
        state = ServerState.SERVING;
        for (final Partition partition : partitions)
        {
            partition.role = PartitionRole.PRIMARY;
            partition.epoch++;
            partition.sent = partition.last;
            partition.backupAcked = 0;
        }
        isMapDue = true;
        LOG.info("order server {}: primary of all {} partitions ({})", serverId, partitions.length, why);
    }

    private void requestFullCatchUp(final long nowNs)
    {
        if (ServerState.CATCHING_UP != state)
        {
            final java.nio.file.Path aside = queue.discard();
            region.clear();
            index.clear();
            for (final Partition partition : partitions)
            {
                partition.reset();
            }
            state = ServerState.CATCHING_UP;
            isCatchUpComplete = false;
            isMapDue = true;
            LOG.info("order server {}: taking every order from server {} (old queue moved to {})", serverId, peerId,
                aside);
        }
        catchUpRequestedNs = nowNs;
        peer.catchUpRequest(startEpochMs, null, partitions.length);
    }

    private int takeOver()
    {
        int work = 0;
        for (final Partition partition : partitions)
        {
            if (partition.isBackup())
            {
                partition.role = PartitionRole.PRIMARY;
                partition.epoch = Math.max(partition.epoch, partition.peerEpoch) + 1;
                partition.acked = partition.last; // all stored here; clients resend what they miss an ack for
                partition.sent = partition.last;
                partition.drained = Math.max(partition.drained, partition.peerDrained);
                partition.failovers++;
                counters.failovers.increment();
                work++;
                LOG.warn("order server {}: peer {} is down; primary of partition {} (epoch {}, last sequence {})",
                    serverId, peerId, partition.id, partition.epoch, partition.last);
            }
            partition.peerRole = PartitionRole.NONE;
        }
        if (work > 0)
        {
            isMapDue = true;
        }
        isPeerCatchingUp = false;
        return work;
    }

    private void resumeReplication()
    {
        for (final Partition partition : partitions)
        {
            if (partition.isPrimary() && partition.peerLast < partition.sent)
            {
                partition.sent = partition.peerLast; // resend what the peer missed while the link was down
            }
        }
    }

    /**
     * Give a partition to the peer — back to its home server (rebalance), or every partition while an operator has
     * this server step down — once the peer is a synchronous backup with everything: refuse new orders on it, wait
     * until every order is complete, then become its backup at a new epoch; the peer sees that in the next
     * heartbeat and takes the partition. Nothing is handed to a peer that is itself stepping down.
     */
    private int handBack()
    {
        int work = 0;
        for (final Partition partition : partitions)
        {
            final boolean isToPeer = isSteppingDown || (ctx.rebalance() && partition.homeServerId == peerId);
            if (partition.isPrimary() && isToPeer && !isPeerSteppingDown && PartitionRole.BACKUP == partition.peerRole)
            {
                partition.isHandingOver = true;
                if (partition.acked == partition.last && partition.backupAcked == partition.last &&
                    partition.peerLast == partition.last)
                {
                    partition.role = PartitionRole.BACKUP;
                    partition.epoch++;
                    partition.isHandingOver = false;
                    nextHeartbeatNs = 0;
                    isMapDue = true;
                    work++;
                    LOG.info("order server {}: partition {} handed back to server {} (epoch {})", serverId,
                        partition.id, peerId, partition.epoch);
                }
            }
        }
        return work;
    }

    // ---------------------------------------------------------------- ingress

    private void onIngress(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            counters.malformed.increment();
            return;
        }
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            counters.malformed.increment();
            return;
        }
        final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        try
        {
            switch (headerDecoder.templateId())
            {
                case ClientHelloDecoder.TEMPLATE_ID:
                    helloDecoder.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                    onHello(helloDecoder.clientId(), helloDecoder.responseStreamId(),
                        helloDecoder.responseChannel());
                    break;
                case SubmitOrderDecoder.TEMPLATE_ID:
                    submitDecoder.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                    onSubmit(buffer, offset + length);
                    break;
                default:
                    counters.malformed.increment();
                    break;
            }
        }
        catch (final IndexOutOfBoundsException | IllegalArgumentException ex)
        {
            counters.malformed.increment(); // a var field running past the fragment, or a bad channel
        }
    }

    private void onHello(final long clientId, final int responseStreamId, final String responseChannel)
    {
        ClientSession client = clients.get(clientId);
        if (null == client)
        {
            client = new ClientSession(clientId, aeron.addPublication(responseChannel, responseStreamId),
                counters.answersDropped);
            clients.put(clientId, client);
            LOG.info("order server {}: client {} answers on {} stream {}", serverId, clientId, responseChannel,
                responseStreamId);
        }
        client.partitionMap(serverId, partitions);
    }

    private void onSubmit(final DirectBuffer buffer, final int fragmentEnd)
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
            counters.rejected.increment();
            return; // nowhere to answer: the client says hello again when its order times out
        }
        if (fixOffset + fixLength > fragmentEnd)
        {
            reject(client, orderId, id, RejectReason.MALFORMED_FIX, sendNs, "truncated message");
            return;
        }
        if (id < 0 || id >= partitions.length)
        {
            reject(client, orderId, id, RejectReason.UNKNOWN_PARTITION, sendNs, "unknown partition");
            return;
        }
        final Partition partition = partitions[id];
        final long known = index.sequence(clientId, orderId);
        if (OrderKeyIndex.MISSING != known)
        {
            if (known <= partition.acked || index.lastPartition() != id)
            {
                counters.duplicates.increment();
                client.ack(orderId, index.lastPartition(), index.lastEpoch(), known, true, isSynchronous(partition),
                    sendNs);
            }
            return; // still on its way to the backup: its ack follows
        }
        if (!partition.isPrimary() || partition.isHandingOver)
        {
            reject(client, orderId, id, RejectReason.NOT_PRIMARY, sendNs, "not primary here");
            isMapDue = true;
            return;
        }
        if (fixLength > ctx.maxOrderBytes())
        {
            reject(client, orderId, id, RejectReason.OVERSIZE, sendNs, "order larger than the maximum");
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
        final RejectReason refused = preProcessor.preProcess(buffer, fixOffset, fixLength, recordEncoder);
        if (null != refused)
        {
            reject(client, orderId, id, refused, sendNs, preProcessor.lastRejectText());
            return;
        }
        final int recordLength = MessageHeaderEncoder.ENCODED_LENGTH + recordEncoder.encodedLength();
        if (!region.put(id, sequence, recordBuffer, 0, recordLength))
        {
            reject(client, orderId, id, RejectReason.OVERSIZE, sendNs, "record does not fit");
            return;
        }
        index.put(clientId, orderId, id, partition.epoch, sequence);
        partition.last = sequence;
        partition.sendTimestampNs[(int)(sequence & (Partition.SEND_TIMESTAMP_RING - 1))] = sendNs;
        counters.ordersAccepted.increment();
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

    // ---------------------------------------------------------------- replication (primary)

    private boolean hasBackupTarget(final Partition partition)
    {
        return isLinkUp && (PartitionRole.BACKUP == partition.peerRole || isPeerCatchingUp);
    }

    /**
     * Whether completions of a partition wait for the backup: while the peer is a backup, or alive but out of
     * reach (held). A dead peer or one still catching up does not count as a synchronous backup.
     */
    private boolean isSynchronous(final Partition partition)
    {
        return PartitionRole.BACKUP == partition.peerRole && !isPeerDead;
    }

    private int replicate()
    {
        int sent = 0;
        for (final Partition partition : partitions)
        {
            if (!partition.isPrimary() || !hasBackupTarget(partition))
            {
                continue;
            }
            while (partition.sent < partition.last && sent < REPLICATION_BUDGET)
            {
                final long sequence = partition.sent + 1;
                final int length = region.wrap(partition.id, sequence, view);
                if (!peer.replicate(isPeerCatchingUp, view, 0, length))
                {
                    return sent; // back-pressure: the position stays, next cycle resumes from it
                }
                if (0 == partition.replicationSentSequence)
                {
                    partition.replicationSentSequence = sequence;
                    partition.replicationSentNs = System.nanoTime();
                }
                partition.sent = sequence;
                sent++;
            }
        }
        if (isPeerCatchingUp && isEverythingSent())
        {
            if (peer.catchUpComplete(partitions))
            {
                isPeerCatchingUp = false;
                LOG.info("order server {}: catch-up of server {} sent", serverId, peerId);
            }
        }
        return sent;
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

    private int complete()
    {
        int work = 0;
        boolean isHeld = false;
        for (final Partition partition : partitions)
        {
            if (!partition.isPrimary())
            {
                continue;
            }
            final boolean isSynchronous = isSynchronous(partition);
            final long limit = isSynchronous ? Math.min(partition.backupAcked, partition.last) : partition.last;
            isHeld |= isSynchronous && !isLinkUp && partition.acked < partition.last;
            if (!isSynchronous && partition.acked < limit && LOG.isDebugEnabled())
            {
                LOG.debug("order server {}: partition {} completes without a backup (peer role {}, fence {}, link {})",
                    serverId, partition.id, partition.peerRole, fence.state(), isLinkUp ? "up" : "down");
            }
            while (partition.acked < limit && work < COMPLETION_BUDGET)
            {
                completeOne(partition, partition.acked + 1, isSynchronous);
                work++;
            }
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
        final int length = region.wrap(partition.id, sequence, view);
        recordDecoder.wrapAndApplyHeader(view, 0, headerDecoder);
        postProcessor.postProcess(recordDecoder);
        queue.append(view, 0, length);
        partition.acked = sequence;
        counters.ordersAcked.increment();
        recordDecoder.wrapAndApplyHeader(view, 0, headerDecoder);
        final ClientSession client = clients.get(recordDecoder.clientId());
        if (null != client)
        {
            // the echo is this server's record of the send time (0 for an order it took over from its peer)
            final int slot = (int)(sequence & (Partition.SEND_TIMESTAMP_RING - 1));
            client.ack(recordDecoder.orderId(), partition.id, recordDecoder.epoch(), sequence, false, isReplicated,
                partition.sendTimestampNs[slot]);
            partition.sendTimestampNs[slot] = 0;
        }
    }

    @Override
    public void onReplicateAck(final int id, final int epoch, final long sequence)
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

    @Override
    public void onCatchUpRequest(final CatchUpRequestDecoder request)
    {
        if (ServerState.SERVING != state)
        {
            return; // nothing authoritative to give yet; the peer asks again
        }
        if (io.mdhub.common.codecs.order.BooleanType.TRUE == request.full())
        {
            LOG.info("order server {}: server {} asks for everything: sending {} partitions", serverId, peerId,
                partitions.length);
            isPeerCatchingUp = true;
            for (final Partition partition : partitions)
            {
                partition.sent = 0;
                partition.backupAcked = 0;
                partition.peerRole = PartitionRole.CATCHING_UP;
            }
            return;
        }
        for (final CatchUpRequestDecoder.PartitionsDecoder entry : request.partitions())
        {
            final int id = entry.partition();
            if (id >= 0 && id < partitions.length && partitions[id].isPrimary())
            {
                partitions[id].sent = Math.min(partitions[id].sent, Math.max(0, entry.fromSequence() - 1));
            }
        }
    }

    // ---------------------------------------------------------------- backup side

    @Override
    public void onReplicateOrder(final boolean catchUp, final DirectBuffer record, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
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
            partition.isAckDue = true; // already stored: say so again
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
                peer.catchUpRequest(startEpochMs, gapFrom, partitions.length);
            }
            return;
        }
        final long clientId = recordDecoder.clientId();
        final long orderId = recordDecoder.orderId();
        final int epoch = recordDecoder.epoch();
        region.put(id, sequence, record, offset, length);
        index.put(clientId, orderId, id, epoch, sequence);
        queue.append(record, offset, length);
        partition.last = sequence;
        partition.acked = sequence;
        partition.epoch = Math.max(partition.epoch, epoch);
        partition.isAckDue = true;
        counters.replicated.increment();
    }

    private int sendBackupAcks()
    {
        int work = 0;
        for (final Partition partition : partitions)
        {
            if (partition.isAckDue && !partition.isPrimary())
            {
                if (!peer.ack(partition.id, partition.epoch, partition.last))
                {
                    break;
                }
                partition.isAckDue = false;
                work++;
            }
        }
        return work;
    }

    @Override
    public void onCatchUpComplete(final CatchUpCompleteDecoder complete)
    {
        if (ServerState.CATCHING_UP != state)
        {
            return;
        }
        for (final CatchUpCompleteDecoder.PartitionsDecoder entry : complete.partitions())
        {
            final int id = entry.partition();
            if (id < 0 || id >= partitions.length)
            {
                continue;
            }
            final Partition partition = partitions[id];
            if (partition.last != entry.lastSequence())
            {
                LOG.warn("order server {}: catch-up of partition {} ended at {} but the peer holds {}; asking again",
                    serverId, id, partition.last, entry.lastSequence());
                requestFullCatchUp(System.nanoTime());
                return;
            }
            partition.epoch = Math.max(partition.epoch, entry.epoch());
            partition.drained = entry.drainedSequence();
        }
        for (final Partition partition : partitions)
        {
            partition.role = PartitionRole.BACKUP;
        }
        isCatchUpComplete = true;
        state = ServerState.SERVING;
        isMapDue = true;
        nextHeartbeatNs = 0;
        LOG.info("order server {}: caught up; backup of every partition", serverId);
    }

    // ---------------------------------------------------------------- heartbeats

    @Override
    public void onPeerHeartbeat(final PeerHeartbeatDecoder heartbeat)
    {
        peerHeardNs = System.nanoTime();
        isPeerHeard = true;
        isPeerSteppingDown = io.mdhub.common.codecs.order.BooleanType.TRUE == heartbeat.steppingDown();
        if (heartbeat.startEpochMs() != peerStartEpochMs)
        {
            if (0 != peerStartEpochMs)
            {
                LOG.info("order server {}: peer {} restarted", serverId, peerId);
            }
            peerStartEpochMs = heartbeat.startEpochMs();
        }
        for (final PeerHeartbeatDecoder.PartitionsDecoder entry : heartbeat.partitions())
        {
            final int id = entry.partition();
            if (id < 0 || id >= partitions.length)
            {
                continue;
            }
            final Partition partition = partitions[id];
            partition.peerRole = entry.role();
            partition.peerEpoch = entry.epoch();
            partition.peerLast = entry.lastSequence();
            partition.peerDrained = entry.drainedSequence();
            if (partition.isBackup())
            {
                partition.drained = Math.max(partition.drained, partition.peerDrained);
                if (PartitionRole.BACKUP == partition.peerRole && partition.peerEpoch > partition.epoch &&
                    partition.last == partition.peerLast)
                {
                    takeHandedOver(partition);
                }
            }
        }
    }

    private void takeHandedOver(final Partition partition)
    {
        partition.role = PartitionRole.PRIMARY;
        partition.epoch = partition.peerEpoch;
        partition.acked = partition.last;
        partition.sent = partition.last;
        partition.backupAcked = partition.last;
        isMapDue = true;
        nextHeartbeatNs = 0;
        LOG.info("order server {}: primary of partition {} (handed over, epoch {})", serverId, partition.id,
            partition.epoch);
    }

    // ---------------------------------------------------------------- draining

    private int drain()
    {
        int work = 0;
        for (final Partition partition : partitions)
        {
            if (!partition.isPrimary())
            {
                continue;
            }
            while (partition.drained < partition.acked && work < DRAIN_BUDGET)
            {
                final long sequence = partition.drained + 1;
                final int length = region.wrap(partition.id, sequence, view);
                if (!sink.write(partition.id, sequence, view, 0, length))
                {
                    return work;
                }
                partition.drained = sequence;
                work++;
            }
        }
        return work;
    }

    // ---------------------------------------------------------------- views for JMX and tests

    ServerState state()
    {
        return state;
    }

    Partition[] partitions()
    {
        return partitions;
    }

    boolean isLinkUp()
    {
        return isLinkUp;
    }

    void stepDown(final boolean isSteppingDown)
    {
        this.isSteppingDown = isSteppingDown;
    }

    boolean isSteppingDown()
    {
        return isSteppingDown;
    }

    void severPeerLink(final boolean isSevered)
    {
        peer.severed(isSevered);
    }

    @Override
    public void onClose()
    {
        for (final ClientSession client : clients.values())
        {
            CloseHelper.quietClose(client);
        }
        CloseHelper.quietCloseAll(peer, region, index);
    }
}
