package io.mdhub.common.order.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.test.InterruptAfter;

/**
 * {@link OrderRouting} on its own, without sockets: two pairs (servers 0 and 1 are pair 0, servers 2 and 3 pair 1)
 * whose maps are applied as the client's egress applies them, over real {@link InFlightOrders}.
 */
@InterruptAfter(10)
class OrderRoutingTest
{
    private static final long RETRY_NS = 1_000_000_000L;
    private static final short NONE = PartitionRole.NONE.value();
    private static final short PRIMARY = PartitionRole.PRIMARY.value();
    private static final short BACKUP = PartitionRole.BACKUP.value();
    private static final UnsafeBuffer FIX = new UnsafeBuffer(new byte[16]);

    private final InFlightOrders orders = new InFlightOrders(8, 16);
    private final OrderRouting routing = new OrderRouting(2, orders, RETRY_NS);

    @AfterEach
    void close()
    {
        CloseHelper.close(orders);
    }

    @Test
    void partitionsAreNumberedAcrossPairsOnceEveryPairsCountIsKnown()
    {
        map(0, 0, 1, PRIMARY, BACKUP, PRIMARY);
        map(0, 1, 1, BACKUP, PRIMARY, BACKUP);
        assertEquals(3, routing.partitionCount(0));
        assertEquals(-1, routing.partitionCount(1));
        assertEquals(-1, routing.totalPartitions(), "pair 1's count is not known yet");
        assertEquals(-1, routing.partitionOffset(0));
        assertEquals(-1, routing.primaryOf(0), "no numbering across pairs yet");
        assertEquals(0, routing.primaryServer(0, 0), "the pair's own numbering is known");

        map(1, 1, 1, PRIMARY, PRIMARY);
        assertEquals(5, routing.totalPartitions());
        assertEquals(0, routing.partitionOffset(0));
        assertEquals(3, routing.partitionOffset(1));
        assertEquals(0, routing.primaryOf(0));
        assertEquals(1, routing.primaryOf(1));
        assertEquals(0, routing.primaryOf(2));
        assertEquals(3, routing.primaryOf(3), "pair 1's partition 0 on its server 1");
        assertEquals(3, routing.primaryOf(4));
        assertEquals(-1, routing.primaryOf(5));
        assertEquals(-1, routing.primaryOf(-1));
        assertTrue(routing.hasMap(0));
        assertTrue(routing.hasMap(1));
        assertFalse(routing.hasMap(2));
        assertTrue(routing.hasMap(3));
    }

    @Test
    void aPartitionWithoutAPrimaryHasNone()
    {
        map(0, 0, 1, BACKUP, NONE);
        map(0, 1, 1, BACKUP, PRIMARY);
        assertEquals(-1, routing.primaryServer(0, 0));
        assertEquals(1, routing.primaryServer(0, 1));
    }

    @Test
    void whenBothServersClaimAPartitionTheHigherEpochIsPrimary()
    {
        map(0, 0, 1, PRIMARY, PRIMARY);
        map(0, 1, 1, BACKUP, BACKUP);
        assertEquals(0, routing.primaryServer(0, 0));
        assertEquals(1, routing.primaryEpoch(0, 0));

        map(0, 1, 2, PRIMARY, BACKUP); // server 0 has not announced its demotion yet
        assertEquals(1, routing.primaryServer(0, 0));
        assertEquals(2, routing.primaryEpoch(0, 0));
        assertEquals(0, routing.primaryServer(0, 1));

        map(0, 0, 1, BACKUP, PRIMARY);
        assertEquals(1, routing.primaryServer(0, 0));
        assertEquals(2, routing.primaryEpoch(0, 0));
    }

    @Test
    void aMapWithAnotherPartitionCountIsRefusedAndChangesNothing()
    {
        map(0, 0, 1, PRIMARY, BACKUP);
        assertFalse(routing.beginMap(0, 1, 3));
        assertEquals(2, routing.partitionCount(0));
        assertEquals(0, routing.primaryServer(0, 0));
        assertFalse(routing.hasMap(1));
    }

    @Test
    void entriesForPartitionsThePairDoesNotHaveAreIgnored()
    {
        assertTrue(routing.beginMap(0, 0, 2));
        routing.mapEntry(0, 0, 0, PRIMARY, 1);
        routing.mapEntry(0, 0, 2, PRIMARY, 1);
        routing.mapEntry(0, 0, -1, PRIMARY, 1);
        routing.endMap(0, 0);
        assertEquals(0, routing.primaryServer(0, 0));
        assertEquals(-1, routing.primaryServer(0, 1));
    }

    @Test
    void aMapCountsOnlyOnceComplete()
    {
        map(0, 0, 1, PRIMARY, PRIMARY);
        assertTrue(routing.beginMap(0, 1, 2));
        routing.mapEntry(0, 1, 0, PRIMARY, 5);
        assertEquals(0, routing.primaryServer(0, 0), "server 1's map has not ended");
        assertFalse(routing.hasMap(1));
        routing.endMap(0, 1);
        assertEquals(1, routing.primaryServer(0, 0));
        assertEquals(5, routing.primaryEpoch(0, 0));
    }

