package io.mdhub.common.order.client;

import java.util.List;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.net.SocketIdleStrategy;
import io.mdhub.common.net.SocketPoller;

/**
 * Client of the MDHub order service: submits FIX orders to active/active server pairs over TCP and keeps every
 * order until it is acknowledged or finally rejected.
 * <p>
 * <b>Protocol.</b> The client keeps a connection to every server (made again 50 ms after it is lost, for as long as
 * it takes), says {@code ClientHello} on it (again each {@code helloInterval} until that server's {@code
 * PartitionMap} arrives, and on every new connection), and sends each {@code SubmitOrder} to the server that is
 * PRIMARY for the order's partition. A server answers on the connection the client said hello on; either server of a
 * pair may answer an order (the backup answers for the primary). The partition of an order is
 * {@link #partitionOf(long, int)} of its order id over all partitions, unless the caller names one; partitions are
 * numbered across pairs (pair i's follow pair i-1's), so with one pair they are the servers' own numbers.
 * <p>
 * <b>Failover.</b> Every unacknowledged order keeps an off-heap copy of its FIX bytes and is sent again to its
 * partition's primary when: a PartitionMap changes that primary or its epoch; the server it was sent to is lost (its
 * connection ends); it is rejected NOT_PRIMARY, UNAVAILABLE or
 * UNKNOWN_CLIENT (then after the pair's next PartitionMap, which a hello to the rejecting server asks for at once,
 * or after the ack timeout); or no answer came within the ack timeout (then both servers are also asked for a fresh
 * map). Servers are idempotent by (client id, order id): a resend of a stored order returns its original ack flagged
 * duplicate, so an order is reported exactly once whatever was resent. An order with no primary waits; it is never
 * dropped. MALFORMED_FIX, INVALID_ORDER, UNKNOWN_PARTITION and OVERSIZE are final.
 * <p>
 * <b>Back-pressure.</b> Orders are queued on the server's connection and written once per {@link #poll()}; a
 * connection whose send limit is reached (the server reads slower than the client sends) takes no more, and the
 * order stays queued and is tried again on the next poll. The in-flight window is bounded: {@link #submitAsync}
 * returns false when it is full.
 * <p>
 * <b>Threads.</b> Not thread safe: one thread submits and polls (callbacks run on it, inside {@link #poll()}); the
 * client starts no thread. A synchronous {@link #submit} waiting for its answer blocks in the kernel on the client's
 * sockets (the {@code socket} idle strategy) until the answer arrives. Steady state allocates nothing.
 * <p>
 * <b>Parts.</b> This class is the facade and the duty cycle (submit, poll, the synchronous wait).
 * {@link OrderDispatch} sends queued orders and re-queues overdue ones, {@link OrderRouting} keeps the partition maps
 * and each order's route, {@link ServerLinks} the connections, {@link OrderClientEgress} applies the servers' answers,
 * {@link InFlightOrders} holds the orders and {@link OrderClientCounters} what was counted.
 */
