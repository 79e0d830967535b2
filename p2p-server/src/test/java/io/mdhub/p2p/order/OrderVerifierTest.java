package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.agrona.ExpandableDirectByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.test.InterruptAfter;

/**
 * The verifier's failure paths, on queues written record by record: a gap, two queues that disagree, an order
 * stored twice, an acknowledged order missing, and queues that diverge (each ahead in a partition) — which
 * {@code --allow-behind} must not excuse — next to the passing cases.
 */
@InterruptAfter(30)
class OrderVerifierTest
{
    @TempDir
    Path dir;

    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(256);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final OrderRecordEncoder record = new OrderRecordEncoder();

    /**
     * Write a queue: each entry {partition, sequence, orderId} (client 7).
     */
    private Path queue(final String name, final long[]... orders)
    {
        final Path path = dir.resolve(name);
        try (OrderQueue queue = new OrderQueue(path))
        {
            for (final long[] order : orders)
            {
                record.wrapAndApplyHeader(buffer, 0, header)
                    .partition((int)order[0]).epoch(order.length > 3 ? (int)order[3] : 1)
                    .sequence(order[1]).clientId(7).orderId(order[2])
                    .storedTimeMs(0).side(Side.BUY).quantity(1).priceMantissa(1).priceExponent((byte)0)
                    .ordType((short)'2').timeInForce((short)0).symbol("VOD.L").clOrdId("c" + order[2]);
                record.putFix(new byte[] {1}, 0, 1);
                queue.append(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + record.encodedLength());
            }
        }
        return path;
    }

    private static long[] order(final int partition, final long sequence, final long orderId)
    {
        return new long[] {partition, sequence, orderId};
    }

    private OrderVerifier verify(final List<Path> queues, final Path acked, final boolean allowBehind)
    {
        final OrderVerifier verifier = new OrderVerifier();
        verifier.verify(queues, acked, allowBehind);
        return verifier;
    }

    private static long[] order(final int partition, final long sequence, final long orderId, final int epoch)
    {
        return new long[] {partition, sequence, orderId, epoch};
    }

    private static boolean mentions(final OrderVerifier verifier, final String text)
    {
        return verifier.problems().stream().anyMatch((problem) -> problem.contains(text));
    }

    @Test
    void equalContiguousQueuesWithEveryAcknowledgedOrderPass() throws IOException
    {
        final long[][] orders = {order(0, 1, 1), order(1, 1, 2), order(0, 2, 3), order(1, 2, 4)};
        final Path a = queue("a", orders);
        final Path b = queue("b", orders);
        final Path acked = Files.writeString(dir.resolve("acked.csv"),
            "clientId,orderId,partition,epoch,sequence\n7,1,0,1,1\n7,4,1,1,2\n");
        final OrderVerifier verifier = verify(List.of(a, b), acked, false);
        assertTrue(verifier.problems().isEmpty(), () -> String.join("\n", verifier.problems()));
    }

    @Test
    void aGapInAPartitionIsFound()
    {
        final Path a = queue("a", order(0, 1, 1), order(0, 3, 2));
        final OrderVerifier verifier = verify(List.of(a), null, false);
        assertTrue(mentions(verifier, "partition 0 sequence 3 follows 1 (not contiguous)"),
            () -> String.join("\n", verifier.problems()));
    }

    @Test
    void queuesThatHoldDifferentOrdersAtOneSequenceDisagree()
    {
        final Path a = queue("a", order(0, 1, 1), order(0, 2, 2));
        final Path b = queue("b", order(0, 1, 1), order(0, 2, 99));
        final OrderVerifier verifier = verify(List.of(a, b), null, true);
        assertTrue(mentions(verifier, "partition 0 sequence 2 is order 7/2"),
            () -> String.join("\n", verifier.problems()));
    }

    @Test
    void anOrderStoredTwiceIsFound()
    {
        final Path a = queue("a", order(0, 1, 1), order(1, 1, 1));
        final OrderVerifier verifier = verify(List.of(a), null, false);
        assertTrue(mentions(verifier, "order 7/1 stored twice"), () -> String.join("\n", verifier.problems()));
    }

    @Test
    void anAcknowledgedOrderAtAnotherSequenceOrMissingIsFound() throws IOException
    {
        final Path a = queue("a", order(0, 1, 1), order(0, 2, 2));
        final Path acked = Files.writeString(dir.resolve("acked.csv"), "7,2,0,1,1\n7,3,0,1,3\n");
        final OrderVerifier verifier = verify(List.of(a), acked, false);
        assertEquals(2, verifier.problems().size(), () -> String.join("\n", verifier.problems()));
        assertTrue(mentions(verifier, "is at partition 0 sequence 2"));
        assertTrue(mentions(verifier, "7/3 (partition 0 sequence 3) is missing"));
    }

