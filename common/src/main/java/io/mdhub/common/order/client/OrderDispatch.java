package io.mdhub.common.order.client;

import org.agrona.concurrent.NanoClock;

import io.mdhub.common.codecs.order.RejectReason;

/**
 * The client's send path: sends queued orders to their partition's primary, stamps each send, leaves an order without
 * a route WAITING and one refused by a full connection QUEUED for the next pass, and re-queues orders whose answer is
 * overdue. Which server is primary comes from {@link OrderRouting}; the connections are {@link OrderLinks}. Not thread
 * safe: the client's thread.
 */
final class OrderDispatch
{
    /** Text of the reject of a partition the client knows the servers do not have. */
    static final String LOCAL_PARTITION_TEXT = "partition outside the servers' partitions (client check)";

    private final InFlightOrders orders;
    private final OrderRouting routing;
    private final OrderLinks links;
    private final OrderClientCounters counters;
    private final NanoClock clock;
    private final long ackTimeoutNs;

    private long lastSendTimestampNs;
    private boolean isSending;

    /**
     * @param orders       the orders in flight.
     * @param routing      the partition maps and each order's route.
     * @param links        the connections the orders go on.
     * @param counters     the client's counters (sends, resends, ack timeouts, local rejects).
     * @param clock        the client's clock: send timestamps and local rejects.
     * @param ackTimeoutNs how long a sent order waits for its answer before it is sent again.
     */
    OrderDispatch(
        final InFlightOrders orders,
        final OrderRouting routing,
        final OrderLinks links,
        final OrderClientCounters counters,
        final NanoClock clock,
        final long ackTimeoutNs)
    {
        this.orders = orders;
        this.routing = routing;
        this.links = links;
        this.counters = counters;
        this.clock = clock;
        this.ackTimeoutNs = ackTimeoutNs;
    }

    /**
     * @return true while {@link #sendQueued} runs: a submit from a listener it called leaves its order queued (it goes
     * on the next pass) rather than starting a pass inside this one.
     */
    boolean isSending()
    {
        return isSending;
    }

    /**
     * Send every order queued now (orders queued during the pass wait for the next one). Each server that refused an
     * order by back-pressure in an earlier pass may take orders again.
     *
     * @param nowNs the time now, for the retry time of an order that must wait.
     * @return orders sent.
     */
    int sendQueued(final long nowNs)
    {
        if (0 == orders.queueSize())
        {
            return 0;
        }
        isSending = true;
        try
        {
            links.clearBackPressure();
            int work = 0;
            for (int i = orders.queueSize(); i > 0; i--)
            {
                final int slot = orders.pollQueue();
                if (slot < 0)
                {
                    break;
                }
                if (InFlightOrders.QUEUED == orders.states[slot])
                {
                    work += send(slot, nowNs);
                }
            }
            return work;
        }
        finally
        {
            isSending = false;
        }
    }

    /**
     * Queue again every order sent at least the ack timeout ago (asking its pair for fresh maps) and every waiting
     * order whose retry time has come.
     *
     * @param nowNs the time now.
     * @return orders queued.
     */
    int checkTimeouts(final long nowNs)
    {
        int work = 0;
        final byte[] states = orders.states;
        for (int slot = 0; slot < orders.capacity; slot++)
        {
            final byte state = states[slot];
            if (InFlightOrders.SENT == state && nowNs - orders.sendTimestampsNs[slot] >= ackTimeoutNs)
            {
                counters.ackTimeouts++;
                links.askForMaps(orders.pairs[slot]);
                orders.enqueue(slot);
                work++;
            }
            else if (InFlightOrders.WAITING == state && nowNs - orders.retryAtNs[slot] >= 0)
            {
                orders.enqueue(slot);
                work++;
            }
        }
        return work;
    }

    /**
     * Where an order stands, for the message of a synchronous submit that timed out.
     *
     * @param slot the order's slot, or -1.
     * @return its state, sends and route.
     */
    String describe(final int slot)
    {
        if (slot < 0)
        {
            return "not in flight";
        }
        final int pair = orders.pairs[slot];
        final String where;
        if (pair < 0)
        {
            where = "partition not yet known";
        }
        else
        {
            final int server = routing.primaryServer(pair, orders.partitions[slot]);
            where = "pair " + pair + " partition " + orders.partitions[slot] + ", primary " +
                (server < 0 ? "unknown" : "server " + server);
        }
        final String state;
        switch (orders.states[slot])
        {
            case InFlightOrders.SENT:
                state = "sent to server " + orders.sentServers[slot];
                break;
            case InFlightOrders.QUEUED:
                state = "queued (back-pressure)";
                break;
            default:
                state = "waiting for a route";
        }
        return state + ", " + orders.sends[slot] + " send(s), " + where;
    }

    private int send(final int slot, final long nowNs)
    {
        if (!resolvePartition(slot))
        {
            return 0;
        }
        final int pair = orders.pairs[slot];
        final int partition = orders.partitions[slot];
        final int server = routing.primaryServer(pair, partition);
        if (server < 0 || !links.isConnected(server))
        {
            routing.waitForRoute(slot, nowNs);
            return 0;
        }
        if (links.isBackPressured(server))
        {
            orders.enqueue(slot);
            return 0;
        }

        final long stamp = Math.max(clock.nanoTime(), lastSendTimestampNs + 1);
        final long result = links.sendOrder(server, orders.orderIds[slot], partition, stamp,
            orders.fixStore, orders.fixOffset(slot), orders.lengths[slot]);
        if (result > 0)
        {
            lastSendTimestampNs = stamp;
            orders.states[slot] = InFlightOrders.SENT;
            orders.sentServers[slot] = server;
            orders.sentEpochs[slot] = routing.primaryEpoch(pair, partition);
            orders.sendTimestampsNs[slot] = stamp;
            if (orders.sends[slot]++ > 0)
            {
                counters.resends++;
            }
            counters.sends++;
            return 1;
        }
        if (OrderIngressPublisher.BACK_PRESSURED == result)
        {
            orders.enqueue(slot);
        }
        else
        {
            routing.waitForRoute(slot, nowNs); // NOT_CONNECTED: the link check will notice the server is gone
        }
        return 0;
    }

    /**
     * Fix the order's pair and partition once the partition counts are known.
     *
     * @return true when routed; false when it must wait (then it is WAITING) or was rejected (then it is freed).
     */
    private boolean resolvePartition(final int slot)
    {
        if (orders.pairs[slot] >= 0)
        {
            return true;
        }
        final long nowNs = clock.nanoTime();
        switch (routing.resolve(slot, nowNs))
        {
            case OrderRouting.ROUTED:
                return true;
            case OrderRouting.UNKNOWN_PARTITION:
                final long orderId = orders.orderIds[slot];
                final int partition = orders.requestedPartitions[slot];
                final OrderListener listener = orders.listeners[slot];
                orders.free(slot);
                counters.finalRejects++;
                listener.onReject(orderId, partition, RejectReason.UNKNOWN_PARTITION, nowNs, LOCAL_PARTITION_TEXT);
                return false;
            default:
                return false;
        }
    }
}
