package io.mdhub.benchmarks.orders;

import java.util.concurrent.Callable;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.UnsafeBuffer;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.mdhub.common.codecs.order.BooleanType;
import io.mdhub.common.codecs.order.ClientHelloDecoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderAckEncoder;
import io.mdhub.common.codecs.order.PartitionMapEncoder;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.SubmitOrderDecoder;
import io.mdhub.common.concurrent.Doorbell;
import io.mdhub.common.concurrent.DoorbellIdleStrategy;
import io.mdhub.common.concurrent.DoorbellRinger;
import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.config.ConfigValues;
import io.mdhub.p2p.order.OrderServiceConfiguration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The floor of the order path on this host: one server of a pair that does nothing with an order but pass it on.
 * It speaks the order protocol to unchanged order clients (PartitionMap on hello, OrderAck), and keeps the order
 * service's topology: a primary takes a SubmitOrder from its ingress and forwards it with its FIX bytes on an
 * exclusive publication to its mate's peer stream; the mate, as backup, answers the client with an OrderAck on the
 * client's response stream, one agent thread each waiting with the order agent's idle strategy
 * ({@code mdhub.order.idle.strategy}, the doorbell by default). No parsing, no region, no queue, no heartbeats, no
 * replication acknowledgement back to the primary (one peer message, and at low rates one wake-up of the primary,
 * fewer per order than the real pair), no failover: what an order then costs is what the machine charges for its
 * hand-offs between the probe and the two processes. {@code bin/mdhub bench orders
 * --configurations echo_two_server} measures it beside {@code two_server} with the same probes.
 */
@Command(
    name = "echo-order-server",
    mixinStandardHelpOptions = true,
    description = "One server of an echo pair: forwards orders to its mate, which acknowledges them (the floor of " +
        "the order path, for bench orders).")
public final class EchoOrderServer implements Callable<Integer>
{
    /** Printed once the server serves: what the bench waits for. */
    public static final String READY = "echo order server ready";

    private static final int PEER_MAGIC = 0x4543484f; // "ECHO"
    private static final int PEER_CLIENT_OFFSET = 4;
    private static final int PEER_ORDER_OFFSET = PEER_CLIENT_OFFSET + Long.BYTES;
    private static final int PEER_PARTITION_OFFSET = PEER_ORDER_OFFSET + Long.BYTES;
    private static final int PEER_SEND_TS_OFFSET = PEER_PARTITION_OFFSET + Integer.BYTES;
    private static final int PEER_FIX_LENGTH_OFFSET = PEER_SEND_TS_OFFSET + Long.BYTES;
    private static final int PEER_FIX_OFFSET = PEER_FIX_LENGTH_OFFSET + Integer.BYTES;
    private static final int MAX_FIX_LENGTH = 4096;
    private static final int FRAGMENT_LIMIT = 16;
    /** How long an answer or a forward may wait for a back-pressured publication before it is counted as dropped. */
    private static final long OFFER_PATIENCE_NS = 1_000_000;

    @Option(names = "--server-id", required = true, description = "0 or 1 within the pair.")
    int serverId;

    @Option(names = "--partitions", description = "Partitions of the pair; p's primary is server p mod 2 " +
        "(default ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--aeron-dir", required = true, description = "The media driver's directory.")
    String aeronDir;

    @Option(names = "--ingress-channel", description = "Default ${DEFAULT-VALUE}.")
    String ingressChannel = "aeron:ipc";

    @Option(names = "--ingress-stream-id", required = true)
    int ingressStreamId;

    @Option(names = "--peer-channel", description = "This server's peer stream's channel (default ${DEFAULT-VALUE}).")
    String peerChannel = "aeron:ipc";

    @Option(names = "--peer-stream-id", required = true)
    int peerStreamId;

    @Option(names = "--peer-remote-channel", description = "The mate's peer channel (default ${DEFAULT-VALUE}).")
    String peerRemoteChannel = "aeron:ipc";

    @Option(names = "--peer-remote-stream-id", required = true)
    int peerRemoteStreamId;

