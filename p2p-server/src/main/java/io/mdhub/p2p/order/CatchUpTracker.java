package io.mdhub.p2p.order;

import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.PartitionRole;

/**
 * The catch-up of one server of the pair, at both ends, as pure logic on the order agent's thread.
 * <p>
 * <b>Catching up</b> (this server discarded its store, or lacks orders): each request to the peer is a numbered
 * attempt; when nothing arrived within {@link #RETRY_NS} it asks again from where each partition stands, while orders
 * still arriving count as progress (asking again would make the peer start over). The peer's CatchUpComplete is
 * checked partition by partition; when every one matches this server is backup of every partition.
 * <p>
 * <b>Serving a catch-up</b> (the peer takes everything from this server): an attempt of the same peer start no newer
 * than one taken, or arriving after the peer's heartbeats said it had caught up, is stale; a newer one resumes the
 * transfer from the peer's positions; one after the transfer's end was sent keeps the peer a synchronous backup.
 * <p>
 * Which {@link ServerState} the server is in stays {@link RoleArbiter}'s: it calls in here on its transitions and
 * acts on what the checks return.
 */
final class CatchUpTracker
{
    /** Logged as the role decisions are: one logger for everything the pair's roles do. */
    private static final Logger LOG = LoggerFactory.getLogger(RoleArbiter.class);

    /** How long a catch-up that receives nothing waits before it asks again. */
    static final long RETRY_NS = 1_000_000_000L;

    /**
     * What one partition of the peer's CatchUpComplete says of this server's store.
     */
    enum PartitionCheck
    {
        /** This server holds what the peer holds (or the partition is not one of this server's): go on. */
        HOLDS,
        /** It does not, but the message answers an older attempt: wait for the newer attempt's answer. */
        OLDER_ATTEMPT,
        /** It lacks orders: ask again from where each partition stands. */
        LACKS,
        /** It holds more than the peer: ask again from scratch (the store discarded). */
        HOLDS_MORE
    }

    private final int serverId;
    private final int peerId;
    private final Partition[] partitions;
    private final RoleActions actions;
    private final OrderCounters counters;

    private boolean isComplete;
    private long requestedNs;
    /** Orders this server held when the catch-up was last seen to move (asked, or orders arrived since). */
    private long held;
    /** The attempt last asked for (retries count on; the peer ignores an attempt it has taken). */
    private long attempt;
    private long startedNs;

    /** Serving a catch-up: the start of the peer it is for, and the latest attempt of that peer taken. */
    private long peerStartMs;
    private long peerRequestId;
    private boolean isPeerCatchingUp;
    /** Serving a catch-up: its CatchUpComplete (again) once everything is sent. */
    private boolean isCompleteDue;
    private boolean isCompleteSent;

    /**
     * @param serverId   this server, for the log.
     * @param partitions the shared partitions.
     * @param actions    the store (discarded before a full transfer), the queue's standing, the request to the peer.
     * @param counters   the service's counters (stale requests).
     */
    CatchUpTracker(
        final int serverId,
        final Partition[] partitions,
        final RoleActions actions,
        final OrderCounters counters)
    {
        this.serverId = serverId;
        this.peerId = 1 - serverId;
        this.partitions = partitions;
        this.actions = actions;
        this.counters = counters;
    }

    // ---------------------------------------------------------------- catching up

    /**
     * Begin a catch-up from scratch: discard the store and reset every partition; {@link #ask} then asks the peer.
     *
     * @param nowNs the duty cycle's clock.
     */
    void startOver(final long nowNs)
    {
        final Path aside = actions.discardStore();
        for (final Partition partition : partitions)
        {
            partition.reset();
        }
        isComplete = false;
        startedNs = nowNs;
        LOG.info("order server {}: taking every order from server {} (old queue moved to {})", serverId, peerId,
            aside);
    }

    /**
     * Ask the peer, as a new attempt, for what this server lacks from where each partition stands.
     *
     * @param nowNs the duty cycle's clock.
     */
    void ask(final long nowNs)
    {
        requestedNs = nowNs;
        held = heldOrders();
        attempt++;
        actions.requestCatchUp(attempt);
    }

