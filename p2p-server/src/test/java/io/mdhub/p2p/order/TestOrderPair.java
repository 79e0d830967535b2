package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.agrona.CloseHelper;

import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.MdTests;

/**
 * An order pair in one JVM for tests: two order services on loopback TCP with real fences and queues under a
 * temporary directory, a {@link TestOrderClient}, and per-server records of what each server's sink was given.
 * Single-threaded: the test drives the client.
 */
final class TestOrderPair implements AutoCloseable
{
    static final int PARTITIONS = 4;
    static final long CLIENT_ID = 77;

    final Path dir;
    final OrderService[] servers = new OrderService[2];
    final int[] fencePorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    final int[] orderPorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    final int[] peerPorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    /** Per server id: "partition/sequence" → times its sink was given it (across restarts of that server). */
    @SuppressWarnings("unchecked")
    final Map<String, Integer>[] deliveries = new Map[] {new ConcurrentHashMap<>(), new ConcurrentHashMap<>()};
    TestOrderClient client;

    TestOrderPair(final Path dir)
    {
        this.dir = dir;
    }

    OrderService launch(final int id)
    {
        return launch(id, (ctx) ->
        {
        });
    }

    /**
     * @param id        server id.
     * @param customize changes to the test's settings (applied last).
     * @return the running server.
     */
    OrderService launch(final int id, final Consumer<OrderService.Context> customize)
    {
        final Map<String, Integer> delivered = deliveries[id];
        final OrderSink sink = (partition, sequence, record, offset, length) ->
        {
            delivered.merge(partition + "/" + sequence, 1, Integer::sum);
            return true;
        };
        final OrderService.Context ctx = new OrderService.Context()
            .sink(sink)
            .serverId(id)
            .partitions(PARTITIONS)
            .address("localhost:" + orderPorts[id])
            .peerAddress("localhost:" + peerPorts[id])
            .peerRemoteAddress("localhost:" + peerPorts[1 - id])
            .fence("localhost:" + fencePorts[id], "localhost:" + fencePorts[1 - id])
            .timing(50_000_000L, 500_000_000L)
            .fenceTiming(500_000_000L, 300_000_000L)
            .startupPeerWaitNs(2_000_000_000L)
            .queueDir(dir.resolve("queue-" + id).toString())
            .registerMBean(false);
        customize.accept(ctx);
        servers[id] = OrderService.launch(ctx);
        return servers[id];
    }

    /**
     * Close a server (its process "dies": the fence port closes).
     */
    void stop(final int id)
    {
        CloseHelper.quietClose(servers[id]);
        servers[id] = null;
    }

    /**
     * Launch both servers with default settings, connect the client and wait until each is primary of half.
     */
    void start()
    {
        launch(0);
        launch(1);
        connectClient();
        awaitRoles("each server primary of half", this::eachServerPrimaryOfHalf);
    }

    void connectClient()
    {
        client = newClient(CLIENT_ID);
    }

    TestOrderClient newClient(final long clientId)
    {
        return newClient(clientId, PARTITIONS);
    }

    TestOrderClient newClient(final long clientId, final int partitions)
    {
        return new TestOrderClient(clientId, new InetSocketAddress[] {
            new InetSocketAddress("localhost", orderPorts[0]), new InetSocketAddress("localhost", orderPorts[1])},
            partitions);
    }

    /**
     * @return the servers as an order client lists them.
     */
    String clientServers()
    {
        return "localhost:" + orderPorts[0] + ",localhost:" + orderPorts[1];
    }

    void awaitRoles(final String what, final BooleanSupplier condition)
    {
        MdTests.await(() -> what + ": " + states(), () ->
        {
            client.hello();
            client.poll();
            return condition.getAsBoolean();
        });
    }

    String states()
    {
        final StringBuilder text = new StringBuilder();
        for (final OrderService server : servers)
        {
            if (null != server)
            {
                text.append(server.state()).append(' ').append(String.join(", ", server.partitions())).append('\n');
            }
        }
        return text.toString();
    }

    boolean eachServerPrimaryOfHalf()
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

    boolean allPrimaryOn(final int server)
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

    void submitAndAwait(final long fromOrderId, final long toOrderId)
    {
        final Set<Long> pending = new HashSet<>();
        for (long id = fromOrderId; id <= toOrderId; id++)
        {
            pending.add(id);
        }
        final long[] lastSendNs = {0};
        MdTests.await(() -> "acks for " + pending.size() + " orders: " + states(), () ->
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

    /**
     * Poll the client for a while (no fixed sleep in a test should stand for a wait on a condition: this is for
     * "nothing happens during").
     */
    void pollFor(final long durationNs)
    {
        final long untilNs = System.nanoTime() + durationNs;
        while (System.nanoTime() < untilNs)
        {
            client.poll();
            MdTests.checkInterrupted("polling for " + durationNs / 1_000_000 + " ms");
            LockSupport.parkNanos(100_000L);
        }
    }

    void assertEachOrderOnceWithContiguousSequences()
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
    void verifyQueues(final boolean allowBehind) throws IOException
    {
        stop(0);
        stop(1);
        final StringBuilder csv = new StringBuilder("clientId,orderId,partition,epoch,sequence\n");
        for (final TestOrderClient.Answer ack : client.acks.values())
        {
            csv.append(CLIENT_ID).append(',').append(ack.orderId()).append(',').append(ack.partition()).append(',')
                .append(ack.epoch()).append(',').append(ack.sequence()).append('\n');
        }
        final Path acked = Files.writeString(dir.resolve("acked.csv"), csv);
        final OrderVerifier verifier = new OrderVerifier();
        final boolean isOk = verifier.verify(List.of(dir.resolve("queue-0"), dir.resolve("queue-1")), acked,
            allowBehind);
        assertTrue(isOk, () -> String.join("\n", verifier.problems()));
    }

    RejectReason reason(final long orderId)
    {
        return reason(client, orderId);
    }

    static RejectReason reason(final TestOrderClient client, final long orderId)
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

    /**
     * @return the line of {@link OrderService#partitions()} for a partition, or "" if the server is not running.
     */
    String partitionLine(final int server, final int partition)
    {
        return null == servers[server] ? "" : servers[server].partitions()[partition];
    }

    /**
     * @return a field of a partition line ({@code drained}, {@code gaps}, ...) as a number.
     */
    long partitionField(final int server, final int partition, final String field)
    {
        for (final String pair : partitionLine(server, partition).split(" "))
        {
            if (pair.startsWith(field + "="))
            {
                return Long.parseLong(pair.substring(field.length() + 1));
            }
        }
        throw new IllegalArgumentException("no " + field + " in " + partitionLine(server, partition));
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(client, servers[0], servers[1]);
    }
}