    @Test
    void ordersWaitForARouteUntilEveryPairsPartitionCountIsKnown()
    {
        final long orderId = 42;
        final int slot = submit(orderId, OrderClient.ANY_PARTITION);
        drain();
        assertEquals(OrderRouting.NO_PARTITIONS_YET, routing.resolve(slot, 1_000));
        assertEquals(InFlightOrders.WAITING, orders.states[slot]);
        assertEquals(1_000 + RETRY_NS, orders.retryAtNs[slot]);
        assertEquals(0, orders.queueSize());

        map(0, 0, 1, PRIMARY, PRIMARY, PRIMARY);
        assertQueued(slot, "a map may bring the partition counts");
        assertEquals(OrderRouting.NO_PARTITIONS_YET, routing.resolve(slot, 2_000), "pair 1 is not known yet");
        assertEquals(InFlightOrders.WAITING, orders.states[slot]);

        map(1, 0, 1, PRIMARY, PRIMARY);
        assertQueued(slot, "every count is known now");
        assertEquals(OrderRouting.ROUTED, routing.resolve(slot, 3_000));
        final int global = OrderClient.partitionOf(orderId, 5);
        assertEquals(global, orders.globalPartitions[slot]);
        assertEquals(global < 3 ? 0 : 1, orders.pairs[slot]);
        assertEquals(global < 3 ? global : global - 3, orders.partitions[slot]);
    }

    @Test
    void aRequestedPartitionIsRoutedToItsPairOrRefusedWhenNoPairHasIt()
    {
        map(0, 0, 1, PRIMARY, PRIMARY, PRIMARY);
        map(1, 0, 1, PRIMARY, PRIMARY);

        final int inPair1 = submit(1, 4);
        assertEquals(OrderRouting.ROUTED, routing.resolve(inPair1, 0));
        assertEquals(1, orders.pairs[inPair1]);
        assertEquals(1, orders.partitions[inPair1]);
        assertEquals(4, orders.globalPartitions[inPair1]);

        final int unknown = submit(2, 5);
        assertEquals(OrderRouting.UNKNOWN_PARTITION, routing.resolve(unknown, 0));
        assertEquals(-1, orders.pairs[unknown], "left for the client to reject");
        assertEquals(InFlightOrders.QUEUED, orders.states[unknown]);
    }

    @Test
    void aRouteOnceResolvedIsKept()
    {
        map(0, 0, 1, PRIMARY, PRIMARY, PRIMARY);
        map(1, 0, 1, PRIMARY, PRIMARY);
        final int slot = submit(7, 2);
        assertEquals(OrderRouting.ROUTED, routing.resolve(slot, 0));
        orders.requestedPartitions[slot] = 3;
        assertEquals(OrderRouting.ROUTED, routing.resolve(slot, 0));
        assertEquals(2, orders.globalPartitions[slot]);
    }

    @Test
    void aSentOrderGoesAgainWhenItsPrimaryChanges()
    {
        twoPairs();
        final int slot = sent(1, 0, 1);
        assertEquals(0, routing.primaryServer(0, 0));

        map(0, 0, 1, PRIMARY, BACKUP);
        assertEquals(InFlightOrders.SENT, orders.states[slot], "the same route");
        assertEquals(0, orders.queueSize());

        map(0, 1, 2, PRIMARY, PRIMARY);
        map(0, 0, 2, BACKUP, BACKUP);
        assertEquals(1, routing.primaryServer(0, 0));
        assertQueued(slot, "server 1 is primary now");
    }

    @Test
    void aSentOrderGoesAgainWhenItsPrimarysEpochChanges()
    {
        twoPairs();
        final int slot = sent(1, 0, 1);

        map(0, 0, 2, PRIMARY, BACKUP);
        assertEquals(0, routing.primaryServer(0, 0));
        assertEquals(2, routing.primaryEpoch(0, 0));
        assertQueued(slot, "same server, new epoch");
    }

    @Test
    void aSentOrderStaysSentWhenItsPartitionLosesItsPrimary()
    {
        twoPairs();
        final int slot = sent(1, 0, 1);

        map(0, 0, 2, BACKUP, BACKUP);
        assertEquals(-1, routing.primaryServer(0, 0));
        assertEquals(InFlightOrders.SENT, orders.states[slot], "an answer may still come");
        assertEquals(0, orders.queueSize());
    }

    @Test
    void aMapOfAnotherPairLeavesOrdersAlone()
    {
        twoPairs();
        final int slot = sent(1, 0, 1);

        map(1, 1, 9, PRIMARY, PRIMARY);
        assertEquals(InFlightOrders.SENT, orders.states[slot]);
        assertEquals(0, orders.queueSize());
    }

