package io.mdhub.p2p.order;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
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
import io.mdhub.common.order.fix.FixOrderEncoder;

/**
 * A bare order client for tests, on the raw protocol: says hello to both servers, routes each order to the
 * partition's primary by the latest PartitionMaps, records every answer. Single-threaded: the test polls it.
 */
final class TestOrderClient implements AutoCloseable
{
    /**
     * One answer.
     */
    record Answer(long orderId, int partition, boolean isAck, int epoch, long sequence, boolean duplicate,
        boolean replicated, RejectReason reason)
    {
    }

    private final long clientId;
    private final Publication[] servers;
    private final Subscription responses;
    private final String responseChannel;
    private final int responseStreamId;
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
    private final io.aeron.FragmentAssembler assembler = new io.aeron.FragmentAssembler(this::onFragment);
    private final PartitionMapDecoder map = new PartitionMapDecoder();
    final List<Answer> answers = new ArrayList<>();
    final Map<Long, Answer> acks = new HashMap<>();

    TestOrderClient(
        final Aeron aeron,
        final long clientId,
        final String[] ingressChannels,
        final int[] ingressStreamIds,
        final String responseChannel,
        final int responseStreamId,
        final int partitions)
    {
        this.clientId = clientId;
        this.partitions = partitions;
        this.responseChannel = responseChannel;
        this.responseStreamId = responseStreamId;
        this.responses = aeron.addSubscription(responseChannel, responseStreamId);
        this.servers = new Publication[ingressChannels.length];
        this.roles = new PartitionRole[ingressChannels.length][partitions];
        this.epochs = new int[ingressChannels.length][partitions];
        for (int i = 0; i < servers.length; i++)
        {
            servers[i] = aeron.addPublication(ingressChannels[i], ingressStreamIds[i]);
            java.util.Arrays.fill(roles[i], PartitionRole.NONE);
        }
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
        hello.wrapAndApplyHeader(buffer, 0, headerEncoder).clientId(clientId)
            .responseStreamId(responseStreamId).responseChannel(responseChannel);
        return servers[server].offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + hello.encodedLength()) > 0;
    }

    /**
     * Say hello to one server naming another response channel than the one this client listens on.
     */
    boolean hello(final int server, final String channel, final int streamId)
    {
        hello.wrapAndApplyHeader(buffer, 0, headerEncoder).clientId(clientId)
            .responseStreamId(streamId).responseChannel(channel);
        return servers[server].offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + hello.encodedLength()) > 0;
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
        return servers[target].offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + submit.encodedLength()) > 0;
    }

    /**
     * Offer raw bytes to a server's ingress (garbage, a truncated message...).
     */
    boolean offerRaw(final int server, final DirectBuffer bytes, final int length)
    {
        return servers[server].offer(bytes, 0, length) > 0;
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
        return servers[server].offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + submit.encodedLength() - cut) > 0;
    }

    int poll()
    {
        return responses.poll(assembler, 100); // a partition map of many partitions is longer than a frame
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
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
        CloseHelper.quietClose(responses);
        for (final Publication server : servers)
        {
            CloseHelper.quietClose(server);
        }
    }
}
