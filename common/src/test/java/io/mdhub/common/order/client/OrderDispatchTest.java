package io.mdhub.common.order.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.InterruptAfter;

/**
 * {@link OrderDispatch} on its own: real {@link OrderRouting} and {@link InFlightOrders} (maps applied as the
 * client's egress applies them) over fake connections that record what is sent and answer as told. Two pairs: servers
 * 0 and 1 are pair 0, servers 2 and 3 pair 1, two partitions each.
 */
@InterruptAfter(10)
class OrderDispatchTest
{
    private static final long ACK_TIMEOUT_NS = 1_000_000_000L;
    private static final short PRIMARY = PartitionRole.PRIMARY.value();
    private static final short BACKUP = PartitionRole.BACKUP.value();
    private static final int SERVERS = 4;

    private final InFlightOrders orders = new InFlightOrders(8, 16);
    private final OrderRouting routing = new OrderRouting(2, orders, ACK_TIMEOUT_NS);
    private final FakeOrderLinks links = new FakeOrderLinks();
    private final OrderClientCounters counters = new OrderClientCounters();
    private final RecordingOrderListener listener = new RecordingOrderListener();
    private long nowNs = 1_000;
    private final OrderDispatch dispatch =
        new OrderDispatch(orders, routing, links, counters, () -> nowNs, ACK_TIMEOUT_NS);

    @BeforeEach
    void connect()
    {
        Arrays.fill(links.connected, true);
    }

    @AfterEach
    void close()
    {
        CloseHelper.close(orders);
    }

    @Test
    void anOrderGoesToItsPartitionsPrimaryWithItsFixBytes()
    {
        twoPairs();
        final int first = submit(11, 1);
        final int second = submit(12, 2);
        final int third = submit(13, 3);

        assertEquals(3, dispatch.sendQueued(nowNs));
        assertEquals(List.of(
            new Sent(1, 11, 1, 1_000, "order-11"),
            new Sent(3, 12, 0, 1_001, "order-12"),
            new Sent(2, 13, 1, 1_002, "order-13")), links.sent);
        for (final int slot : new int[]{first, second, third})
        {
            assertEquals(InFlightOrders.SENT, orders.states[slot]);
            assertEquals(1, orders.sentEpochs[slot]);
            assertEquals(1, orders.sends[slot]);
        }
        assertEquals(1, orders.sentServers[first]);
        assertEquals(3, orders.sentServers[second]);
        assertEquals(2, orders.sentServers[third]);
        assertEquals(3, counters.sends);
        assertEquals(0, counters.resends);
        assertEquals(0, orders.queueSize());
        assertEquals(0, dispatch.sendQueued(nowNs), "nothing left to send");
    }

    @Test
    void sendStampsStrictlyIncreaseWhateverTheClockSays()
    {
        twoPairs();
        final int first = submit(1, 0);
        final int second = submit(2, 0);
        dispatch.sendQueued(nowNs);
        assertEquals(1_000, orders.sendTimestampsNs[first]);
        assertEquals(1_001, orders.sendTimestampsNs[second], "the same clock reading");

        nowNs = 10; // a clock that went back
        final int third = submit(3, 0);
        dispatch.sendQueued(nowNs);
        assertEquals(1_002, orders.sendTimestampsNs[third]);

        nowNs = 5_000;
        final int fourth = submit(4, 0);
        dispatch.sendQueued(nowNs);
        assertEquals(5_000, orders.sendTimestampsNs[fourth], "the clock again once it is ahead");
    }

    @Test
    void anOrderWithoutPartitionCountsWaitsUntilItsRetryTime()
    {
        final int slot = submit(1, OrderClient.ANY_PARTITION);
        assertEquals(0, dispatch.sendQueued(nowNs));
        assertEquals(InFlightOrders.WAITING, orders.states[slot]);
        assertEquals(nowNs + ACK_TIMEOUT_NS, orders.retryAtNs[slot]);

        assertEquals(0, dispatch.checkTimeouts(nowNs + ACK_TIMEOUT_NS - 1));
        assertEquals(InFlightOrders.WAITING, orders.states[slot]);
        assertEquals(1, dispatch.checkTimeouts(nowNs + ACK_TIMEOUT_NS));
        assertEquals(InFlightOrders.QUEUED, orders.states[slot]);
        assertEquals(0, counters.ackTimeouts, "a wait is not an ack timeout");
        assertTrue(links.askedPairs.isEmpty());
    }

    @Test
    void anOrderWithoutAPrimaryOrWithAnUnconnectedOneWaits()
    {
        map(0, 0, 1, BACKUP, PRIMARY);
        map(0, 1, 1, BACKUP, BACKUP);
        map(1, 0, 1, PRIMARY, PRIMARY);
        final int noPrimary = submit(1, 0);
        final int unconnected = submit(2, 2);
        links.connected[2] = false;

        assertEquals(0, dispatch.sendQueued(nowNs));
        assertEquals(InFlightOrders.WAITING, orders.states[noPrimary]);
        assertEquals(nowNs + ACK_TIMEOUT_NS, orders.retryAtNs[noPrimary]);
        assertEquals(InFlightOrders.WAITING, orders.states[unconnected]);
        assertEquals(nowNs + ACK_TIMEOUT_NS, orders.retryAtNs[unconnected]);
        assertTrue(links.sent.isEmpty());
        assertEquals(0, links.offers, "nothing was offered to a connection");
        assertEquals(0, counters.sends);
    }

