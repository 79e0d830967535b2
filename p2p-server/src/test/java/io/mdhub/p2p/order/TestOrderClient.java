package io.mdhub.p2p.order;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.ClientHelloEncoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderAckDecoder;
import io.mdhub.common.codecs.order.OrderRejectDecoder;
import io.mdhub.common.codecs.order.PartitionMapDecoder;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.codecs.order.SubmitOrderEncoder;
import io.mdhub.common.net.ConnectionHandler;
import io.mdhub.common.net.FrameConnection;
import io.mdhub.common.net.SocketPoller;
import io.mdhub.common.order.fix.FixOrderEncoder;

/**
 * A bare order client for tests, on the raw protocol: a connection to each server (made again whenever it is found
 * closed), says hello to both, routes each order to the partition's primary by the latest PartitionMaps, records
 * every answer. Everything it sends is written at once. Single-threaded: the test polls it.
 */
final class TestOrderClient implements AutoCloseable, ConnectionHandler
{
    /**
     * One answer.
     */
    record Answer(long orderId, int partition, boolean isAck, int epoch, long sequence, boolean duplicate,
        boolean replicated, RejectReason reason)
    {
    }

    private final long clientId;
    private final SocketPoller poller = new SocketPoller(256 * 1024, 16 * 1024 * 1024);
    private final InetSocketAddress[] addresses;
    private final FrameConnection[] servers;
    private final int partitions;
    private final PartitionRole[][] roles;
    private final int[][] epochs;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8192]);
    private final ExpandableArrayBuffer fix = new ExpandableArrayBuffer(512);
    private final FixOrderEncoder fixEncoder = new FixOrderEncoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ClientHelloEncoder hello = new ClientHelloEncoder();
    private final SubmitOrderEncoder submit = new SubmitOrderEncoder();
    private final OrderAckDecoder ack = new OrderAckDecoder();
    private final OrderRejectDecoder reject = new OrderRejectDecoder();
    private final PartitionMapDecoder map = new PartitionMapDecoder();
    final List<Answer> answers = new ArrayList<>();
    final Map<Long, Answer> acks = new HashMap<>();

    TestOrderClient(final long clientId, final InetSocketAddress[] addresses, final int partitions)
    {
        this.clientId = clientId;
        this.partitions = partitions;
        this.addresses = addresses;
        this.servers = new FrameConnection[addresses.length];
        this.roles = new PartitionRole[addresses.length][partitions];
        this.epochs = new int[addresses.length][partitions];
        for (int i = 0; i < servers.length; i++)
        {
            java.util.Arrays.fill(roles[i], PartitionRole.NONE);
        }
    }

    /**
     * @return the server's connection, made again if it was lost (messages offered while it connects go once open).
     */
    FrameConnection connection(final int server)
    {
        if (null == servers[server] || servers[server].isClosed())
        {
            servers[server] = poller.connect(addresses[server], this);
            final long deadlineNs = System.nanoTime() + 5_000_000_000L;
            while (!servers[server].isOpen() && !servers[server].isClosed() && System.nanoTime() < deadlineNs)
            {
                poller.poll(); // a test expects what it sends next to be on its way: wait for the connect
            }
        }
        return servers[server];
    }

    private boolean send(final int server, final DirectBuffer bytes, final int length)
    {
        final boolean isQueued = connection(server).offer(bytes, 0, length);
        poller.flush();
        return isQueued;
    }

    void hello()
    {
        for (int server = 0; server < servers.length; server++)
        {
            hello(server);
        }
    }

    /**
     * Say hello to one server only (the other cannot answer this client).
     */
    boolean hello(final int server)
    {
        hello.wrapAndApplyHeader(buffer, 0, headerEncoder).clientId(clientId).responseStreamId(0).responseChannel("");
        return send(server, buffer, MessageHeaderEncoder.ENCODED_LENGTH + hello.encodedLength());
    }

    /**
     * @return the server that claims the partition with the highest epoch (a dead server's last map is stale).
     */
    int primaryOf(final int partition)
    {
        int primary = -1;
        for (int i = 0; i < servers.length; i++)
        {
            if (PartitionRole.PRIMARY == roles[i][partition] &&
                (primary < 0 || epochs[i][partition] > epochs[primary][partition]))
            {
                primary = i;
            }
        }
        return primary;
    }

    PartitionRole role(final int server, final int partition)
    {
        return roles[server][partition];
    }

    /**
     * @return true if offered to the partition's primary (or to {@code server} when given, >= 0).
     */
    boolean submit(final long orderId, final int partition, final int server)
    {
        final int length = fixEncoder.clOrdId(orderId).symbol("VOD.L").side(Side.BUY).quantity(100 + orderId % 7)
            .ordType((byte)'2').price(12345 + orderId, -2).encode(fix, 0);
        return submitRaw(orderId, partition, server, fix, length);
    }

    boolean submitRaw(
        final long orderId, final int partition, final int server, final DirectBuffer bytes, final int length)
    {
        final int target = server >= 0 ? server : primaryOf(Math.floorMod(partition, partitions));
        if (target < 0)
        {
            return false;
        }
        submit.wrapAndApplyHeader(buffer, 0, headerEncoder).clientId(clientId).orderId(orderId)
            .partition(partition).sendTimestampNs(System.nanoTime()).putFix(bytes, 0, length);
        return send(target, buffer, MessageHeaderEncoder.ENCODED_LENGTH + submit.encodedLength());
    }

    /**
     * Send raw bytes to a server as one message (garbage, a truncated message...).
     */
    boolean offerRaw(final int server, final DirectBuffer bytes, final int length)
    {
        return send(server, bytes, length);
    }

    /**
     * Send a valid SubmitOrder cut short by {@code cut} bytes (its FIX length says more than the message holds).
     */
    boolean submitTruncated(final long orderId, final int partition, final int server, final int cut)
    {
        final int length = fixEncoder.clOrdId(orderId).symbol("VOD.L").side(Side.BUY).quantity(100)
            .ordType((byte)'2').price(12345, -2).encode(fix, 0);
        submit.wrapAndApplyHeader(buffer, 0, headerEncoder).clientId(clientId).orderId(orderId)
            .partition(partition).sendTimestampNs(System.nanoTime()).putFix(fix, 0, length);
        return send(server, buffer, MessageHeaderEncoder.ENCODED_LENGTH + submit.encodedLength() - cut);
    }

    int poll()
    {
        final int work = poller.poll();
        poller.flush();
        return work;
    }

    @Override
    public void onOpen(final FrameConnection connection)
    {
    }

    @Override
    public void onClose(final FrameConnection connection, final String reason)
    {
        for (int i = 0; i < servers.length; i++)
        {
            if (servers[i] == connection)
            {
                java.util.Arrays.fill(roles[i], PartitionRole.NONE); // its maps are void until it sends new ones
            }
        }
    }

    @Override
    public void onMessage(
        final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
    {
        headerDecoder.wrap(buffer, offset);
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        switch (headerDecoder.templateId())
        {
            case OrderAckDecoder.TEMPLATE_ID:
                ack.wrap(buffer, body, headerDecoder.blockLength(), headerDecoder.version());
                final Answer answer = new Answer(ack.orderId(), ack.partition(), true, ack.epoch(), ack.sequence(),
                    BooleanType.TRUE == ack.duplicate(), BooleanType.TRUE == ack.replicated(), null);
                answers.add(answer);
                acks.putIfAbsent(ack.orderId(), answer);
                break;
            case OrderRejectDecoder.TEMPLATE_ID:
                reject.wrap(buffer, body, headerDecoder.blockLength(), headerDecoder.version());
                answers.add(new Answer(reject.orderId(), reject.partition(), false, 0, 0, false, false,
                    reject.reason()));
                break;
            case PartitionMapDecoder.TEMPLATE_ID:
                map.wrap(buffer, body, headerDecoder.blockLength(), headerDecoder.version());
                final int server = map.serverId();
                for (final PartitionMapDecoder.PartitionsDecoder entry : map.partitions())
                {
                    if (entry.partition() < partitions && server < roles.length)
                    {
                        roles[server][entry.partition()] = entry.role();
                        epochs[server][entry.partition()] = entry.epoch();
                    }
                }
                break;
            default:
                break;
        }
    }

    @Override
    public void close()
    {
        CloseHelper.quietClose(poller);
    }
}
