package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * An active/active pair in one JVM (embedded driver, IPC streams, real TCP fences): partitions shared between the
 * servers, synchronous replication, idempotent resends, a server killed and restarted, the replication link cut
 * while both live, both restarted from their queues, and bad orders refused to their client only.
 */
@InterruptAfter(120)
class OrderPairTest
{
    private static final int PARTITIONS = 4;

    @TempDir
    Path dir;

    private BackboneNode node;
    private Aeron aeron;
    private final OrderService[] servers = new OrderService[2];
    private final int[] fencePorts = {freePort(), freePort()};
    private TestOrderClient client;

    @BeforeEach
    void launchDriver()
    {
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .ipcTermBufferLength(1024 * 1024)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(client, servers[0], servers[1], aeron, node);
    }

    private final java.util.Set<String> drained = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private OrderService launch(final int id)
    {
        final OrderSink sink = (partition, sequence, record, offset, length) ->
        {
            drained.add(partition + "/" + sequence);
            return true;
        };
        servers[id] = OrderService.launch(new OrderService.Context()
            .sink(sink)
            .serverId(id)
            .partitions(PARTITIONS)
            .ingressChannel("aeron:ipc").ingressStreamId(3001 + 10 * id)
            .peerChannel("aeron:ipc").peerStreamId(3002 + 10 * id)
            .peerRemoteChannel("aeron:ipc").peerRemoteStreamId(3002 + 10 * (1 - id))
            .fence("localhost:" + fencePorts[id], "localhost:" + fencePorts[1 - id])
            .timing(50_000_000L, 500_000_000L)
            .startupPeerWaitNs(2_000_000_000L)
            .queueDir(dir.resolve("queue-" + id).toString())
            .registerMBean(false)
            .aeron(aeron));
        return servers[id];
    }

    private void connectClient()
    {
        client = new TestOrderClient(aeron, 77, new String[] {"aeron:ipc", "aeron:ipc"}, new int[] {3001, 3011},
            "aeron:ipc", 4077, PARTITIONS);
    }

    /**
     * Peer streams are per receiving server, so the remote stream id of server N is the peer stream of 1 - N.
     */
    private void awaitRoles(final String what, final BooleanSupplier condition)
    {
        MdTests.await(() -> what + ": " + String.join(" | ", states()), () ->
        {
            client.hello();
            client.poll();
            return condition.getAsBoolean();
        });
    }

    private String[] states()
    {
        final StringBuilder text = new StringBuilder();
        for (final OrderService server : servers)
        {
            if (null != server)
            {
                text.append(server.state()).append(' ').append(String.join(", ", server.partitions())).append('\n');
            }
        }
        return new String[] {text.toString()};
    }

    private boolean eachServerPrimaryOfHalf()
    {
        for (int p = 0; p < PARTITIONS; p++)
        {
            if (PartitionRole.PRIMARY != client.role(p % 2, p) || PartitionRole.BACKUP != client.role(1 - p % 2, p))
            {
                return false;
            }
        }
        return true;
    }

    private boolean allPrimaryOn(final int server)
    {
        for (int p = 0; p < PARTITIONS; p++)
        {
            if (PartitionRole.PRIMARY != client.role(server, p))
            {
                return false;
            }
        }
        return true;
    }

    private void submitAndAwait(final long fromOrderId, final long toOrderId)
    {
        final Set<Long> pending = new HashSet<>();
        for (long id = fromOrderId; id <= toOrderId; id++)
        {
            pending.add(id);
        }
        final long[] lastSendNs = {0};
        MdTests.await(() -> "acks for " + pending.size() + " orders: " + String.join(" | ", states()), () ->
        {
            client.poll();
            pending.removeIf(client.acks::containsKey);
            final long nowNs = System.nanoTime();
            if (nowNs - lastSendNs[0] > 200_000_000L)
            {
                lastSendNs[0] = nowNs;
                client.hello();
                for (final long id : pending)
                {
                    client.submit(id, (int)(id % PARTITIONS), -1);
                }
            }
            return pending.isEmpty();
        });
    }

