package io.mdhub.p2p.order;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
import io.mdhub.common.net.ConnectionHandler;
import io.mdhub.common.net.FrameConnection;
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
 */
final class OrderAgent implements Agent, PeerListener
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderAgent.class);
    private static final int REPLICATION_BUDGET = 256;
    private static final int COMPLETION_BUDGET = 1024;
    private static final int DRAIN_BUDGET = 1024;
    private static final long CATCH_UP_RETRY_NS = 1_000_000_000L;
    private static final long GAP_REQUEST_INTERVAL_NS = 100_000_000L;
    /** How soon a sink that refused or failed a write is tried again. */
    private static final long SINK_RETRY_NS = 1_000_000L;
    /**
     * How long a backup may hold its ack of orders it answered itself: the primary needs it only to complete them
     * (post-process, drain), not to answer anyone, so it rides along with the next message to the primary or goes
     * after this long. An ack sent at once woke the primary once more per order at low rates.
     */
    private static final long LAZY_ACK_NS = 1_000_000L;
    /**
     * How often the fence's sockets are served, and so the longest the agent sleeps with nothing to read. Each poll
     * costs three system calls (select, two reads); the fence's own timescales are its keep-alive and timeouts
     * (hundreds of milliseconds), so ten milliseconds delay no verdict that matters, and an idle server wakes a
     * hundred times a second, not a thousand.
     */
    private static final long FENCE_POLL_INTERVAL_NS = 10_000_000L;

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
    private final SocketPoller poller;
    private final SocketPoller.Listener ingress;
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
    private final ClientSessions clients;
    private final long startEpochMs = System.currentTimeMillis();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ClientHelloDecoder helloDecoder = new ClientHelloDecoder();
    private final SubmitOrderDecoder submitDecoder = new SubmitOrderDecoder();
    private final OrderRecordEncoder recordEncoder = new OrderRecordEncoder();
    private final OrderRecordDecoder recordDecoder = new OrderRecordDecoder();
    private final ExpandableDirectByteBuffer recordBuffer = new ExpandableDirectByteBuffer(1024);
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final long[] gapFrom;
    private ServerState state = ServerState.STARTING;
    private long startedNs;
    private long nextHeartbeatNs;
    private long nextFencePollNs;
    private long peerHeardNs;
    private long peerStartEpochMs;
    private boolean isPeerHeard;
    private boolean isLinkUp;
    private boolean isPeerCatchingUp;
    private boolean isCatchUpComplete;
    private long catchUpRequestedNs;
    private long lastGapRequestNs;
    private long lazyAckDueNs = Long.MAX_VALUE;
    private boolean isMapDue;
    private boolean isMoreWorkPending;
    private long drainDueNs = Long.MAX_VALUE;
    private boolean wereAcksHeld;
    private boolean isPeerDead;
    private volatile boolean isSteppingDown;
    private boolean isPeerSteppingDown;
    private volatile PeerFence.State lastFenceState = PeerFence.State.UNKNOWN;
    private boolean wasFenceUnreachable;
    private long lastFenceLost;
    private volatile boolean isPeerDeclaredDead;
    private boolean isCatchUpCompleteSent;
    private boolean isSuperseded;
    private int supersededPartition;
    private boolean isWaitingLogged;
    private final LogInterval malformedLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private final LogInterval unknownClientLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private final LogInterval sinkErrorLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private final LogInterval processorErrorLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private final AtomicReference<String> takeOverRequest = new AtomicReference<>();
    private volatile String takeOverResult;
    private final AtomicLong takeOversDone = new AtomicLong();

    OrderAgent(
        final OrderService.Context ctx,
        final SocketPoller poller,
        final PeerFence fence,
        final OrderQueue queue,
        final OrderCounters counters)
    {
        this.ctx = ctx;
        this.serverId = ctx.serverId();
        this.peerId = 1 - serverId;
        this.poller = poller;
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
        this.region = new OrdersRegion(partitions.length, ctx.expectedOrders(),
            OrderServiceConfiguration.processName(serverId));
        this.index = OrderKeyIndex.forOrders(ctx.expectedOrders());
        this.clients = new ClientSessions(serverId, partitions.length, counters);
        this.peer = new PeerLink(serverId, poller, ctx.peerAddress(), ctx.peerRemoteAddress(),
            ctx.peerSendLimitBytes(), this, counters.malformed);
        this.ingress = poller.listen(ctx.address(), new Ingress());
        poller.blockAfterWork(true); // every duty cycle sets the deadline to its next timer, or now with work left
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
        startedNs = System.nanoTime();
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
        return OrderServiceConfiguration.processName(serverId);
    }

    @Override
    public int doWork()
    {
        final long nowNs = System.nanoTime();
        int work = 0;
        if (nowNs - nextFencePollNs >= 0)
        {
            nextFencePollNs = nowNs + FENCE_POLL_INTERVAL_NS;
            work += fence.poll(nowNs);
        }
        work += peer.poll(nowNs);
        work += poller.poll();
        isMoreWorkPending = false;
        work += replicate();
        work += sendBackupAcks(nowNs);
        work += complete();
        work += drain(nowNs);
        final int decided = decide(nowNs);
        isMoreWorkPending |= decided > 0; // a role changed: what it makes due runs in the next cycle
        work += decided;
        if (nowNs >= nextHeartbeatNs && ServerState.STARTING != state || nowNs >= nextHeartbeatNs && isRebuilt())
        {
            nextHeartbeatNs = nowNs + ctx.heartbeatIntervalNs();
            peer.heartbeat(startEpochMs, nowNs, isSteppingDown, partitions);
            work++;
        }
        work += clients.closeStopped();
        if (isMapDue)
        {
            isMapDue = false;
            clients.partitionMaps(partitions);
        }
        poller.flush(); // every answer and replication message of the cycle: one write per connection
        // the next wait ends at the first timer, or at once when a budget stopped this cycle short (see blockAfterWork)
        poller.deadlineNs(isMoreWorkPending ? nowNs : Math.min(Math.min(nextFencePollNs, nextHeartbeatNs),
            Math.min(Math.min(peer.deadlineNs(), lazyAckDueNs), drainDueNs)));
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
        watchFence();
        // the fence says the process is gone AND it has stopped talking (a DOWN from before it started is stale);
        // or an operator declared it dead
        isPeerDead = PeerFence.State.DOWN == fence.state() &&
            (!isPeerHeard || nowNs - peerHeardNs >= ctx.peerTimeoutNs()) || isPeerDeclaredDead;
        if (wasLinkUp && !isLinkUp)
        {
            LOG.warn("order server {}: replication link to server {} lost (fence: {} - {}, publication connected: " +
                "{}, last heard {} ms ago)", serverId, peerId, fence.state(), fence.reason(), peer.isConnected(),
                (nowNs - peerHeardNs) / 1_000_000);
        }
        if (null != takeOverRequest.get())
        {
            return forcedTakeOver(takeOverRequest.getAndSet(null));
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
                if (isSuperseded)
                {
                    yieldToPeer();
                    return 1;
                }
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

    /**
     * Log what the fence concludes when it changes, loudly when the peer may be alive but cannot be reached.
     */
    private void watchFence()
    {
        final long lost = fence.connectionsLost();
        if (lost != lastFenceLost)
        {
            counters.fenceLost.getAndAdd(lost - lastFenceLost);
            lastFenceLost = lost;
        }
        final PeerFence.State fenceState = fence.state();
        final boolean isUnreachable = fence.isUnreachable();
        if (isUnreachable && !wasFenceUnreachable)
        {
            LOG.error("order server {}: server {} is UNREACHABLE (fence: {}): it may be alive, so nothing is taken " +
                "over and acknowledgements that need it wait; if you have made sure it is dead (host down, process " +
                "gone), run the JMX operation takeOverPeerPartitions on this server", serverId, peerId,
                fence.reason());
        }
        else if (fenceState != lastFenceState && !isUnreachable)
        {
            if (PeerFence.State.UNKNOWN == fenceState)
            {
                LOG.warn("order server {}: fence to server {}: {}", serverId, peerId, fence.reason());
            }
            else
            {
                LOG.info("order server {}: fence to server {}: {} ({})", serverId, peerId, fenceState,
                    fence.reason());
            }
        }
        wasFenceUnreachable = isUnreachable;
        if (fenceState != lastFenceState)
        {
            lastFenceState = fenceState; // volatile (JMX reads it): written on a change, not every duty cycle
        }
    }

    /**
     * The peer took a partition this server is primary of at a higher epoch — an operator forced a takeover while
     * this server was cut off. Acknowledged orders of this server are all on the peer (this server held what it
     * could not replicate), so this server discards its store and takes everything from the peer.
     */
    private void yieldToPeer()
    {
        LOG.error("order server {}: server {} is primary of partition {} at a higher epoch: it took over while this " +
            "server was cut off; discarding this store (orders held here were never acknowledged) and catching up " +
            "from it", serverId, peerId, supersededPartition);
        isSuperseded = false;
        requestFullCatchUp(System.nanoTime());
    }

    /**
     * The operator says the peer is dead (JMX takeOverPeerPartitions): take its partitions now (or serve alone, if
     * still starting) whatever the fence says, until the peer restarts or catches up from this server.
     */
    private int forcedTakeOver(final String reason)
    {
        final String result;
        if (ServerState.CATCHING_UP == state)
        {
            result = "refused: this server is catching up and does not hold every order";
            LOG.error("order server {}: operator takeover ({}) {}", serverId, reason, result);
        }
        else
        {
            counters.forcedTakeovers.increment();
            LOG.error("order server {}: OPERATOR TAKEOVER of server {}'s partitions ({}); fence was {} ({}), link " +
                "{}; server {} is treated as dead until it restarts or catches up from this server", serverId,
                peerId, reason, fence.state(), fence.reason(), isLinkUp ? "up" : "down", peerId);
            isPeerDeclaredDead = true;
            isPeerDead = true;
            if (ServerState.STARTING == state)
            {
                serveEverything("operator: " + reason);
            }
            else
            {
                queue.standing(OrderQueue.Standing.SOLE, "operator takeover: " + reason);
                takeOver();
            }
            result = "done: primary of every partition";
        }
        takeOverResult = result;
        takeOversDone.incrementAndGet();
        return 1;
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
            if (OrderQueue.Standing.SOLE == queue.standing())
            {
                LOG.warn("order server {}: peer {} not running after {} ms; this server was the last one serving " +
                    "(standing SOLE), so it holds every acknowledged order: serving every partition alone", serverId,
                    peerId, waitNs / 1_000_000);
                serveEverything("peer not running, store proven complete");
                return 1;
            }
            if (ctx.startupForceAlone())
            {
                counters.forcedTakeovers.increment();
                LOG.error("order server {}: peer {} not running and this store is {} (it may lack orders the peer " +
                    "acknowledged alone): serving alone anyway because {} is set", serverId, peerId,
                    queue.standing(), OrderServiceConfiguration.STARTUP_FORCE_ALONE_PROP_NAME);
                serveEverything("operator override at start");
                return 1;
            }
            if (!isWaitingLogged)
            {
                isWaitingLogged = true;
                LOG.error("order server {}: peer {} not running, but this store is {}: the peer may have " +
                    "acknowledged orders alone after this server stopped, so this server waits for it. Start the " +
                    "peer; or, if its store is lost for good, run the JMX operation takeOverPeerPartitions or " +
                    "restart with -D{}=true (orders only the peer held are then lost)", serverId, peerId,
                    queue.standing(), OrderServiceConfiguration.STARTUP_FORCE_ALONE_PROP_NAME);
            }
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
        queue.standing(OrderQueue.Standing.SOLE, why); // before any order is acknowledged without a backup
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
                if (0 == work)
                {
                    queue.standing(OrderQueue.Standing.SOLE, "took over from dead server " + peerId);
                }
                partition.role = PartitionRole.PRIMARY;
                partition.epoch = Math.max(partition.epoch, partition.peerEpoch) + 1;
                partition.drained = Math.max(partition.drained, partition.peerDrained);
                partition.written = partition.drained;
                postProcessTakenOver(partition);
                partition.acked = partition.last; // all stored here; clients resend what they miss an ack for
                partition.sent = partition.last;
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

    /**
     * The orders of a taken-over partition the dead primary may not have completed — after the last completed
     * position it reported (its drained position if it never said) — are post-processed here, as they become
     * complete on this server. Those it completed just before its last heartbeat are post-processed a second time
     * (at least once across a failover, like the sink).
     */
    private void postProcessTakenOver(final Partition partition)
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
            processorFailed("post-processor", partition, recordDecoder.orderId(), ex);
        }
    }

    private void processorFailed(final String which, final int partition, final long orderId, final RuntimeException ex)
    {
        counters.errors.increment();
        if (processorErrorLog.onEvent(System.nanoTime()) > 0)
        {
            LOG.error("order server {}: the {} failed on order {} of partition {} (logged at most once a second, " +
                "counted in order-errors)", serverId, which, orderId, partition, ex);
        }
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

    /**
     * Client connections: their messages, and their end.
     */
    private final class Ingress implements ConnectionHandler
    {
        @Override
        public void onOpen(final FrameConnection connection)
        {
        }

        @Override
        public void onMessage(
            final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
        {
            onIngress(connection, buffer, offset, length);
        }

        @Override
        public void onClose(final FrameConnection connection, final String reason)
        {
            clients.onClose(connection, reason);
        }
    }

    private void onIngress(
        final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
    {
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
        try
        {
            switch (headerDecoder.templateId())
            {
                case ClientHelloDecoder.TEMPLATE_ID:
                    helloDecoder.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                    clients.onHello(helloDecoder.clientId(), connection, partitions);
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
            malformed("a field runs past the message", length, connection);
        }
    }

    /**
     * Count a message that cannot be read at all (no client to answer: the sender is unknown) and log it, at most
     * once a second with how many came meanwhile.
     */
    private void malformed(final String what, final int length, final FrameConnection connection)
    {
        counters.malformed.increment();
        final long skipped = malformedLog.onEvent(System.nanoTime());
        if (skipped > 0)
        {
            LOG.warn("order server {}: skipped {} malformed ingress message(s); the last: {} bytes, {} (from {})",
                serverId, skipped, length, what, connection.remoteAddress());
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
            // completed, or stored on the backup too (it said so): the original ack again, now
            if (known <= partition.acked || known <= partition.backupAcked || index.lastPartition() != id)
            {
                counters.duplicates.increment();
                client.ack(orderId, index.lastPartition(), index.lastEpoch(), known, true, isSynchronous(partition),
                    sendNs);
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
            isMapDue = true;
            return;
        }
        if (fixLength > ctx.maxOrderBytes())
        {
            reject(client, orderId, id, RejectReason.OVERSIZE, sendNs, "order larger than the maximum");
            return;
        }
        if (index.isFull())
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
        if (!region.put(id, sequence, recordBuffer, 0, recordLength))
        {
            reject(client, orderId, id, RejectReason.OVERSIZE, sendNs, "record does not fit");
            return;
        }
        index.put(clientId, orderId, id, partition.epoch, sequence);
        // queued as stored, before it is replicated: an order the backup answers is then in both queues, whatever
        // moment the primary stops at (completing it later would leave a window where only the backup's has it)
        queue.append(recordBuffer, 0, recordLength);
        partition.last = sequence;
        partition.sendTimestampNs[Partition.slot(sequence)] = sendNs;
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
            processorFailed("pre-processor", partition, orderId, ex);
            reject(client, orderId, partition, RejectReason.INVALID_ORDER, sendNs,
                "the pre-processor failed on this order");
            return false;
        }
        if (null != refused)
        {
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
            // a synchronous backup answers the client itself; orders of a state transfer are answered from here
            final boolean answer =
                ctx.backupAnswers() && !isPeerCatchingUp && PartitionRole.BACKUP == partition.peerRole;
            while (partition.sent < partition.last && sent < REPLICATION_BUDGET)
            {
                final long sequence = partition.sent + 1;
                final int length = region.wrap(partition.id, sequence, view);
                final long sendNs = answer ? partition.sendTimestampNs[Partition.slot(sequence)] : 0;
                if (!peer.replicate(isPeerCatchingUp, answer, sendNs, view, 0, length))
                {
                    return sent; // back-pressure: the position stays, next cycle resumes from it
                }
                partition.backupAnswers(sequence, answer);
                if (0 == partition.replicationSentSequence)
                {
                    partition.replicationSentSequence = sequence;
                    partition.replicationSentNs = System.nanoTime();
                }
                partition.sent = sequence;
                sent++;
            }
            isMoreWorkPending |= partition.sent < partition.last && sent >= REPLICATION_BUDGET;
        }
        if (isPeerCatchingUp && isEverythingSent())
        {
            // once the peer has this message it is a backup and may take over if this server dies: from then on
            // this store no longer proves it holds every acknowledged order
            queue.standing(OrderQueue.Standing.PAIRED, "server " + peerId + " caught up");
            if (peer.catchUpComplete(partitions))
            {
                isPeerCatchingUp = false;
                isCatchUpCompleteSent = true;
                for (final Partition partition : partitions)
                {
                    if (partition.isPrimary())
                    {
                        partition.peerRole = PartitionRole.BACKUP; // synchronous from the next order on
                    }
                }
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
        if (isSuperseded)
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
            final boolean isSynchronous = isSynchronous(partition);
            final long limit = isSynchronous ? Math.min(partition.backupAcked, partition.last) : partition.last;
            isHeld |= isSynchronous && !isLinkUp && partition.acked < partition.last;
            if (!isSynchronous && partition.acked < limit && OrderQueue.Standing.SOLE != queue.standing())
            {
                // acknowledging without a synchronous backup: this store must say it is the complete one first
                queue.standing(OrderQueue.Standing.SOLE, "acknowledging without a synchronous backup");
            }
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
            isMoreWorkPending |= partition.acked < limit;
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
        partition.backupAnswers(sequence, false);
        partition.resent(sequence, false);
    }

    @Override
    public void onAnswerRequest(final int id, final long sequence)
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
            if (isPeerDeclaredDead)
            {
                LOG.warn("order server {}: server {}, declared dead by an operator, discarded its store and " +
                    "catches up: it counts as alive again", serverId, peerId);
                isPeerDeclaredDead = false;
                isPeerDead = false;
            }
            isCatchUpCompleteSent = false;
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
    public void onReplicateOrder(
        final boolean catchUp,
        final boolean answer,
        final long sendTimestampNs,
        final DirectBuffer record,
        final int offset,
        final int length)
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
        counters.replicated.increment();
        final boolean isAnsweredHere = answer && !catchUp &&
            answerForPeer(partition, clientId, orderId, epoch, sequence, sendTimestampNs);
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
    private int sendBackupAcks(final long nowNs)
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
            partition.written = partition.drained;
            queue.drained(partition.id, partition.drained);
        }
        queue.standing(OrderQueue.Standing.PAIRED, "caught up from server " + peerId);
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
                if (isPeerDeclaredDead)
                {
                    LOG.warn("order server {}: server {}, declared dead by an operator, restarted: it counts as " +
                        "alive again", serverId, peerId);
                    isPeerDeclaredDead = false;
                }
                isCatchUpCompleteSent = false;
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
            if (partition.isPrimary() && PartitionRole.PRIMARY == entry.role() && entry.epoch() > partition.epoch)
            {
                isSuperseded = true; // nothing more is completed here: see yieldToPeer
                supersededPartition = id;
            }
            // a heartbeat the peer sent before it read CatchUpComplete still says CATCHING_UP: it is a backup now
            partition.peerRole = isCatchUpCompleteSent && PartitionRole.CATCHING_UP == entry.role() &&
                partition.isPrimary() ? PartitionRole.BACKUP : entry.role();
            partition.peerEpoch = entry.epoch();
            partition.peerLast = entry.lastSequence();
            partition.peerDrained = entry.drainedSequence();
            final long peerAcked = entry.ackedSequence();
            partition.peerAcked = PeerHeartbeatDecoder.PartitionsDecoder.ackedSequenceNullValue() == peerAcked ?
                Partition.UNKNOWN : peerAcked;
            if (!partition.isBackup() && PartitionRole.PRIMARY != entry.role() &&
                partition.peerDrained > partition.drained && partition.peerDrained <= partition.last)
            {
                // the peer (starting, or catching up) drained further in its previous life than this server knew:
                // drained orders are acknowledged ones, which both stores share, so its position holds here too
                partition.drained = partition.peerDrained;
                partition.written = Math.max(partition.written, partition.drained);
                queue.drained(partition.id, partition.drained);
            }
            if (partition.isBackup())
            {
                if (partition.peerDrained > partition.drained)
                {
                    partition.drained = partition.peerDrained;
                    partition.written = partition.drained;
                    queue.drained(partition.id, partition.drained);
                }
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
        partition.written = partition.drained;
        isMapDue = true;
        nextHeartbeatNs = 0;
        LOG.info("order server {}: primary of partition {} (handed over, epoch {})", serverId, partition.id,
            partition.epoch);
    }

    // ---------------------------------------------------------------- draining

    /**
     * Write a batch of completed orders of the partitions this server is primary of to the sink, have the sink make
     * it durable, and only then advance (and persist) the drained positions that the heartbeats replicate. A failed
     * write or flush leaves the positions where they were and writes the batch again later (at least once).
     */
    private int drain(final long nowNs)
    {
        int work = 0;
        drainDueNs = Long.MAX_VALUE;
        try
        {
            for (final Partition partition : partitions)
            {
                if (!partition.isPrimary())
                {
                    partition.written = partition.drained;
                    continue;
                }
                while (partition.written < partition.acked && work < DRAIN_BUDGET)
                {
                    final long sequence = partition.written + 1;
                    final int length = region.wrap(partition.id, sequence, view);
                    if (!sink.write(partition.id, sequence, view, 0, length))
                    {
                        break;
                    }
                    partition.written = sequence;
                    work++;
                }
                if (partition.written < partition.acked)
                {
                    // a budget reached: on with the next cycle; a sink that took no more for now: a little later
                    drainDueNs = Math.min(drainDueNs, work >= DRAIN_BUDGET ? nowNs : nowNs + SINK_RETRY_NS);
                }
            }
            if (isUndrainedWritten() && sink.flush())
            {
                for (final Partition partition : partitions)
                {
                    if (partition.written > partition.drained)
                    {
                        partition.drained = partition.written;
                        queue.drained(partition.id, partition.drained);
                    }
                }
                if (ctx.sinkFsync())
                {
                    queue.forceDrained();
                }
            }
        }
        catch (final RuntimeException ex)
        {
            counters.sinkErrors.increment();
            drainDueNs = nowNs + SINK_RETRY_NS;
            for (final Partition partition : partitions)
            {
                partition.written = partition.drained; // written again from the durable position
            }
            if (sinkErrorLog.onEvent(System.nanoTime()) > 0)
            {
                LOG.error("order server {}: the sink failed; the batch will be written again", serverId, ex);
            }
        }
        return work;
    }

    private boolean isUndrainedWritten()
    {
        for (final Partition partition : partitions)
        {
            if (partition.written > partition.drained)
            {
                return true;
            }
        }
        return false;
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
        poller.wakeup();
    }

    boolean isSteppingDown()
    {
        return isSteppingDown;
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
        return ingress.boundAddress();
    }

    PeerLink peerLink()
    {
        return peer;
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
        final long before = takeOversDone.get();
        takeOverRequest.set(null == reason || reason.isBlank() ? "no reason given" : reason);
        poller.wakeup();
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (takeOversDone.get() == before)
        {
            if (System.nanoTime() - deadlineNs > 0 || Thread.currentThread().isInterrupted())
            {
                return "requested; not done yet (the order agent did not answer in time)";
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
        return takeOverResult;
    }

    String fenceState()
    {
        return lastFenceState + " (" + fence.reason() + ")";
    }

    boolean isPeerDeclaredDead()
    {
        return isPeerDeclaredDead;
    }

    @Override
    public void onClose()
    {
        CloseHelper.quietCloseAll(ingress, peer, poller, region, index);
    }
}
