package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.test.InterruptAfter;

/**
 * {@link CatchUpTracker} on its own, without sockets, store or threads: server 1's partitions, the actions recorded
 * (as {@link RoleArbiterTest} records them) and the time passed in.
 */
@InterruptAfter(10)
class CatchUpTrackerTest
{
    private static final int PARTITIONS = 3;
    private static final long PEER_START_MS = 1_700_000_000_000L;

    private final CountersManager countersManager = new CountersManager(
        new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
    private final OrderCounters counters = new OrderCounters(countersManager, 1);
    private final RoleArbiterTest.RecordingActions actions = new RoleArbiterTest.RecordingActions();
    private final Partition[] partitions = new Partition[PARTITIONS];
    private final CatchUpTracker catchUp;
    private long nowNs = 5_000_000_000L;

    CatchUpTrackerTest()
    {
        for (int i = 0; i < PARTITIONS; i++)
        {
            partitions[i] = new Partition(i, i % 2);
        }
        catchUp = new CatchUpTracker(1, partitions, actions, counters);
    }

    @AfterEach
    void after()
    {
        counters.close();
    }

    // ---------------------------------------------------------------- catching up

    @Test
    void startingOverDiscardsTheStoreAndEachRequestIsANewAttempt()
    {
        for (final Partition partition : partitions)
        {
            partition.role = PartitionRole.PRIMARY;
            partition.epoch = 4;
            partition.last = 9;
            partition.drained = 3;
        }
        catchUp.startOver(nowNs);
        assertEquals(1, actions.discards);
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.CATCHING_UP, partition.role);
            assertEquals(0, partition.epoch);
            assertEquals(0, partition.last);
            assertEquals(3, partition.written, "written restarts from the drained position");
        }
        assertFalse(catchUp.isComplete());

