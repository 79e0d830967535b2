package io.mdhub.common.order.client;

import java.util.Arrays;

import io.mdhub.common.codecs.order.PartitionRole;

/**
 * Where each order goes: the roles every server of every pair announced in its latest PartitionMap, the primary of
 * each partition that follows from them, and each in-flight order's pair and partition. Partitions are numbered
 * across pairs (pair i's follow pair i-1's) once every pair's partition count is known; servers are numbered in
 * configuration order, {@code pair * SERVERS_PER_PAIR + serverId}.
 * <p>
 * Pure logic over the {@link InFlightOrders}: no sockets and no clock (callers pass the time), so it is tested on
 * its own. Not thread safe: the client's thread.
 */
final class OrderRouting
{
    /** Servers in an active/active pair. */
    static final int SERVERS_PER_PAIR = 2;

    /** {@link #resolve}: the order has its pair and partition. */
    static final int ROUTED = 0;
    /** {@link #resolve}: not every pair's partition count is known yet; the order is WAITING. */
    static final int NO_PARTITIONS_YET = 1;
    /** {@link #resolve}: the requested partition is beyond all pairs' partitions; the order is left as it was. */
    static final int UNKNOWN_PARTITION = 2;

    private final PairState[] pairs;
    private final boolean[] isMapReceived;
    private final InFlightOrders orders;
    private final long retryIntervalNs;
    private int totalPartitions = -1;

    /**
     * @param pairCount       server pairs, positive.
     * @param orders          the orders to route.
     * @param retryIntervalNs how long an order without a route waits before it is tried again (the ack timeout).
     */
    OrderRouting(final int pairCount, final InFlightOrders orders, final long retryIntervalNs)
    {
        this.pairs = new PairState[pairCount];
        for (int i = 0; i < pairCount; i++)
        {
            pairs[i] = new PairState(i);
        }
        this.isMapReceived = new boolean[pairCount * SERVERS_PER_PAIR];
        this.orders = orders;
        this.retryIntervalNs = retryIntervalNs;
    }

    /**
     * See {@link OrderClient#partitionOf(long, int)}.
     *
     * @param orderId        the order id.
     * @param partitionCount partitions to choose from, positive.
     * @return the partition.
     */
    static int partitionOf(final long orderId, final int partitionCount)
    {
        return (int)Long.remainderUnsigned(mix(orderId), partitionCount);
    }