    @Option(names = "--idle", description = "The agent's idle strategy (default ${DEFAULT-VALUE}: the order " +
        "agent's, mdhub.order.idle.strategy, so that the floor waits as the pair it is compared with does).")
    String idle = ConfigValues.getString(
        OrderServiceConfiguration.IDLE_STRATEGY_PROP_NAME, OrderServiceConfiguration.IDLE_STRATEGY_DEFAULT);

    @Override
    public Integer call()
    {
        final IdleStrategy idleStrategy = IdleStrategies.parse(idle);
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
            Subscription ingress = aeron.addSubscription(ingressChannel, ingressStreamId);
            Subscription peer = aeron.addSubscription(peerChannel, peerStreamId);
            Publication toMate = aeron.addExclusivePublication(peerRemoteChannel, peerRemoteStreamId); // as PeerLink
            Doorbell doorbell = DoorbellIdleStrategy.attachIfIpc(idleStrategy,
                Doorbell.isIpc(ingressChannel) && Doorbell.isIpc(peerChannel), aeron, roleName(), ingressStreamId,
                peerStreamId))
        {
            final EchoAgent agent = new EchoAgent(aeron, ingress, peer, toMate);
            final AgentRunner runner = new AgentRunner(idleStrategy, Throwable::printStackTrace, null, agent);
            AgentRunner.startOnThread(runner);
            System.out.println(READY + ": server " + serverId + (null == doorbell ? "" : ", doorbell"));
            System.out.flush();
            barrier.await();
            runner.close();
            System.out.printf("echo order server %d: %d orders forwarded, %d answered, %d dropped%n", serverId,
                agent.forwarded, agent.answered, agent.dropped);
        }
        return 0;
    }

    /**
     * The duty cycle: hellos and orders from the ingress, forwarded orders from the mate.
     */
    private final class EchoAgent implements Agent
    {
        private final Aeron aeron;
        private final Subscription ingress;
        private final Subscription peer;
        private final Publication toMate;
        private final DoorbellRinger mateRinger;
        private final Long2ObjectHashMap<Client> clients = new Long2ObjectHashMap<>();
        private final FragmentHandler ingressHandler = new FragmentAssembler(this::onIngress);
        private final FragmentHandler peerHandler = new FragmentAssembler(this::onPeer);
        private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
        private final ClientHelloDecoder helloDecoder = new ClientHelloDecoder();
        private final SubmitOrderDecoder submitDecoder = new SubmitOrderDecoder();
        private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
        private final PartitionMapEncoder mapEncoder = new PartitionMapEncoder();
        private final OrderAckEncoder ackEncoder = new OrderAckEncoder();
        private final UnsafeBuffer out = new UnsafeBuffer(new byte[PEER_FIX_OFFSET + MAX_FIX_LENGTH]);
        private final long[] sequences = new long[partitions];
        long forwarded;
        long answered;
        long dropped;

        EchoAgent(final Aeron aeron, final Subscription ingress, final Subscription peer, final Publication toMate)
        {
            this.aeron = aeron;
            this.ingress = ingress;
            this.peer = peer;
            this.toMate = toMate;
            this.mateRinger = DoorbellRinger.forPublication(aeron, toMate);
        }

        @Override
        public int doWork()
        {
            return ingress.poll(ingressHandler, FRAGMENT_LIMIT) + peer.poll(peerHandler, FRAGMENT_LIMIT);
        }

        private void onIngress(final DirectBuffer buffer, final int offset, final int length, final Header header)
        {
            headerDecoder.wrap(buffer, offset);
            final int bodyOffset = offset + MessageHeaderDecoder.ENCODED_LENGTH;
            switch (headerDecoder.templateId())
            {
                case ClientHelloDecoder.TEMPLATE_ID:
                    helloDecoder.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                    onHello(helloDecoder.clientId(), helloDecoder.responseStreamId(), helloDecoder.responseChannel());
                    break;
                case SubmitOrderDecoder.TEMPLATE_ID:
                    submitDecoder.wrap(buffer, bodyOffset, headerDecoder.blockLength(), headerDecoder.version());
                    forward(submitDecoder);
                    break;
                default:
                    break;
            }
        }

        private void onHello(final long clientId, final int responseStreamId, final String responseChannel)
        {
            Client client = clients.get(clientId);
            if (null == client)
            {
                // blocking: hellos come before the measured window, and this is a benchmark's floor, not a server
                final Publication answers = aeron.addPublication(responseChannel, responseStreamId);
                client = new Client(answers, DoorbellRinger.forPublication(aeron, answers));
                clients.put(clientId, client);
            }
            mapEncoder.wrapAndApplyHeader(out, 0, headerEncoder).serverId(serverId).partitionCount(partitions);
            final PartitionMapEncoder.PartitionsEncoder entries = mapEncoder.partitionsCount(partitions);
            for (int p = 0; p < partitions; p++)
            {
                entries.next().partition(p).role(p % 2 == serverId ? PartitionRole.PRIMARY : PartitionRole.BACKUP)
                    .epoch(1);
            }
            send(client.answers, client.ringer, MessageHeaderEncoder.ENCODED_LENGTH + mapEncoder.encodedLength());
        }

        private void forward(final SubmitOrderDecoder submit)
        {
            final int fixLength = submit.fixLength();
            if (fixLength > MAX_FIX_LENGTH)
            {
                dropped++;
                return;
            }
            out.putInt(0, PEER_MAGIC);
            out.putLong(PEER_CLIENT_OFFSET, submit.clientId());
            out.putLong(PEER_ORDER_OFFSET, submit.orderId());
            out.putInt(PEER_PARTITION_OFFSET, submit.partition());
            out.putLong(PEER_SEND_TS_OFFSET, submit.sendTimestampNs());
            out.putInt(PEER_FIX_LENGTH_OFFSET, fixLength);
            submit.getFix(out, PEER_FIX_OFFSET, fixLength);
            if (send(toMate, mateRinger, PEER_FIX_OFFSET + fixLength))
            {
                forwarded++;
            }
        }

        private void onPeer(final DirectBuffer buffer, final int offset, final int length, final Header header)
        {
            if (length < PEER_FIX_OFFSET || buffer.getInt(offset) != PEER_MAGIC)
            {
                return;
            }
            final long clientId = buffer.getLong(offset + PEER_CLIENT_OFFSET);
            final Client client = clients.get(clientId);
            if (null == client)
            {
                dropped++; // its hello did not reach this server: the probe resends on its timeout
                return;
            }
            final int partition = buffer.getInt(offset + PEER_PARTITION_OFFSET);
            ackEncoder.wrapAndApplyHeader(out, 0, headerEncoder)
                .clientId(clientId)
                .orderId(buffer.getLong(offset + PEER_ORDER_OFFSET))
                .partition(partition)
                .epoch(1)
                .sequence(++sequences[Math.floorMod(partition, partitions)])
                .duplicate(BooleanType.FALSE)
                .replicated(BooleanType.TRUE)
                .sendTimestampNs(buffer.getLong(offset + PEER_SEND_TS_OFFSET));
            if (send(client.answers, client.ringer, MessageHeaderEncoder.ENCODED_LENGTH + ackEncoder.encodedLength()))
            {
                answered++;
            }
        }

        private boolean send(final Publication publication, final DoorbellRinger ringer, final int length)
        {
            final long deadlineNs = System.nanoTime() + OFFER_PATIENCE_NS;
            do
            {
                if (ringer.ringIfPublished(publication.offer(out, 0, length)) > 0)
                {
                    return true;
                }
            }
            while (System.nanoTime() - deadlineNs < 0);
            dropped++;
            return false;
        }

        @Override
        public void onClose()
        {
            clients.values().forEach((client) -> CloseHelper.quietCloseAll(client.ringer, client.answers));
            CloseHelper.quietClose(mateRinger);
        }

        @Override
        public String roleName()
        {
            return EchoOrderServer.this.roleName();
        }
    }

    private String roleName()
    {
        return "echo-order-server-" + serverId;
    }

    private static final class Client
    {
        final Publication answers;
        final DoorbellRinger ringer;

        Client(final Publication answers, final DoorbellRinger ringer)
        {
            this.answers = answers;
            this.ringer = ringer;
        }
    }
}
