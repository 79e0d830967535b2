package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * An active/active pair in one JVM (loopback TCP, real fences): partitions shared between the servers, synchronous
 * replication, idempotent resends, a server killed and restarted, the replication link cut while both live, both
 * restarted from their queues, draining resumed where it stopped, bad orders refused to their client only, and an
 * idle pair asleep between its timers.
 */
@InterruptAfter(120)
class OrderPairTest
{
    private static final int PARTITIONS = TestOrderPair.PARTITIONS;

    @TempDir
    Path dir;

    private TestOrderPair pair;

    @BeforeEach
    void createPair()
    {
        pair = new TestOrderPair(dir);
    }

    @AfterEach
    void close()
    {
        pair.close();
    }

    @Test
    void verifierFindsAMissingAcknowledgedOrder() throws IOException
    {
        pair.start();
        pair.submitAndAwait(1, 20);
        pair.stop(0);
        pair.stop(1);
        final TestOrderClient.Answer first = pair.client.acks.get(1L);
        final Path acked = Files.writeString(dir.resolve("acked.csv"),
            "77,999,1,1,99\n77,1,1," + first.epoch() + "," + first.sequence() + "\n");
        final OrderVerifier verifier = new OrderVerifier();
        assertFalse(verifier.verify(List.of(dir.resolve("queue-0"), dir.resolve("queue-1")), acked, false));
        assertEquals(2, verifier.problems().size(), () -> String.join("\n", verifier.problems()));
    }

    @Test
    void pairSharesPartitionsReplicatesAndAnswersResendsWithTheOriginalAck() throws IOException
    {
        pair.start();
        final TestOrderClient client = pair.client;
        pair.submitAndAwait(1, 200);
        for (final TestOrderClient.Answer answer : client.acks.values())
        {
            assertTrue(answer.replicated(), () -> "stored on both before the ack: " + answer);
        }
        pair.assertEachOrderOnceWithContiguousSequences();

        final int before = client.answers.size();
        for (long id = 1; id <= 10; id++)
        {
            client.submit(id, (int)(id % PARTITIONS), -1);
        }
        MdTests.await("ten duplicate acks", () ->
        {
            client.poll();
            return client.answers.size() >= before + 10;
        });
        for (int i = before; i < client.answers.size(); i++)
        {
            final TestOrderClient.Answer answer = client.answers.get(i);
            assertTrue(answer.duplicate(), answer::toString);
            assertEquals(client.acks.get(answer.orderId()).sequence(), answer.sequence());
        }
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    /**
     * With no orders, an order thread wakes for its timers only — heartbeats, the fence's keep-alives, each sent
     * and received — not on a tick of its own: with heartbeats every 200 ms and fence keep-alives every 500 ms,
     * about 5 + 5 + 8 wake-ups a second (a thread that polled every 10 ms would wake 100 times).
     */
    @Test
    void idlePairWakesOnlyForItsTimers() throws IOException, InterruptedException
    {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "thread context switches are read from /proc");
        for (int id = 0; id < 2; id++)
        {
            pair.launch(id, (ctx) -> ctx.timing(200_000_000L, 1_000_000_000L).fenceTiming(2_000_000_000L,
                300_000_000L));
        }
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(1, 20);
        final Path[] threads = {threadStatus("order-server-0"), threadStatus("order-server-1")};
        final long[] before = {contextSwitches(threads[0]), contextSwitches(threads[1])};
        final long startNs = System.nanoTime();
        Thread.sleep(2_000);
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        for (int id = 0; id < 2; id++)
        {
            final double perSecond = (contextSwitches(threads[id]) - before[id]) / seconds;
            final int server = id;
            assertTrue(perSecond < 40, () -> "order-server-" + server + " woke " + perSecond + " times a second");
        }
    }

    /**
     * @return the status file of this process's thread of that name.
     */
    private static Path threadStatus(final String name) throws IOException
    {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task")))
        {
            for (final Path task : (Iterable<Path>)tasks::iterator)
            {
                if (name.equals(Files.readString(task.resolve("comm")).trim()))
                {
                    return task.resolve("status");
                }
            }
        }
        throw new IllegalStateException("no thread " + name);
    }

