package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import javax.management.JMX;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * Failures the fence cannot settle by itself, and what a server may do when it starts: a peer whose host stops
 * answering (held until an operator takes over, then the cut-off server yields), a server that starts while its
 * peer, which served alone after it, is stopped (it waits), the last server standing restarting alone, and the
 * operator's overrides.
 */
@InterruptAfter(120)
class OrderPairFailuresTest
{
    private static final int PARTITIONS = TestOrderPair.PARTITIONS;

    @TempDir
    Path dir;

    private TestOrderPair pair;
    private FakeFenceHost hostOfServer1;

    @BeforeEach
    void createPair()
    {
        pair = new TestOrderPair(dir);
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(pair, hostOfServer1);
    }

    /**
     * Server 0 reaches server 1's fence through a stand-in for server 1's host. The host "crashes" (its fence goes
     * silent, connects go unanswered) while the replication link is cut: server 0 cannot tell a dead server from a
     * cut-off one, so it takes nothing over and holds the acks that need server 1 — as server 1 (alive, cut off)
     * holds its own. An operator's takeOverPeerPartitions over JMX promotes server 1's partitions on server 0, which
     * acknowledges alone. When the link returns, server 1 finds its partitions taken at a higher epoch, discards
     * what it held (never acknowledged) and catches up. No order acknowledged twice, no sequence given twice.
     */
    @Test
    void unreachablePeerIsHeldUntilAnOperatorTakesOverThenTheCutOffServerYields() throws Exception
    {
        hostOfServer1 = new FakeFenceHost();
        final int hostPort = hostOfServer1.port();
        pair.launch(0, (ctx) -> ctx.registerMBean(true).fence("localhost:" + pair.fencePorts[0],
            "127.0.0.1:" + hostPort));
        pair.launch(1);
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(1, 40);
        final OrderServiceMXBean server0 = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
            MBeans.objectName("OrderService", "server-0"), OrderServiceMXBean.class);
        assertTrue(server0.getFenceState().startsWith("UP"), server0.getFenceState());

        hostOfServer1.die();
        pair.servers[0].severPeerLink(true);
        pair.servers[1].severPeerLink(true);
        final int before = pair.client.acks.size();
        for (long id = 41; id <= 80; id++)
        {
            pair.client.submit(id, (int)(id % PARTITIONS), -1);
        }
        MdTests.await(() -> "server 0's fence gives up on the host: " + server0.getFenceState(),
            () -> server0.getFenceState().contains("no answer"));
        pair.pollFor(500_000_000L);
        assertTrue(server0.getFenceState().startsWith("UNKNOWN"), server0.getFenceState());
        assertEquals(before, pair.client.acks.size(), "nothing acknowledged while server 1 may be alive");
        assertFalse(pair.allPrimaryOn(0), "nothing taken over from a server that may be alive");
        assertEquals(0, server0.getFailovers());
        assertEquals(0, server0.getForcedTakeovers());

        final String result = server0.takeOverPeerPartitions("test: host of server 1 confirmed powered off");
        assertTrue(result.startsWith("done"), result);
        assertEquals(1, server0.getForcedTakeovers());
        assertTrue(server0.isPeerDeclaredDead());
        assertEquals("SOLE", server0.getStanding());
        pair.awaitRoles("server 0 primary of everything", () -> pair.allPrimaryOn(0));
        pair.submitAndAwait(41, 80);
        for (long id = 41; id <= 80; id++)
        {
            assertFalse(pair.client.acks.get(id).replicated(), "acknowledged by server 0 alone");
        }

