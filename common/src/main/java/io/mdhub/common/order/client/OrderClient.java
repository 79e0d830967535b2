package io.mdhub.common.order.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.AsciiSequenceView;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.LangUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.concurrent.IdleConfiguration;
import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.concurrent.SpinBudget;
import io.mdhub.common.config.BaseContext;
import io.mdhub.common.net.ConnectionHandler;
import io.mdhub.common.net.FrameConnection;
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
 */
public final class OrderClient implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderClient.class);

    /** Most partitions a pair may have (the PartitionMap group's limit). */
    public static final int MAX_PARTITIONS = 65_535;
    /** Partition argument meaning "by the hash of the order id". */
    public static final int ANY_PARTITION = -1;

    private static final int SERVERS_PER_PAIR = 2;
    /** Links are looked at when a connection opens or ends, and this often to reconnect and repeat hellos. */
    private static final long LINK_CHECK_INTERVAL_NS = 50_000_000L;
    private static final long RECONNECT_INTERVAL_NS = 50_000_000L;
    /** The longest answer: a partition map of 1,024 partitions or a reject with a long text fits. */
    private static final int MAX_ANSWER_BYTES = 64 * 1024;
    private static final long MIN_TIMEOUT_CHECK_INTERVAL_NS = 1_000_000L;
    private static final String LOCAL_PARTITION_TEXT = "partition outside the servers' partitions (client check)";

    private final Context ctx;
    private final long clientId;
    private final NanoClock clock;
    private final IdleStrategy idleStrategy;
    private final SocketPoller poller;
    private final PairState[] pairs;
    private final ServerLink[] servers;
    private final InFlightOrders orders;
    private final long ackTimeoutNs;
    private final long submitTimeoutNs;
    private final long helloIntervalNs;
    private final long timeoutCheckIntervalNs;
    private final AsciiSequenceView textView = new AsciiSequenceView();
    private final SyncOutcome syncOutcome = new SyncOutcome();
    private final Egress egress = new Egress();

    private int totalPartitions = -1;
    private long nextLinkCheckNs;
    private long nextTimeoutCheckNs;
    private long lastSendTimestampNs;
    private boolean isPolling;
    private boolean isSending;
    private boolean isClosed;

    private long submitted;
    private long sends;
    private long resends;
    private long acks;
    private long duplicateAcks;
    private long finalRejects;
    private long retryableRejects;
    private long ackTimeouts;
    private long serverLosses;
    private long hellosSent;
    private long mapsReceived;
    private long staleAnswers;
    private long foreignAnswers;
    private long malformedMessages;

    private OrderClient(final Context ctx)
    {
        this.ctx = ctx;
        this.clientId = ctx.clientId();
        this.clock = ctx.nanoClock();
        this.idleStrategy = ctx.concludedIdleStrategy();
        this.ackTimeoutNs = ctx.ackTimeoutMs() * 1_000_000L;
        this.submitTimeoutNs = ctx.submitTimeoutMs() * 1_000_000L;
        this.helloIntervalNs = ctx.helloIntervalMs() * 1_000_000L;
        this.timeoutCheckIntervalNs = Math.max(MIN_TIMEOUT_CHECK_INTERVAL_NS, ackTimeoutNs / 8);
        this.poller = new SocketPoller(MAX_ANSWER_BYTES, ctx.sendLimitBytes());

        final List<OrderServerAddress> addresses = ctx.servers();
        final int pairCount = addresses.size() / SERVERS_PER_PAIR;
        this.pairs = new PairState[pairCount];
        this.servers = new ServerLink[addresses.size()];
        InFlightOrders store = null;
        try
        {
            for (int i = 0; i < pairCount; i++)
            {
                pairs[i] = new PairState(i, new OrderEgressAdapter(i, egress));
            }
            for (int i = 0; i < servers.length; i++)
            {
                servers[i] = new ServerLink(i, i / SERVERS_PER_PAIR, i % SERVERS_PER_PAIR, addresses.get(i),
                    new OrderIngressPublisher(ctx.maxOrderLength()));
                connect(servers[i], clock.nanoTime());
            }
            if (idleStrategy instanceof SocketIdleStrategy)
            {
                ((SocketIdleStrategy)idleStrategy).attach(poller); // a synchronous submit sleeps until answered
            }
            store = new InFlightOrders(ctx.window(), ctx.maxOrderLength());
        }
        catch (final RuntimeException ex)
        {
            closeStreams();
            throw ex;
        }
        this.orders = store;
        final long now = clock.nanoTime();
        this.nextLinkCheckNs = now;
        this.nextTimeoutCheckNs = now + timeoutCheckIntervalNs;
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
        try
        {
            ctx.conclude();
            return new OrderClient(ctx);
        }
        catch (final Throwable ex)
        {
            CloseHelper.quietClose(ctx);
            LangUtil.rethrowUnchecked(ex);
            return null; // not reached
        }
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
        return (int)Long.remainderUnsigned(mix(orderId), partitionCount);
    }

    /**
     * SplitMix64's finaliser: spreads consecutive order ids evenly over the partitions.
     *
     * @param value an order id.
     * @return its hash.
     */
    public static long mix(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
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
        while (!syncOutcome.isDone)
        {
            if (clock.nanoTime() - deadlineNs >= 0)
            {
                final String state = describe(orders.slotOf(orderId));
                abandon(orderId);
                throw new OrderTimeoutException(orderId, "order " + orderId + ": no answer within " +
                    ctx.submitTimeoutMs() + " ms (" + state + ")");
            }
            idle(poll());
        }
        if (null != syncOutcome.reason)
        {
            throw new OrderRejectedException(orderId, syncOutcome.partition, syncOutcome.reason, syncOutcome.text);
        }
        return syncOutcome.sequence;
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
        if (partition >= 0 && totalPartitions >= 0 && partition >= totalPartitions)
        {
            finalRejects++;
            listener.onReject(orderId, partition, RejectReason.UNKNOWN_PARTITION, clock.nanoTime(),
                LOCAL_PARTITION_TEXT);
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
        submitted++;
        if (!isSending)
        {
            sendQueued(clock.nanoTime());
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
            if (nowNs - nextLinkCheckNs >= 0)
            {
                nextLinkCheckNs = nowNs + LINK_CHECK_INTERVAL_NS;
                work += checkLinks(nowNs);
            }
            if (nowNs - nextTimeoutCheckNs >= 0)
            {
                nextTimeoutCheckNs = nowNs + timeoutCheckIntervalNs;
                work += checkTimeouts(nowNs);
            }
            work += sendHellos(nowNs);
            work += sendQueued(nowNs);
            poller.flush(); // every order and hello of this poll: one write per server
            poller.deadlineNs(Math.min(nextLinkCheckNs, nextTimeoutCheckNs));
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
        if (totalPartitions < 0)
        {
            return false;
        }
        for (final PairState pair : pairs)
        {
            for (int p = 0; p < pair.partitionCount; p++)
            {
                final int primary = pair.primary[p];
                if (primary < 0 || !servers[pair.index * SERVERS_PER_PAIR + primary].connected)
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
        return totalPartitions;
    }

    /**
     * @return number of server pairs.
     */
    public int pairCount()
    {
        return pairs.length;
    }

    /**
     * @param partition a partition (numbered across pairs).
     * @return index of the server (in configuration order) that is primary for it now, or -1.
     */
    public int primaryOf(final int partition)
    {
        for (final PairState pair : pairs)
        {
            if (pair.partitionOffset >= 0 && partition >= pair.partitionOffset &&
                partition < pair.partitionOffset + pair.partitionCount)
            {
                final int primary = pair.primary[partition - pair.partitionOffset];
                return primary < 0 ? -1 : pair.index * SERVERS_PER_PAIR + primary;
            }
        }
        return -1;
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
        return syncOutcome.partition;
    }

    /**
     * @return epoch of the last synchronous submit's ack.
     */
    public int lastAckEpoch()
    {
        return syncOutcome.epoch;
    }

    /**
     * @return whether the last synchronous submit's ack was a duplicate (the order was stored before).
     */
    public boolean lastAckDuplicate()
    {
        return syncOutcome.duplicate;
    }

    /**
     * @return orders taken by a submit.
     */
    public long submittedCount()
    {
        return submitted;
    }

    /**
     * @return SubmitOrder messages sent, resends included.
     */
    public long sendCount()
    {
        return sends;
    }

    /**
     * @return SubmitOrder messages sent again for an order sent before.
     */
    public long resendCount()
    {
        return resends;
    }

    /**
     * @return orders acknowledged.
     */
    public long ackCount()
    {
        return acks;
    }

    /**
     * @return acknowledgements flagged duplicate (the order was stored before a resend).
     */
    public long duplicateAckCount()
    {
        return duplicateAcks;
    }

    /**
     * @return orders finally rejected.
     */
    public long rejectCount()
    {
        return finalRejects;
    }

    /**
     * @return NOT_PRIMARY, UNAVAILABLE and UNKNOWN_CLIENT rejects (the order was routed again).
     */
    public long retryableRejectCount()
    {
        return retryableRejects;
    }

    /**
     * @return orders sent again because their answer did not come within the ack timeout.
     */
    public long ackTimeoutCount()
    {
        return ackTimeouts;
    }

    /**
     * @return servers whose ingress publication is connected, as last seen by {@link #poll()}.
     */
    public int connectedServerCount()
    {
        int connected = 0;
        for (final ServerLink link : servers)
        {
            connected += link.connected ? 1 : 0;
        }
        return connected;
    }

    /**
     * @return times a server was lost (ingress disconnected or response image closed), counted once per loss: a
     * server lost again is counted again only after it has sent a partition map since.
     */
    public long serverLossCount()
    {
        return serverLosses;
    }

    /**
     * @return ClientHello messages sent.
     */
    public long helloCount()
    {
        return hellosSent;
    }

    /**
     * @return PartitionMaps received and applied.
     */
    public long mapCount()
    {
        return mapsReceived;
    }

    /**
     * @return answers for orders no longer in flight, or retryable rejects of an earlier send (ignored).
     */
    public long staleAnswerCount()
    {
        return staleAnswers;
    }

    /**
     * @return answers for other clients on the same response stream (ignored).
     */
    public long foreignAnswerCount()
    {
        return foreignAnswers;
    }

    /**
     * @return malformed or unknown messages skipped, and maps refused (bad server id, changed partition count).
     */
    public long malformedCount()
    {
        return malformedMessages;
    }

    /**
     * @return back-pressured or admin-action send attempts over all servers.
     */
    public long backPressureCount()
    {
        long total = 0;
        for (final ServerLink link : servers)
        {
            total += link.publisher.backPressureEvents();
        }
        return total;
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

    private int sendQueued(final long nowNs)
    {
        if (0 == orders.queueSize())
        {
            return 0;
        }
        isSending = true;
        try
        {
            for (final ServerLink link : servers)
            {
                link.isBackPressured = false;
            }
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

    private int send(final int slot, final long nowNs)
    {
        if (!resolvePartition(slot))
        {
            return 0;
        }
        final PairState pair = pairs[orders.pairs[slot]];
        final int partition = orders.partitions[slot];
        final int primary = pair.primary[partition];
        if (primary < 0)
        {
            waitForRoute(slot, nowNs);
            return 0;
        }
        final ServerLink link = servers[pair.index * SERVERS_PER_PAIR + primary];
        if (!link.connected)
        {
            waitForRoute(slot, nowNs);
            return 0;
        }
        if (link.isBackPressured)
        {
            orders.enqueue(slot);
            return 0;
        }

        final long stamp = Math.max(clock.nanoTime(), lastSendTimestampNs + 1);
        final long result = link.publisher.sendOrder(clientId, orders.orderIds[slot], partition, stamp,
            orders.fixStore, orders.fixOffset(slot), orders.lengths[slot]);
        if (result > 0)
        {
            lastSendTimestampNs = stamp;
            orders.states[slot] = InFlightOrders.SENT;
            orders.sentServers[slot] = link.index;
            orders.sentEpochs[slot] = pair.primaryEpoch[partition];
            orders.sendTimestampsNs[slot] = stamp;
            if (orders.sends[slot]++ > 0)
            {
                resends++;
            }
            sends++;
            return 1;
        }
        if (OrderIngressPublisher.BACK_PRESSURED == result)
        {
            link.isBackPressured = true;
            orders.enqueue(slot);
        }
        else
        {
            waitForRoute(slot, nowNs); // NOT_CONNECTED: the link check will notice the server is gone
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
        if (totalPartitions < 0)
        {
            waitForRoute(slot, clock.nanoTime());
            return false;
        }
        final int requested = orders.requestedPartitions[slot];
        final int global = requested < 0 ? partitionOf(orders.orderIds[slot], totalPartitions) : requested;
        if (global >= totalPartitions)
        {
            final long orderId = orders.orderIds[slot];
            final OrderListener listener = orders.listeners[slot];
            orders.free(slot);
            finalRejects++;
            listener.onReject(orderId, global, RejectReason.UNKNOWN_PARTITION, clock.nanoTime(),
                LOCAL_PARTITION_TEXT);
            return false;
        }
        for (final PairState pair : pairs)
        {
            if (global < pair.partitionOffset + pair.partitionCount)
            {
                orders.pairs[slot] = pair.index;
                orders.partitions[slot] = global - pair.partitionOffset;
                orders.globalPartitions[slot] = global;
                return true;
            }
        }
        throw new IllegalStateException("partition " + global + " not in any pair"); // offsets cover 0..total-1
    }

    private void waitForRoute(final int slot, final long nowNs)
    {
        orders.states[slot] = InFlightOrders.WAITING;
        orders.retryAtNs[slot] = nowNs + ackTimeoutNs;
    }

    private int sendHellos(final long nowNs)
    {
        int work = 0;
        for (final ServerLink link : servers)
        {
            if (link.connected && (link.isHelloDue || (!link.isMapReceived && nowNs - link.nextHelloNs >= 0)))
            {
                final PairState pair = pairs[link.pair];
                if (OrderIngressPublisher.SENT == link.publisher.sendHello(clientId))
                {
                    link.isHelloDue = false;
                    link.nextHelloNs = nowNs + helloIntervalNs;
                    hellosSent++;
                    work++;
                }
            }
        }
        return work;
    }

    private int checkLinks(final long nowNs)
    {
        int work = 0;
        for (final ServerLink link : servers)
        {
            if (link.connection.isClosed() && nowNs - link.nextConnectNs >= 0)
            {
                work += connect(link, nowNs);
            }
            final boolean isConnected = link.publisher.isConnected();
            if (isConnected != link.connected)
            {
                link.connected = isConnected;
                work++;
                if (isConnected)
                {
                    LOG.info("order client {}: server {} ({}) connected", clientId, link.index, link.address);
                    link.isHelloDue = true;
                    requeueWaiting(link.pair);
                }
                else
                {
                    serverLost(link, nowNs, "its connection ended: " + link.closeReason);
                }
            }
        }
        return work;
    }

    /**
     * Start a connection to a server; the next link check after it opens says hello.
     */
    private int connect(final ServerLink link, final long nowNs)
    {
        link.nextConnectNs = nowNs + RECONNECT_INTERVAL_NS;
        link.connection = poller.connect(link.address.socketAddress(), link);
        link.publisher.connection(link.connection);
        return 1;
    }

    private void serverLost(final ServerLink link, final long nowNs, final String why)
    {
        if (!link.isLost)
        {
            LOG.warn("order client {}: lost server {} ({}): {}", clientId, link.index, link.address, why);
            serverLosses++;
            link.isLost = true;
        }
        link.isMapReceived = false;
        link.isSessionKnown = false;
        link.nextHelloNs = nowNs;
        final PairState pair = pairs[link.pair];
        pair.clearRoles(link.serverId);
        pair.recomputePrimaries(servers);
        for (int slot = 0; slot < orders.capacity; slot++)
        {
            if (InFlightOrders.SENT == orders.states[slot] && link.index == orders.sentServers[slot])
            {
                orders.sentServers[slot] = -1; // any route will do now, even this server's once it is back
                orders.enqueue(slot);
            }
        }
    }

    private int checkTimeouts(final long nowNs)
    {
        int work = 0;
        final byte[] states = orders.states;
        for (int slot = 0; slot < orders.capacity; slot++)
        {
            final byte state = states[slot];
            if (InFlightOrders.SENT == state && nowNs - orders.sendTimestampsNs[slot] >= ackTimeoutNs)
            {
                ackTimeouts++;
                final int pair = orders.pairs[slot];
                for (int s = 0; s < SERVERS_PER_PAIR; s++)
                {
                    servers[pair * SERVERS_PER_PAIR + s].isHelloDue = true; // ask for fresh maps
                }
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

    private void onMapApplied(final PairState pair)
    {
        mapsReceived++;
        pair.recomputePrimaries(servers);
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
     * @return the server of the pair whose response publication has this session, or null if none or both have it
     * (two servers in one process sharing one publication cannot be told apart).
     */
    private ServerLink linkOfSession(final int pairIndex, final int sessionId)
    {
        ServerLink found = null;
        for (int s = 0; s < SERVERS_PER_PAIR; s++)
        {
            final ServerLink link = servers[pairIndex * SERVERS_PER_PAIR + s];
            if (link.isSessionKnown && sessionId == link.sessionId)
            {
                if (null != found)
                {
                    return null;
                }
                found = link;
            }
        }
        return found;
    }

    private String describe(final int slot)
    {
        if (slot < 0)
        {
            return "not in flight";
        }
        final int pair = orders.pairs[slot];
        final String where = pair < 0 ? "partition not yet known" : "pair " + pair + " partition " +
            orders.partitions[slot] + ", primary " + (pairs[pair].primary[orders.partitions[slot]] < 0 ? "unknown" :
            "server " + (pair * SERVERS_PER_PAIR + pairs[pair].primary[orders.partitions[slot]]));
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

    /**
     * Decoded answers of every pair, applied to the client's state. Runs inside {@link #poll()}.
     */
    private final class Egress implements OrderEgressListener
    {
        @Override
        public boolean onPartitionMapBegin(
            final int pairIndex, final int sessionId, final int serverId, final int partitionCount)
        {
            if (serverId < 0 || serverId >= SERVERS_PER_PAIR || partitionCount < 1 || partitionCount > MAX_PARTITIONS)
            {
                malformedMessages++;
                return false;
            }
            final PairState pair = pairs[pairIndex];
            if (pair.partitionCount < 0)
            {
                pair.init(partitionCount);
                updateTotalPartitions();
            }
            else if (pair.partitionCount != partitionCount)
            {
                malformedMessages++;
                LOG.error("order client {}: pair {} server {} announces {} partitions, {} before: map ignored " +
                    "(restart the client to take a new partition count)", clientId, pairIndex, serverId,
                    partitionCount, pair.partitionCount);
                return false;
            }
            pair.clearRoles(serverId);
            return true;
        }

        @Override
        public void onPartitionMapEntry(
            final int pairIndex, final int serverId, final int partition, final short role, final int epoch)
        {
            final PairState pair = pairs[pairIndex];
            if (partition >= 0 && partition < pair.partitionCount)
            {
                pair.roles[serverId][partition] = (byte)role;
                pair.epochs[serverId][partition] = epoch;
            }
        }

        @Override
        public void onPartitionMapEnd(final int pairIndex, final int sessionId, final int serverId)
        {
            final ServerLink link = servers[pairIndex * SERVERS_PER_PAIR + serverId];
            link.isMapReceived = true;
            link.isSessionKnown = true;
            link.isLost = false;
            link.sessionId = sessionId;
            onMapApplied(pairs[pairIndex]);
        }

        @Override
        public void onOrderAck(
            final int pairIndex,
            final int sessionId,
            final long ackClientId,
            final long orderId,
            final int partition,
            final int epoch,
            final long sequence,
            final boolean duplicate,
            final boolean replicated,
            final long sendTimestampNs)
        {
            if (clientId != ackClientId)
            {
                foreignAnswers++;
                return;
            }
            final int slot = orders.slotOf(orderId);
            if (slot < 0 || pairIndex != orders.pairs[slot])
            {
                staleAnswers++;
                return;
            }
            final OrderListener listener = orders.listeners[slot];
            final int global = pairs[pairIndex].partitionOffset + partition;
            orders.free(slot);
            acks++;
            if (duplicate)
            {
                duplicateAcks++;
            }
            listener.onAck(orderId, global, epoch, sequence, duplicate, replicated, sendTimestampNs);
        }

        @Override
        public void onOrderReject(
            final int pairIndex,
            final int sessionId,
            final long rejectClientId,
            final long orderId,
            final int partition,
            final RejectReason reason,
            final long sendTimestampNs,
            final DirectBuffer buffer,
            final int textOffset,
            final int textLength)
        {
            if (clientId != rejectClientId)
            {
                foreignAnswers++;
                return;
            }
            final int slot = orders.slotOf(orderId);
            if (slot < 0 || pairIndex != orders.pairs[slot])
            {
                staleAnswers++;
                return;
            }
            switch (reason)
            {
                case NOT_PRIMARY:
                case UNAVAILABLE:
                case UNKNOWN_CLIENT:
                    onRetryableReject(slot, pairIndex, sessionId, reason, sendTimestampNs);
                    return;
                default:
                    final OrderListener listener = orders.listeners[slot];
                    final int global = orders.globalPartitions[slot];
                    orders.free(slot);
                    finalRejects++;
                    textView.wrap(buffer, textOffset, textLength);
                    listener.onReject(orderId, global, reason, sendTimestampNs, textView);
            }
        }

        @Override
        public void onMalformed(final int pairIndex)
        {
            malformedMessages++;
        }

        private void onRetryableReject(
            final int slot,
            final int pairIndex,
            final int sessionId,
            final RejectReason reason,
            final long sendTimestampNs)
        {
            if (InFlightOrders.SENT != orders.states[slot] || sendTimestampNs != orders.sendTimestampsNs[slot])
            {
                staleAnswers++; // answers an earlier send; the order was routed again since
                return;
            }
            retryableRejects++;
            if (RejectReason.UNKNOWN_CLIENT == reason)
            {
                orders.sentServers[slot] = -1; // after the hello, the same route is good again
            }
            final ServerLink rejecting = linkOfSession(pairIndex, sessionId);
            if (null != rejecting)
            {
                rejecting.isHelloDue = true; // its answer is a fresh PartitionMap
            }
            else
            {
                for (int s = 0; s < SERVERS_PER_PAIR; s++)
                {
                    servers[pairIndex * SERVERS_PER_PAIR + s].isHelloDue = true;
                }
            }
            waitForRoute(slot, clock.nanoTime()); // the pair's next map (or the retry time) queues it again
        }
    }

    /**
     * The outcome of the synchronous submit in progress.
     */
    private static final class SyncOutcome implements OrderListener
    {
        private long orderId;
        private boolean isDone;
        private long sequence;
        private int partition;
        private int epoch;
        private boolean duplicate;
        private RejectReason reason;
        private String text;

        void reset(final long orderId)
        {
            this.orderId = orderId;
            isDone = false;
            sequence = 0;
            partition = -1;
            epoch = 0;
            duplicate = false;
            reason = null;
            text = null;
        }

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
            if (orderId == this.orderId)
            {
                this.isDone = true;
                this.sequence = sequence;
                this.partition = partition;
                this.epoch = epoch;
                this.duplicate = duplicate;
            }
        }

        @Override
        public void onReject(
            final long orderId,
            final int partition,
            final RejectReason reason,
            final long sendTimestampNs,
            final CharSequence text)
        {
            if (orderId == this.orderId)
            {
                this.isDone = true;
                this.partition = partition;
                this.reason = reason;
                this.text = text.toString();
            }
        }
    }

    /**
     * One server: its connection and what the client knows of it.
     */
    private final class ServerLink implements ConnectionHandler
    {
        private final int index;
        private final int pair;
        private final int serverId;
        private final OrderServerAddress address;
        private final OrderIngressPublisher publisher;
        private FrameConnection connection;
        private String closeReason;
        private long nextConnectNs;
        private boolean connected;
        private boolean isMapReceived;
        private boolean isHelloDue;
        private boolean isSessionKnown;
        private boolean isBackPressured;
        private boolean isLost;
        private int sessionId;
        private long nextHelloNs;

        ServerLink(
            final int index,
            final int pair,
            final int serverId,
            final OrderServerAddress address,
            final OrderIngressPublisher publisher)
        {
            this.index = index;
            this.pair = pair;
            this.serverId = serverId;
            this.address = address;
            this.publisher = publisher;
        }

        @Override
        public void onOpen(final FrameConnection connection)
        {
            nextLinkCheckNs = clock.nanoTime(); // say hello now
        }

        @Override
        public void onMessage(
            final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
        {
            pairs[pair].adapter.onMessage(index, buffer, offset, length);
        }

        @Override
        public void onClose(final FrameConnection connection, final String reason)
        {
            closeReason = reason;
            nextLinkCheckNs = clock.nanoTime(); // the loss is handled by the next poll's link check
        }
    }

    /**
     * One pair: its response subscription and the roles its servers announced.
     */
    private static final class PairState
    {
        private final int index;
        private final OrderEgressAdapter adapter;
        private final byte[][] roles = new byte[SERVERS_PER_PAIR][];
        private final int[][] epochs = new int[SERVERS_PER_PAIR][];
        private int partitionCount = -1;
        private int partitionOffset = -1;
        private int[] primary;
        private int[] primaryEpoch;

        PairState(final int index, final OrderEgressAdapter adapter)
        {
            this.index = index;
            this.adapter = adapter;
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
        void recomputePrimaries(final ServerLink[] servers)
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
                    if (servers[index * SERVERS_PER_PAIR + s].isMapReceived && primaryRole == roles[s][p] &&
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

    /**
     * Settings of an {@link OrderClient}; defaults from {@link OrderClientConfiguration}. Conclude validates them,
     * takes a client id if none is set and checks the idle strategy against the spin budget.
     */
    public static final class Context extends BaseContext<Context>
    {
        private static final int MAX_WINDOW = 1 << 20;
        private static final int MAX_ORDER_LENGTH = 65_000;

        private long clientId = OrderClientConfiguration.clientId();
        private List<OrderServerAddress> servers = OrderServerAddress.parseList(OrderClientConfiguration.servers());
        private int window = OrderClientConfiguration.window();
        private int maxOrderLength = OrderClientConfiguration.maxOrderLength();
        private long ackTimeoutMs = OrderClientConfiguration.ackTimeoutMs();
        private long submitTimeoutMs = OrderClientConfiguration.submitTimeoutMs();
        private long helloIntervalMs = OrderClientConfiguration.helloIntervalMs();
        private int sendLimitBytes = OrderClientConfiguration.sendLimitBytes();
        private String idleStrategy = OrderClientConfiguration.idleStrategy();
        private int spinCores = IdleConfiguration.spinCores();
        private NanoClock nanoClock;
        private boolean isClientIdAssigned;
        private IdleStrategy concludedIdleStrategy;

        @Override
        protected void concludeContext()
        {
            if (null == servers || servers.isEmpty() || 0 != servers.size() % SERVERS_PER_PAIR)
            {
                throw new IllegalArgumentException(OrderClientConfiguration.SERVERS_PROP_NAME +
                    " must list the servers of one or more pairs (2 per pair): " + servers);
            }
            servers = List.copyOf(servers);
            requireRange(OrderClientConfiguration.WINDOW_PROP_NAME, window, 1, MAX_WINDOW);
            requireRange(OrderClientConfiguration.MAX_ORDER_LENGTH_PROP_NAME, maxOrderLength, 1, MAX_ORDER_LENGTH);
            requirePositive(OrderClientConfiguration.ACK_TIMEOUT_MS_PROP_NAME, ackTimeoutMs);
            requirePositive(OrderClientConfiguration.SUBMIT_TIMEOUT_MS_PROP_NAME, submitTimeoutMs);
            requirePositive(OrderClientConfiguration.HELLO_INTERVAL_MS_PROP_NAME, helloIntervalMs);
            requireRange(OrderClientConfiguration.SEND_LIMIT_BYTES_PROP_NAME, sendLimitBytes, 64 * 1024,
                Integer.MAX_VALUE);
            if (Long.MIN_VALUE == clientId)
            {
                throw new IllegalArgumentException(OrderClientConfiguration.CLIENT_ID_PROP_NAME +
                    " must not be the protocol's null value " + Long.MIN_VALUE);
            }
            if (0 == clientId)
            {
                clientId = new SystemEpochNanoClock().nanoTime();
                isClientIdAssigned = true;
            }
            try
            {
                concludedIdleStrategy = IdleStrategies.parse(idleStrategy);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(
                    OrderClientConfiguration.IDLE_STRATEGY_PROP_NAME + ": " + ex.getMessage(), ex);
            }
            new SpinBudget("order-client", spinCores)
                .add(OrderClientConfiguration.IDLE_STRATEGY_PROP_NAME, concludedIdleStrategy)
                .check();
            if (null == nanoClock)
            {
                nanoClock = SystemNanoClock.INSTANCE;
            }
        }

        /**
         * Nothing to release: the client owns its sockets.
         */
        @Override
        public void close()
        {
        }

        /**
         * @return a copy with the same settings, not concluded (it takes its own client id if this one was assigned
         * at conclude).
         */
        @Override
        public Context clone()
        {
            final Context copy = super.clone();
            copy.concludedIdleStrategy = null;
            if (isClientIdAssigned)
            {
                copy.clientId = 0;
                copy.isClientIdAssigned = false;
            }
            return copy;
        }

        /**
         * @return the idle strategy built by conclude.
         */
        public IdleStrategy concludedIdleStrategy()
        {
            return concludedIdleStrategy;
        }

        /**
         * @param clientId this client's id; 0 for a new one per run (wall-clock nanoseconds at conclude).
         * @return this.
         */
        public Context clientId(final long clientId)
        {
            checkNotConcluded();
            this.clientId = clientId;
            return this;
        }

        /**
         * @return this client's id (after conclude, never 0).
         */
        public long clientId()
        {
            return clientId;
        }

        /**
         * @param sendLimitBytes the most bytes of orders that may wait to be written to one server.
         * @return this.
         */
        public Context sendLimitBytes(final int sendLimitBytes)
        {
            checkNotConcluded();
            this.sendLimitBytes = sendLimitBytes;
            return this;
        }

        /**
         * @return the most bytes of orders that may wait to be written to one server.
         */
        public int sendLimitBytes()
        {
            return sendLimitBytes;
        }

        /**
         * @param servers the servers' order addresses; entries 2i and 2i+1 are pair i, in server-id order.
         * @return this.
         */
        public Context servers(final List<OrderServerAddress> servers)
        {
            checkNotConcluded();
            this.servers = new ArrayList<>(servers);
            return this;
        }

        /**
         * @param servers the servers as {@code host:port,...} (see {@link OrderClientConfiguration}).
         * @return this.
         */
        public Context servers(final String servers)
        {
            return servers(OrderServerAddress.parseList(servers));
        }

        /**
         * @return the servers' ingress streams.
         */
        public List<OrderServerAddress> servers()
        {
            return servers;
        }

        /**
         * @param window most orders in flight.
         * @return this.
         */
        public Context window(final int window)
        {
            checkNotConcluded();
            this.window = window;
            return this;
        }

        /**
         * @return most orders in flight.
         */
        public int window()
        {
            return window;
        }

        /**
         * @param maxOrderLength longest FIX message in bytes.
         * @return this.
         */
        public Context maxOrderLength(final int maxOrderLength)
        {
            checkNotConcluded();
            this.maxOrderLength = maxOrderLength;
            return this;
        }

        /**
         * @return longest FIX message in bytes.
         */
        public int maxOrderLength()
        {
            return maxOrderLength;
        }

        /**
         * @param ackTimeoutMs milliseconds before an unanswered order is sent again.
         * @return this.
         */
        public Context ackTimeoutMs(final long ackTimeoutMs)
        {
            checkNotConcluded();
            this.ackTimeoutMs = ackTimeoutMs;
            return this;
        }

        /**
         * @return milliseconds before an unanswered order is sent again.
         */
        public long ackTimeoutMs()
        {
            return ackTimeoutMs;
        }

        /**
         * @param submitTimeoutMs milliseconds a synchronous submit waits in all.
         * @return this.
         */
        public Context submitTimeoutMs(final long submitTimeoutMs)
        {
            checkNotConcluded();
            this.submitTimeoutMs = submitTimeoutMs;
            return this;
        }

        /**
         * @return milliseconds a synchronous submit waits in all.
         */
        public long submitTimeoutMs()
        {
            return submitTimeoutMs;
        }

        /**
         * @param helloIntervalMs milliseconds between hellos to a server whose map has not arrived.
         * @return this.
         */
        public Context helloIntervalMs(final long helloIntervalMs)
        {
            checkNotConcluded();
            this.helloIntervalMs = helloIntervalMs;
            return this;
        }

        /**
         * @return milliseconds between hellos to a server whose map has not arrived.
         */
        public long helloIntervalMs()
        {
            return helloIntervalMs;
        }

        /**
         * @param spec idle strategy of a synchronous submit (see {@link IdleStrategies}).
         * @return this.
         */
        public Context idleStrategy(final String spec)
        {
            checkNotConcluded();
            this.idleStrategy = spec;
            return this;
        }

        /**
         * @return idle strategy of a synchronous submit.
         */
        public String idleStrategy()
        {
            return idleStrategy;
        }

        /**
         * @param cores cores reserved for busy-spinning threads (the synchronous submit's wait counts as one).
         * @return this.
         */
        public Context spinCores(final int cores)
        {
            checkNotConcluded();
            this.spinCores = cores;
            return this;
        }

        /**
         * @return cores reserved for busy-spinning threads.
         */
        public int spinCores()
        {
            return spinCores;
        }

        /**
         * @param nanoClock clock for timeouts and send timestamps (default: System.nanoTime).
         * @return this.
         */
        public Context nanoClock(final NanoClock nanoClock)
        {
            checkNotConcluded();
            this.nanoClock = nanoClock;
            return this;
        }

        /**
         * @return clock for timeouts and send timestamps.
         */
        public NanoClock nanoClock()
        {
            return nanoClock;
        }

        /**
         * The settings as {@code key=value} lines.
         *
         * @return the settings.
         */
        @Override
        public String toString()
        {
            final StringBuilder out = new StringBuilder(1024);
            line(out, OrderClientConfiguration.CLIENT_ID_PROP_NAME, clientId);
            line(out, OrderClientConfiguration.SERVERS_PROP_NAME, servers);
            line(out, OrderClientConfiguration.WINDOW_PROP_NAME, window);
            line(out, OrderClientConfiguration.MAX_ORDER_LENGTH_PROP_NAME, maxOrderLength);
            line(out, OrderClientConfiguration.ACK_TIMEOUT_MS_PROP_NAME, ackTimeoutMs);
            line(out, OrderClientConfiguration.SUBMIT_TIMEOUT_MS_PROP_NAME, submitTimeoutMs);
            line(out, OrderClientConfiguration.HELLO_INTERVAL_MS_PROP_NAME, helloIntervalMs);
            line(out, OrderClientConfiguration.SEND_LIMIT_BYTES_PROP_NAME, sendLimitBytes);
            line(out, OrderClientConfiguration.IDLE_STRATEGY_PROP_NAME, idleStrategy);
            line(out, IdleConfiguration.SPIN_CORES_PROP_NAME, spinCores);
            return out.toString();
        }

        private static void line(final StringBuilder out, final String key, final Object value)
        {
            out.append(key).append('=').append(value).append(System.lineSeparator());
        }
    }
}
