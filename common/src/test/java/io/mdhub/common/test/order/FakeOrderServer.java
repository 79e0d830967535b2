package io.mdhub.common.test.order;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.ClientHelloDecoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderAckEncoder;
import io.mdhub.common.codecs.order.OrderRejectEncoder;
import io.mdhub.common.codecs.order.PartitionMapEncoder;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.codecs.order.SubmitOrderDecoder;
import io.mdhub.common.net.ConnectionHandler;
import io.mdhub.common.net.FrameConnection;
import io.mdhub.common.net.SocketPoller;

/**
 * One server of a {@link FakeOrderPair}: speaks the client side of the order protocol (hello → PartitionMap, submit →
 * ack or reject) with knobs to misbehave. Everything runs on the pair's agent thread; tests change the knobs through
 * {@link FakeOrderPair#call(Runnable)}. What it received is readable from any thread.
 */
public final class FakeOrderServer implements AutoCloseable, ConnectionHandler
{
    private final FakeOrderPair pair;
    private final SocketPoller poller;
    private final int serverId;
    private InetSocketAddress address;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final ClientHelloDecoder hello = new ClientHelloDecoder();
    private final SubmitOrderDecoder submit = new SubmitOrderDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(4096);
    private final Map<Long, ClientEndpoint> clients = new LinkedHashMap<>();
    private final List<FrameConnection> connections = new ArrayList<>();
    private final Queue<RejectReason> forcedRejects = new ArrayDeque<>();
    private final Set<Integer> notPrimaryDespiteMap = new HashSet<>();
    private final List<Long> received = new ArrayList<>();
    private final AtomicInteger hellos = new AtomicInteger();
    private final AtomicInteger receivedCount = new AtomicInteger();
    private SocketPoller.Listener ingress;
    private String forcedRejectText = "";
    private int dropNext;
    private int silentNext;
    private boolean isPaused;
    private boolean isAlive;

    FakeOrderServer(final FakeOrderPair pair, final SocketPoller poller, final int serverId)
    {
        this.pair = pair;
        this.poller = poller;
        this.serverId = serverId;
        this.address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        start();
    }

    /**
     * @return where the server takes clients, {@code host:port} (the same port after a restart).
     */
    public String address()
    {
        return address.getHostString() + ":" + address.getPort();
    }

    /**
     * @return the server id in its pair.
     */
    public int serverId()
    {
        return serverId;
    }

    /**
     * @return a copy of the order ids of every SubmitOrder received, in order (resends included).
     */
    public List<Long> received()
    {
        synchronized (received)
        {
            return new ArrayList<>(received);
        }
    }

    /**
     * @return SubmitOrders received so far (cheap: no copy).
     */
    public int receivedCount()
    {
        return receivedCount.get();
    }

    /**
     * @return ClientHellos received.
     */
    public int hellos()
    {
        return hellos.get();
    }

    /**
     * Agent thread: refuse the next orders with these reasons (one each), before any other check but the client's.
     *
     * @param text   the reject text.
     * @param reasons reasons, in order.
     */
    public void rejectNext(final String text, final RejectReason... reasons)
    {
        forcedRejectText = text;
        forcedRejects.addAll(List.of(reasons));
    }

    /**
     * Agent thread: the next n orders are lost (neither stored nor answered).
     *
     * @param n how many.
     */
    public void dropNext(final int n)
    {
        dropNext = n;
    }

    /**
     * Agent thread: the next n orders are stored (and replicated) but not answered: the acks are lost.
     *
     * @param n how many.
     */
    public void silentNext(final int n)
    {
        silentNext = n;
    }

    /**
     * Agent thread: answer NOT_PRIMARY for this partition although the maps say PRIMARY (a role change the client
     * has not heard of yet). {@link FakeOrderPair#setPrimary} clears it.
     *
     * @param partition the partition.
     */
    public void notPrimaryFor(final int partition)
    {
        notPrimaryDespiteMap.add(partition);
    }