    @Test
    void anOrderAcknowledgedAtTwoPlacesIsFoundAndEachQueueSaysHowManyAcksItHolds() throws IOException
    {
        final Path a = queue("a", order(0, 1, 1), order(0, 2, 2));
        final Path b = queue("b", order(0, 1, 1), order(0, 2, 2));
        final Path acked = Files.writeString(dir.resolve("acked.csv"), "7,1,0,1,1\n7,2,0,1,2\n7,2,0,1,2\n");
        final OrderVerifier same = verify(List.of(a, b), acked, false);
        assertTrue(same.problems().isEmpty(), () -> "the same ack twice is one ack: " + same.problems());
        assertTrue(same.notes().stream().anyMatch((note) -> note.endsWith("b: 3 of 3 acknowledged orders in place, " +
            "0 missing or misplaced")), () -> String.join("\n", same.notes()));

        final Path twice = Files.writeString(dir.resolve("twice.csv"), "7,1,0,1,1\n7,1,0,1,2\n");
        final OrderVerifier verifier = verify(List.of(a, b), twice, false);
        assertTrue(mentions(verifier, "order 7/1 acknowledged at partition 0 sequence 1 and at partition 0 sequence 2"),
            () -> String.join("\n", verifier.problems()));
    }

    @Test
    void aQueueBehindInEveryPartitionItDiffersInIsAllowedOnlyWithAllowBehind() throws IOException
    {
        final Path a = queue("a", order(0, 1, 1), order(1, 1, 2), order(0, 2, 3));
        final Path b = queue("b", order(0, 1, 1), order(1, 1, 2));
        final Path acked = Files.writeString(dir.resolve("acked.csv"), "7,3,0,1,2\n");
        assertFalse(verify(List.of(a, b), acked, false).problems().isEmpty(), "unequal lengths fail without it");
        final OrderVerifier verifier = verify(List.of(a, b), acked, true);
        assertTrue(verifier.problems().isEmpty(), () -> String.join("\n", verifier.problems()));
    }

    /**
     * A primary killed before it replicated its last orders keeps them in its queue; the survivor gives those
     * sequences to other orders at a higher epoch. Allowed behind only when the behind queue's are the older epoch.
     */
    @Test
    void aDeadPrimarysUnreplicatedTailOfAnOlderEpochIsAllowedBehind() throws IOException
    {
        final Path survivor = queue("a", order(0, 1, 1, 1), order(0, 2, 3, 2), order(0, 3, 4, 2));
        final Path dead = queue("b", order(0, 1, 1, 1), order(0, 2, 2, 1));
        final Path acked = Files.writeString(dir.resolve("acked.csv"), "7,1,0,1,1\n7,3,0,2,2\n7,4,0,2,3\n");
        final OrderVerifier verifier = verify(List.of(survivor, dead), acked, true);
        assertTrue(verifier.problems().isEmpty(), () -> String.join("\n", verifier.problems()));
        assertTrue(verifier.notes().stream().anyMatch(n -> n.startsWith("partition 0 from sequence 2: the queue " +
            "behind holds orders of epoch 1")), () -> String.join("\n", verifier.notes()));
        assertFalse(verify(List.of(survivor, dead), acked, false).problems().isEmpty(), "not without allowBehind");
        final Path sameEpoch = queue("c", order(0, 1, 1, 1), order(0, 2, 2, 2));
        assertTrue(mentions(verify(List.of(survivor, sameEpoch), acked, true), "partition 0 sequence 2 is order"),
            "one sequence, two orders, one epoch: a sequence given twice");
    }

    /**
     * The stale orders are the end of the dead primary's queue: stale, then agreeing again, then stale is two stretches
     * of loss, not one unreplicated tail. A stale order the client resent may land at its old sequence: still stale.
     */
    @Test
    void aStaleTailMustRunToTheEndOfTheQueueBehind()
    {
        final Path survivor = queue("a", order(0, 1, 1, 1), order(0, 2, 3, 2), order(0, 3, 4, 2), order(0, 4, 5, 2));
        final Path broken = queue("b", order(0, 1, 1, 1), order(0, 2, 2, 1), order(0, 3, 4, 2), order(0, 4, 6, 1));
        final OrderVerifier verifier = verify(List.of(survivor, broken), null, true);
        assertTrue(mentions(verifier, "partition 0 sequence 3: the queue behind holds the same epoch again after its " +
            "stale tail began at sequence 2"), () -> String.join("\n", verifier.problems()));

        final Path resent = queue("c", order(0, 1, 1, 1), order(0, 2, 3, 1), order(0, 3, 9, 1));
        final OrderVerifier resentVerifier = verify(List.of(survivor, resent), null, true);
        assertTrue(resentVerifier.problems().isEmpty(), () -> String.join("\n", resentVerifier.problems()));
        assertTrue(resentVerifier.notes().stream().anyMatch(n -> n.startsWith("partition 0 from sequence 2")),
            () -> String.join("\n", resentVerifier.notes()));
    }

    @Test
    void queuesEachAheadInAPartitionDivergeEvenWithAllowBehind()
    {
        final Path a = queue("a", order(0, 1, 1), order(0, 2, 3), order(1, 1, 2));
        final Path b = queue("b", order(0, 1, 1), order(1, 1, 2), order(1, 2, 4));
        final OrderVerifier verifier = verify(List.of(a, b), null, true);
        assertTrue(mentions(verifier, "the queues diverge"), () -> String.join("\n", verifier.problems()) +
            "\nnotes: " + String.join("\n", verifier.notes()));
    }
}