    /**
     * @return the thread's voluntary and involuntary context switches so far.
     */
    private static long contextSwitches(final Path status) throws IOException
    {
        long switches = 0;
        for (final String line : Files.readAllLines(status))
        {
            if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:"))
            {
                switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return switches;
    }

    @Test
    void killedServerLosesNothingAndRejoinsAsBackupAfterCatchingUp() throws IOException
    {
        pair.start();
        pair.submitAndAwait(1, 100);

        pair.stop(1); // its fence closes: server 0 knows it is dead
        pair.awaitRoles("server 0 primary of everything", () -> pair.allPrimaryOn(0));
        pair.submitAndAwait(101, 200);
        pair.assertEachOrderOnceWithContiguousSequences();

        pair.launch(1);
        pair.awaitRoles("server 1 back, each primary of half again", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(201, 300);
        pair.assertEachOrderOnceWithContiguousSequences();

        pair.stop(0);
        pair.awaitRoles("server 1 primary of everything", () -> pair.allPrimaryOn(1));
        pair.submitAndAwait(301, 400);
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(true); // server 0 died last and did not rejoin: its queue is behind
    }

    @Test
    void steppingDownHandsEveryPartitionToThePeerAndBack() throws IOException
    {
        pair.start();
        pair.submitAndAwait(1, 40);

        pair.servers[0].stepDown(true);
        pair.awaitRoles("server 1 primary of everything", () -> pair.allPrimaryOn(1));
        pair.submitAndAwait(41, 80);
        for (long id = 41; id <= 80; id++)
        {
            assertTrue(pair.client.acks.get(id).replicated(), "server 0 is still a synchronous backup");
        }
        pair.servers[0].stepDown(false);
        pair.awaitRoles("each server primary of half again", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(81, 120);
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    /**
     * Server 1 drains partitions 1 and 3 and dies; server 0 takes them over and must go on from the drained position
     * server 1 replicated, not from the start: it delivers none of what server 1 had made durable (the test waits
     * until server 0 has heard that position), and every acknowledged order reaches a sink.
     */
    @Test
    void promotedBackupResumesDrainingWhereTheDeadPrimaryStopped()
    {
        pair.start();
        pair.submitAndAwait(1, 100);
        final long[] drainedByOne = new long[PARTITIONS];
        for (int p = 1; p < PARTITIONS; p += 2)
        {
            final int partition = p;
            final long last = pair.partitionField(1, partition, "last");
            MdTests.await(() -> "server 0 hears that server 1 drained partition " + partition + ": " +
                pair.states(), () -> pair.partitionField(0, partition, "drained") == last);
            drainedByOne[p] = last;
        }
        pair.stop(1);
        pair.awaitRoles("server 0 primary of everything", () -> pair.allPrimaryOn(0));
        pair.submitAndAwait(101, 200);
        MdTests.await(() -> "every acknowledged order drained: " + pair.states(), () ->
        {
            for (final TestOrderClient.Answer ack : pair.client.acks.values())
            {
                final String key = ack.partition() + "/" + ack.sequence();
                if (!pair.deliveries[0].containsKey(key) && !pair.deliveries[1].containsKey(key))
                {
                    return false;
                }
            }
            return true;
        });
        for (int p = 1; p < PARTITIONS; p += 2)
        {
            assertTrue(drainedByOne[p] > 0);
            long first = Long.MAX_VALUE;
            for (final String key : pair.deliveries[0].keySet())
            {
                if (key.startsWith(p + "/"))
                {
                    first = Math.min(first, Long.parseLong(key.substring(key.indexOf('/') + 1)));
                }
            }
            assertEquals(drainedByOne[p] + 1, first, "server 0 resumes draining partition " + p + " after " +
                drainedByOne[p] + ", where server 1 stopped");
        }
        assertNoSequenceDeliveredTwice();
    }

    /**
     * Across both servers, each (partition, sequence) reached a sink once.
     */
    private void assertNoSequenceDeliveredTwice()
    {
        for (final Map.Entry<String, Integer> entry : pair.deliveries[0].entrySet())
        {
            assertEquals(1, entry.getValue() + pair.deliveries[1].getOrDefault(entry.getKey(), 0),
                () -> entry.getKey() + " delivered more than once");
        }
        for (final Map.Entry<String, Integer> entry : pair.deliveries[1].entrySet())
        {
            assertEquals(1, (int)entry.getValue(), () -> entry.getKey() + " delivered more than once by server 1");
        }
    }

    @Test
    void cutReplicationLinkHoldsAcksAndLosesOrDuplicatesNothing() throws IOException
    {
        pair.start();
        pair.submitAndAwait(1, 40);

        pair.servers[0].severPeerLink(true);
        pair.servers[1].severPeerLink(true);
        final int before = pair.client.acks.size();
        for (long id = 41; id <= 80; id++)
        {
            pair.client.submit(id, (int)(id % PARTITIONS), -1);
        }
        pair.pollFor(1_500_000_000L);
        assertEquals(before, pair.client.acks.size(), "no ack while the backup is alive but unreachable");
        assertFalse(pair.allPrimaryOn(0) || pair.allPrimaryOn(1), "nobody took over a live peer's partitions");

        pair.servers[0].severPeerLink(false);
        pair.servers[1].severPeerLink(false);
        pair.submitAndAwait(41, 80);
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    /**
     * Both servers stop and start again: every acknowledged order is still there, and the drained positions were
     * persisted, so nothing already drained reaches a sink a second time.
     */
    @Test
    void bothServersRestartFromTheirQueuesWithEveryAcknowledgedOrder()
    {
        pair.start();
        final TestOrderClient client = pair.client;
        pair.submitAndAwait(1, 120);
        MdTests.await(() -> "120 orders drained: " + pair.states(), () -> deliveredOrders() == 120);
        pair.stop(0);
        pair.stop(1);

        pair.launch(0);
        pair.launch(1);
        pair.awaitRoles("the pair is back", pair::eachServerPrimaryOfHalf);
        final int before = client.answers.size();
        for (long id = 1; id <= 120; id++)
        {
            client.submit(id, (int)(id % PARTITIONS), -1);
        }
        MdTests.await("120 answers to resends", () ->
        {
            client.poll();
            return client.answers.size() >= before + 120;
        });
        for (int i = before; i < client.answers.size(); i++)
        {
            final TestOrderClient.Answer answer = client.answers.get(i);
            assertTrue(answer.isAck() && answer.duplicate(), () -> "still there after the restart: " + answer);
        }
        pair.submitAndAwait(121, 160);
        pair.assertEachOrderOnceWithContiguousSequences();
        MdTests.await(() -> "160 orders drained: " + pair.states(), () -> deliveredOrders() == 160);
        assertNoSequenceDeliveredTwice();
    }

    private int deliveredOrders()
    {
        final java.util.Set<String> union = new java.util.HashSet<>(pair.deliveries[0].keySet());
        union.addAll(pair.deliveries[1].keySet());
        return union.size();
    }

    @Test
    void badOrdersAreRefusedToTheirClientWithAReason()
    {
        pair.start();
        final TestOrderClient client = pair.client;
        final UnsafeBuffer garbage = new UnsafeBuffer("8=FIX.4.4\u00019=5\u000135=D\u0001garbage".getBytes());
        client.submitRaw(1, 0, -1, garbage, garbage.capacity());
        client.submit(2, 99, 0);
        final UnsafeBuffer huge = new UnsafeBuffer(new byte[5000]);
        client.submitRaw(3, 1, -1, huge, huge.capacity());
        client.submit(4, 1, 0); // server 0 is not partition 1's primary
        MdTests.await("four rejects", () ->
        {
            client.poll();
            return client.answers.size() >= 4;
        });
        assertEquals(RejectReason.MALFORMED_FIX, pair.reason(1));
        assertEquals(RejectReason.UNKNOWN_PARTITION, pair.reason(2));
        assertEquals(RejectReason.OVERSIZE, pair.reason(3));
        assertEquals(RejectReason.NOT_PRIMARY, pair.reason(4));
        pair.submitAndAwait(5, 44);
        pair.assertEachOrderOnceWithContiguousSequences();
    }
}
