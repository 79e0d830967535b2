package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.test.InterruptAfter;

/**
 * The role decisions of one server of the pair without sockets, store or threads: a fake clock, a fake fence, the
 * peer's heartbeats as the agent hands them over, and the actions recorded.
 */
@InterruptAfter(10)
class RoleArbiterTest
{
    private static final int PARTITIONS = 4;
    private static final long HEARTBEAT_INTERVAL_NS = 50_000_000L;
    private static final long PEER_TIMEOUT_NS = 500_000_000L;
    private static final long STARTUP_PEER_WAIT_NS = 2_000_000_000L;
    private static final long CATCH_UP_RETRY_NS = 1_000_000_000L;
    private static final long PEER_START_EPOCH_MS = 1_700_000_000_000L;

    private final CountersManager countersManager = new CountersManager(
        new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
    private final OrderCounters counters = new OrderCounters(countersManager, 0);
    private final FakeFence fence = new FakeFence();
    private final RecordingActions actions = new RecordingActions();
    private final Partition[] partitions = new Partition[PARTITIONS];
    private long nowNs = 1_000_000_000L;
    private RoleArbiter arbiter;

    @AfterEach
    void after()
    {
        counters.close();
    }

    @Test
    void startsServingEverythingWhenThePeerIsHeardAndThisServerHoldsTheMost()
    {
        start(0);
        for (final Partition partition : partitions)
        {
            partition.epoch = 1;
            partition.last = 5;
            partition.acked = 5;
        }
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.NONE, 1, 3);

        assertEquals(1, arbiter.decide(nowNs));

        assertEquals(ServerState.SERVING, arbiter.state());
        assertTrue(arbiter.isLinkUp());
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.PRIMARY, partition.role);
            assertEquals(2, partition.epoch, "a new epoch for every partition");
            assertEquals(5, partition.sent, "what the peer may lack is not sent as new");
        }
        assertEquals(OrderQueue.Standing.SOLE, actions.standing);
        assertEquals(0, actions.discards);
        assertTrue(arbiter.takeMapDue());
        assertFalse(arbiter.takeMapDue(), "the map goes once");
    }

    @Test
    void aTieGoesToServerZeroAndServerOneCatchesUp()
    {
        start(1);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.NONE, 0, 0);

        assertEquals(1, arbiter.decide(nowNs));

        assertEquals(ServerState.CATCHING_UP, arbiter.state());
        assertEquals(1, actions.discards);
        assertEquals(1, actions.catchUpRequests);
    }

    @Test
    void catchesUpFromAServingPeerAsksAgainWhenNoAnswerComesAndIsBackupOnceComplete()
    {
        start(0);
        for (final Partition partition : partitions)
        {
            partition.epoch = 5;
            partition.last = 9;
        }
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 1, 3);

        assertEquals(1, arbiter.decide(nowNs), "a serving peer wins over a store that looks ahead");
        assertEquals(ServerState.CATCHING_UP, arbiter.state());
        assertEquals(1, actions.discards);
        assertEquals(1, actions.catchUpRequests);
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.CATCHING_UP, partition.role);
            assertEquals(0, partition.last, "the store is discarded");
        }

        advance(CATCH_UP_RETRY_NS / 2);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 1, 3);
        arbiter.decide(nowNs);
        assertEquals(1, actions.catchUpRequests, "the answer may still come");
        advance(CATCH_UP_RETRY_NS / 2 + 1);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 1, 3);
        arbiter.decide(nowNs);
        assertEquals(2, actions.catchUpRequests, "asked again");
        assertEquals(2, actions.lastRequestId, "as a new attempt");
        assertEquals(1, actions.discards, "already empty: nothing more to discard");

        for (final Partition partition : partitions)
        {
            partition.last = 3; // what the state transfer stored
            assertTrue(arbiter.onPartitionCaughtUp(nowNs, 2, partition.id, 3, 1, 2));
        }
        arbiter.onCaughtUp(nowNs);

        assertEquals(ServerState.SERVING, arbiter.state());
        assertEquals(OrderQueue.Standing.PAIRED, actions.standing);
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.BACKUP, partition.role);
            assertEquals(2, partition.drained);
            assertEquals(2L, actions.drained.get(partition.id));
        }
        assertTrue(arbiter.isHeartbeatDue(nowNs), "the peer hears at once");
        assertFalse(arbiter.isHeartbeatDue(nowNs + 1));
    }

    @Test
    void aCatchUpThatKeepsBringingOrdersIsNotAskedForAgainHoweverLongItTakes()
    {
        start(1);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 1, 0);
        arbiter.decide(nowNs);
        assertEquals(1, actions.catchUpRequests);
        for (int second = 1; second <= 5; second++)
        {
            partitions[0].last += 1_000; // a thousand orders stored in the last second
            advance(CATCH_UP_RETRY_NS + 1);
            heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 1, 0);
            arbiter.decide(nowNs);
            assertEquals(1, actions.catchUpRequests, "under way after " + second + " s: not started over");
        }
        advance(CATCH_UP_RETRY_NS + 1);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 1, 0);
        arbiter.decide(nowNs);
        assertEquals(2, actions.catchUpRequests, "a second with nothing new: asked again");
    }

    @Test
    void catchUpThatEndsShortOfThePeerIsAskedAgainFromWhereItStandsAndOneAheadFromScratch()
    {
        start(1);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 1, 0);
        arbiter.decide(nowNs);
        assertEquals(1, actions.catchUpRequests);

        assertTrue(arbiter.onPartitionCaughtUp(nowNs, 1, PARTITIONS, 4, 1, 0), "an unknown partition is skipped");
        assertFalse(arbiter.onPartitionCaughtUp(nowNs, 1, 0, 4, 1, 0), "the peer holds 4, this server none");

        assertEquals(ServerState.CATCHING_UP, arbiter.state());
        assertEquals(2, actions.catchUpRequests);
        assertEquals(1, actions.discards, "what arrived stays: asked from here");

        assertFalse(arbiter.onPartitionCaughtUp(nowNs, 1, 0, 4, 1, 0), "the end of attempt 1 is stale now");
        assertEquals(2, actions.catchUpRequests, "attempt 2's end is awaited, not asked for again");

        partitions[0].last = 6;
        assertFalse(arbiter.onPartitionCaughtUp(nowNs, 2, 0, 4, 1, 0), "this server holds more than the peer");
        assertEquals(3, actions.catchUpRequests);
        assertEquals(2, actions.discards, "a store ahead of the peer is not its prefix: discarded");
        assertEquals(0, partitions[0].last);
    }

    @Test
    void servingPeerResumesFromTheRejoinersPositionsIgnoresStaleAttemptsAndStaysSynchronousAfterTheEnd()
    {
        serveAloneAfterThePeerDied(7);
        final long restartedEpochMs = PEER_START_EPOCH_MS + 60_000;
        heartbeat(restartedEpochMs, PartitionRole.CATCHING_UP, 0, 0);
        arbiter.decide(nowNs);

        assertEquals(RoleArbiter.CatchUpAnswer.TRANSFER, arbiter.onCatchUpRequest(restartedEpochMs, 1));
        for (final Partition partition : partitions)
        {
            arbiter.catchUpFrom(partition.id, 1, RoleArbiter.CatchUpAnswer.TRANSFER);
            assertEquals(0, partition.sent, "everything");
            partition.sent = 5; // sent meanwhile
        }
        assertFalse(arbiter.isSynchronous(partitions[0]), "a catching-up peer is no synchronous backup");

        assertEquals(RoleArbiter.CatchUpAnswer.TRANSFER, arbiter.onCatchUpRequest(restartedEpochMs, 2),
            "a retry during the transfer");
        arbiter.catchUpFrom(0, 4, RoleArbiter.CatchUpAnswer.TRANSFER);
        assertEquals(3, partitions[0].sent, "resumed after the peer's last order, not from the first");
        assertEquals(3, partitions[0].backupAcked);
        partitions[0].sent = 7;

        assertEquals(RoleArbiter.CatchUpAnswer.STALE, arbiter.onCatchUpRequest(restartedEpochMs, 2));
        assertEquals(RoleArbiter.CatchUpAnswer.STALE, arbiter.onCatchUpRequest(restartedEpochMs, 1));
        assertEquals(2, counters.staleCatchUpRequests.get());
        assertEquals(7, partitions[0].sent, "a stale attempt changes nothing");

        assertTrue(arbiter.isCatchUpCompleteDue());
        assertEquals(2, arbiter.catchUpRequestId(), "the end answers the latest attempt");
        arbiter.onCatchUpSent();
        assertFalse(arbiter.isCatchUpCompleteDue());
        assertTrue(arbiter.isSynchronous(partitions[0]));
        actions.standing = OrderQueue.Standing.PAIRED;

        // a retry the peer sent before the end reached it
        assertEquals(RoleArbiter.CatchUpAnswer.RESEND, arbiter.onCatchUpRequest(restartedEpochMs, 3));
        arbiter.catchUpFrom(0, 6, RoleArbiter.CatchUpAnswer.RESEND);
        assertEquals(5, partitions[0].sent, "what the peer lacked when it asked goes again");
        assertEquals(7, partitions[0].catchUpEnd, "flagged as catch-up: not answered twice");
        assertFalse(arbiter.isPeerCatchingUp());
        assertTrue(arbiter.isSynchronous(partitions[0]), "the peer stays a synchronous backup");
        assertTrue(arbiter.isCatchUpCompleteDue(), "and hears the end again");
        assertEquals(OrderQueue.Standing.PAIRED, actions.standing, "nothing is acknowledged alone");

        assertEquals(RoleArbiter.CatchUpAnswer.TRANSFER, arbiter.onCatchUpRequest(restartedEpochMs + 1, 1),
            "attempt 1 of a new start of the peer");
        assertFalse(arbiter.isSynchronous(partitions[0]));
    }

    /**
     * Server 0, which served with its peer, alone now and primary of every partition holding {@code last} orders.
     */
    private void serveAloneAfterThePeerDied(final long last)
    {
        serveAsBackupOf(last, 0);
        fence.state = PeerFence.State.DOWN;
        advance(PEER_TIMEOUT_NS);
        arbiter.decide(nowNs);
        fence.state = PeerFence.State.UP;
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.PRIMARY, partition.role);
        }
    }

    @Test
    void takesOverTheBackupPartitionsOfADeadPeerAtAHigherEpochOnceTheLinkIsSilent()
    {
        serveAsBackupOf(7, 3);
        fence.state = PeerFence.State.DOWN;
        fence.reason = "connection refused";

        assertEquals(0, arbiter.decide(nowNs), "the peer still talks: a DOWN from before it started is stale");
        assertEquals(PartitionRole.BACKUP, partitions[0].role);

        advance(PEER_TIMEOUT_NS);
        assertEquals(PARTITIONS, arbiter.decide(nowNs));

        assertFalse(arbiter.isLinkUp());
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.PRIMARY, partition.role);
            assertEquals(PartitionRole.NONE, partition.peerRole);
            assertEquals(4, partition.epoch, "above the peer's");
            assertEquals(7, partition.acked, "all stored here counts as complete");
            assertEquals(7, partition.sent);
            assertEquals(3, partition.drained, "where the dead primary's sink got to");
            assertEquals(1, partition.failovers);
            assertFalse(arbiter.isSynchronous(partition), "no backup to wait for");
        }
        assertEquals(PARTITIONS, counters.failovers.get());
        assertEquals(PARTITIONS, actions.postProcessedTakenOver.size());
        assertEquals(OrderQueue.Standing.SOLE, actions.standing);
        assertTrue(arbiter.takeMapDue());

        assertEquals(0, arbiter.decide(nowNs + 1), "nothing more to take");
    }

    @Test
    void takesOverAtOnceWhenThePeerRefusesAConnectAfterItLastSpoke()
    {
        serveAsBackupOf(7, 3);
        advance(1_000_000L);
        fence.state = PeerFence.State.DOWN; // killed: its fence port refuses a millisecond after its last heartbeat
        fence.downSinceNs = nowNs;
        assertEquals(PARTITIONS, arbiter.decide(nowNs), "no need to wait for the link's silence to time out");
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.PRIMARY, partition.role);
        }
    }

    /**
     * The agent sleeps until the arbiter's next decision: the moment a silent peer's link is lost and, with the
     * fence DOWN, its partitions are taken — never a moment already past, which would keep the agent awake.
     */
    @Test
    void nextDecisionIsWhenThePeersSilenceReachesTheTimeout()
    {
        serveAsBackupOf(7, 3);
        final long heardNs = nowNs;
        assertEquals(heardNs + PEER_TIMEOUT_NS, arbiter.nextDecisionNs(nowNs));
        fence.state = PeerFence.State.DOWN;
        advance(PEER_TIMEOUT_NS - 1);
        assertEquals(0, arbiter.decide(nowNs), "not silent long enough");
        assertEquals(heardNs + PEER_TIMEOUT_NS, arbiter.nextDecisionNs(nowNs));
        advance(1);
        assertEquals(Long.MAX_VALUE, arbiter.nextDecisionNs(nowNs), "due now: decide runs in this cycle");
        assertEquals(PARTITIONS, arbiter.decide(nowNs), "taken over at the moment it said");
    }

    @Test
    void nextDecisionEndsTheStartUpWaitAndRepeatsAnUnansweredCatchUp()
    {
        start(0);
        assertEquals(nowNs + STARTUP_PEER_WAIT_NS, arbiter.nextDecisionNs(nowNs), "alone: the wait's end");

        start(1);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 3, 7);
        arbiter.decide(nowNs); // the peer serves: catch up from it
        assertEquals(ServerState.CATCHING_UP, arbiter.state());
        assertEquals(nowNs + PEER_TIMEOUT_NS, arbiter.nextDecisionNs(nowNs), "first: the peer's silence");
        assertEquals(nowNs + CATCH_UP_RETRY_NS + 1, arbiter.nextDecisionNs(nowNs + PEER_TIMEOUT_NS),
            "then: the catch-up asked again, no answer having come");
    }

    @Test
    void holdsWhenTheFenceCannotTellAndTheLinkIsDown()
    {
        serveAsBackupOf(7, 3);
        fence.state = PeerFence.State.UNKNOWN;
        fence.isUnreachable = true;
        fence.reason = "connect timed out";

        advance(10 * PEER_TIMEOUT_NS);
        assertEquals(0, arbiter.decide(nowNs));

        assertFalse(arbiter.isLinkUp());
        assertEquals(PeerFence.State.UNKNOWN, arbiter.lastFenceState());
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.BACKUP, partition.role, "the peer may be alive: nothing is taken over");
            assertEquals(3, partition.epoch);
        }
        assertEquals(0, counters.failovers.get());
        assertTrue(actions.postProcessedTakenOver.isEmpty());
    }

    @Test
    void holdsCompletionsOfAPrimaryWhoseBackupIsOutOfReach()
    {
        start(0);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.NONE, 0, 0);
        arbiter.decide(nowNs);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.BACKUP, 1, 0);
        arbiter.decide(nowNs);
        assertTrue(arbiter.hasBackupTarget(partitions[0]));

        fence.state = PeerFence.State.UNKNOWN;
        fence.isUnreachable = true;
        advance(PEER_TIMEOUT_NS);
        arbiter.decide(nowNs);

        assertFalse(arbiter.hasBackupTarget(partitions[0]), "nothing to send to");
        assertTrue(arbiter.isSynchronous(partitions[0]), "completions wait for the backup");
    }

    @Test
    void handsHomePartitionsBackWhenTheLinkIsBackAndThePeerIsABackupWithEverything()
    {
        serveAsBackupOf(7, 3);
        fence.state = PeerFence.State.DOWN;
        advance(PEER_TIMEOUT_NS);
        arbiter.decide(nowNs);
        assertEquals(PartitionRole.PRIMARY, partitions[0].role);

        // the peer restarts empty and asks for everything
        fence.state = PeerFence.State.UP;
        final long restartedEpochMs = PEER_START_EPOCH_MS + 60_000;
        heartbeat(restartedEpochMs, PartitionRole.CATCHING_UP, 0, 0);
        assertEquals(0, arbiter.decide(nowNs), "a catching-up peer gets nothing handed");
        assertTrue(arbiter.isLinkUp());
        assertEquals(RoleArbiter.CatchUpAnswer.TRANSFER, arbiter.onCatchUpRequest(restartedEpochMs, 1));
        assertTrue(arbiter.isPeerCatchingUp());
        assertTrue(arbiter.hasBackupTarget(partitions[0]));
        assertFalse(arbiter.isSynchronous(partitions[0]), "a catching-up peer is no synchronous backup");
        for (final Partition partition : partitions)
        {
            partition.sent = partition.last; // what the primary's replication does, and the backup's acks
            partition.backupAcked = partition.last;
        }
        arbiter.onCatchUpSent();
        assertFalse(arbiter.isPeerCatchingUp());
        assertTrue(arbiter.isSynchronous(partitions[0]));

        // its first heartbeat may still say CATCHING_UP: a synchronous backup now, but nothing is handed to it
        // until it says it is one (the end of the transfer may have been lost on the way)
        advance(HEARTBEAT_INTERVAL_NS);
        heartbeat(restartedEpochMs, PartitionRole.CATCHING_UP, 4, 7);
        assertEquals(PartitionRole.BACKUP, partitions[0].peerRole);
        assertTrue(arbiter.isSynchronous(partitions[0]));
        assertEquals(0, arbiter.decide(nowNs), "not handed to a peer that has not said it caught up");
        advance(HEARTBEAT_INTERVAL_NS);
        heartbeat(restartedEpochMs, PartitionRole.BACKUP, 4, 7);
        assertEquals(2, arbiter.decide(nowNs), "the two partitions whose home is the peer");

        for (final Partition partition : partitions)
        {
            final boolean isPeerHome = 0 == partition.homeServerId;
            assertEquals(isPeerHome ? PartitionRole.BACKUP : PartitionRole.PRIMARY, partition.role);
            assertEquals(isPeerHome ? 5 : 4, partition.epoch);
            assertFalse(partition.isHandingOver);
        }
        assertTrue(arbiter.isHeartbeatDue(nowNs), "the peer hears at once and takes them");
    }

    @Test
    void handsNothingBackUntilThePeerHoldsEveryOrder()
    {
        start(0);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.NONE, 0, 0);
        arbiter.decide(nowNs);
        for (final Partition partition : partitions)
        {
            partition.last = 4;
            partition.acked = 4;
            partition.sent = 4;
            partition.backupAcked = 3;
        }
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.BACKUP, 1, 3);

        assertEquals(0, arbiter.decide(nowNs));

        assertEquals(PartitionRole.PRIMARY, partitions[1].role);
        assertTrue(partitions[1].isHandingOver, "new orders are refused meanwhile");
        assertFalse(partitions[0].isHandingOver, "this server's own partition stays");
    }

    @Test
    void takesAPartitionThePeerHandedOver()
    {
        serveAsBackupOf(7, 3);
        arbiter.isHeartbeatDue(nowNs);

        arbiter.onPeerHeartbeat(nowNs, PEER_START_EPOCH_MS, false);
        arbiter.onPeerPartition(1, PartitionRole.BACKUP, 4, 7, 3, 7);

        assertEquals(PartitionRole.PRIMARY, partitions[1].role);
        assertEquals(4, partitions[1].epoch);
        assertEquals(7, partitions[1].backupAcked);
        assertEquals(PartitionRole.BACKUP, partitions[0].role);
        assertTrue(arbiter.isHeartbeatDue(nowNs));
        assertTrue(arbiter.takeMapDue());
    }

    @Test
    void operatorTakeOverTakesEverythingWhateverTheFenceSaysUntilThePeerRestarts()
    {
        serveAsBackupOf(7, 3);
        fence.state = PeerFence.State.UNKNOWN;
        fence.isUnreachable = true;
        advance(PEER_TIMEOUT_NS);
        assertEquals(0, arbiter.decide(nowNs));

        arbiter.requestTakeOver("host checked: powered off");
        assertEquals(1, arbiter.decide(nowNs));

        assertEquals(1, arbiter.takeOversDone());
        assertEquals("done: primary of every partition", arbiter.takeOverResult());
        assertTrue(arbiter.isPeerDeclaredDead());
        assertEquals(1, counters.forcedTakeovers.get());
        assertEquals(OrderQueue.Standing.SOLE, actions.standing);
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.PRIMARY, partition.role);
            assertEquals(4, partition.epoch);
            assertFalse(arbiter.isSynchronous(partition));
        }

        heartbeat(PEER_START_EPOCH_MS + 60_000, PartitionRole.CATCHING_UP, 0, 0);
        assertFalse(arbiter.isPeerDeclaredDead(), "restarted: alive again");
    }

    @Test
    void operatorTakeOverAtStartServesEverythingAndIsRefusedWhileCatchingUp()
    {
        start(1);
        arbiter.requestTakeOver("peer store lost");
        assertEquals(1, arbiter.decide(nowNs));
        assertEquals(ServerState.SERVING, arbiter.state());
        assertEquals(PartitionRole.PRIMARY, partitions[3].role);

        start(1);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 1, 0);
        arbiter.decide(nowNs);
        arbiter.requestTakeOver("wrong server");
        assertEquals(1, arbiter.decide(nowNs));
        assertTrue(arbiter.takeOverResult().startsWith("refused"), arbiter.takeOverResult());
        assertEquals(ServerState.CATCHING_UP, arbiter.state());
        assertFalse(arbiter.isPeerDeclaredDead());
    }

    @Test
    void yieldsToAPeerThatIsPrimaryAtAHigherEpoch()
    {
        start(0);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.NONE, 0, 0);
        arbiter.decide(nowNs);
        assertEquals(1, partitions[2].epoch);
        assertFalse(arbiter.isSuperseded());

        arbiter.onPeerHeartbeat(nowNs, PEER_START_EPOCH_MS, false);
        arbiter.onPeerPartition(2, PartitionRole.PRIMARY, 2, 0, 0, 0);
        assertTrue(arbiter.isSuperseded(), "nothing more is completed here");

        assertEquals(1, arbiter.decide(nowNs));

        assertFalse(arbiter.isSuperseded());
        assertEquals(ServerState.CATCHING_UP, arbiter.state());
        assertEquals(1, actions.discards);
        assertEquals(1, actions.catchUpRequests);
    }

    @Test
    void servesAloneAfterTheStartUpWaitOnlyWithAStoreProvenComplete()
    {
        start(1);
        fence.state = PeerFence.State.DOWN;

        assertEquals(0, arbiter.decide(nowNs));
        advance(STARTUP_PEER_WAIT_NS);
        actions.standing = OrderQueue.Standing.PAIRED;
        assertEquals(0, arbiter.decide(nowNs), "the peer may hold orders acknowledged alone");
        assertEquals(ServerState.STARTING, arbiter.state());

        actions.standing = OrderQueue.Standing.SOLE;
        assertEquals(1, arbiter.decide(nowNs));
        assertEquals(ServerState.SERVING, arbiter.state());
        assertEquals(PartitionRole.PRIMARY, partitions[0].role);
    }

    @Test
    void heartbeatsGoOnlyOnceTheStoreIsRebuilt()
    {
        newArbiter(0);
        assertFalse(arbiter.isHeartbeatDue(nowNs));
        arbiter.start(nowNs);
        assertTrue(arbiter.isHeartbeatDue(nowNs));
        assertFalse(arbiter.isHeartbeatDue(nowNs + HEARTBEAT_INTERVAL_NS - 1));
        assertTrue(arbiter.isHeartbeatDue(nowNs + HEARTBEAT_INTERVAL_NS));
        assertEquals(nowNs + 2 * HEARTBEAT_INTERVAL_NS, arbiter.nextHeartbeatNs());
    }

    @Test
    void aSeveredLinkIsDownAndTheFencesLostConnectionsAreCounted()
    {
        start(0);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.NONE, 0, 0);
        arbiter.decide(nowNs);
        assertTrue(arbiter.isLinkUp());

        actions.isSevered = true;
        fence.connectionsLost = 3;
        arbiter.decide(nowNs);

        assertFalse(arbiter.isLinkUp());
        assertEquals(3, counters.fenceLost.get());
    }

    private void newArbiter(final int serverId)
    {
        for (int i = 0; i < PARTITIONS; i++)
        {
            partitions[i] = new Partition(i, i % 2);
        }
        final OrderService.Context ctx = new OrderService.Context()
            .serverId(serverId)
            .partitions(PARTITIONS)
            .timing(HEARTBEAT_INTERVAL_NS, PEER_TIMEOUT_NS)
            .startupPeerWaitNs(STARTUP_PEER_WAIT_NS)
            .startupForceAlone(false)
            .rebalance(true);
        arbiter = new RoleArbiter(ctx, partitions, fence, actions, counters);
    }

    private void start(final int serverId)
    {
        newArbiter(serverId);
        arbiter.start(nowNs);
    }

    /**
     * Server 1, caught up from server 0 and backup of every partition, which holds {@code last} orders at epoch 3.
     */
    private void serveAsBackupOf(final long last, final long drained)
    {
        start(1);
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 3, last);
        arbiter.decide(nowNs);
        for (final Partition partition : partitions)
        {
            partition.last = last; // what the state transfer stored
            partition.acked = last;
            assertTrue(arbiter.onPartitionCaughtUp(nowNs, 1, partition.id, last, 3, drained));
        }
        arbiter.onCaughtUp(nowNs);
        arbiter.takeMapDue();
        heartbeat(PEER_START_EPOCH_MS, PartitionRole.PRIMARY, 3, last);
        assertEquals(0, arbiter.decide(nowNs));
        assertEquals(ServerState.SERVING, arbiter.state());
        assertEquals(PartitionRole.BACKUP, partitions[0].role);
    }

    /**
     * A heartbeat from the peer, heard now: every partition in one role, epoch and position.
     */
    private void heartbeat(final long startEpochMs, final PartitionRole role, final int epoch, final long last)
    {
        arbiter.onPeerHeartbeat(nowNs, startEpochMs, false);
        for (int i = 0; i < PARTITIONS; i++)
        {
            arbiter.onPeerPartition(i, role, epoch, last, 0, Partition.UNKNOWN);
        }
    }

    private void advance(final long ns)
    {
        nowNs += ns;
    }

    static final class FakeFence implements RoleFence
    {
        PeerFence.State state = PeerFence.State.UP;
        String reason = "keep-alives arrive";
        boolean isUnreachable;
        long connectionsLost;
        long downSinceNs;

        @Override
        public PeerFence.State state()
        {
            return state;
        }

        @Override
        public String reason()
        {
            return reason;
        }

        @Override
        public boolean isUnreachable()
        {
            return isUnreachable;
        }

        @Override
        public long connectionsLost()
        {
            return connectionsLost;
        }

        @Override
        public long downSinceNs()
        {
            return downSinceNs;
        }
    }

    static final class RecordingActions implements RoleActions
    {
        OrderQueue.Standing standing = OrderQueue.Standing.UNPROVEN;
        int discards;
        int catchUpRequests;
        long lastRequestId;
        boolean isSevered;
        final Map<Integer, Long> drained = new HashMap<>();
        final List<Integer> postProcessedTakenOver = new ArrayList<>();

        @Override
        public OrderQueue.Standing standing()
        {
            return standing;
        }

        @Override
        public void standing(final OrderQueue.Standing standing, final String why)
        {
            this.standing = standing;
        }

        @Override
        public Path discardStore()
        {
            discards++;
            return Path.of("aside");
        }

        @Override
        public void drained(final int partition, final long sequence)
        {
            drained.put(partition, sequence);
        }

        @Override
        public void requestCatchUp(final long requestId)
        {
            catchUpRequests++;
            lastRequestId = requestId;
        }

        @Override
        public void postProcessTakenOver(final Partition partition)
        {
            postProcessedTakenOver.add(partition.id);
        }

        @Override
        public boolean isLinkSevered()
        {
            return isSevered;
        }

        @Override
        public boolean isLinkConnected()
        {
            return !isSevered;
        }
    }
}
