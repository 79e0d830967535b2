package io.mdhub.p2p.order;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.PartitionRole;

/**
 * The roles of one server of the pair, as pure logic on the order agent's thread: who is primary at start, taking
 * over a dead peer's partitions, catching up after a restart, handing partitions back to their home server, an
 * operator's takeover, and yielding to a peer that took over while this server was cut off. It reads the time only
 * from its callers, the peer's state from its heartbeats and the {@link RoleFence}, and acts on the shared
 * {@link Partition}s and through {@link RoleActions} (the store, the queue's standing, the link, the post-processor).
 * The catch-up at both ends (asking, retrying, checking its end; serving the peer's) is {@link CatchUpTracker}.
 */
final class RoleArbiter
{
    private static final Logger LOG = LoggerFactory.getLogger(RoleArbiter.class);

    private final int serverId;
    private final int peerId;
    private final long heartbeatIntervalNs;
    private final long peerTimeoutNs;
    private final long startupPeerWaitNs;
    private final boolean isStartupForceAlone;
    private final boolean isRebalance;
    private final Partition[] partitions;
    private final RoleFence fence;
    private final RoleActions actions;
    private final OrderCounters counters;
    private final CatchUpTracker catchUp;
    private ServerState state = ServerState.STARTING;
    private long startedNs;
    private long nextHeartbeatNs;
    private long peerHeardNs;
    private long peerStartEpochMs;
    private boolean isPeerHeard;
    private boolean isLinkUp;
    private boolean isMapDue;
    private boolean isPeerDead;
    private volatile boolean isSteppingDown;
    private boolean isPeerSteppingDown;
    private volatile PeerFence.State lastFenceState = PeerFence.State.UNKNOWN;
    private boolean wasFenceUnreachable;
    private long lastFenceLost;
    private volatile boolean isPeerDeclaredDead;
    private boolean isSuperseded;
    private int supersededPartition;
    private boolean isWaitingLogged;
    private final AtomicReference<String> takeOverRequest = new AtomicReference<>();
    private volatile String takeOverResult;
    private final AtomicLong takeOversDone = new AtomicLong();

    RoleArbiter(
        final OrderService.Context ctx,
        final Partition[] partitions,
        final RoleFence fence,
        final RoleActions actions,
        final OrderCounters counters)
    {
        this.serverId = ctx.serverId();
        this.peerId = 1 - serverId;
        this.heartbeatIntervalNs = ctx.heartbeatIntervalNs();
        this.peerTimeoutNs = ctx.peerTimeoutNs();
        this.startupPeerWaitNs = ctx.startupPeerWaitNs();
        this.isStartupForceAlone = ctx.startupForceAlone();
        this.isRebalance = ctx.rebalance();
        this.partitions = partitions;
        this.fence = fence;
        this.actions = actions;
        this.counters = counters;
        this.catchUp = new CatchUpTracker(serverId, partitions, actions, counters);
    }

    /**
     * The store is rebuilt: from now on the start-up wait for the peer runs, and heartbeats go.
     */
    void start(final long nowNs)
    {
        startedNs = nowNs;
    }

    /**
     * @return true once a heartbeat is due (its interval passed, or a role changed), the interval restarted.
     */
    boolean isHeartbeatDue(final long nowNs)
    {
        if (nowNs >= nextHeartbeatNs && (ServerState.STARTING != state || isRebuilt()))
        {
            nextHeartbeatNs = nowNs + heartbeatIntervalNs;
            return true;
        }
        return false;
    }

    long nextHeartbeatNs()
    {
        return nextHeartbeatNs;
    }

    /**
     * @param nowNs the duty cycle's clock.
     * @return the next moment a {@link #decide} may decide something with no message or fence change to prompt it
     * (the peer's silence reaching the timeout, the start-up wait ending, a catch-up request to repeat), after
     * {@code nowNs}; {@link Long#MAX_VALUE} for none.
     */
    long nextDecisionNs(final long nowNs)
    {
        long nextNs = Long.MAX_VALUE;
        if (isPeerHeard)
        {
            nextNs = after(nowNs, peerHeardNs + peerTimeoutNs, nextNs);
        }
        if (ServerState.STARTING == state && isRebuilt() && startupPeerWaitNs >= 0)
        {
            nextNs = after(nowNs, startedNs + startupPeerWaitNs, nextNs);
        }
        if (ServerState.CATCHING_UP == state && !catchUp.isComplete())
        {
            nextNs = after(nowNs, catchUp.nextRetryNs(), nextNs);
        }
        return nextNs;
    }