    @Test
    void aConnectionThatIsNotOpenLeavesTheOrderWaiting()
    {
        twoPairs();
        links.results[0] = OrderIngressPublisher.NOT_CONNECTED;
        final int slot = submit(1, 0);
        nowNs = 7_000;

        assertEquals(0, dispatch.sendQueued(3_000));
        assertEquals(InFlightOrders.WAITING, orders.states[slot]);
        assertEquals(3_000 + ACK_TIMEOUT_NS, orders.retryAtNs[slot], "retry from the pass's time");
        assertEquals(1, links.offers);
        assertEquals(0, orders.sends[slot]);
        assertEquals(0, counters.sends);
    }

    @Test
    void aBackPressuredServerKeepsItsOrdersQueuedForTheNextPass()
    {
        twoPairs();
        links.results[0] = OrderIngressPublisher.BACK_PRESSURED;
        final int refused = submit(1, 0);
        final int behind = submit(2, 0);
        final int otherServer = submit(3, 1);

        assertEquals(1, dispatch.sendQueued(nowNs), "the other server still takes its order");
        assertEquals(2, links.offers, "a server that refused is not offered more in the same pass");
        assertEquals(InFlightOrders.QUEUED, orders.states[refused]);
        assertEquals(InFlightOrders.QUEUED, orders.states[behind]);
        assertEquals(InFlightOrders.SENT, orders.states[otherServer]);
        assertEquals(2, orders.queueSize());
        assertEquals(0, orders.sends[refused]);

        links.results[0] = OrderIngressPublisher.SENT;
        assertEquals(2, dispatch.sendQueued(nowNs), "the next pass clears the back-pressure");
        assertEquals(2, links.clears);
        assertEquals(InFlightOrders.SENT, orders.states[refused]);
        assertEquals(InFlightOrders.SENT, orders.states[behind]);
        assertEquals(List.of(3L, 1L, 2L), links.sentOrderIds(), "the refused orders in the order they were queued");
        assertEquals(3, counters.sends);
        assertEquals(0, counters.resends);
    }

    @Test
    void anOverdueOrderIsQueuedAgainItsPairAskedForMapsAndTheSecondSendCountsAResend()
    {
        twoPairs();
        final int slot = submit(1, 2);
        dispatch.sendQueued(nowNs);
        final long sentAt = orders.sendTimestampsNs[slot];

        assertEquals(0, dispatch.checkTimeouts(sentAt + ACK_TIMEOUT_NS - 1));
        assertEquals(InFlightOrders.SENT, orders.states[slot]);
        assertEquals(1, dispatch.checkTimeouts(sentAt + ACK_TIMEOUT_NS));
        assertEquals(InFlightOrders.QUEUED, orders.states[slot]);
        assertEquals(1, counters.ackTimeouts);
        assertEquals(List.of(1), links.askedPairs, "both servers of pair 1");

        nowNs = sentAt + ACK_TIMEOUT_NS;
        assertEquals(1, dispatch.sendQueued(nowNs));
        assertEquals(2, orders.sends[slot]);
        assertEquals(2, counters.sends);
        assertEquals(1, counters.resends);
        assertEquals(nowNs, orders.sendTimestampsNs[slot]);
    }

    @Test
    void aRequestedPartitionPastTheTotalIsRejectedOnceAndItsSlotFreed()
    {
        twoPairs();
        final boolean[] wasSending = new boolean[1];
        final OrderListener rejecting = new OrderListener()
        {
            @Override
            public void onAck(
                final long orderId,
                final int partition,
                final int epoch,
                final long sequence,
                final boolean duplicate,
                final boolean replicated,
                final long sendTimestampNs)
            {
                listener.onAck(orderId, partition, epoch, sequence, duplicate, replicated, sendTimestampNs);
            }

            @Override
            public void onReject(
                final long orderId,
                final int partition,
                final RejectReason reason,
                final long sendTimestampNs,
                final CharSequence text)
            {
                wasSending[0] = dispatch.isSending();
                listener.onReject(orderId, partition, reason, sendTimestampNs, text);
            }
        };
        final int slot = orders.allocate(9, fix(9), 0, fix(9).capacity());
        orders.requestedPartitions[slot] = 4;
        orders.listeners[slot] = rejecting;
        orders.enqueue(slot);

        assertEquals(0, dispatch.sendQueued(nowNs));
        assertEquals(1, listener.count());
        final RecordingOrderListener.Reject reject = listener.rejects.get(9L);
        assertEquals(RejectReason.UNKNOWN_PARTITION, reject.reason);
        assertEquals(4, reject.partition);
        assertEquals(OrderDispatch.LOCAL_PARTITION_TEXT, reject.text);
        assertTrue(wasSending[0], "the listener runs inside the send pass");
        assertFalse(dispatch.isSending());
        assertEquals(-1, orders.slotOf(9));
        assertEquals(0, orders.inFlight());
        assertEquals(1, counters.finalRejects);
        assertEquals(0, links.offers);

        assertEquals(0, dispatch.sendQueued(nowNs));
        assertEquals(0, dispatch.checkTimeouts(nowNs + 2 * ACK_TIMEOUT_NS));
        assertEquals(1, listener.count(), "rejected once");
    }