    /**
     * See {@link OrderClient#mix(long)}.
     *
     * @param value an order id.
     * @return its hash.
     */
    static long mix(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * @return number of server pairs.
     */
    int pairCount()
    {
        return pairs.length;
    }

    /**
     * @return partitions over all pairs, or -1 until every pair's count is known.
     */
    int totalPartitions()
    {
        return totalPartitions;
    }

    /**
     * @param pair a pair.
     * @return its partition count, or -1 until one of its servers has announced it.
     */
    int partitionCount(final int pair)
    {
        return pairs[pair].partitionCount;
    }

    /**
     * @param pair a pair.
     * @return number across pairs of its partition 0, or -1 until every pair's count is known.
     */
    int partitionOffset(final int pair)
    {
        return pairs[pair].partitionOffset;
    }

    /**
     * @param server a server (configuration order).
     * @return true when its latest PartitionMap counts: received complete, and the server not lost since.
     */
    boolean hasMap(final int server)
    {
        return isMapReceived[server];
    }

    /**
     * @param pair      a pair.
     * @param partition one of the pair's partitions.
     * @return the server (configuration order) that is primary for it now, or -1.
     */
    int primaryServer(final int pair, final int partition)
    {
        final int primary = pairs[pair].primary[partition];
        return primary < 0 ? -1 : pair * SERVERS_PER_PAIR + primary;
    }

    /**
     * @param pair      a pair.
     * @param partition one of the pair's partitions with a primary.
     * @return the epoch its primary announced for it.
     */
    int primaryEpoch(final int pair, final int partition)
    {
        return pairs[pair].primaryEpoch[partition];
    }

    /**
     * @param partition a partition numbered across pairs.
     * @return the server (configuration order) that is primary for it now, or -1 (also when it is not known yet).
     */
    int primaryOf(final int partition)
    {
        for (final PairState pair : pairs)
        {
            if (pair.partitionOffset >= 0 && partition >= pair.partitionOffset &&
                partition < pair.partitionOffset + pair.partitionCount)
            {
                return primaryServer(pair.index, partition - pair.partitionOffset);
            }
        }
        return -1;
    }

    /**
     * A PartitionMap from a server starts: that server's roles are cleared for the entries that follow. The first
     * map of a pair fixes the pair's partition count and, once every pair's count is known, the numbering across
     * pairs.
     *
     * @param pair           the pair.
     * @param serverId       the server's id in its pair, 0 or 1.
     * @param partitionCount partitions the map announces, 1 to {@link OrderClient#MAX_PARTITIONS}.
     * @return false, and nothing changed, when the pair's partition count was known and differs: skip the map.
     */
    boolean beginMap(final int pair, final int serverId, final int partitionCount)
    {
        final PairState state = pairs[pair];
        if (state.partitionCount < 0)
        {
            state.init(partitionCount);
            updateTotalPartitions();
        }
        else if (state.partitionCount != partitionCount)
        {
            return false;
        }
        state.clearRoles(serverId);
        return true;
    }

    /**
     * One partition's role in the map being applied; entries for partitions the pair does not have are ignored.
     *
     * @param pair      the pair.
     * @param serverId  the server's id in its pair.
     * @param partition the pair's partition.
     * @param role      the role's raw value ({@link PartitionRole}).
     * @param epoch     the partition's epoch.
     */
    void mapEntry(final int pair, final int serverId, final int partition, final short role, final int epoch)
    {
        final PairState state = pairs[pair];
        if (partition >= 0 && partition < state.partitionCount)
        {
            state.roles[serverId][partition] = (byte)role;
            state.epochs[serverId][partition] = epoch;
        }
    }

    /**
     * The map begun by {@link #beginMap} is complete: it counts from now on. The pair's primaries are worked out
     * again and orders whose route changed are queued to be sent (again).
     *
     * @param pair     the pair.
     * @param serverId the server's id in its pair.
     */
    void endMap(final int pair, final int serverId)
    {
        isMapReceived[pair * SERVERS_PER_PAIR + serverId] = true;
        final PairState state = pairs[pair];
        state.recomputePrimaries();
        requeueChangedRoutes(state);
    }

    /**
     * A server's connection opened: orders waiting for a route in its pair (or for any partition count) are tried
     * again.
     *
     * @param server the server (configuration order).
     */
    void onServerConnected(final int server)
    {
        requeueWaiting(server / SERVERS_PER_PAIR);
    }

    /**
     * A server was lost: its map no longer counts, its partitions lose it as primary, and the orders sent to it are
     * queued to go to whichever primary there is.
     *
     * @param server the server (configuration order).
     */
    void onServerLost(final int server)
    {
        final PairState pair = pairs[server / SERVERS_PER_PAIR];
        isMapReceived[server] = false;
        pair.clearRoles(server % SERVERS_PER_PAIR);
        pair.recomputePrimaries();
        for (int slot = 0; slot < orders.capacity; slot++)
        {
            if (InFlightOrders.SENT == orders.states[slot] && server == orders.sentServers[slot])
            {
                orders.sentServers[slot] = -1; // any route will do now, even this server's once it is back
                orders.enqueue(slot);
            }
        }
    }

    /**
     * Fix an order's pair and partition (once; a resend keeps them) when every pair's partition count is known: the
     * requested partition, or {@link #partitionOf(long, int)} of the order id over all partitions.
     *
     * @param slot  the order's slot.
     * @param nowNs the time now, for the retry time of an order that must wait.
     * @return {@link #ROUTED}, {@link #NO_PARTITIONS_YET} (the order waits) or {@link #UNKNOWN_PARTITION}.
     */
    int resolve(final int slot, final long nowNs)
    {
        if (orders.pairs[slot] >= 0)
        {
            return ROUTED;
        }
        if (totalPartitions < 0)
        {
            waitForRoute(slot, nowNs);
            return NO_PARTITIONS_YET;
        }
        final int requested = orders.requestedPartitions[slot];
        final int global = requested < 0 ? partitionOf(orders.orderIds[slot], totalPartitions) : requested;
        if (global >= totalPartitions)
        {
            return UNKNOWN_PARTITION;
        }
        for (final PairState pair : pairs)
        {
            if (global < pair.partitionOffset + pair.partitionCount)
            {
                orders.pairs[slot] = pair.index;
                orders.partitions[slot] = global - pair.partitionOffset;
                orders.globalPartitions[slot] = global;
                return ROUTED;
            }
        }
        throw new IllegalStateException("partition " + global + " not in any pair"); // offsets cover 0..total-1
    }

    /**
     * Park an order without a route: it is queued again by its pair's next map or connection, or at its retry time.
     *
     * @param slot  the order's slot.
     * @param nowNs the time now.
     */
    void waitForRoute(final int slot, final long nowNs)
    {
        orders.states[slot] = InFlightOrders.WAITING;
        orders.retryAtNs[slot] = nowNs + retryIntervalNs;
    }

    private void requeueWaiting(final int pairIndex)
    {
        for (int slot = 0; slot < orders.capacity; slot++)
        {
            if (InFlightOrders.WAITING == orders.states[slot] &&
                (pairIndex == orders.pairs[slot] || orders.pairs[slot] < 0))
            {
                orders.enqueue(slot);
            }
        }
    }

    private void requeueChangedRoutes(final PairState pair)
    {
        for (int slot = 0; slot < orders.capacity; slot++)
        {
            final byte state = orders.states[slot];
            final int orderPair = orders.pairs[slot];
            if (orderPair < 0)
            {
                if (InFlightOrders.WAITING == state)
                {
                    orders.enqueue(slot); // the partition counts may be known now
                }
            }
            else if (pair.index == orderPair && (InFlightOrders.WAITING == state || InFlightOrders.SENT == state))
            {
                final int partition = orders.partitions[slot];
                final int primary = pair.primary[partition];
                final boolean isRouteChanged = primary >= 0 &&
                    (pair.index * SERVERS_PER_PAIR + primary != orders.sentServers[slot] ||
                    pair.primaryEpoch[partition] != orders.sentEpochs[slot]);
                // SENT: the primary changed, send it there (a stored order comes back duplicate); without a primary
                // it stays SENT (an answer may still come). WAITING: a route appeared, or differs from the one that
                // refused it (the same route waits for the retry time).
                if (isRouteChanged)
                {
                    orders.enqueue(slot);
                }
            }
        }
    }

    private void updateTotalPartitions()
    {
        int total = 0;
        for (final PairState pair : pairs)
        {
            if (pair.partitionCount < 0)
            {
                return;
            }
            total += pair.partitionCount;
        }
        int offset = 0;
        for (final PairState pair : pairs)
        {
            pair.partitionOffset = offset;
            offset += pair.partitionCount;
        }
        totalPartitions = total;
    }

    /**
     * One pair: the roles its servers announced and the primaries that follow.
     */
    private final class PairState
    {
        private final int index;
        private final byte[][] roles = new byte[SERVERS_PER_PAIR][];
        private final int[][] epochs = new int[SERVERS_PER_PAIR][];
        private int partitionCount = -1;
        private int partitionOffset = -1;
        private int[] primary;
        private int[] primaryEpoch;

        PairState(final int index)
        {
            this.index = index;
        }

        void init(final int count)
        {
            partitionCount = count;
            for (int s = 0; s < SERVERS_PER_PAIR; s++)
            {
                roles[s] = new byte[count];
                epochs[s] = new int[count];
            }
            primary = new int[count];
            Arrays.fill(primary, -1);
            primaryEpoch = new int[count];
        }

        void clearRoles(final int serverId)
        {
            if (partitionCount > 0)
            {
                Arrays.fill(roles[serverId], (byte)PartitionRole.NONE.value());
                Arrays.fill(epochs[serverId], 0);
            }
        }

        /**
         * A partition's primary is the server whose latest map names it PRIMARY; if both do (one of them has not
         * announced its demotion yet), the higher epoch wins.
         */
        void recomputePrimaries()
        {
            if (partitionCount < 0)
            {
                return;
            }
            final byte primaryRole = (byte)PartitionRole.PRIMARY.value();
            for (int p = 0; p < partitionCount; p++)
            {
                int best = -1;
                int bestEpoch = 0;
                for (int s = 0; s < SERVERS_PER_PAIR; s++)
                {
                    if (isMapReceived[index * SERVERS_PER_PAIR + s] && primaryRole == roles[s][p] &&
                        (best < 0 || epochs[s][p] > bestEpoch))
                    {
                        best = s;
                        bestEpoch = epochs[s][p];
                    }
                }
                primary[p] = best;
                primaryEpoch[p] = bestEpoch;
            }
        }
    }
}
