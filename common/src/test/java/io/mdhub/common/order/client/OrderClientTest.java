package io.mdhub.common.order.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.order.FakeOrderPair;
import io.mdhub.common.test.order.FakeOrderServer;
import io.mdhub.common.test.order.OrderTests;

/**
 * The order client against a fake server pair over loopback TCP.
 */
@InterruptAfter(30)
class OrderClientTest
{
    private static final int PARTITIONS = 4;
    private static final int LENGTH = OrderTests.ORDER_LENGTH;

    private FakeOrderPair pair;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void launch()
    {
        pair = new FakeOrderPair(PARTITIONS);
    }

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(closeables);
        CloseHelper.closeAll(pair);
    }

    @Test
    void synchronousSubmitReturnsTheSequenceFromThePartitionsPrimary()
    {
        final OrderClient client = connect(context(7));
        assertEquals(PARTITIONS, client.partitionCount());
        assertEquals(7, client.clientId());

        final Map<Integer, Long> sequences = new HashMap<>();
        for (long orderId = 1; orderId <= 12; orderId++)
        {
            final int partition = OrderClient.partitionOf(orderId, PARTITIONS);
            final long sequence = client.submit(orderId, OrderTests.order(orderId), 0, LENGTH);
            assertEquals(sequences.merge(partition, 1L, Long::sum), sequence, "order " + orderId);
            assertEquals(partition, client.lastAckPartition());
            assertEquals(1, client.lastAckEpoch());
            assertFalse(client.lastAckDuplicate());
            assertTrue(pair.server(partition % 2).received().contains(orderId), "routed to the primary");
            assertFalse(pair.server(1 - partition % 2).received().contains(orderId), "not to the backup");
        }

        assertEquals(1, client.submit(100, 3, OrderTests.order(100), 0, LENGTH) - sequences.getOrDefault(3, 0L));
        assertEquals(3, client.lastAckPartition());
        assertEquals(List.of(100L), tail(pair.server(1).received(), 1));
        assertEquals(0, client.inFlight());
        assertEquals(13, client.ackCount());
        assertEquals(0, client.resendCount());
    }

    @Test
    void anOrderLongerThanTheReceiveBufferIsSentWholeAndAcked()
    {
        final int length = 60_000; // several TCP segments, and longer than a server's first receive buffer
        final OrderClient client = connect(context(9).maxOrderLength(length));
        final UnsafeBuffer longOrder = new UnsafeBuffer(new byte[length]);
        longOrder.putBytes(0, OrderTests.order(1), 0, LENGTH);
        final int partition = OrderClient.partitionOf(1, PARTITIONS);

        assertEquals(1, client.submit(1, longOrder, 0, length));
        assertTrue(pair.server(partition % 2).received().contains(1L), "read whole by the primary");
        assertEquals(2, client.submit(2, partition, OrderTests.order(2), 0, LENGTH), "a short order after it");
    }

    @Test
    void asynchronousSubmitsAreBoundedByTheWindow()
    {
        final OrderClient client = connect(context(8).window(8));
        pair.call(() ->
        {
            pair.server(0).paused(true);
            pair.server(1).paused(true);
        });

        final RecordingOrderListener listener = new RecordingOrderListener();
        for (long orderId = 1; orderId <= 8; orderId++)
        {
            assertTrue(client.submitAsync(orderId, OrderTests.order(orderId), 0, LENGTH, listener));
        }
        assertFalse(client.submitAsync(9, OrderTests.order(9), 0, LENGTH, listener), "window full");
        assertEquals(8, client.inFlight());
        assertThrows(IllegalArgumentException.class,
            () -> client.submitAsync(3, OrderTests.order(3), 0, LENGTH, listener), "order 3 is in flight");

        pair.call(() ->
        {
            pair.server(0).paused(false);
            pair.server(1).paused(false);
        });
        pollUntil(client, "8 acks", () -> 8 == listener.count());
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), listener.acks.keySet());
        assertTrue(listener.rejects.isEmpty());
        assertEquals(0, client.inFlight());

        assertTrue(client.submitAsync(9, OrderTests.order(9), 0, LENGTH, listener));
        pollUntil(client, "order 9 acked", () -> listener.acks.containsKey(9L));
        assertSequencesContiguous(listener);
    }

    @Test
    void finalRejectReasonsSurface()
    {
        pair.call(() -> pair.setPrimaryForAll(0));
        final OrderClient client = connect(context(9));

        pair.call(() -> pair.server(0).rejectNext("quantity must be positive", RejectReason.INVALID_ORDER));
        final OrderRejectedException invalid = assertThrows(OrderRejectedException.class,
            () -> client.submit(1, OrderTests.order(1), 0, LENGTH));
        assertEquals(RejectReason.INVALID_ORDER, invalid.reason());
        assertEquals("quantity must be positive", invalid.text());
        assertEquals(1, invalid.orderId());
        assertEquals(OrderClient.partitionOf(1, PARTITIONS), invalid.partition());

        pair.call(() -> pair.server(0).rejectNext("checksum", RejectReason.MALFORMED_FIX, RejectReason.OVERSIZE));
        final RecordingOrderListener listener = new RecordingOrderListener();
        assertTrue(client.submitAsync(2, OrderTests.order(2), 0, LENGTH, listener));
        pollUntil(client, "order 2 rejected", () -> 1 == listener.count());
        assertTrue(client.submitAsync(3, OrderTests.order(3), 0, LENGTH, listener));
        pollUntil(client, "order 3 rejected", () -> 2 == listener.count());
        assertEquals(RejectReason.MALFORMED_FIX, listener.rejects.get(2L).reason);
        assertEquals("checksum", listener.rejects.get(2L).text);
        assertEquals(RejectReason.OVERSIZE, listener.rejects.get(3L).reason);

        final OrderRejectedException unknown = assertThrows(OrderRejectedException.class,
            () -> client.submit(4, PARTITIONS + 5, OrderTests.order(4), 0, LENGTH));
        assertEquals(RejectReason.UNKNOWN_PARTITION, unknown.reason());
        assertFalse(pair.server(0).received().contains(4L), "decided by the client");

        assertEquals(1, client.submit(5, 0, OrderTests.order(5), 0, LENGTH), "still usable");
        assertEquals(0, client.inFlight());
        assertEquals(4, client.rejectCount());
        assertEquals(0, client.retryableRejectCount());
    }

    @Test
    void notPrimaryWaitsForTheNextMapAndGoesToTheNewPrimary()
    {
        final OrderClient client = connect(context(10).ackTimeoutMs(20_000));
        pair.call(() -> pair.server(0).notPrimaryFor(0));

        final RecordingOrderListener listener = new RecordingOrderListener();
        assertTrue(client.submitAsync(1, 0, OrderTests.order(1), 0, LENGTH, listener));
        pollUntil(client, "NOT_PRIMARY from server 0", () -> 1 == client.retryableRejectCount());
        final long maps = client.mapCount();
        pollUntil(client, "server 0's fresh map (asked for by a hello)", () -> client.mapCount() > maps);
        for (int i = 0; i < 100; i++)
        {
            client.poll();
        }
        assertEquals(0, listener.count(), "the same route: no resend before a new map");
        assertEquals(List.of(1L), pair.server(0).received());

        pair.call(() -> pair.setPrimary(0, 1));
        pollUntil(client, "order 1 acked", () -> 1 == listener.count());
        final RecordingOrderListener.Ack ack = listener.acks.get(1L);
        assertEquals(0, ack.partition);
        assertEquals(2, ack.epoch);
        assertEquals(1, ack.sequence);
        assertFalse(ack.duplicate);
        assertEquals(List.of(1L), pair.server(0).received(), "sent once to the old primary");
        assertEquals(List.of(1L), pair.server(1).received(), "and once to the new one");
        assertEquals(1, client.primaryOf(0));
    }

    @Test
    void whenThePrimaryDiesUnacknowledgedOrdersGoToTheSurvivorAndAreAckedOnce()
    {
        pair.call(() -> pair.setPrimaryForAll(0));
        final OrderClient client = connect(context(11).ackTimeoutMs(20_000));
        final RecordingOrderListener listener = new RecordingOrderListener();

        for (long orderId = 1; orderId <= 3; orderId++)
        {
            assertTrue(client.submitAsync(orderId, OrderTests.order(orderId), 0, LENGTH, listener));
        }
        pollUntil(client, "orders 1-3 acked", () -> 3 == listener.count());

        pair.call(() -> pair.server(0).silentNext(4)); // stored and replicated, acks lost
        for (long orderId = 4; orderId <= 7; orderId++)
        {
            assertTrue(client.submitAsync(orderId, OrderTests.order(orderId), 0, LENGTH, listener));
        }
        pollUntil(client, "orders 4-7 stored", () -> 7 == pair.query(pair::storedCount));
        pair.call(() -> pair.server(0).dropNext(3)); // lost before the primary stored them
        for (long orderId = 8; orderId <= 10; orderId++)
        {
            assertTrue(client.submitAsync(orderId, OrderTests.order(orderId), 0, LENGTH, listener));
        }
        pollUntil(client, "orders 8-10 reach server 0", () -> 10 == pair.server(0).received().size());
        assertEquals(3, listener.count());
        assertEquals(7, client.inFlight());

        pair.call(() -> pair.failover(0));
        pollUntil(client, "every order acked", () -> 10 == listener.count());

        assertEquals(10, listener.acks.size(), "each order reported once");
        for (long orderId = 1; orderId <= 10; orderId++)
        {
            final RecordingOrderListener.Ack ack = listener.acks.get(orderId);
            assertEquals(orderId >= 4 && orderId <= 7, ack.duplicate, "duplicate flag of order " + orderId);
        }
        assertEquals(new TreeSet<>(List.of(4L, 5L, 6L, 7L, 8L, 9L, 10L)), new TreeSet<>(pair.server(1).received()));
        assertEquals(7, pair.server(1).received().size(), "each unacknowledged order resent once");
        assertEquals(4, client.duplicateAckCount());
        assertEquals(0, client.inFlight());
        pollUntil(client, "server 0's ingress seen disconnected",
            () -> 1 == client.connectedServerCount() && client.serverLossCount() > 0);
        assertEquals(1, client.serverLossCount(), "one death, one loss, whichever stream closed first");
        assertSequencesContiguous(listener);
        for (int p = 0; p < PARTITIONS; p++)
        {
            assertEquals(1, client.primaryOf(p));
        }
    }

    @Test
    void backPressureKeepsOrdersQueuedUntilTheServerReadsAgain()
    {
        pair.call(() -> pair.setPrimaryForAll(0));
        // more than the kernel's socket buffers and the client's send limit take: about 19 MiB
        final int orders = 50_000;
        final OrderClient client = connect(context(12).window(orders).maxOrderLength(LENGTH)
            .sendLimitBytes(64 * 1024).ackTimeoutMs(20_000));
        pair.call(() -> pair.server(0).paused(true));

        final RecordingOrderListener listener = new RecordingOrderListener();
        for (long orderId = 1; orderId <= orders; orderId++)
        {
            assertTrue(client.submitAsync(orderId, OrderTests.order(orderId), 0, LENGTH, listener));
        }
        pollUntil(client, "back-pressure", () -> client.backPressureCount() > 0);
        for (int i = 0; i < 100; i++)
        {
            client.poll();
        }
        assertTrue(client.sendCount() < orders, "sent " + client.sendCount());
        assertEquals(orders, client.inFlight(), "nothing dropped");

        pair.call(() -> pair.server(0).paused(false));
        pollUntil(client, "every order acked", () -> orders == listener.count());
        assertEquals(orders, listener.acks.size());
        assertEquals(orders, pair.server(0).received().size(), "each sent once");
        assertEquals(0, client.resendCount());
        assertSequencesContiguous(listener);
    }

    @Test
    void unknownClientSaysHelloAgainAndResends()
    {
        final OrderClient client = connect(context(13));
        final int hellos = pair.server(0).hellos();
        pair.call(() -> pair.server(0).forgetClients());

        final long sequence = client.submit(1, 0, OrderTests.order(1), 0, LENGTH);
        assertEquals(1, sequence);
        assertEquals(1, client.retryableRejectCount());
        assertTrue(pair.server(0).hellos() > hellos, "hello again");
        assertEquals(List.of(1L, 1L), pair.server(0).received());
    }

    @Test
    void anUnansweredOrderIsSentAgainAfterTheAckTimeout()
    {
        final OrderClient client = connect(context(14).ackTimeoutMs(200));

        pair.call(() -> pair.server(0).dropNext(1));
        assertEquals(1, client.submit(1, 0, OrderTests.order(1), 0, LENGTH));
        assertFalse(client.lastAckDuplicate(), "the first send was lost");
        assertTrue(client.ackTimeoutCount() >= 1);

        pair.call(() -> pair.server(0).silentNext(1));
        assertEquals(2, client.submit(2, 0, OrderTests.order(2), 0, LENGTH));
        assertTrue(client.lastAckDuplicate(), "the first send was stored, its ack lost");
        assertEquals(List.of(1L, 1L, 2L, 2L), pair.server(0).received());
        assertEquals(2, client.resendCount());
    }

    @Test
    void aRestartedServerIsGreetedAgain()
    {
        final OrderClient client = connect(context(15));
        final int hellos = pair.server(0).hellos();

        pair.call(() -> pair.server(0).restart());
        pollUntil(client, "server 0 lost, greeted again and ready",
            () -> client.serverLossCount() >= 1 && pair.server(0).hellos() > hellos && client.isReady());
        assertEquals(1, client.submit(1, 0, OrderTests.order(1), 0, LENGTH));
        assertEquals(List.of(1L), pair.server(0).received());
    }

    @Test
    void synchronousSubmitGivesUpAfterTheSubmitTimeout()
    {
        final OrderClient client = connect(context(16).ackTimeoutMs(100).submitTimeoutMs(400));
        pair.call(() -> pair.server(0).dropNext(1_000));

        final OrderTimeoutException timeout = assertThrows(OrderTimeoutException.class,
            () -> client.submit(1, 0, OrderTests.order(1), 0, LENGTH));
        assertEquals(1, timeout.orderId());
        assertTrue(timeout.getMessage().contains("sent to server 0"), timeout.getMessage());
        assertEquals(0, client.inFlight(), "abandoned");
        assertTrue(pair.server(0).received().size() >= 2, "resent meanwhile");
    }

    @Test
    void ordersSpreadOverTwoPairs()
    {
        final FakeOrderPair second = new FakeOrderPair(PARTITIONS);
        closeables.add(second);
        final OrderClient client = connect(context(17).servers(pair.servers() + "," + second.servers()));
        assertEquals(2, client.pairCount());
        assertEquals(2 * PARTITIONS, client.partitionCount());

        for (long orderId = 1; orderId <= 40; orderId++)
        {
            client.submit(orderId, OrderTests.order(orderId), 0, LENGTH);
            final int partition = client.lastAckPartition();
            assertEquals(OrderClient.partitionOf(orderId, 2 * PARTITIONS), partition);
            final FakeOrderPair owner = partition < PARTITIONS ? pair : second;
            final FakeOrderServer primary = owner.server((partition % PARTITIONS) % 2);
            assertTrue(primary.received().contains(orderId), "order " + orderId + " partition " + partition);
        }
        assertEquals(40, pair.query(pair::storedCount) + second.query(second::storedCount));
        assertTrue(second.query(second::storedCount) > 0);
        assertEquals(2, client.primaryOf(PARTITIONS + 2), "pair 1's server 0 is the third server");
    }

    @Test
    void aClientIdIsTakenAtConcludeWhenNoneIsSet()
    {
        final OrderClient client = connect(context(0));
        assertNotEquals(0, client.clientId());
        assertEquals(1, client.submit(1, 0, OrderTests.order(1), 0, LENGTH));
    }

    private OrderClient.Context context(final long clientId)
    {
        return new OrderClient.Context()
            .clientId(clientId)
            .servers(pair.servers())
            .ackTimeoutMs(1_000)
            .submitTimeoutMs(10_000)
            .helloIntervalMs(200);
    }

    private OrderClient connect(final OrderClient.Context ctx)
    {
        final OrderClient client = OrderClient.connect(ctx);
        closeables.add(0, client);
        pollUntil(client, "client ready", client::isReady);
        return client;
    }

    private static void pollUntil(final OrderClient client, final String what, final BooleanSupplier condition)
    {
        MdTests.await(what, () ->
        {
            client.poll();
            return condition.getAsBoolean();
        });
    }

    private static List<Long> tail(final List<Long> list, final int n)
    {
        return list.subList(list.size() - n, list.size());
    }

    private static void assertSequencesContiguous(final RecordingOrderListener listener)
    {
        final Map<Integer, Set<Long>> byPartition = new HashMap<>();
        for (final RecordingOrderListener.Ack ack : listener.acks.values())
        {
            assertTrue(byPartition.computeIfAbsent(ack.partition, (p) -> new HashSet<>()).add(ack.sequence),
                "sequence " + ack.sequence + " twice in partition " + ack.partition);
        }
        for (final Map.Entry<Integer, Set<Long>> entry : byPartition.entrySet())
        {
            final TreeSet<Long> sequences = new TreeSet<>(entry.getValue());
            assertEquals(1L, sequences.first(), "partition " + entry.getKey());
            assertEquals((long)sequences.size(), sequences.last(), "gap in partition " + entry.getKey());
        }
    }
}