    /**
     * Agent thread: stop or resume reading every client connection (a slow server: the client's connection fills).
     *
     * @param paused true to stop reading.
     */
    public void paused(final boolean paused)
    {
        isPaused = paused;
        for (final FrameConnection connection : connections)
        {
            connection.readPaused(paused);
        }
    }

    /**
     * Agent thread: forget every client's registration but keep answering on its connection: its orders get
     * UNKNOWN_CLIENT until it says hello again.
     */
    public void forgetClients()
    {
        for (final ClientEndpoint client : clients.values())
        {
            client.isKnown = false;
        }
    }

    /**
     * Agent thread: the process dies: its listener and every connection close, clients are forgotten.
     */
    public void kill()
    {
        isAlive = false;
        for (final FrameConnection connection : new ArrayList<>(connections))
        {
            connection.close("killed");
        }
        connections.clear();
        clients.clear();
        CloseHelper.quietClose(ingress);
        ingress = null;
    }

    /**
     * Agent thread: a new process on the same port: no clients known.
     */
    public void restart()
    {
        kill();
        start();
    }

    /**
     * @return true unless killed.
     */
    public boolean isAlive()
    {
        return isAlive;
    }

    @Override
    public void close()
    {
        kill();
    }

    void sendMaps()
    {
        for (final ClientEndpoint client : clients.values())
        {
            if (client.isKnown)
            {
                queueMap(client);
            }
        }
    }

    int doWork()
    {
        int work = 0;
        for (final ClientEndpoint client : clients.values())
        {
            work += client.flush();
        }
        return work;
    }

    void clearNotPrimary(final int partition)
    {
        notPrimaryDespiteMap.remove(partition);
    }

    private void start()
    {
        ingress = poller.listen(address, this);
        address = ingress.boundAddress();
        isAlive = true;
    }

    @Override
    public void onOpen(final FrameConnection connection)
    {
        connections.add(connection);
        connection.readPaused(isPaused);
    }

    @Override
    public void onClose(final FrameConnection connection, final String reason)
    {
        connections.remove(connection);
        clients.values().removeIf((client) -> client.connection == connection);
    }