    private static long after(final long nowNs, final long candidateNs, final long earliestNs)
    {
        return candidateNs - nowNs > 0 ? Math.min(candidateNs, earliestNs) : earliestNs;
    }

    /**
     * @return true once if the clients are owed the partition map (a role changed, or a client used a stale one).
     */
    boolean takeMapDue()
    {
        final boolean isDue = isMapDue;
        isMapDue = false;
        return isDue;
    }

    void mapDue()
    {
        isMapDue = true;
    }

    private boolean isRebuilt()
    {
        return startedNs > 0;
    }

    // ---------------------------------------------------------------- decisions

    int decide(final long nowNs)
    {
        final boolean wasLinkUp = isLinkUp;
        isLinkUp = isPeerHeard && nowNs - peerHeardNs < peerTimeoutNs && !actions.isLinkSevered();
        watchFence();
        // the fence says the process is gone AND it has stopped talking (a DOWN from before it started is stale),
        // or it refused a connect after it last spoke (a kill: no need to wait for the silence to reach the
        // timeout); or an operator declared it dead
        isPeerDead = PeerFence.State.DOWN == fence.state() && (!isPeerHeard || nowNs - peerHeardNs >= peerTimeoutNs ||
            fence.downSinceNs() - peerHeardNs > 0) || isPeerDeclaredDead;
        if (wasLinkUp && !isLinkUp)
        {
            LOG.warn("order server {}: replication link to server {} lost (fence: {} - {}, publication connected: " +
                "{}, last heard {} ms ago)", serverId, peerId, fence.state(), fence.reason(),
                actions.isLinkConnected(), (nowNs - peerHeardNs) / 1_000_000);
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
                if (isLinkUp)
                {
                    catchUp.retryIfStalled(nowNs);
                }
                return 0;
            default:
                int work = 0;
                if (isSuperseded)
                {
                    yieldToPeer(nowNs);
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
    private void yieldToPeer(final long nowNs)
    {
        LOG.error("order server {}: server {} is primary of partition {} at a higher epoch: it took over while this " +
            "server was cut off; discarding this store (orders held here were never acknowledged) and catching up " +
            "from it", serverId, peerId, supersededPartition);
        isSuperseded = false;
        requestCatchUp(nowNs, true);
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
                actions.standing(OrderQueue.Standing.SOLE, "operator takeover: " + reason);
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
                requestCatchUp(nowNs, true);
                return 1;
            }
            if (isAuthority())
            {
                serveEverything("the pair starts and this server holds the most");
                return 1;
            }
            requestCatchUp(nowNs, true);
            return 1;
        }
        final long waitNs = startupPeerWaitNs;
        if (isPeerDead && waitNs >= 0 && nowNs - startedNs >= waitNs)
        {
            if (OrderQueue.Standing.SOLE == actions.standing())
            {
                LOG.warn("order server {}: peer {} not running after {} ms; this server was the last one serving " +
                    "(standing SOLE), so it holds every acknowledged order: serving every partition alone", serverId,
                    peerId, waitNs / 1_000_000);
                serveEverything("peer not running, store proven complete");
                return 1;
            }
            if (isStartupForceAlone)
            {
                counters.forcedTakeovers.increment();
                LOG.error("order server {}: peer {} not running and this store is {} (it may lack orders the peer " +
                    "acknowledged alone): serving alone anyway because {} is set", serverId, peerId,
                    actions.standing(), OrderServiceConfiguration.STARTUP_FORCE_ALONE_PROP_NAME);
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
                    actions.standing(), OrderServiceConfiguration.STARTUP_FORCE_ALONE_PROP_NAME);
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
        actions.standing(OrderQueue.Standing.SOLE, why); // before any order is acknowledged without a backup
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

    /**
     * Ask the peer for what this server lacks: from scratch (the store discarded first) when it starts catching up
     * or holds what the peer does not; else from where each partition stands, as a new attempt.
     */
    private void requestCatchUp(final long nowNs, final boolean isFromScratch)
    {
        if (ServerState.CATCHING_UP != state || isFromScratch)
        {
            catchUp.startOver(nowNs);
            state = ServerState.CATCHING_UP;
            isMapDue = true;
        }
        catchUp.ask(nowNs);
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
                    actions.standing(OrderQueue.Standing.SOLE, "took over from dead server " + peerId);
                }
                partition.role = PartitionRole.PRIMARY;
                partition.epoch = Math.max(partition.epoch, partition.peerEpoch) + 1;
                partition.drained = Math.max(partition.drained, partition.peerDrained);
                partition.written = partition.drained;
                actions.postProcessTakenOver(partition);
                partition.acked = partition.last; // all stored here; clients resend what they miss an ack for
                partition.sent = partition.last;
                partition.failovers++;
                counters.failovers.increment();
                work++;
                LOG.warn("order server {}: peer {} is down; primary of partition {} (epoch {}, last sequence {})",
                    serverId, peerId, partition.id, partition.epoch, partition.last);
            }
            partition.peerRole = PartitionRole.NONE;
            partition.peerReportedRole = PartitionRole.NONE;
        }
        if (work > 0)
        {
            isMapDue = true;
        }
        catchUp.onPeerTakenOver();
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
            final boolean isToPeer = isSteppingDown || (isRebalance && partition.homeServerId == peerId);
            // the peer says it is a backup itself: one sent its catch-up's end may not have had it
            if (partition.isPrimary() && isToPeer && !isPeerSteppingDown &&
                PartitionRole.BACKUP == partition.peerRole && PartitionRole.BACKUP == partition.peerReportedRole)
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

    // ---------------------------------------------------------------- what the peer says

    /**
     * A heartbeat's header: the peer is heard; a new start time means it restarted. Its partitions follow, each
     * to {@link #onPeerPartition}.
     */
    void onPeerHeartbeat(final long nowNs, final long startEpochMs, final boolean isSteppingDown)
    {
        peerHeardNs = nowNs;
        isPeerHeard = true;
        isPeerSteppingDown = isSteppingDown;
        if (startEpochMs != peerStartEpochMs)
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
                catchUp.onPeerRestarted();
            }
            peerStartEpochMs = startEpochMs;
        }
    }

    /**
     * One partition of a heartbeat, as the peer sees it.
     *
     * @param acked the peer's completed position, {@link Partition#UNKNOWN} when it did not say.
     */
    void onPeerPartition(
        final int id,
        final PartitionRole role,
        final int epoch,
        final long last,
        final long drained,
        final long acked)
    {
        if (id < 0 || id >= partitions.length)
        {
            return;
        }
        final Partition partition = partitions[id];
        if (partition.isPrimary() && PartitionRole.PRIMARY == role && epoch > partition.epoch)
        {
            isSuperseded = true; // nothing more is completed here: see yieldToPeer
            supersededPartition = id;
        }
        // a heartbeat the peer sent before it read CatchUpComplete still says CATCHING_UP: it is a backup now
        partition.peerRole = catchUp.isCompleteSent() && PartitionRole.CATCHING_UP == role &&
            partition.isPrimary() ? PartitionRole.BACKUP : role;
        partition.peerReportedRole = role;
        partition.peerEpoch = epoch;
        partition.peerLast = last;
        partition.peerDrained = drained;
        partition.peerAcked = acked;
        if (!partition.isBackup() && PartitionRole.PRIMARY != role &&
            partition.peerDrained > partition.drained && partition.peerDrained <= partition.last)
        {
            // the peer (starting, or catching up) drained further in its previous life than this server knew:
            // drained orders are acknowledged ones, which both stores share, so its position holds here too
            partition.drained = partition.peerDrained;
            partition.written = Math.max(partition.written, partition.drained);
            actions.drained(partition.id, partition.drained);
        }
        if (partition.isBackup())
        {
            if (partition.peerDrained > partition.drained)
            {
                partition.drained = partition.peerDrained;
                partition.written = partition.drained;
                actions.drained(partition.id, partition.drained);
            }
            if (PartitionRole.BACKUP == partition.peerRole && partition.peerEpoch > partition.epoch &&
                partition.last == partition.peerLast)
            {
                takeHandedOver(partition);
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

    /**
     * What a serving server does with a catch-up request of its peer.
     */
    enum CatchUpAnswer
    {
        /** An attempt already taken (a retry that crossed the transfer on the wire): nothing changes. */
        STALE,
        /** The peer catches up: it is no synchronous backup until the transfer ends; send from its positions. */
        TRANSFER,
        /**
         * The transfer's end was sent, yet the peer asks again (it may not have had it): send what it lacks from its
         * positions and the end again, the peer staying a synchronous backup (it stores in order and acks only
         * what it holds).
         */
        RESEND
    }

    /**
     * The peer asks to catch up (it discarded its store, or asks again from where it stands); see
     * {@link CatchUpTracker} for which attempts are stale. Counts the peer as alive again should an operator have
     * declared it dead.
     *
     * @param peerStartEpochMs the asking peer's start.
     * @param requestId        its attempt (0 from a peer that does not number them: taken as a new transfer).
     * @return what to do.
     */
    CatchUpAnswer onCatchUpRequest(final long peerStartEpochMs, final long requestId)
    {
        if (catchUp.isStaleRequest(peerStartEpochMs, requestId))
        {
            return CatchUpAnswer.STALE;
        }
        if (isPeerDeclaredDead)
        {
            LOG.warn("order server {}: server {}, declared dead by an operator, discarded its store and " +
                "catches up: it counts as alive again", serverId, peerId);
            isPeerDeclaredDead = false;
            isPeerDead = false;
        }
        return catchUp.takeRequest(peerStartEpochMs, requestId);
    }

    /**
     * Where the peer's catch-up of a partition resumes (after {@link #onCatchUpRequest} said TRANSFER or RESEND).
     *
     * @param id           the partition.
     * @param fromSequence the first sequence the peer lacks (1: everything).
     * @param answer       what {@link #onCatchUpRequest} said.
     */
    void catchUpFrom(final int id, final long fromSequence, final CatchUpAnswer answer)
    {
        catchUp.transferFrom(id, fromSequence, answer);
    }

    /**
     * @return true once the transfer of the latest catch-up request must end with a CatchUpComplete.
     */
    boolean isCatchUpCompleteDue()
    {
        return catchUp.isCompleteDue();
    }

    /**
     * @return the peer's attempt the next CatchUpComplete answers.
     */
    long catchUpRequestId()
    {
        return catchUp.peerRequestId();
    }

    /**
     * The state transfer to the peer is sent to its end: the peer is a synchronous backup from the next order on.
     */
    void onCatchUpSent()
    {
        catchUp.onSent();
    }

    /**
     * One partition of the peer's CatchUpComplete: this server must hold what the peer holds. When it does not, the
     * answer to an older attempt is ignored (the newer one's follows); else the catch-up is asked again, from where
     * this server stands, or from scratch should it hold more than the peer.
     *
     * @param requestId the attempt the message answers ({@link Long#MAX_VALUE}: the peer did not say).
     * @return false when it does not hold what the peer holds (the rest of the message is moot).
     */
    boolean onPartitionCaughtUp(
        final long nowNs,
        final long requestId,
        final int id,
        final long lastSequence,
        final int epoch,
        final long drainedSequence)
    {
        switch (catchUp.onPartitionCaughtUp(requestId, id, lastSequence, epoch, drainedSequence))
        {
            case HOLDS:
                return true;
            case LACKS:
                requestCatchUp(nowNs, false);
                return false;
            case HOLDS_MORE:
                requestCatchUp(nowNs, true);
                return false;
            default:
                return false; // the answer to an older attempt: the newer one's follows
        }
    }

    /**
     * Every partition of the peer's CatchUpComplete matched: this server is backup of every partition.
     */
    void onCaughtUp(final long nowNs)
    {
        catchUp.onCaughtUp(nowNs);
        state = ServerState.SERVING;
        isMapDue = true;
        nextHeartbeatNs = 0;
    }

    // ---------------------------------------------------------------- what the other parts read

    ServerState state()
    {
        return state;
    }

    boolean isLinkUp()
    {
        return isLinkUp;
    }

    boolean isPeerCatchingUp()
    {
        return catchUp.isPeerCatchingUp();
    }

    /**
     * @return true while the peer took this server's partitions over: what is held here is never acknowledged.
     */
    boolean isSuperseded()
    {
        return isSuperseded;
    }

    /**
     * Whether completions of a partition wait for the backup: while the peer is a backup, or alive but out of
     * reach (held). A dead peer or one still catching up does not count as a synchronous backup.
     */
    boolean isSynchronous(final Partition partition)
    {
        return PartitionRole.BACKUP == partition.peerRole && !isPeerDead;
    }

    /**
     * @return true when the peer can be replicated to: the link is up and it is a backup or catching up.
     */
    boolean hasBackupTarget(final Partition partition)
    {
        return isLinkUp && (PartitionRole.BACKUP == partition.peerRole || catchUp.isPeerCatchingUp());
    }

    // ---------------------------------------------------------------- operators (any thread)

    void stepDown(final boolean isSteppingDown)
    {
        this.isSteppingDown = isSteppingDown;
    }

    boolean isSteppingDown()
    {
        return isSteppingDown;
    }

    /**
     * Ask for the peer's partitions to be taken over (an operator's decision); done by the next {@link #decide}.
     */
    void requestTakeOver(final String reason)
    {
        takeOverRequest.set(reason);
    }

    /**
     * @return how many operator takeovers were decided (done or refused), for a caller waiting on one.
     */
    long takeOversDone()
    {
        return takeOversDone.get();
    }

    String takeOverResult()
    {
        return takeOverResult;
    }

    PeerFence.State lastFenceState()
    {
        return lastFenceState;
    }

    boolean isPeerDeclaredDead()
    {
        return isPeerDeclaredDead;
    }
}
