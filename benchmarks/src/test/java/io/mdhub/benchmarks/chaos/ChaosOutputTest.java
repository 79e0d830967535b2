package io.mdhub.benchmarks.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.benchmarks.client.ClientFaultLine;
import io.mdhub.benchmarks.client.ClientStatsLine;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.orderprobe.OrdersLoad;

/**
 * The tools' output as the chaos runner reads it back: the order load's start, seconds and summary; the verifier's
 * problems as counts; the test client's lines as a round's times.
 */
@InterruptAfter(10)
class ChaosOutputTest
{
    @TempDir
    Path dir;

    @Test
    void theLoadsWorstCreateToEndDuringAFaultIsTheWorstOfTheSecondsItOverlaps()
    {
        final String output = "orders-load: client 1001, 1 pair(s) ...\n" +
            OrdersLoad.CREATION_STARTS + "1000000\n" +
            "orders-load:    1s sent 2000 acked 2000 rejected 0 in-flight 1 backlog 0 resent 0 | create-to-end " +
            "p50 80.1 us p99 300.0 us max 900.0 us\n" +
            "orders-load:    2s sent 2000 acked 1500 rejected 0 in-flight 500 backlog 0 resent 0 | create-to-end " +
            "p50 80.1 us p99 300.0 us max 4500.5 us\n" +
            "orders-load:    3s sent 2000 acked 2500 rejected 0 in-flight 1 backlog 0 resent 500 | create-to-end " +
            "p50 80.1 us p99 300.0 us max 2800000.0 us\n" +
            "orders-load:    4s sent 2000 acked 2000 rejected 0 in-flight 1 backlog 0 resent 500 | create-to-end " +
            "p50 80.1 us p99 300.0 us max 700.0 us\n" +
            "orders-load: created 8000 of 8000, sent 8000, acked 7990 (duplicate 12, unreplicated 0), rejected 3, " +
            "unresolved 7\n" +
            "orders-load: ERROR: 2 orders were reported twice\n";
        final LoadOutput load = new LoadOutput(output);
        assertEquals(1_000_000, load.startMs);
        assertTrue(load.hasSummary);
        assertEquals(8000, load.sent);
        assertEquals(7990, load.acked);
        assertEquals(3, load.rejected);
        assertEquals(7, load.unresolved);
        assertEquals(2, load.reportedTwice);
        assertEquals(2800.0, load.worstMs(1_001_500, 1_002_200), 1e-9, "seconds 2 and 3");
        assertEquals(4.5005, load.worstMs(1_001_000, 1_001_000), 1e-9, "the kill at the start of second 2");
        assertEquals(0.7, load.worstMs(1_003_100, 1_009_000), 1e-9, "past the last second: the last");
        assertEquals(-1, load.worstMs(1_010_000, 1_011_000), 1e-9, "no second overlaps");
        assertFalse(new LoadOutput("orders-load: the servers' partition maps did not arrive").hasSummary);
    }

