package io.mdhub.benchmarks.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The rules that make a round's verdict, and its table row.
 */
@InterruptAfter(10)
class ChaosVerdictTest
{
    private static OrderRound goodOrderRound()
    {
        final OrderRound round = new OrderRound();
        round.round = 3;
        round.fault = "server-1";
        round.killAtS = 7.25;
        round.sent = 60_000;
        round.acked = 60_000;
        round.caughtUpS = 4.04;
        round.worstMs = 1012.34;
        round.isWhole = true;
        round.boundSeconds = 60;
        round.loadFinished = true;
        round.verifierFinished = true;
        return round;
    }

    @Test
    void anOrderRoundThatKeptEveryPromiseIsOk()
    {
        final OrderRound round = goodOrderRound();
        assertTrue(round.verdict().isOk());
        assertEquals(List.of("3", "server-1", "7.3", "60000", "60000", "0", "0", "4.0", "1012.3", "ok"),
            round.cells());
    }

    @Test
    void anOrderRoundFailsForEachBrokenPromiseAndSaysThemAll()
    {
        final OrderRound round = goodOrderRound();
        round.lost = 2;
        round.duplicated = 1;
        round.isWhole = false;
        round.caughtUpS = -1;
        round.unanswered = 5;
        round.verifierProblems.add("the queues diverge");
        round.verifierProblems.add("partition 1 sequence 9 follows 7 (not contiguous)");
        round.problems.add("server 0 exited (status 255)");
        final Verdict verdict = round.verdict();
        assertFalse(verdict.isOk());
        assertEquals(List.of("2 acknowledged order(s) lost", "1 order(s) stored twice",
            "pair not whole 60 s after the restart", "5 order(s) never answered",
            "verify-orders: the queues diverge (and 1 more)", "server 0 exited (status 255)"), verdict.reasons());
        assertEquals("-", round.cells().get(7), "no catch-up time when the pair was not whole");
        assertTrue(round.cells().get(9).startsWith("FAIL: 2 acknowledged order(s) lost; 1 order(s) stored twice"));
    }

    @Test
    void anOrderRoundWhoseToolsDidNotFinishFails()
    {
        final OrderRound round = goodOrderRound();
        round.loadFinished = false;
        round.loadStatus = 1;
        round.verifierFinished = false;
        round.answeredTwice = 3;
        assertEquals(List.of("3 order(s) answered twice", "orders-load did not finish (status 1)",
            "verify-orders did not finish"), round.verdict().reasons());
    }

    private static MdRound goodMdRound()
    {
        final MdRound round = new MdRound();
        round.round = 1;
        round.fault = "p2p";
        round.downS = 2.5;
        round.toSuspectMs = 12;
        round.toRecoveredMs = 4100;
        round.boundSeconds = 30;
        round.hadStall = true;
        return round;
    }

    @Test
    void anMdRoundThatRecoveredWithNothingSkippedIsOk()
    {
        final MdRound round = goodMdRound();
        assertTrue(round.verdict().isOk());
        assertEquals(List.of("1", "p2p", "2.5", "12", "4100", "0", "0", "ok"), round.cells());
    }

    @Test
    void anMdRoundFailsOnASilentSkipAClosedStreamNoRecoveryOrAStallWithoutSuspect()
    {
        final MdRound round = goodMdRound();
        round.skippedSilently = 7;
        round.streamsClosed = 1000;
        round.toRecoveredMs = -1;
        round.toSuspectMs = -1;
        round.problems.add("distributor exited (status 255) after the backbone was killed");
        assertEquals(List.of("7 update(s) skipped without a Suspect", "not recovered 30 s after the restart",
            "1000 item stream(s) closed", "updates stopped without a Suspect",
            "distributor exited (status 255) after the backbone was killed"), round.verdict().reasons());
        assertEquals(List.of("1", "p2p", "2.5", "-", "-", "7", "1000"), round.cells().subList(0, 7));
    }

    @Test
    void noSuspectIsFineWhenTheUpdatesNeverStopped()
    {
        final MdRound round = goodMdRound();
        round.toSuspectMs = -1;
        round.hadStall = false;
        assertTrue(round.verdict().isOk(), round.verdict()::toString);
    }
}