    @Test
    void anOrderFreedWhileQueuedIsNotSent()
    {
        twoPairs();
        final int slot = submit(1, 0);
        orders.free(slot);
        assertEquals(0, dispatch.sendQueued(nowNs));
        assertEquals(0, links.offers);
        assertEquals(0, orders.queueSize());
    }

    @Test
    void describeSaysWhereAnOrderStands()
    {
        assertEquals("not in flight", dispatch.describe(-1));
        final int unrouted = submit(1, 0);
        dispatch.sendQueued(nowNs);
        assertEquals("waiting for a route, 0 send(s), partition not yet known", dispatch.describe(unrouted));

        twoPairs();
        dispatch.sendQueued(nowNs);
        assertEquals("sent to server 0, 1 send(s), pair 0 partition 0, primary server 0",
            dispatch.describe(unrouted));
    }

    /**
     * Epoch 1, both maps of both pairs: partition 0 (pair 0's 0) on server 0, 1 (pair 0's 1) on server 1, 2 (pair 1's
     * 0) on server 3, 3 (pair 1's 1) on server 2.
     */
    private void twoPairs()
    {
        map(0, 0, 1, PRIMARY, BACKUP);
        map(0, 1, 1, BACKUP, PRIMARY);
        map(1, 0, 1, BACKUP, PRIMARY);
        map(1, 1, 1, PRIMARY, BACKUP);
        assertEquals(4, routing.totalPartitions());
    }

    private void map(final int pair, final int serverId, final int epoch, final short... roles)
    {
        assertTrue(routing.beginMap(pair, serverId, roles.length));
        for (int p = 0; p < roles.length; p++)
        {
            routing.mapEntry(pair, serverId, p, roles[p], epoch);
        }
        routing.endMap(pair, serverId);
    }

    /**
     * Take and queue an order as {@link OrderClient#submitAsync} does.
     */
    private int submit(final long orderId, final int partition)
    {
        final UnsafeBuffer fix = fix(orderId);
        final int slot = orders.allocate(orderId, fix, 0, fix.capacity());
        orders.requestedPartitions[slot] = partition;
        orders.listeners[slot] = listener;
        orders.enqueue(slot);
        return slot;
    }

    private static UnsafeBuffer fix(final long orderId)
    {
        return new UnsafeBuffer(("order-" + orderId).getBytes(StandardCharsets.US_ASCII));
    }

    private record Sent(int server, long orderId, int partition, long sendTimestampNs, String fix)
    {
    }

    /**
     * Connections that record each order offered and answer with the result set for its server; a refusal marks the
     * server back-pressured, as {@link ServerLinks} does.
     */
    private static final class FakeOrderLinks implements OrderLinks
    {
        final boolean[] connected = new boolean[SERVERS];
        final boolean[] backPressured = new boolean[SERVERS];
        final long[] results = new long[SERVERS];
        final List<Sent> sent = new ArrayList<>();
        final List<Integer> askedPairs = new ArrayList<>();
        int offers;
        int clears;

        FakeOrderLinks()
        {
            Arrays.fill(results, OrderIngressPublisher.SENT);
        }

        @Override
        public boolean isConnected(final int server)
        {
            return connected[server];
        }

        @Override
        public boolean isBackPressured(final int server)
        {
            return backPressured[server];
        }

        @Override
        public void clearBackPressure()
        {
            clears++;
            Arrays.fill(backPressured, false);
        }

        @Override
        public long sendOrder(
            final int server,
            final long orderId,
            final int partition,
            final long sendTimestampNs,
            final DirectBuffer fix,
            final int offset,
            final int length)
        {
            offers++;
            final long result = results[server];
            if (OrderIngressPublisher.SENT == result)
            {
                sent.add(new Sent(server, orderId, partition, sendTimestampNs, fix.getStringWithoutLengthAscii(
                    offset, length)));
            }
            else if (OrderIngressPublisher.BACK_PRESSURED == result)
            {
                backPressured[server] = true;
            }
            return result;
        }

        @Override
        public void askForMaps(final int pair)
        {
            askedPairs.add(pair);
        }

        List<Long> sentOrderIds()
        {
            final List<Long> ids = new ArrayList<>();
            for (final Sent s : sent)
            {
                ids.add(s.orderId());
            }
            return ids;
        }
    }
}