        hostOfServer1.revive();
        pair.servers[0].severPeerLink(false);
        pair.servers[1].severPeerLink(false);
        pair.awaitRoles("server 1 discarded its store, caught up and took its partitions back",
            pair::eachServerPrimaryOfHalf);
        assertFalse(server0.isPeerDeclaredDead(), "server 1 caught up: alive again");
        pair.submitAndAwait(81, 120);
        for (long id = 81; id <= 120; id++)
        {
            assertTrue(pair.client.acks.get(id).replicated(), "a pair again");
        }
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    /**
     * The stale start: server 0 is killed, server 1 acknowledges orders alone, server 1 is stopped, and server 0
     * starts first. Its store does not prove it holds every acknowledged order (it was not the last one serving), so
     * it must not serve alone after the startup wait — it would reuse server 1's sequence numbers — but wait until
     * server 1 is back, then catch up from it.
     */
    @Test
    void serverThatWasNotLastServingWaitsForItsPeerInsteadOfServingAlone() throws IOException
    {
        pair.launch(0);
        pair.launch(1);
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(1, 40);
        assertEquals("PAIRED", pair.servers[0].standing());

        pair.stop(0);
        pair.awaitRoles("server 1 primary of everything", () -> pair.allPrimaryOn(1));
        pair.submitAndAwait(41, 80);
        assertEquals("SOLE", pair.servers[1].standing(), "server 1 acknowledged alone");
        pair.stop(1);

        pair.launch(0, (ctx) -> ctx.startupPeerWaitNs(200_000_000L));
        pair.pollFor(1_500_000_000L);
        assertEquals("STARTING", pair.servers[0].state(), "still waiting for server 1, long after the wait");
        // the restarted server knows no client until it says hello again (it hears nothing sent while it was down)
        final long[] lastSendNs = {System.nanoTime() - 1_000_000_000L};
        MdTests.await("server 0 refuses an order while waiting", () ->
        {
            if (System.nanoTime() - lastSendNs[0] > 200_000_000L)
            {
                lastSendNs[0] = System.nanoTime();
                pair.client.hello();
                pair.client.submit(81, 1, 0);
            }
            pair.client.poll();
            return null != pair.reason(81);
        });
        assertEquals(RejectReason.NOT_PRIMARY, pair.reason(81));

        pair.launch(1);
        pair.awaitRoles("the pair is back with server 1's orders", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(41, 120); // 41-80 again: the original acks
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    /**
     * The last server standing holds every acknowledged order: it may restart alone (after the startup wait) and
     * the other catches up from it when it returns.
     */
    @Test
    void lastServerStandingRestartsAloneAndTheOtherCatchesUp() throws IOException
    {
        pair.launch(0);
        pair.launch(1);
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(1, 40);
        pair.stop(0);
        pair.awaitRoles("server 1 primary of everything", () -> pair.allPrimaryOn(1));
        pair.submitAndAwait(41, 80);
        pair.stop(1);

        pair.launch(1, (ctx) -> ctx.startupPeerWaitNs(200_000_000L));
        MdTests.await(() -> "server 1 serves alone: " + pair.states(),
            () -> "SERVING".equals(pair.servers[1].state()));
        pair.awaitRoles("server 1 primary of everything", () -> pair.allPrimaryOn(1));
        pair.submitAndAwait(1, 120);
        pair.launch(0);
        pair.awaitRoles("server 0 caught up and took its partitions back", pair::eachServerPrimaryOfHalf);
        assertEquals("PAIRED", pair.servers[1].standing(), "server 0 can take over again: no proof any more");
        pair.submitAndAwait(121, 160);
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    /**
     * Without proof a server waits for its peer; the operator may override — by JMX while it waits, or with
     * {@code mdhub.order.startup.force.alone} for one start — and both are counted.
     */
    @Test
    void operatorOverridesLetAServerWithoutProofStartAlone()
    {
        pair.launch(0, (ctx) -> ctx.startupPeerWaitNs(100_000_000L));
        pair.connectClient();
        pair.pollFor(800_000_000L);
        assertEquals("STARTING", pair.servers[0].state());
        assertEquals("UNPROVEN", pair.servers[0].standing());
        final String result = pair.servers[0].takeOverPeerPartitions("test: server 1's disk is gone");
        assertTrue(result.startsWith("done"), result);
        pair.awaitRoles("server 0 serves alone", () -> pair.allPrimaryOn(0));
        pair.submitAndAwait(1, 20);
        assertEquals(1, pair.servers[0].counters().forcedTakeovers.get());
        pair.stop(0);

        final Path fresh = dir.resolve("fresh");
        pair.launch(0, (ctx) -> ctx.queueDir(fresh.toString()).startupPeerWaitNs(100_000_000L)
            .startupForceAlone(true));
        MdTests.await(() -> "server 0 serves alone on the override: " + pair.states(),
            () -> "SERVING".equals(pair.servers[0].state()));
        assertEquals(1, pair.servers[0].counters().forcedTakeovers.get());
        assertEquals("SOLE", pair.servers[0].standing());
        pair.submitAndAwait(21, 40); // acknowledged (a refusal would leave the wait unanswered): it serves alone
    }
}