    private void assertEachOrderOnceWithContiguousSequences()
    {
        final Set<String> slots = new HashSet<>();
        final long[] maxSequence = new long[PARTITIONS];
        for (final TestOrderClient.Answer answer : client.acks.values())
        {
            assertTrue(slots.add(answer.partition() + "/" + answer.sequence()),
                () -> "two orders with one sequence: " + answer);
            maxSequence[answer.partition()] = Math.max(maxSequence[answer.partition()], answer.sequence());
        }
        for (final TestOrderClient.Answer answer : client.answers)
        {
            if (answer.isAck())
            {
                final TestOrderClient.Answer first = client.acks.get(answer.orderId());
                assertEquals(first.sequence(), answer.sequence(), () -> "two different acks for one order: " + answer);
                assertEquals(first.partition(), answer.partition());
            }
        }
        int total = 0;
        for (int p = 0; p < PARTITIONS; p++)
        {
            total += maxSequence[p];
        }
        assertEquals(client.acks.size(), total, "sequences per partition are contiguous from 1: no gap, no loss");
    }

    /**
     * Stop both servers and run the verifier over their queues and the client's acks.
     */
    private void verifyQueues(final boolean allowBehind) throws IOException
    {
        for (int i = 0; i < 2; i++)
        {
            CloseHelper.quietClose(servers[i]);
            servers[i] = null;
        }
        final StringBuilder csv = new StringBuilder("clientId,orderId,partition,epoch,sequence\n");
        for (final TestOrderClient.Answer ack : client.acks.values())
        {
            csv.append(77).append(',').append(ack.orderId()).append(',').append(ack.partition()).append(',')
                .append(ack.epoch()).append(',').append(ack.sequence()).append('\n');
        }
        final Path acked = java.nio.file.Files.writeString(dir.resolve("acked.csv"), csv);
        final OrderVerifier verifier = new OrderVerifier();
        final boolean isOk = verifier.verify(java.util.List.of(dir.resolve("queue-0"), dir.resolve("queue-1")),
            acked, allowBehind);
        assertTrue(isOk, () -> String.join("\n", verifier.problems()));
    }