    @Override
    public void onMessage(
        final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
    {
        header.wrap(buffer, offset);
        if (MessageHeaderDecoder.SCHEMA_ID != header.schemaId())
        {
            return;
        }
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        switch (header.templateId())
        {
            case ClientHelloDecoder.TEMPLATE_ID:
                hello.wrap(buffer, body, header.blockLength(), header.version());
                onHello(hello.clientId(), connection);
                break;
            case SubmitOrderDecoder.TEMPLATE_ID:
                submit.wrap(buffer, body, header.blockLength(), header.version());
                onSubmit(submit.clientId(), submit.orderId(), submit.partition(), submit.sendTimestampNs());
                break;
            default:
                break;
        }
    }

    private void onHello(final long clientId, final FrameConnection connection)
    {
        hellos.incrementAndGet();
        ClientEndpoint client = clients.get(clientId);
        if (null == client || client.connection != connection)
        {
            client = new ClientEndpoint(connection);
            clients.put(clientId, client);
        }
        client.isKnown = true;
        queueMap(client);
    }

    private void onSubmit(final long clientId, final long orderId, final int partition, final long sendTimestampNs)
    {
        synchronized (received)
        {
            received.add(orderId);
        }
        receivedCount.incrementAndGet();
        final ClientEndpoint client = clients.get(clientId);
        if (null == client)
        {
            return; // no hello: the client is not known
        }
        if (!client.isKnown)
        {
            client.queue(reject(clientId, orderId, partition, RejectReason.UNKNOWN_CLIENT, sendTimestampNs,
                "hello first"));
            return;
        }
        if (dropNext > 0)
        {
            dropNext--;
            return;
        }
        if (!forcedRejects.isEmpty())
        {
            client.queue(reject(clientId, orderId, partition, forcedRejects.poll(), sendTimestampNs,
                forcedRejectText));
            return;
        }
        if (partition < 0 || partition >= pair.partitionCount())
        {
            client.queue(reject(clientId, orderId, partition, RejectReason.UNKNOWN_PARTITION, sendTimestampNs,
                "no such partition"));
            return;
        }
        if (pair.primaryOf(partition) != serverId || notPrimaryDespiteMap.contains(partition))
        {
            client.queue(reject(clientId, orderId, partition, RejectReason.NOT_PRIMARY, sendTimestampNs,
                "ask the other one"));
            return;
        }
        final long[] stored = pair.stored(clientId, orderId);
        if (null != stored)
        {
            client.queue(ack(clientId, orderId, (int)stored[0], (int)stored[1], stored[2], true, sendTimestampNs));
            return;
        }
        final long[] record = pair.store(clientId, orderId, partition);
        if (silentNext > 0)
        {
            silentNext--;
            return;
        }
        client.queue(ack(clientId, orderId, partition, (int)record[1], record[2], false, sendTimestampNs));
    }

    private void queueMap(final ClientEndpoint client)
    {
        final PartitionMapEncoder map = new PartitionMapEncoder();
        map.wrapAndApplyHeader(scratch, 0, headerEncoder)
            .serverId(serverId)
            .partitionCount(pair.partitionCount());
        final PartitionMapEncoder.PartitionsEncoder entries = map.partitionsCount(pair.partitionCount());
        for (int p = 0; p < pair.partitionCount(); p++)
        {
            entries.next()
                .partition(p)
                .role(pair.primaryOf(p) == serverId ? PartitionRole.PRIMARY : PartitionRole.BACKUP)
                .epoch(pair.epochOf(p));
        }
        client.queue(copy(MessageHeaderEncoder.ENCODED_LENGTH + map.encodedLength()));
    }

    private byte[] ack(
        final long clientId,
        final long orderId,
        final int partition,
        final int epoch,
        final long sequence,
        final boolean duplicate,
        final long sendTimestampNs)
    {
        final OrderAckEncoder ack = new OrderAckEncoder();
        ack.wrapAndApplyHeader(scratch, 0, headerEncoder)
            .clientId(clientId)
            .orderId(orderId)
            .partition(partition)
            .epoch(epoch)
            .sequence(sequence)
            .duplicate(duplicate ? BooleanType.TRUE : BooleanType.FALSE)
            .replicated(BooleanType.TRUE)
            .sendTimestampNs(sendTimestampNs);
        return copy(MessageHeaderEncoder.ENCODED_LENGTH + ack.encodedLength());
    }

    private byte[] reject(
        final long clientId,
        final long orderId,
        final int partition,
        final RejectReason reason,
        final long sendTimestampNs,
        final String text)
    {
        final OrderRejectEncoder reject = new OrderRejectEncoder();
        reject.wrapAndApplyHeader(scratch, 0, headerEncoder)
            .clientId(clientId)
            .orderId(orderId)
            .partition(partition)
            .reason(reason)
            .sendTimestampNs(sendTimestampNs)
            .text(text);
        return copy(MessageHeaderEncoder.ENCODED_LENGTH + reject.encodedLength());
    }

    private byte[] copy(final int length)
    {
        final byte[] bytes = new byte[length];
        scratch.getBytes(0, bytes);
        return bytes;
    }

    /**
     * A known client: its connection and the answers the connection did not take yet (its send limit reached).
     */
    static final class ClientEndpoint
    {
        private final FrameConnection connection;
        private final Queue<byte[]> pending = new ArrayDeque<>();
        private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
        private boolean isKnown = true;

        ClientEndpoint(final FrameConnection connection)
        {
            this.connection = connection;
        }

        void queue(final byte[] message)
        {
            pending.add(message);
            flush();
        }

        int flush()
        {
            int work = 0;
            while (!pending.isEmpty())
            {
                final byte[] message = pending.peek();
                view.wrap(message);
                if (!connection.offer(view, 0, message.length))
                {
                    if (connection.isClosed())
                    {
                        pending.clear();
                    }
                    break;
                }
                pending.poll();
                work++;
            }
            return work;
        }
    }
}
