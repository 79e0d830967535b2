package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

import org.agrona.collections.Long2LongHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.CatchUpCompleteDecoder;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * A restarted server catching up from its peer, in one JVM over loopback: it resumes from what it holds rather than
 * starting over, a lost end of the transfer is sent again without the survivor acknowledging alone or resending
 * everything, killing it (or then the survivor) during its catch-up loses and duplicates nothing, and a catch-up
 * under load ends within a bound while the survivor keeps acknowledging.
 */
@InterruptAfter(120)
class OrderCatchUpTest
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
    void lostEndOfTheTransferIsSentAgainWithoutStartingOverOrAcknowledgingAlone() throws IOException
    {
        pair.start();
        submitInChunks(1, 3_000);
        pair.stop(1);
        pair.awaitRoles("server 0 primary of everything", () -> pair.allPrimaryOn(0));
        pair.submitAndAwait(3_001, 3_200);

        pair.servers[0].losePeerMessages(CatchUpCompleteDecoder.TEMPLATE_ID, 1);
        pair.launch(1);
        pair.awaitRoles("server 1 caught up after asking again, each primary of half", pair::eachServerPrimaryOfHalf);

        assertEquals(3_200, pair.servers[0].counters().catchUpSent.get(),
            "every order sent once: the retry resumed from what server 1 held (everything), not from the first");
        assertEquals(0, pair.servers[0].counters().staleCatchUpRequests.get());
        assertEquals("PAIRED", pair.servers[0].standing(), "server 1 stayed a synchronous backup");
        pair.submitAndAwait(3_201, 3_400);
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    @Test
    void killingTheRejoinerDuringItsCatchUpThenTheSurvivorLosesAndDuplicatesNothing() throws IOException
    {
        pair.start();
        submitInChunks(1, 2_000);
        pair.stop(1);
        pair.awaitRoles("server 0 primary of everything", () -> pair.allPrimaryOn(0));
        pair.submitAndAwait(2_001, 2_400);

        // server 1 gets every order but never hears the transfer's end: it stays catching up
        pair.servers[0].losePeerMessages(CatchUpCompleteDecoder.TEMPLATE_ID, Integer.MAX_VALUE);
        pair.launch(1);
        awaitCatchingUpHolding(1, 2_400);
        pair.stop(1); // killed during its own catch-up
        pair.awaitRoles("server 0 alone again", () -> pair.allPrimaryOn(0));
        pair.submitAndAwait(2_401, 2_600);

        pair.launch(1);
        awaitCatchingUpHolding(1, 2_600);
        pair.stop(0); // the survivor dies while server 1 still catches up: server 1 cannot serve
        pair.launch(0); // from its queue (it was serving alone): it serves, and server 1 asks again from where it is
        pair.awaitRoles("server 1 caught up from the restarted server 0", pair::eachServerPrimaryOfHalf);
        assertTrue(pair.servers[0].counters().catchUpSent.get() < 2_600,
            () -> "server 1 resumed from the 2,600 orders it held, not from the first: " +
            pair.servers[0].counters().catchUpSent.get() + " sent");

        pair.submitAndAwait(2_601, 2_800);
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    /**
     * 20,000 orders held, server 1 restarts and catches up while the client sends 1,000 orders a second: the
     * transfer ends within 10 s (a generous bound for a shared host) at five times the load rate or more, every order
     * sent meanwhile is answered within a second (acknowledged, or refused NOT_PRIMARY while its partition is handed
     * back, then resent to its new primary), and all are acknowledged in the end.
     */
    @Test
    void catchUpUnderLoadEndsWithinItsBoundWhileTheSurvivorKeepsAcknowledging() throws IOException
    {
        final int held = 20_000;
        pair.start();
        submitInChunks(1, held);
        pair.stop(1);
        pair.awaitRoles("server 0 primary of everything", () -> pair.allPrimaryOn(0));

        pair.launch(1);
        final long startNs = System.nanoTime();
        final Long2LongHashMap sentNs = new Long2LongHashMap(-1);
        final Long2LongHashMap pending = new Long2LongHashMap(-1); // order id -> last send
        long nextId = held + 1;
        long nextSendNs = startNs;
        long caughtUpNs = 0;
        long maxAnswerNs = 0;
        int answersSeen = 0;
        while (0 == caughtUpNs || !pending.isEmpty())
        {
            final long nowNs = System.nanoTime();
            if (0 == caughtUpNs && nowNs - nextSendNs >= 0)
            {
                pair.client.submit(nextId, (int)(nextId % PARTITIONS), -1);
                sentNs.put(nextId, nowNs);
                pending.put(nextId++, nowNs);
                nextSendNs += 1_000_000L;
            }
            pair.client.poll();
            for (; answersSeen < pair.client.answers.size(); answersSeen++)
            {
                final long firstSentNs = sentNs.remove(pair.client.answers.get(answersSeen).orderId());
                if (-1 != firstSentNs)
                {
                    maxAnswerNs = Math.max(maxAnswerNs, nowNs - firstSentNs);
                }
            }
            final Long2LongHashMap.KeyIterator ids = pending.keySet().iterator();
            while (ids.hasNext())
            {
                final long id = ids.nextValue();
                if (pair.client.acks.containsKey(id))
                {
                    ids.remove();
                }
                else if (nowNs - pending.get(id) > 200_000_000L)
                {
                    pending.put(id, nowNs); // refused while its partition moved: to its primary as the map says now
                    pair.client.hello();
                    pair.client.submit(id, (int)(id % PARTITIONS), -1);
                }
            }
            if (0 == caughtUpNs && "SERVING".equals(pair.servers[1].state()))
            {
                caughtUpNs = nowNs;
            }
            assertTrue(nowNs - startNs < 20_000_000_000L, () -> "caught up and every order acked: " + pair.states());
            MdTests.checkInterrupted("catching up under load");
            LockSupport.parkNanos(100_000L);
        }
        final long catchUpMs = (caughtUpNs - startNs) / 1_000_000;
        final long sentDuring = nextId - held - 1;
        final long rate = (held + sentDuring) * 1000 / Math.max(1, catchUpMs);
        System.out.println("OrderCatchUpTest: " + (held + sentDuring) + " orders caught up in " + catchUpMs +
            " ms from the restart (" + rate + " orders/s) under 1,000 orders/s; slowest answer meanwhile " +
            maxAnswerNs / 1_000_000 + " ms");
        assertTrue(catchUpMs < 10_000, "caught up within 10 s: " + catchUpMs + " ms");
        assertTrue(rate >= 5_000, "at five times the load rate or more: " + rate + " orders/s");
        assertTrue(maxAnswerNs < 1_000_000_000L, "server 0 kept answering: slowest " + maxAnswerNs / 1_000_000 +
            " ms");

        pair.awaitRoles("each primary of half again", pair::eachServerPrimaryOfHalf);
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    private void submitInChunks(final long from, final long to)
    {
        for (long first = from; first <= to; first += 2_000)
        {
            pair.submitAndAwait(first, Math.min(to, first + 1_999));
        }
    }

    private void awaitCatchingUpHolding(final int server, final long orders)
    {
        MdTests.await(() -> "server " + server + " catching up, holding " + orders + ": " + pair.states(), () ->
        {
            if (null == pair.servers[server] || !"CATCHING_UP".equals(pair.servers[server].state()))
            {
                return false;
            }
            long held = 0;
            for (int p = 0; p < PARTITIONS; p++)
            {
                held += pair.partitionField(server, p, "last");
            }
            return orders == held;
        });
    }
}