    @Test
    void theVerifiersProblemsBecomeCountsOfMissingAndTwiceStoredOrders()
    {
        final StringBuilder output = new StringBuilder("verify-orders: /q0: 100 orders in 4 partitions\n");
        for (int i = 0; i < 20; i++)
        {
            output.append("verify-orders: PROBLEM /q1: acknowledged order 7/").append(i)
                .append(" (partition 1 sequence ").append(i + 1).append(") is missing\n");
        }
        output.append("verify-orders: PROBLEM /q1: 31 acknowledged orders missing or misplaced in all\n")
            .append("verify-orders: PROBLEM /q0: acknowledged order 7/99 (partition 2 sequence 4) is at partition 2 " +
                "sequence 5\n")
            .append("verify-orders: PROBLEM /q0: order 7/5 stored twice (partition 1 sequence 2 and partition 1 " +
                "sequence 3)\n")
            .append("verify-orders: PROBLEM /q0: order 7/6 stored twice (partition 1 sequence 4 and partition 1 " +
                "sequence 5)\n")
            .append("verify-orders: PROBLEM partition 1: /q0 holds 9, /q1 holds 8\n")
            .append("verify-orders: FAILED (25 problems)\n");
        final VerifierOutput verifier = new VerifierOutput(output.toString());
        assertFalse(verifier.isOk);
        assertTrue(verifier.hasVerdict);
        assertEquals(31, verifier.missing(), "past 20 the count line, for the queue missing most");
        assertEquals(2, verifier.storedTwice());
        assertEquals(List.of("partition 1: /q0 holds 9, /q1 holds 8"), verifier.otherProblems);

        final VerifierOutput ok = new VerifierOutput("verify-orders: 5 acknowledged orders checked against 2 " +
            "queue(s)\nverify-orders: OK\n");
        assertTrue(ok.isOk);
        assertEquals(0, ok.missing());
        assertEquals(0, ok.storedTwice());
        assertFalse(new VerifierOutput("Exception in thread main").hasVerdict);
    }

    @Test
    void theVerifiersOwnWordsAreReadAsCountsToo() throws Exception
    {
        // the verifier itself, over a queue that does not hold an acknowledged order
        final Path acked = Files.writeString(dir.resolve("acked.csv"), "clientId,orderId,partition,epoch,sequence\n" +
            "7,1,0,1,1\n7,2,1,1,1\n");
        final io.mdhub.p2p.order.OrderVerifier verifier = new io.mdhub.p2p.order.OrderVerifier();
        verifier.verify(List.of(dir.resolve("queue")), acked, false);
        final StringBuilder output = new StringBuilder();
        verifier.problems().forEach((problem) -> output.append("verify-orders: PROBLEM ").append(problem)
            .append('\n'));
        output.append("verify-orders: FAILED\n");
        final VerifierOutput read = new VerifierOutput(output.toString());
        assertEquals(2, read.missing(), output::toString);
        assertEquals(List.of(), read.otherProblems);
    }

    @Test
    void aRoundsTimesComeFromTheClientsLinesAfterTheKill()
    {
        final long killMs = 5_000_000;
        final String whole = line(0, 5000, 1000, 0, 0, 0, 4_000_000);
        final String suspect = line(0, 1200, 1000, 1000, killMs + 40, 0, 0);
        final String stalled = line(0, 0, 1000, 1000, 0, 0, 0);
        final String back = line(1000, 3800, 1000, 0, 0, 0, killMs + 3100);
        final MdRound round = new MdRound();
        assertFalse(MdChaos.read(whole + suspect + stalled, killMs, killMs + 2000, round));
        assertEquals(40, round.toSuspectMs);
        assertEquals(-1, round.toRecoveredMs);
        assertTrue(round.hadStall);
        assertTrue(MdChaos.read(whole + suspect + stalled + back, killMs, killMs + 2000, round));
        assertEquals(3100, round.toRecoveredMs);
        assertEquals(0, round.skippedSilently);

        final MdRound silent = new MdRound();
        final String skipped = line(0, 5000, 1000, 0, 0, 17, 4_000_000);
        assertTrue(MdChaos.read(skipped, killMs, 0, silent), "whole, with updates, no Suspect");
        assertEquals(-1, silent.toSuspectMs);
        assertEquals(17, silent.skippedSilently);
        assertFalse(silent.hadStall);
    }

    private static String line(
        final long refreshes,
        final long updates,
        final long open,
        final long suspect,
        final long suspectFromMs,
        final long skipped,
        final long allOkMs)
    {
        return new ClientStatsLine(refreshes, updates, 0, open, 1000, suspect, 0, 0).format() +
            "latency p50 1.0 us p99 2.0 us (3 samples) | " +
            new ClientFaultLine(skipped, 0, suspectFromMs, allOkMs).format() + "\n";
    }
}