    @Test
    void verifierFindsAMissingAcknowledgedOrder() throws IOException
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);
        submitAndAwait(1, 20);
        client.acks.put(999L, new TestOrderClient.Answer(999, 1, true, 1, 99, false, true, null));
        for (int i = 0; i < 2; i++)
        {
            servers[i].close();
            servers[i] = null;
        }
        final Path acked = java.nio.file.Files.writeString(dir.resolve("acked.csv"),
            "77,999,1,1,99\n77,1,1," + client.acks.get(1L).epoch() + "," + client.acks.get(1L).sequence() + "\n");
        final OrderVerifier verifier = new OrderVerifier();
        assertFalse(verifier.verify(java.util.List.of(dir.resolve("queue-0"), dir.resolve("queue-1")), acked, false));
        assertEquals(2, verifier.problems().size(), () -> String.join("\n", verifier.problems()));
    }

    @Test
    void pairSharesPartitionsReplicatesAndAnswersResendsWithTheOriginalAck() throws IOException
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);

        submitAndAwait(1, 200);
        for (final TestOrderClient.Answer answer : client.acks.values())
        {
            assertTrue(answer.replicated(), () -> "stored on both before the ack: " + answer);
        }
        assertEachOrderOnceWithContiguousSequences();

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
        assertEachOrderOnceWithContiguousSequences();
        verifyQueues(false);
    }

    @Test
    void killedServerLosesNothingAndRejoinsAsBackupAfterCatchingUp() throws IOException
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);
        submitAndAwait(1, 100);

        servers[1].close(); // its fence closes: server 0 knows it is dead
        servers[1] = null;
        awaitRoles("server 0 primary of everything", () -> allPrimaryOn(0));
        submitAndAwait(101, 200);
        assertEachOrderOnceWithContiguousSequences();

        launch(1);
        awaitRoles("server 1 back, each primary of half again", this::eachServerPrimaryOfHalf);
        submitAndAwait(201, 300);
        assertEachOrderOnceWithContiguousSequences();

        servers[0].close();
        servers[0] = null;
        awaitRoles("server 1 primary of everything", () -> allPrimaryOn(1));
        submitAndAwait(301, 400);
        assertEachOrderOnceWithContiguousSequences();
        verifyQueues(true); // server 0 died last and did not rejoin: its queue is behind
    }

    @Test
    void steppingDownHandsEveryPartitionToThePeerAndBack() throws IOException
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);
        submitAndAwait(1, 40);

        servers[0].stepDown(true);
        awaitRoles("server 1 primary of everything", () -> allPrimaryOn(1));
        submitAndAwait(41, 80);
        for (long id = 41; id <= 80; id++)
        {
            assertTrue(client.acks.get(id).replicated(), "server 0 is still a synchronous backup");
        }
        servers[0].stepDown(false);
        awaitRoles("each server primary of half again", this::eachServerPrimaryOfHalf);
        submitAndAwait(81, 120);
        assertEachOrderOnceWithContiguousSequences();
        verifyQueues(false);
    }

    @Test
    void promotedBackupResumesDrainingWhereTheDeadPrimaryStopped()
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);
        submitAndAwait(1, 100);
        servers[1].close();
        servers[1] = null;
        awaitRoles("server 0 primary of everything", () -> allPrimaryOn(0));
        submitAndAwait(101, 200);
        MdTests.await(() -> "every acknowledged order drained once the survivor caught up: " + drained.size(), () ->
        {
            for (final TestOrderClient.Answer ack : client.acks.values())
            {
                if (!drained.contains(ack.partition() + "/" + ack.sequence()))
                {
                    return false;
                }
            }
            return true;
        });
    }

    @Test
    void cutReplicationLinkHoldsAcksAndLosesOrDuplicatesNothing() throws IOException
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);
        submitAndAwait(1, 40);

        servers[0].severPeerLink(true);
        servers[1].severPeerLink(true);
        final int before = client.acks.size();
        for (long id = 41; id <= 80; id++)
        {
            client.submit(id, (int)(id % PARTITIONS), -1);
        }
        final long untilNs = System.nanoTime() + 1_500_000_000L;
        while (System.nanoTime() < untilNs)
        {
            client.poll();
            Thread.onSpinWait();
        }
        assertEquals(before, client.acks.size(), "no ack while the backup is alive but unreachable");
        assertFalse(allPrimaryOn(0) || allPrimaryOn(1), "nobody took over a live peer's partitions");

        servers[0].severPeerLink(false);
        servers[1].severPeerLink(false);
        submitAndAwait(41, 80);
        assertEachOrderOnceWithContiguousSequences();
        verifyQueues(false);
    }

    @Test
    void bothServersRestartFromTheirQueuesWithEveryAcknowledgedOrder()
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);
        submitAndAwait(1, 120);
        servers[0].close();
        servers[1].close();
        servers[0] = null;
        servers[1] = null;

        launch(0);
        launch(1);
        awaitRoles("the pair is back", this::eachServerPrimaryOfHalf);
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
        submitAndAwait(121, 160);
        assertEachOrderOnceWithContiguousSequences();
    }

    @Test
    void badOrdersAreRefusedToTheirClientWithAReason()
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);

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
        assertEquals(RejectReason.MALFORMED_FIX, reason(1));
        assertEquals(RejectReason.UNKNOWN_PARTITION, reason(2));
        assertEquals(RejectReason.OVERSIZE, reason(3));
        assertEquals(RejectReason.NOT_PRIMARY, reason(4));
        submitAndAwait(5, 44);
        assertEachOrderOnceWithContiguousSequences();
    }

    private RejectReason reason(final long orderId)
    {
        for (final TestOrderClient.Answer answer : client.answers)
        {
            if (answer.orderId() == orderId && !answer.isAck())
            {
                return answer.reason();
            }
        }
        return null;
    }

    private static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