    /**
     * While the link is up: once the retry interval has passed since the catch-up last moved, note the progress if
     * orders arrived since, else ask again (the request or its answer was lost).
     *
     * @param nowNs the duty cycle's clock.
     */
    void retryIfStalled(final long nowNs)
    {
        if (!isComplete && nowNs - requestedNs > RETRY_NS)
        {
            final long heldNow = heldOrders();
            if (heldNow != held)
            {
                // orders keep arriving: the transfer is under way. Asking again would make the peer start over
                // from its first order, and a store that takes longer than the retry interval to send would never
                // be caught up while orders keep coming.
                LOG.info("order server {}: catching up from server {}: {} orders held, {} more in the last {} ms",
                    serverId, peerId, heldNow, heldNow - held, (nowNs - requestedNs) / 1_000_000);
                held = heldNow;
                requestedNs = nowNs;
            }
            else
            {
                // nothing came for a while: the request or its answer was lost; ask again from where each
                // partition stands (what arrived stays, and the peer resumes rather than starts over)
                LOG.info("order server {}: catching up from server {}: nothing arrived in {} ms; asking again " +
                    "from {} orders held (attempt {})", serverId, peerId, (nowNs - requestedNs) / 1_000_000,
                    heldNow, attempt + 1);
                ask(nowNs);
            }
        }
    }

    /**
     * @return true once this server is caught up (until it starts over).
     */
    boolean isComplete()
    {
        return isComplete;
    }

    /**
     * @return the first moment {@link #retryIfStalled} may act, if the catch-up is not complete.
     */
    long nextRetryNs()
    {
        return requestedNs + RETRY_NS + 1;
    }

    /**
     * One partition of the peer's CatchUpComplete: this server must hold what the peer holds; when it does, the
     * partition takes the peer's epoch and drained position.
     *
     * @param requestId       the attempt the message answers ({@link Long#MAX_VALUE}: the peer did not say).
     * @param id              the partition.
     * @param lastSequence    the last sequence the peer holds.
     * @param epoch           the peer's epoch of it.
     * @param drainedSequence the peer's drained position.
     * @return what the caller does next.
     */
    PartitionCheck onPartitionCaughtUp(
        final long requestId,
        final int id,
        final long lastSequence,
        final int epoch,
        final long drainedSequence)
    {
        if (id < 0 || id >= partitions.length)
        {
            return PartitionCheck.HOLDS;
        }
        final Partition partition = partitions[id];
        if (partition.last != lastSequence)
        {
            if (requestId < attempt)
            {
                LOG.info("order server {}: catch-up end of attempt {} (partition {} at {}, here {}) is older than " +
                    "attempt {}: waiting for that one", serverId, requestId, id, lastSequence, partition.last,
                    attempt);
                return PartitionCheck.OLDER_ATTEMPT;
            }
            final boolean isAhead = partition.last > lastSequence;
            LOG.warn("order server {}: catch-up of partition {} ended at {} but the peer holds {}; asking again {}",
                serverId, id, partition.last, lastSequence, isAhead ? "from scratch" : "from here");
            return isAhead ? PartitionCheck.HOLDS_MORE : PartitionCheck.LACKS;
        }
        partition.epoch = Math.max(partition.epoch, epoch);
        partition.drained = drainedSequence;
        partition.written = partition.drained;
        actions.drained(partition.id, partition.drained);
        return PartitionCheck.HOLDS;
    }

    /**
     * Every partition of the peer's CatchUpComplete matched: the store is paired again and this server is backup of
     * every partition.
     *
     * @param nowNs the duty cycle's clock.
     */
    void onCaughtUp(final long nowNs)
    {
        actions.standing(OrderQueue.Standing.PAIRED, "caught up from server " + peerId);
        for (final Partition partition : partitions)
        {
            partition.role = PartitionRole.BACKUP;
        }
        isComplete = true;
        LOG.info("order server {}: caught up; backup of every partition ({} orders held, {} ms after the catch-up " +
            "began, {} attempt(s))", serverId, heldOrders(), (nowNs - startedNs) / 1_000_000, attempt);
    }

    private long heldOrders()
    {
        long total = 0;
        for (final Partition partition : partitions)
        {
            total += partition.last;
        }
        return total;
    }

    // ---------------------------------------------------------------- serving the peer's catch-up

    /**
     * A catch-up request of the peer is stale (counted and logged) when it is an attempt of the same peer start no
     * newer than one taken, or arrives after the peer's heartbeats said it had caught up.
     *
     * @param peerStartEpochMs the asking peer's start.
     * @param requestId        its attempt (0 from a peer that does not number them: never stale).
     * @return true if the request is to be ignored.
     */
    boolean isStaleRequest(final long peerStartEpochMs, final long requestId)
    {
        if (peerStartEpochMs == peerStartMs && requestId > 0 && (requestId <= peerRequestId || isPeerCaughtUp()))
        {
            counters.staleCatchUpRequests.increment();
            LOG.info("order server {}: server {} asks to catch up with attempt {}, stale (latest taken {}, caught up " +
                "since: {}): ignored", serverId, peerId, requestId, peerRequestId, isPeerCaughtUp());
            return true;
        }
        return false;
    }

