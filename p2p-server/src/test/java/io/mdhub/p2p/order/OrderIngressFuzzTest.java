package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import io.mdhub.common.codecs.order.ClientHelloEncoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.codecs.order.SubmitOrderEncoder;
import io.mdhub.common.net.FrameConnection;
import io.mdhub.common.net.SocketPoller;
import io.mdhub.common.order.fix.FixOrderEncoder;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * The order server's client ingress ({@link OrderIngress#onMessage}: ClientHello and SubmitOrder as a client's
 * connection hands them over) fed random bytes and mutated valid encodings, on two order servers serving alone in
 * this JVM (the production agent, store, queue and sessions; driven on the test's thread, which owns them). Each
 * server holds a real loopback connection of a client that said hello; every input goes to both, to one in a buffer
 * that ends where the message ends (a read past it throws), to the other followed by the next message (as a receive
 * buffer holds it). Nothing may throw, a message is refused as garbage (counted malformed, its connection closing)
 * or answered through the protocol, and the outcome must be the same on both servers: the bytes after a message must
 * not change what the server makes of it. After each property both servers still acknowledge a good client's order.
 * <p>
 * A message refused as garbage marks the connection for closing after the duty cycle's flush; the test takes the
 * mark back before that cycle (through the connection's attachment, the ingress's list of connections to close), so
 * that every try reuses one connection rather than make a TCP connection per try.
 */
@FuzzGuarded
class OrderIngressFuzzTest
{
    private static final int PARTITIONS = 4;
    private static final long CLIENT_ID = 7;
    /** Far from every id a few edits of the valid messages make: the fuzz never takes over this client's session. */
    private static final long GOOD_CLIENT_ID = 0x1357_9BDF_2468_ACE1L;
    private static final int PREFIX = 8;
    private static final long AWAIT_NS = 10_000_000_000L;
    private static final List<byte[]> MESSAGES = messages();
    /** What follows a message in the receive buffer of the second server. */
    private static final byte[] NEXT = MESSAGES.get(1);
    private static final UnsafeBuffer HELLO = new UnsafeBuffer(MESSAGES.get(0));

    private final Path directory = temporaryDirectory();
    private final Server ended = new Server(0, directory.resolve("ended"));
    private final Server followed = new Server(1, directory.resolve("followed"));

    @AfterProperty
    void checkAndClose()
    {
        try
        {
            ended.assertServesAGoodClient();
            followed.assertServesAGoodClient();
        }
        finally
        {
            CloseHelper.quietCloseAll(ended, followed);
            IoUtil.delete(directory.toFile(), true);
        }
    }

    @Property
    void randomBytes(@ForAll @Size(max = 200) final byte[] bytes)
    {
        deliverToBoth(bytes);
    }

    @Property
    void mutatedMessages(@ForAll("mutated") final byte[] bytes)
    {
        deliverToBoth(bytes);
    }

    @Provide
    Arbitrary<byte[]> mutated()
    {
        return ByteMutations.mutated(Arbitraries.of(MESSAGES));
    }

    private void deliverToBoth(final byte[] bytes)
    {
        assertEquals(ended.deliver(bytes, false), followed.deliver(bytes, true),
            "the outcome depends on the bytes after the message");
    }

    /**
     * A hello, orders of the client that said it on every partition and one past them, an order with no FIX, and an
     * order of a client that did not say hello.
     */
    private static List<byte[]> messages()
    {
        final List<byte[]> messages = new ArrayList<>();
        final UnsafeBuffer out = new UnsafeBuffer(new byte[1024]);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        final int headerLength = MessageHeaderEncoder.ENCODED_LENGTH;

        final ClientHelloEncoder hello = new ClientHelloEncoder();
        hello.wrapAndApplyHeader(out, 0, header).clientId(CLIENT_ID).responseStreamId(0).responseChannel("");
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + hello.encodedLength()));

        final ExpandableArrayBuffer fix = new ExpandableArrayBuffer(256);
        final FixOrderEncoder fixEncoder = new FixOrderEncoder();
        final SubmitOrderEncoder submit = new SubmitOrderEncoder();
        for (int orderId = 1; orderId <= PARTITIONS + 1; orderId++)
        {
            final int fixLength = fixEncoder.clOrdId(orderId).symbol("VOD.L").side(Side.BUY).quantity(100)
                .ordType((byte)'2').price(12345, -2).sendingTimeMs(1_700_000_000_000L)
                .transactTimeMs(1_700_000_000_000L).encode(fix, 0);
            submit.wrapAndApplyHeader(out, 0, header).clientId(CLIENT_ID).orderId(orderId).partition(orderId - 1)
                .sendTimestampNs(1000 + orderId).putFix(fix, 0, fixLength);
            messages.add(Arrays.copyOf(out.byteArray(), headerLength + submit.encodedLength()));
        }
        submit.wrapAndApplyHeader(out, 0, header).clientId(CLIENT_ID).orderId(20).partition(0)
            .sendTimestampNs(20).putFix(fix, 0, 0);
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + submit.encodedLength()));
        submit.wrapAndApplyHeader(out, 0, header).clientId(CLIENT_ID + 1).orderId(21).partition(1)
            .sendTimestampNs(21).putFix(fix, 0, 0);
        messages.add(Arrays.copyOf(out.byteArray(), headerLength + submit.encodedLength()));
        return messages;
    }

    private static Path temporaryDirectory()
    {
        try
        {
            return Files.createTempDirectory("ingress-fuzz");
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static void await(final String what, final BooleanSupplier condition, final Runnable step)
    {
        final long deadlineNs = System.nanoTime() + AWAIT_NS;
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadlineNs, () -> "timed out: " + what);
            step.run();
            LockSupport.parkNanos(100_000L);
        }
    }

    /**
     * An order server serving every partition alone (its peer never starts), as {@link OrderService} builds it,
     * with a client connected that said hello.
     */
    private static final class Server implements AutoCloseable
    {
        private final OrderCounters counters;
        private final PeerFence fence;
        private final OrderQueue queue;
        private final SocketPoller poller;
        private final OrderAgent agent;
        private final TestOrderClient client;
        private final FrameConnection connection;
        private final AtomicCounter[] watched;

        Server(final int serverId, final Path queueDir)
        {
            final OrderService.Context ctx = new OrderService.Context()
                .sink((partition, sequence, record, offset, length) -> true)
                .serverId(serverId)
                .partitions(PARTITIONS)
                .address("localhost:" + MdTests.unusedPort())
                .peerAddress("localhost:" + MdTests.unusedPort())
                .peerRemoteAddress("localhost:" + MdTests.unusedPort())
                .fence("localhost:" + MdTests.unusedPort(), "localhost:" + MdTests.unusedPort())
                .startupPeerWaitNs(0)
                .startupForceAlone(true)
                .expectedOrders(100_000)
                .queueDir(queueDir.toString())
                .registerMBean(false);
            ctx.conclude();
            counters = new OrderCounters(ctx.countersManager(), ctx.serverId());
            fence = new PeerFence(ctx.fenceAddress(), ctx.peerFenceAddress(), ctx.fenceTimeoutNs(),
                ctx.fenceConnectTimeoutNs(), new AddressGate(ctx.serverId(), "fence port", ctx.addressMaxHandshakes(),
                ctx.addressAcceptRate(), counters.connectionsRefused));
            queue = new OrderQueue(ctx.queueDirectory());
            poller = new SocketPoller(OrderServiceConfiguration.MAX_MESSAGE_BYTES,
                OrderServiceConfiguration.CLIENT_SEND_LIMIT_BYTES);
            agent = new OrderAgent(ctx, poller, fence, queue, counters);
            watched = new AtomicCounter[] {counters.malformed, counters.garbage, counters.unknownClient,
                counters.rejected, counters.ordersAccepted, counters.duplicates};
            agent.onStart();
            await("server " + serverId + " serving alone", () -> ServerState.SERVING == agent.state(),
                agent::doWork);
            client = new TestOrderClient(CLIENT_ID, new InetSocketAddress[] {agent.address()}, PARTITIONS);
            client.hello(0); // through the socket: the server's end of it is the connection the tries use
            await("the client's hello", () -> null != agent.clients().get(CLIENT_ID), this::cycle);
            connection = agent.clients().get(CLIENT_ID).connection;
        }

        /**
         * @return what the server made of the message: whether it refused it as garbage, the counters it moved and
         * the bytes it queued to the client.
         */
        String deliver(final byte[] bytes, final boolean isFollowed)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(
                new byte[PREFIX + bytes.length + (isFollowed ? NEXT.length : 0)]);
            buffer.setMemory(0, buffer.capacity(), (byte)0x5A);
            buffer.putBytes(PREFIX, bytes);
            if (isFollowed)
            {
                buffer.putBytes(PREFIX + bytes.length, NEXT);
            }
            final long[] before = new long[watched.length];
            for (int i = 0; i < watched.length; i++)
            {
                before[i] = watched[i].get();
            }
            final int pendingBefore = connection.pendingBytes();

            agent.ingress().onMessage(connection, buffer, PREFIX, bytes.length);

            final boolean isGarbage = connection.attachment() instanceof List;
            final StringBuilder outcome = new StringBuilder(isGarbage ? "garbage" : "answered");
            long answers = 0;
            for (int i = 0; i < watched.length; i++)
            {
                final long delta = watched[i].get() - before[i];
                outcome.append(' ').append(delta);
                answers += i >= 2 ? delta : 0;
            }
            outcome.append(" queued ").append(connection.pendingBytes() - pendingBefore);
            final long malformed = watched[0].get() - before[0];
            assertEquals(isGarbage ? 1 : 0, malformed, () -> "garbage is counted malformed once: " + outcome);
            assertTrue(answers <= 1, () -> "one message, one outcome: " + outcome);
            assertFalse(connection.isClosed(), "the connection is closed only after the duty cycle");
            if (isGarbage)
            {
                ((List<?>)connection.attachment()).clear(); // take back the close: the next try uses it again
                connection.attach(null);
                connection.readPaused(false);
            }
            final ClientSession session = agent.clients().get(CLIENT_ID);
            if (null == session || session.connection != connection)
            {
                // garbage ended the client's session, or a hello bound another id: orders reach the store only
                // from a client that said hello
                agent.ingress().onMessage(connection, HELLO, 0, HELLO.capacity());
            }
            cycle();
            return outcome.toString();
        }

        void assertServesAGoodClient()
        {
            assertTrue(connection.isOpen(), "the fuzzed connection was never closed: every close was taken back");
            try (TestOrderClient good = new TestOrderClient(GOOD_CLIENT_ID, new InetSocketAddress[] {agent.address()},
                PARTITIONS))
            {
                final Runnable step = () ->
                {
                    agent.doWork();
                    good.poll();
                };
                good.hello(0);
                await("the good client's hello", () -> null != agent.clients().get(GOOD_CLIENT_ID), step);
                good.submit(1, 2, 0);
                await("the good client's ack", () -> good.acks.containsKey(1L), step);
            }
        }

        /**
         * A duty cycle of the server (answers written), and the client reads them.
         */
        private void cycle()
        {
            agent.doWork();
            client.poll();
            client.answers.clear();
            client.acks.clear();
        }

        @Override
        public void close()
        {
            agent.onClose();
            CloseHelper.quietCloseAll(client, queue, fence, counters);
        }
    }
}