    @Test
    void aWaitingOrderGoesWhenItsRouteDiffersFromTheOneThatRefusedIt()
    {
        twoPairs();
        final int slot = sent(1, 0, 1);
        routing.waitForRoute(slot, 5_000); // refused NOT_PRIMARY by server 0
        assertEquals(InFlightOrders.WAITING, orders.states[slot]);
        assertEquals(5_000 + RETRY_NS, orders.retryAtNs[slot]);

        map(0, 0, 1, PRIMARY, BACKUP);
        assertEquals(InFlightOrders.WAITING, orders.states[slot], "the same route waits for its retry time");

        map(0, 1, 2, PRIMARY, PRIMARY);
        assertQueued(slot, "server 1 claims the partition with a higher epoch");
    }

    @Test
    void aWaitingOrderIsTriedAgainWhenAServerOfItsPairConnects()
    {
        twoPairs();
        final int inPair0 = submit(1, 0);
        final int inPair1 = submit(2, 3);
        drain();
        assertEquals(OrderRouting.ROUTED, routing.resolve(inPair0, 0));
        assertEquals(OrderRouting.ROUTED, routing.resolve(inPair1, 0));
        routing.waitForRoute(inPair0, 0);
        routing.waitForRoute(inPair1, 0);

        routing.onServerConnected(3);
        assertEquals(InFlightOrders.WAITING, orders.states[inPair0]);
        assertQueued(inPair1, "server 3 is in pair 1");

        routing.onServerConnected(0);
        assertQueued(inPair0, "server 0 is in pair 0");
    }

    @Test
    void aLostServersMapNoLongerCountsAndItsOrdersGoAgain()
    {
        twoPairs();
        map(0, 1, 1, BACKUP, PRIMARY);
        final int onServer0 = sent(1, 0, 1);
        final int onServer1 = sent(2, 1, 1);

        routing.onServerLost(0);
        assertFalse(routing.hasMap(0));
        assertTrue(routing.hasMap(1));
        assertEquals(-1, routing.primaryServer(0, 0), "server 1 is backup for partition 0");
        assertEquals(1, routing.primaryServer(0, 1));
        assertQueued(onServer0, "its server is gone");
        assertEquals(-1, orders.sentServers[onServer0], "any route will do, even server 0's once it is back");
        assertEquals(InFlightOrders.SENT, orders.states[onServer1]);

        map(0, 0, 1, PRIMARY, BACKUP);
        assertTrue(routing.hasMap(0));
        assertEquals(0, routing.primaryServer(0, 0), "back with a new map");
    }

    @Test
    void partitionOfSpreadsOrderIdsOverEveryPartition()
    {
        final int[] hits = new int[5];
        for (long orderId = 1; orderId <= 1_000; orderId++)
        {
            final int partition = OrderRouting.partitionOf(orderId, hits.length);
            assertEquals(OrderClient.partitionOf(orderId, hits.length), partition);
            hits[partition]++;
        }
        for (final int hit : hits)
        {
            assertTrue(hit > 150, "about 200 each: " + hit);
        }
        assertEquals(0, OrderRouting.partitionOf(Long.MIN_VALUE, 1));
    }

    /**
     * Two partitions per pair, epoch 1: pair 0 has only server 0's map (primary for partition 0, backup for 1); pair
     * 1 (partitions 2 and 3 across pairs) has both maps, server 2 primary for its partition 0, server 3 for 1.
     */
    private void twoPairs()
    {
        map(0, 0, 1, PRIMARY, BACKUP);
        map(1, 0, 1, PRIMARY, BACKUP);
        map(1, 1, 1, BACKUP, PRIMARY);
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

    private int submit(final long orderId, final int partition)
    {
        final int slot = orders.allocate(orderId, FIX, 0, FIX.capacity());
        orders.requestedPartitions[slot] = partition;
        orders.enqueue(slot);
        return slot;
    }

    /**
     * An order routed to the given global partition and sent, as the client sends it, to the partition's primary.
     */
    private int sent(final long orderId, final int partition, final int epoch)
    {
        final int slot = submit(orderId, partition);
        drain();
        assertEquals(OrderRouting.ROUTED, routing.resolve(slot, 0));
        final int server = routing.primaryServer(orders.pairs[slot], orders.partitions[slot]);
        assertTrue(server >= 0, "a primary to send to");
        assertEquals(epoch, routing.primaryEpoch(orders.pairs[slot], orders.partitions[slot]));
        orders.states[slot] = InFlightOrders.SENT;
        orders.sentServers[slot] = server;
        orders.sentEpochs[slot] = epoch;
        orders.sends[slot]++;
        return slot;
    }

    private void assertQueued(final int slot, final String why)
    {
        assertEquals(InFlightOrders.QUEUED, orders.states[slot], why);
        assertEquals(slot, orders.pollQueue(), why);
        assertEquals(-1, orders.pollQueue(), "only that order");
    }

    private void drain()
    {
        while (orders.pollQueue() >= 0)
        {
            // the send pass took them
        }
    }
}