    /**
     * Take a request that is not stale: a CatchUpComplete becomes due; after one was sent to the same peer start the
     * peer stays a synchronous backup (RESEND), else every partition of the peer counts as catching up (TRANSFER).
     *
     * @param peerStartEpochMs the asking peer's start.
     * @param requestId        its attempt (0 from a peer that does not number them: taken as a new transfer).
     * @return TRANSFER or RESEND.
     */
    RoleArbiter.CatchUpAnswer takeRequest(final long peerStartEpochMs, final long requestId)
    {
        final boolean isSamePeer = peerStartEpochMs == peerStartMs;
        peerStartMs = peerStartEpochMs;
        peerRequestId = requestId;
        isCompleteDue = true;
        if (isSamePeer && requestId > 0 && isCompleteSent)
        {
            LOG.info("order server {}: server {} asks to catch up again (attempt {}) after the transfer's end was " +
                "sent: sending what it lacks and the end again; it stays a synchronous backup", serverId, peerId,
                requestId);
            return RoleArbiter.CatchUpAnswer.RESEND;
        }
        LOG.info("order server {}: server {} asks to catch up (attempt {}): sending {} partitions from where it " +
            "stands", serverId, peerId, requestId, partitions.length);
        isCompleteSent = false;
        isPeerCatchingUp = true;
        for (final Partition partition : partitions)
        {
            partition.peerRole = PartitionRole.CATCHING_UP;
        }
        return RoleArbiter.CatchUpAnswer.TRANSFER;
    }

    /**
     * @return true once the peer's heartbeats say it is caught up (backup or primary of every partition) after its
     * catch-up's end was sent: a request it sent before is stale.
     */
    private boolean isPeerCaughtUp()
    {
        if (!isCompleteSent)
        {
            return false;
        }
        for (final Partition partition : partitions)
        {
            final PartitionRole role = partition.peerReportedRole;
            if (PartitionRole.BACKUP != role && PartitionRole.PRIMARY != role)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Where the peer's catch-up of a partition resumes (after {@link #takeRequest} said TRANSFER or RESEND).
     *
     * @param id           the partition.
     * @param fromSequence the first sequence the peer lacks (1: everything).
     * @param answer       what {@link #takeRequest} said.
     */
    void transferFrom(final int id, final long fromSequence, final RoleArbiter.CatchUpAnswer answer)
    {
        if (id < 0 || id >= partitions.length || !partitions[id].isPrimary())
        {
            return;
        }
        final Partition partition = partitions[id];
        final long peerHeld = Math.max(0, Math.min(fromSequence - 1, partition.last)); // what the peer holds already
        partition.sent = peerHeld;
        partition.catchUpEnd = partition.last; // sent flagged as catch-up: not answered again by the peer
        if (RoleArbiter.CatchUpAnswer.TRANSFER == answer)
        {
            partition.backupAcked = peerHeld;
        }
    }

    /**
     * @return true once the transfer of the latest catch-up request must end with a CatchUpComplete.
     */
    boolean isCompleteDue()
    {
        return isCompleteDue;
    }

    /**
     * @return the peer's attempt the next CatchUpComplete answers.
     */
    long peerRequestId()
    {
        return peerRequestId;
    }

    /**
     * @return true while the peer takes a transfer from this server (it is no synchronous backup until it ends).
     */
    boolean isPeerCatchingUp()
    {
        return isPeerCatchingUp;
    }

    /**
     * @return true once the transfer's end was sent to the peer's current start: a heartbeat of it that still says
     * CATCHING_UP was sent before it read that end.
     */
    boolean isCompleteSent()
    {
        return isCompleteSent;
    }

    /**
     * The state transfer to the peer is sent to its end: the peer is a synchronous backup from the next order on.
     */
    void onSent()
    {
        isPeerCatchingUp = false;
        isCompleteDue = false;
        isCompleteSent = true;
        for (final Partition partition : partitions)
        {
            if (partition.isPrimary())
            {
                partition.peerRole = PartitionRole.BACKUP; // synchronous from the next order on
            }
        }
        LOG.info("order server {}: catch-up of server {} sent (attempt {})", serverId, peerId, peerRequestId);
    }

    /**
     * The peer restarted: the end of a transfer sent to its previous start no longer counts.
     */
    void onPeerRestarted()
    {
        isCompleteSent = false;
    }

    /**
     * This server took the peer's partitions over: a transfer under way to it is abandoned.
     */
    void onPeerTakenOver()
    {
        isPeerCatchingUp = false;
        isCompleteDue = false;
    }
}