public final class OrderClient implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderClient.class);

    /** Most partitions a pair may have (the PartitionMap group's limit). */
    public static final int MAX_PARTITIONS = 65_535;
    /** Partition argument meaning "by the hash of the order id". */
    public static final int ANY_PARTITION = -1;

    private static final int SERVERS_PER_PAIR = OrderRouting.SERVERS_PER_PAIR;
    /** The longest answer: a partition map of 1,024 partitions or a reject with a long text fits. */
    private static final int MAX_ANSWER_BYTES = 64 * 1024;
    private static final long MIN_TIMEOUT_CHECK_INTERVAL_NS = 1_000_000L;

    private final Context ctx;
    private final long clientId;
    private final NanoClock clock;
    private final IdleStrategy idleStrategy;
    private final SocketPoller poller;
    private final InFlightOrders orders;
    private final OrderRouting routing;
    private final ServerLinks links;
    private final OrderDispatch dispatch;
    private final OrderClientCounters counters = new OrderClientCounters();
    private final long submitTimeoutNs;
    private final long timeoutCheckIntervalNs;
    private final SyncOutcome syncOutcome = new SyncOutcome();

    private long nextTimeoutCheckNs;
    private boolean isPolling;
    private boolean isClosed;

    private OrderClient(final Context ctx)
    {
        this.ctx = ctx;
        this.clientId = ctx.clientId();
        this.clock = ctx.nanoClock();
        this.idleStrategy = ctx.concludedIdleStrategy();
        final long ackTimeoutNs = ctx.ackTimeoutMs() * 1_000_000L;
        this.submitTimeoutNs = ctx.submitTimeoutMs() * 1_000_000L;
        this.timeoutCheckIntervalNs = Math.max(MIN_TIMEOUT_CHECK_INTERVAL_NS, ackTimeoutNs / 8);
        this.poller = new SocketPoller(MAX_ANSWER_BYTES, ctx.sendLimitBytes());

        final List<OrderServerAddress> addresses = ctx.servers();
        final int pairCount = addresses.size() / SERVERS_PER_PAIR;
        InFlightOrders store = null;
        try
        {
            store = new InFlightOrders(ctx.window(), ctx.maxOrderLength());
            this.orders = store;
            this.routing = new OrderRouting(pairCount, orders, ackTimeoutNs);
            this.links = new ServerLinks(clientId, addresses, ctx.maxOrderLength(),
                ctx.helloIntervalMs() * 1_000_000L, clock, poller, routing, counters);
            this.dispatch = new OrderDispatch(orders, routing, links, counters, clock, ackTimeoutNs);
            if (null != ctx.tls())
            {
                links.tls(ctx.tls(), ctx.tls().jdkContext(false));
            }
            links.connect(new OrderClientEgress(clientId, clock, orders, routing, links, counters));
            if (idleStrategy instanceof SocketIdleStrategy)
            {
                ((SocketIdleStrategy)idleStrategy).attach(poller); // a synchronous submit sleeps until answered
                // every poll sets the deadline to the client's next timer; all else it waits for comes by socket
                poller.blockAfterWork(true);
            }
        }
        catch (final RuntimeException ex)
        {
            closeStreams();
            CloseHelper.quietClose(store);
            throw ex;
        }
        this.nextTimeoutCheckNs = clock.nanoTime() + timeoutCheckIntervalNs;
        LOG.info("order client {}: {} pair(s) {}, window {}", clientId, pairCount, addresses, ctx.window());
    }

    /**
     * Conclude the context and start connecting to every server.
     * Nothing is sent until {@link #poll()} or a submit runs.
     *
     * @param ctx settings, not concluded before; owned by the client from now on (closed with it).
     * @return the client.
     */
    public static OrderClient connect(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, OrderClient::new);
    }

    /**
     * The partition an order id maps to: {@code (int)Long.remainderUnsigned(mix(orderId), partitionCount)}.
     *
     * @param orderId        the order id.
     * @param partitionCount partitions to choose from, positive.
     * @return the partition.
     */
    public static int partitionOf(final long orderId, final int partitionCount)
    {
        return OrderRouting.partitionOf(orderId, partitionCount);
    }

    /**
     * SplitMix64's finaliser: spreads consecutive order ids evenly over the partitions.
     *
     * @param value an order id.
     * @return its hash.
     */
    public static long mix(final long value)
    {
        return OrderRouting.mix(value);
    }
    /**
     * Submit an order and wait for its answer, polling meanwhile; the partition is chosen by the order id's hash.
     *
     * @param orderId the order id, unique for this client.
     * @param fix     the FIX message.
     * @param offset  where it starts.
     * @param length  its length, 1 to {@code maxOrderLength}.
     * @return the order's sequence in its partition.
     * @throws OrderRejectedException if the order was refused for good.
     * @throws OrderTimeoutException  if no answer came within the submit timeout.
     */
    public long submit(final long orderId, final DirectBuffer fix, final int offset, final int length)
    {
        return submit(orderId, ANY_PARTITION, fix, offset, length);
    }

    /**
     * Submit an order to a given partition and wait for its answer, polling meanwhile. Details of the ack are then
     * available from {@link #lastAckPartition()}, {@link #lastAckEpoch()} and {@link #lastAckDuplicate()}.
     *
     * @param orderId   the order id, unique for this client.
     * @param partition the partition (numbered across pairs), or {@link #ANY_PARTITION}.
     * @param fix       the FIX message.
     * @param offset    where it starts.
     * @param length    its length, 1 to {@code maxOrderLength}.
     * @return the order's sequence in its partition.
     * @throws OrderRejectedException if the order was refused for good.
     * @throws OrderTimeoutException  if no answer came within the submit timeout (window room, a route, resends).
     * @throws IllegalStateException  if called from inside a callback.
     */
    public long submit(
        final long orderId, final int partition, final DirectBuffer fix, final int offset, final int length)
    {
        if (isPolling)
        {
            throw new IllegalStateException("synchronous submit from inside an OrderClient callback");
        }
        final long deadlineNs = clock.nanoTime() + submitTimeoutNs;
        syncOutcome.reset(orderId);
        idleStrategy.reset();
        while (!submitAsync(orderId, partition, fix, offset, length, syncOutcome))
        {
            if (clock.nanoTime() - deadlineNs >= 0)
            {
                throw new OrderTimeoutException(orderId, "order " + orderId + ": the in-flight window (" +
                    orders.capacity + ") stayed full for " + ctx.submitTimeoutMs() + " ms");
            }
            idle(poll());
        }
        idleStrategy.reset();
        poller.flush(); // the order goes now, and the first wait is also the first look for its answer
        int work = 1;
        while (!syncOutcome.isDone())
        {
            if (clock.nanoTime() - deadlineNs >= 0)
            {
                final String state = dispatch.describe(orders.slotOf(orderId));
                abandon(orderId);
                throw new OrderTimeoutException(orderId, "order " + orderId + ": no answer within " +
                    ctx.submitTimeoutMs() + " ms (" + state + ")");
            }
            idle(work);
            work = syncOutcome.isDone() ? 0 : poll();
        }
        if (null != syncOutcome.reason())
        {
            throw new OrderRejectedException(
                orderId, syncOutcome.partition(), syncOutcome.reason(), syncOutcome.text());
        }
        return syncOutcome.sequence();
    }

    /**
     * Wait for the sockets (the {@code socket} strategy reads what arrives and calls the listeners there, so it
     * counts as polling: a callback may not poll or submit synchronously from inside it).
     */
    private void idle(final int work)
    {
        isPolling = true;
        try
        {
            idleStrategy.idle(work);
        }
        finally
        {
            isPolling = false;
        }
    }

    /**
     * Submit an order without waiting; the partition is chosen by the order id's hash. See
     * {@link #submitAsync(long, int, DirectBuffer, int, int, OrderListener)}.
     *
     * @param orderId  the order id, unique for this client.
     * @param fix      the FIX message (copied: the buffer may be reused at once).
     * @param offset   where it starts.
     * @param length   its length, 1 to {@code maxOrderLength}.
     * @param listener told the outcome, once.
     * @return true if taken, false if the in-flight window is full (poll, then try again).
     */
    public boolean submitAsync(
        final long orderId, final DirectBuffer fix, final int offset, final int length, final OrderListener listener)
    {
        return submitAsync(orderId, ANY_PARTITION, fix, offset, length, listener);
    }

    /**
     * Submit an order without waiting. The FIX bytes are copied into the order's slot and sent at once if the
     * partition's primary is known and its ingress takes it, else on a later {@link #poll()}. The listener is told
     * the outcome exactly once, from inside {@link #poll()} (or from here, for a partition the client knows does not
     * exist).
     *
     * @param orderId   the order id, unique for this client, not in flight.
     * @param partition the partition (numbered across pairs), or {@link #ANY_PARTITION}.
     * @param fix       the FIX message (copied: the buffer may be reused at once).
     * @param offset    where it starts.
     * @param length    its length, 1 to {@code maxOrderLength}.
     * @param listener  told the outcome, once.
     * @return true if taken, false if the in-flight window is full (poll, then try again).
     * @throws IllegalArgumentException if the length or partition is out of range, or the order id is in flight.
     */
    public boolean submitAsync(
        final long orderId,
        final int partition,
        final DirectBuffer fix,
        final int offset,
        final int length,
        final OrderListener listener)
    {
        checkOpen();
        if (length < 1 || length > orders.maxOrderLength)
        {
            throw new IllegalArgumentException(
                "order length must be in [1, " + orders.maxOrderLength + "]: " + length);
        }
        if (partition < ANY_PARTITION)
        {
            throw new IllegalArgumentException("partition must be >= 0 or ANY_PARTITION: " + partition);
        }
        if (null == listener)
        {
            throw new NullPointerException("listener");
        }
        if (orders.slotOf(orderId) >= 0)
        {
            throw new IllegalArgumentException("order " + orderId + " is already in flight");
        }
        final int totalPartitions = routing.totalPartitions();
        if (partition >= 0 && totalPartitions >= 0 && partition >= totalPartitions)
        {
            counters.finalRejects++;
            listener.onReject(orderId, partition, RejectReason.UNKNOWN_PARTITION, clock.nanoTime(),
                OrderDispatch.LOCAL_PARTITION_TEXT);
            return true;
        }

        final int slot = orders.allocate(orderId, fix, offset, length);
        if (slot < 0)
        {
            return false;
        }
        orders.requestedPartitions[slot] = partition;
        orders.listeners[slot] = listener;
        orders.enqueue(slot);
        counters.submitted++;
        if (!dispatch.isSending())
        {
            dispatch.sendQueued(clock.nanoTime());
        }
        return true;
    }

    /**
     * One duty cycle: read what the servers answered (calling the listeners), check server links and timeouts on
     * their deadlines, say hello where due, send queued orders, write what was queued.
     *
     * @return work done (messages read, messages sent, ...), for an idle strategy.
     * @throws IllegalStateException if called from inside a callback.
     */
    public int poll()
    {
        checkOpen();
        if (isPolling)
        {
            throw new IllegalStateException("poll from inside an OrderClient callback");
        }
        isPolling = true;
        try
        {
            int work = poller.poll();
            final long nowNs = clock.nanoTime();
            work += links.check(nowNs);
            if (nowNs - nextTimeoutCheckNs >= 0)
            {
                nextTimeoutCheckNs = nowNs + timeoutCheckIntervalNs;
                work += dispatch.checkTimeouts(nowNs);
            }
            work += links.sendHellos(nowNs);
            work += dispatch.sendQueued(nowNs);
            poller.flush(); // every order and hello of this poll: one write per server
            poller.deadlineNs(Math.min(links.nextCheckNs(), nextTimeoutCheckNs));
            return work;
        }
        finally
        {
            isPolling = false;
        }
    }


    /**
     * @return true when the partition count of every pair is known and every partition has a reachable primary.
     */
    public boolean isReady()
    {
        if (routing.totalPartitions() < 0)
        {
            return false;
        }
        for (int pair = 0; pair < routing.pairCount(); pair++)
        {
            for (int p = 0; p < routing.partitionCount(pair); p++)
            {
                final int server = routing.primaryServer(pair, p);
                if (server < 0 || !links.isConnected(server))
                {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Stop tracking an order: it is no longer resent and its listener is not called. Its fate is unknown.
     *
     * @param orderId the order id.
     * @return true if it was in flight.
     */
    public boolean abandon(final long orderId)
    {
        final int slot = orders.slotOf(orderId);
        if (slot < 0)
        {
            return false;
        }
        orders.free(slot);
        return true;
    }

    /**
     * @return this client's id.
     */
    public long clientId()
    {
        return clientId;
    }

    /**
     * @return partitions over all pairs, or -1 until every pair's count is known.
     */
    public int partitionCount()
    {
        return routing.totalPartitions();
    }

    /**
     * @return number of server pairs.
     */
    public int pairCount()
    {
        return routing.pairCount();
    }

    /**
     * @param partition a partition (numbered across pairs).
     * @return index of the server (in configuration order) that is primary for it now, or -1.
     */
    public int primaryOf(final int partition)
    {
        return routing.primaryOf(partition);
    }

    /**
     * @return orders submitted and not yet acknowledged or finally rejected.
     */
    public int inFlight()
    {
        return orders.inFlight();
    }

    /**
     * @return the in-flight window.
     */
    public int window()
    {
        return orders.capacity;
    }

    /**
     * @return partition of the last synchronous submit's ack.
     */
    public int lastAckPartition()
    {
        return syncOutcome.partition();
    }

    /**
     * @return epoch of the last synchronous submit's ack.
     */
    public int lastAckEpoch()
    {
        return syncOutcome.epoch();
    }

    /**
     * @return whether the last synchronous submit's ack was a duplicate (the order was stored before).
     */
    public boolean lastAckDuplicate()
    {
        return syncOutcome.duplicate();
    }

    /**
     * @return orders taken by a submit.
     */
    public long submittedCount()
    {
        return counters.submitted;
    }

    /**
     * @return SubmitOrder messages sent, resends included.
     */
    public long sendCount()
    {
        return counters.sends;
    }

    /**
     * @return SubmitOrder messages sent again for an order sent before.
     */
    public long resendCount()
    {
        return counters.resends;
    }

    /**
     * @return orders acknowledged.
     */
    public long ackCount()
    {
        return counters.acks;
    }

    /**
     * @return acknowledgements flagged duplicate (the order was stored before a resend).
     */
    public long duplicateAckCount()
    {
        return counters.duplicateAcks;
    }

    /**
     * @return orders finally rejected.
     */
    public long rejectCount()
    {
        return counters.finalRejects;
    }

    /**
     * @return NOT_PRIMARY, UNAVAILABLE and UNKNOWN_CLIENT rejects (the order was routed again).
     */
    public long retryableRejectCount()
    {
        return counters.retryableRejects;
    }

    /**
     * @return orders sent again because their answer did not come within the ack timeout.
     */
    public long ackTimeoutCount()
    {
        return counters.ackTimeouts;
    }

    /**
     * @return servers whose ingress publication is connected, as last seen by {@link #poll()}.
     */
    public int connectedServerCount()
    {
        return links.connectedCount();
    }

    /**
     * @return times a server was lost (ingress disconnected or response image closed), counted once per loss: a
     * server lost again is counted again only after it has sent a partition map since.
     */
    public long serverLossCount()
    {
        return counters.serverLosses;
    }

    /**
     * @return ClientHello messages sent.
     */
    public long helloCount()
    {
        return counters.hellosSent;
    }

    /**
     * @return PartitionMaps received and applied.
     */
    public long mapCount()
    {
        return counters.mapsReceived;
    }

    /**
     * @return answers for orders no longer in flight, or retryable rejects of an earlier send (ignored).
     */
    public long staleAnswerCount()
    {
        return counters.staleAnswers;
    }

    /**
     * @return answers carrying another client's id (ignored).
     */
    public long foreignAnswerCount()
    {
        return counters.foreignAnswers;
    }

    /**
     * @return malformed or unknown messages skipped, and maps refused (bad server id, changed partition count).
     */
    public long malformedCount()
    {
        return counters.malformedMessages;
    }

    /**
     * @return back-pressured or admin-action send attempts over all servers.
     */
    public long backPressureCount()
    {
        return links.backPressureEvents();
    }

    /**
     * @return the concluded settings.
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * Close the connections, free the off-heap order copies and close the context. Orders still in flight are
     * forgotten.
     */
    @Override
    public void close()
    {
        if (isClosed)
        {
            return;
        }
        isClosed = true;
        closeStreams();
        CloseHelper.closeAll(orders, ctx);
    }

    private void closeStreams()
    {
        CloseHelper.quietClose(poller);
    }

    private void checkOpen()
    {
        if (isClosed)
        {
            throw new IllegalStateException("order client is closed");
        }
    }

    /**
     * Settings of an {@link OrderClient}; defaults from {@link OrderClientConfiguration}. Conclude validates them,
     * takes a client id if none is set and checks the idle strategy against the spin budget. The settings themselves
     * are in {@link OrderClientSettings}.
     */
    public static final class Context extends OrderClientSettings<Context>
    {
    }
}