        catchUp.ask(nowNs);
        assertEquals(1, actions.catchUpRequests);
        assertEquals(1, actions.lastRequestId);
        catchUp.ask(nowNs);
        assertEquals(2, actions.lastRequestId, "attempts count on");
        assertEquals(1, actions.discards, "asking again keeps what arrived");
    }

    @Test
    void aCatchUpThatReceivesNothingAsksAgainAfterTheRetryInterval()
    {
        catchUp.startOver(nowNs);
        catchUp.ask(nowNs);
        assertEquals(nowNs + CatchUpTracker.RETRY_NS + 1, catchUp.nextRetryNs());

        catchUp.retryIfStalled(nowNs + CatchUpTracker.RETRY_NS);
        assertEquals(1, actions.catchUpRequests, "not before the interval has passed");

        nowNs = catchUp.nextRetryNs();
        catchUp.retryIfStalled(nowNs);
        assertEquals(2, actions.catchUpRequests);
        assertEquals(2, actions.lastRequestId);
        assertEquals(nowNs + CatchUpTracker.RETRY_NS + 1, catchUp.nextRetryNs(), "the interval restarts");
    }

    @Test
    void ordersStillArrivingAreProgressNotAReasonToAskAgain()
    {
        catchUp.startOver(nowNs);
        catchUp.ask(nowNs);
        partitions[1].last = 500; // the transfer is under way

        nowNs += CatchUpTracker.RETRY_NS + 1;
        catchUp.retryIfStalled(nowNs);
        assertEquals(1, actions.catchUpRequests, "asking again would make the peer start over");
        assertEquals(nowNs + CatchUpTracker.RETRY_NS + 1, catchUp.nextRetryNs(), "progress restarts the interval");

        nowNs += CatchUpTracker.RETRY_NS + 1;
        catchUp.retryIfStalled(nowNs);
        assertEquals(2, actions.catchUpRequests, "nothing more came");
    }

    @Test
    void aPartitionThatHoldsWhatThePeerHoldsTakesItsEpochAndDrainedPosition()
    {
        catchUp.startOver(nowNs);
        catchUp.ask(nowNs);
        partitions[0].last = 7;
        partitions[0].epoch = 2;

        assertEquals(CatchUpTracker.PartitionCheck.HOLDS, catchUp.onPartitionCaughtUp(1, 0, 7, 5, 4));
        assertEquals(5, partitions[0].epoch);
        assertEquals(4, partitions[0].drained);
        assertEquals(4, partitions[0].written);
        assertEquals(Map.of(0, 4L), actions.drained);

        assertEquals(CatchUpTracker.PartitionCheck.HOLDS, catchUp.onPartitionCaughtUp(1, 1, 0, 1, 0));
        assertEquals(1, partitions[1].epoch, "an empty partition matches too");
        assertEquals(CatchUpTracker.PartitionCheck.HOLDS, catchUp.onPartitionCaughtUp(1, PARTITIONS, 99, 9, 9),
            "a partition this server does not have is skipped");
        assertEquals(CatchUpTracker.PartitionCheck.HOLDS, catchUp.onPartitionCaughtUp(1, -1, 99, 9, 9));
    }

    @Test
    void aPartitionThatDiffersAsksAgainUnlessTheAnswerIsToAnOlderAttempt()
    {
        catchUp.startOver(nowNs);
        catchUp.ask(nowNs);
        catchUp.ask(nowNs); // attempt 2
        partitions[0].last = 5;

        assertEquals(CatchUpTracker.PartitionCheck.OLDER_ATTEMPT, catchUp.onPartitionCaughtUp(1, 0, 8, 1, 0));
        assertEquals(CatchUpTracker.PartitionCheck.LACKS, catchUp.onPartitionCaughtUp(2, 0, 8, 1, 0));
        assertEquals(CatchUpTracker.PartitionCheck.HOLDS_MORE, catchUp.onPartitionCaughtUp(2, 0, 3, 1, 0));
        assertEquals(CatchUpTracker.PartitionCheck.LACKS, catchUp.onPartitionCaughtUp(Long.MAX_VALUE, 0, 8, 1, 0),
            "a peer that does not number its answers answers the latest attempt");
        assertEquals(0, partitions[0].epoch, "nothing taken from a partition that differs");
        assertTrue(actions.drained.isEmpty());
    }

    @Test
    void caughtUpMakesThisServerBackupOfEveryPartitionAndStopsTheRetries()
    {
        catchUp.startOver(nowNs);
        catchUp.ask(nowNs);
        catchUp.onCaughtUp(nowNs + 1_000);

        assertTrue(catchUp.isComplete());
        assertEquals(OrderQueue.Standing.PAIRED, actions.standing);
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.BACKUP, partition.role);
        }
        catchUp.retryIfStalled(nowNs + 10 * CatchUpTracker.RETRY_NS);
        assertEquals(1, actions.catchUpRequests);

        catchUp.startOver(nowNs + 20 * CatchUpTracker.RETRY_NS);
        assertFalse(catchUp.isComplete(), "a new catch-up");
    }

    // ---------------------------------------------------------------- serving the peer's catch-up

    @Test
    void aRequestStartsATransferToThePeer()
    {
        primaryOfEverything(6);
        assertFalse(catchUp.isStaleRequest(PEER_START_MS, 1));
        assertEquals(RoleArbiter.CatchUpAnswer.TRANSFER, catchUp.takeRequest(PEER_START_MS, 1));

        assertTrue(catchUp.isPeerCatchingUp());
        assertTrue(catchUp.isCompleteDue());
        assertFalse(catchUp.isCompleteSent());
        assertEquals(1, catchUp.peerRequestId());
        for (final Partition partition : partitions)
        {
            assertEquals(PartitionRole.CATCHING_UP, partition.peerRole);
        }
    }

    @Test
    void anAttemptNoNewerThanOneTakenIsStaleAndCounted()
    {
        primaryOfEverything(6);
        catchUp.takeRequest(PEER_START_MS, 2);

        assertTrue(catchUp.isStaleRequest(PEER_START_MS, 2));
        assertTrue(catchUp.isStaleRequest(PEER_START_MS, 1));
        assertEquals(2, counters.staleCatchUpRequests.get());
        assertFalse(catchUp.isStaleRequest(PEER_START_MS, 3), "a newer attempt");
        assertFalse(catchUp.isStaleRequest(PEER_START_MS, 0), "a peer that does not number its attempts");
        assertFalse(catchUp.isStaleRequest(PEER_START_MS + 1, 1), "the peer restarted");
        assertEquals(2, counters.staleCatchUpRequests.get());
    }

    @Test
    void theTransferResumesFromThePeersPositionsOnPrimaryPartitionsOnly()
    {
        primaryOfEverything(6);
        partitions[2].role = PartitionRole.BACKUP;
        partitions[2].sent = 6;

        catchUp.transferFrom(0, 4, RoleArbiter.CatchUpAnswer.TRANSFER);
        assertEquals(3, partitions[0].sent);
        assertEquals(3, partitions[0].backupAcked);
        assertEquals(6, partitions[0].catchUpEnd);

        partitions[1].backupAcked = 2;
        catchUp.transferFrom(1, 4, RoleArbiter.CatchUpAnswer.RESEND);
        assertEquals(3, partitions[1].sent);
        assertEquals(2, partitions[1].backupAcked, "a resend keeps what the backup acknowledged");
        assertEquals(6, partitions[1].catchUpEnd);

        catchUp.transferFrom(1, 99, RoleArbiter.CatchUpAnswer.TRANSFER);
        assertEquals(6, partitions[1].sent, "never past what is held here");
        assertEquals(6, partitions[1].backupAcked);
        catchUp.transferFrom(1, 0, RoleArbiter.CatchUpAnswer.TRANSFER);
        assertEquals(0, partitions[1].sent, "never before the first order");

        catchUp.transferFrom(2, 1, RoleArbiter.CatchUpAnswer.TRANSFER);
        assertEquals(6, partitions[2].sent, "not this server's to send");
        assertEquals(0, partitions[2].catchUpEnd);
        catchUp.transferFrom(PARTITIONS, 1, RoleArbiter.CatchUpAnswer.TRANSFER); // ignored
    }

    @Test
    void onceTheEndIsSentThePeerIsASynchronousBackupAndAsksAgainOnlyForAResend()
    {
        primaryOfEverything(6);
        partitions[2].role = PartitionRole.BACKUP;
        catchUp.takeRequest(PEER_START_MS, 1);
        catchUp.onSent();

        assertFalse(catchUp.isPeerCatchingUp());
        assertFalse(catchUp.isCompleteDue());
        assertTrue(catchUp.isCompleteSent());
        assertEquals(PartitionRole.BACKUP, partitions[0].peerRole);
        assertEquals(PartitionRole.BACKUP, partitions[1].peerRole);
        assertEquals(PartitionRole.CATCHING_UP, partitions[2].peerRole, "only partitions this server is primary of");

        assertFalse(catchUp.isStaleRequest(PEER_START_MS, 2), "the peer may not have had the end");
        assertEquals(RoleArbiter.CatchUpAnswer.RESEND, catchUp.takeRequest(PEER_START_MS, 2));
        assertTrue(catchUp.isCompleteDue(), "the end goes again");
        assertFalse(catchUp.isPeerCatchingUp(), "the peer stays a synchronous backup");
        assertEquals(PartitionRole.BACKUP, partitions[0].peerRole);
    }

    @Test
    void aRequestFromBeforeThePeerCaughtUpIsStaleOnceItsHeartbeatsSaySo()
    {
        primaryOfEverything(6);
        catchUp.takeRequest(PEER_START_MS, 1);
        catchUp.onSent();
        for (final Partition partition : partitions)
        {
            partition.peerReportedRole = PartitionRole.BACKUP;
        }
        partitions[2].peerReportedRole = PartitionRole.CATCHING_UP;
        assertFalse(catchUp.isStaleRequest(PEER_START_MS, 2), "not every partition says so yet");

        partitions[2].peerReportedRole = PartitionRole.PRIMARY;
        assertTrue(catchUp.isStaleRequest(PEER_START_MS, 2));

        catchUp.onPeerRestarted();
        assertFalse(catchUp.isCompleteSent());
        assertFalse(catchUp.isStaleRequest(PEER_START_MS, 3), "the end sent no longer counts");
    }

    @Test
    void takingThePeersPartitionsOverAbandonsATransferUnderWay()
    {
        primaryOfEverything(6);
        catchUp.takeRequest(PEER_START_MS, 1);
        catchUp.onPeerTakenOver();
        assertFalse(catchUp.isPeerCatchingUp());
        assertFalse(catchUp.isCompleteDue());
    }

    private void primaryOfEverything(final long last)
    {
        for (final Partition partition : partitions)
        {
            partition.role = PartitionRole.PRIMARY;
            partition.epoch = 1;
            partition.last = last;
            partition.acked = last;
            partition.sent = last;
            partition.backupAcked = last;
        }
    }
}
