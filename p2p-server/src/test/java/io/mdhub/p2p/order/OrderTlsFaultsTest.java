package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.ClientHelloEncoder;
import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderAckDecoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.OrderRejectDecoder;
import io.mdhub.common.codecs.order.PartitionMapDecoder;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.codecs.order.SubmitOrderEncoder;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.order.fix.FixOrderEncoder;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.test.TlsTestPeer;
import io.mdhub.common.tls.TlsClientAuth;
import io.mdhub.common.tls.TlsSettings;

/**
 * The TLS client order port against misbehaving peers, each a hand-driven TLS client ({@link TlsTestPeer}) beside a
 * well-behaved {@link OrderClient} over TLS whose orders must keep being acknowledged: connections that never
 * handshake or never say hello are closed by the handshake timeout; a client that stops reading is evicted at the
 * send limit; garbage after the handshake and ends inside a record or the handshake are closed and counted; mutual
 * TLS lets a client with a certificate in and refuses one without; orders at the largest length cross cut into
 * random chunks.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class OrderTlsFaultsTest
{
    private static final long HANDSHAKE_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long RAW_CLIENT_ID = 777;

    @TempDir
    Path dir;

    private final TlsTestKeys keys = TlsTestKeys.get();
    private final FixOrderEncoder encoder = new FixOrderEncoder();
    private final UnsafeBuffer fix = new UnsafeBuffer(new byte[1024]);
    private final ExpandableArrayBuffer message = new ExpandableArrayBuffer(70_000);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final OrderRejectDecoder rejectDecoder = new OrderRejectDecoder();
    private TestOrderPair pair;
    private OrderClient client;
    private long orderId = 1;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(client, pair);
    }

    @Test
    void connectionsThatNeverHandshakeOrNeverSayHelloAreClosedByTheHandshakeTimeout() throws Exception
    {
        start(TlsClientAuth.NONE, 4096);
        final OrderCounters counters = pair.servers[0].counters();
        final long failuresBefore = counters.tlsHandshakeFailures.get();
        final long startNs = System.nanoTime();
        try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), pair.orderPorts[0]);
            TlsTestPeer helloLess = peer(0, false, 0).handshake())
        {
            silent.setSoTimeout(10_000);
            assertEquals(-1, silent.getInputStream().read(), "the silent connection closed by the server");
            helloLess.awaitEnd();
        }
        final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        assertTrue(tookMs >= 400 && tookMs < 5_000, "closed by the timeout: " + tookMs + " ms");
        MdTests.await("both counted", () -> 2 == counters.handshakeTimeouts.get());
        assertEquals(failuresBefore + 1, counters.tlsHandshakeFailures.get(), "the silent one never began TLS");
        submitAndCheck(100);
    }

    @Test
    void aTlsClientThatStopsReadingIsEvictedWhileTheOthersKeepTheirAcks() throws Exception
    {
        start(TlsClientAuth.NONE, 4096);
        final OrderCounters counters = pair.servers[0].counters();
        final long evictedBefore = counters.clientsEvicted.get();
        final int submitsPerWrite = 500;
        long submitted = 0;
        long checkedAt = 0;
        try (TlsTestPeer reader = peer(0, false, 8 * 1024).handshake())
        {
            reader.send(hello());
            final byte[] frames = new byte[submitsPerWrite * FrameBytes.SMALL];
            final ByteBuffer framing = ByteBuffer.wrap(frames).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < submitsPerWrite; i++)
            {
                framing.put(submit(i, 9_999, 1)); // an unknown partition: a reject each, cheap for the server
            }
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            ByteBuffer pending = ByteBuffer.allocate(0);
            while (counters.clientsEvicted.get() == evictedBefore && submitted < 2_000_000)
            {
                assertTrue(System.nanoTime() - deadlineNs < 0, "not evicted after " + submitted + " submits");
                if (!pending.hasRemaining())
                {
                    pending = ByteBuffer.wrap(reader.wrap(frames));
                    submitted += submitsPerWrite;
                }
                if (reader.tryWrite(pending) < 0)
                {
                    break; // closed by the server
                }
                if (submitted - checkedAt >= 20_000)
                {
                    checkedAt = submitted;
                    submitAndCheck(1); // the well-behaved client meanwhile
                }
            }
        }
        MdTests.await("the reader evicted", () -> counters.clientsEvicted.get() == evictedBefore + 1);
        System.out.printf("OrderTlsFaultsTest: a TLS client that stopped reading was evicted after %,d " +
            "pipelined submits (about %,d bytes of rejects for it)%n", submitted, submitted * 70);
        submitAndCheck(200);
    }

    @Test
    void garbageAfterTheHandshakeAndEndsInsideARecordOrTheHandshakeAreClosedAndCounted() throws Exception
    {
        start(TlsClientAuth.NONE, 4096);
        final OrderCounters counters = pair.servers[0].counters();
        final long garbageBefore = counters.garbage.get();
        final long failuresBefore = counters.tlsHandshakeFailures.get();
        try (TlsTestPeer garbler = peer(0, false, 0).handshake())
        {
            garbler.send(hello());
            final byte[] junk = new byte[512];
            new Random(5).nextBytes(junk);
            junk[0] = 23;
            junk[1] = 3;
            junk[2] = 3;
            junk[3] = 1;
            junk[4] = 0;
            garbler.writeRaw(ByteBuffer.wrap(junk));
            assertFalse(garbler.awaitEnd(), "closed without a close_notify");
        }
        MdTests.await("garbage counted", () -> counters.garbage.get() == garbageBefore + 1);
        try (TlsTestPeer cut = peer(0, false, 0).handshake())
        {
            cut.send(hello());
            nextAnswer(cut, PartitionMapDecoder.TEMPLATE_ID); // all read: its close is a FIN, not a reset
            final byte[] records = cut.wrap(submit(1, 0, 40).array());
            cut.writeRaw(ByteBuffer.wrap(records, 0, records.length - 7));
        }
        MdTests.await("the record cut short counted", () -> counters.garbage.get() == garbageBefore + 2);
        final SSLEngine engine = clientEngine(false);
        engine.beginHandshake();
        final ByteBuffer clientHello = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), clientHello);
        clientHello.flip();
        clientHello.limit(clientHello.limit() / 2);
        try (TlsTestPeer halfHello = peer(0, false, 0).maxChunk(7))
        {
            halfHello.writeRaw(clientHello);
        }
        MdTests.await("the half handshake counted", () -> counters.tlsHandshakeFailures.get() == failuresBefore + 1);
        assertEquals(0, counters.handshakeTimeouts.get(), "each closed at once, not by the timeout");
        submitAndCheck(100);
    }

    @Test
    void mutualTlsTakesAClientWithACertificateAndRefusesOneWithout() throws Exception
    {
        start(TlsClientAuth.REQUIRE, 4096);
        final OrderCounters counters = pair.servers[0].counters();
        final long failuresBefore = counters.tlsHandshakeFailures.get();
        final long helloTimeoutsBefore = counters.handshakeTimeouts.get();
        try (TlsTestPeer anonymous = peer(0, false, 0))
        {
            try
            {
                anonymous.handshake(); // TLS 1.3: the client may finish before the server checks its certificate
                anonymous.send(hello());
            }
            catch (final Exception ex)
            {
                // refused during the handshake
            }
            anonymous.awaitEnd();
        }
        MdTests.await("the client without a certificate refused",
            () -> counters.tlsHandshakeFailures.get() == failuresBefore + 1);
        assertEquals(helloTimeoutsBefore, counters.handshakeTimeouts.get(), "refused at once");
        submitAndCheck(100); // the client with its certificate
    }

    @Test
    void ordersAtTheLargestLengthCrossCutIntoRandomChunks() throws Exception
    {
        final int maxOrder = OrderServiceConfiguration.MAX_ORDER_BYTES_MAX;
        start(TlsClientAuth.NONE, maxOrder);
        try (TlsTestPeer peer = peer(0, false, 0).maxChunk(3_000).handshake())
        {
            peer.send(hello());
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            do
            {
                assertTrue(System.nanoTime() - deadlineNs < 0, "server 0 never primary of partition 0");
                peer.send(submit(orderId++, 0, 10).array()); // until server 0 is primary of partition 0
                nextAnswer(peer, OrderAckDecoder.TEMPLATE_ID, OrderRejectDecoder.TEMPLATE_ID);
            }
            while (OrderAckDecoder.TEMPLATE_ID != headerDecoder.templateId());
            for (final int length : new int[] {maxOrder, maxOrder - 1, 16_300, 16_400, maxOrder + 1})
            {
                final long id = orderId++;
                peer.send(submit(id, 0, length).array());
                final DirectBuffer answer = nextAnswer(peer, OrderAckDecoder.TEMPLATE_ID,
                    OrderRejectDecoder.TEMPLATE_ID);
                if (length > maxOrder)
                {
                    assertEquals(OrderRejectDecoder.TEMPLATE_ID, headerDecoder.templateId(), "oversize refused");
                    rejectDecoder.wrapAndApplyHeader(answer, 0, headerDecoder);
                    assertEquals(RejectReason.OVERSIZE, rejectDecoder.reason());
                }
                else
                {
                    assertEquals(OrderAckDecoder.TEMPLATE_ID, headerDecoder.templateId(), "order of " + length);
                }
            }
        }
        assertEquals(5, pair.servers[0].counters().ordersAccepted.get(), "the first small one and four large");
    }

    /**
     * A pair with TLS on the order ports and a well-behaved OrderClient (with a certificate when clients need one).
     */
    private void start(final TlsClientAuth auth, final int maxOrderBytes)
    {
        pair = new TestOrderPair(dir);
        final TlsSettings server = keys.serverSettings(auth);
        System.setProperty(OrderServiceConfiguration.MAX_ORDER_BYTES_PROP_NAME, Integer.toString(maxOrderBytes));
        try
        {
            for (int id = 0; id < 2; id++)
            {
                pair.launch(id, (ctx) ->
                {
                    ctx.sink(new OrderSinks.NoOpSink()).tlsEnabled(true).tls(server)
                        .handshakeTimeoutNs(HANDSHAKE_TIMEOUT_NS);
                    if (maxOrderBytes > 4096)
                    {
                        ctx.preProcessor(new PassThrough());
                    }
                });
            }
        }
        finally
        {
            System.clearProperty(OrderServiceConfiguration.MAX_ORDER_BYTES_PROP_NAME);
        }
        client = OrderClient.connect(new OrderClient.Context()
            .clientId(4244)
            .servers(pair.clientServers())
            .tls(keys.clientSettings(TlsClientAuth.REQUIRE == auth)));
        MdTests.await("the client's partition maps", () ->
        {
            client.poll();
            return client.isReady();
        });
    }

    private SSLEngine clientEngine(final boolean withCertificate)
    {
        final TlsSettings settings = keys.clientSettings(withCertificate);
        final SSLContext context = settings.jdkContext(false);
        return settings.newClientEngine(context, "localhost", pair.orderPorts[0]);
    }

    private TlsTestPeer peer(final int server, final boolean withCertificate, final int receiveBytes)
    {
        return new TlsTestPeer(clientEngine(withCertificate),
            new InetSocketAddress("localhost", pair.orderPorts[server]), receiveBytes, null, 13);
    }

    private void submitAndCheck(final int orders)
    {
        final long before = client.ackCount();
        for (int i = 0; i < orders; i++)
        {
            final long id = orderId++;
            final int length = encoder.clOrdId(id).msgSeqNum((int)id).sendingTimeMs(1_764_000_000_000L)
                .transactTimeMs(1_764_000_000_000L).symbol("VOD.L").side(Side.BUY).quantity(100)
                .ordType((byte)'2').price(10_000 + id % 100, -2).encode(fix, 0);
            client.submit(id, fix, 0, length);
        }
        assertEquals(before + orders, client.ackCount(), "every order of the well-behaved client acknowledged");
    }

    private byte[] hello()
    {
        final ClientHelloEncoder hello = new ClientHelloEncoder();
        hello.wrapAndApplyHeader(message, 4, header).clientId(RAW_CLIENT_ID);
        return frame(MessageHeaderEncoder.ENCODED_LENGTH + hello.encodedLength()).array();
    }

    private ByteBuffer submit(final long id, final int partition, final int fixLength)
    {
        final SubmitOrderEncoder submit = new SubmitOrderEncoder();
        submit.wrapAndApplyHeader(message, 4, header).clientId(RAW_CLIENT_ID).orderId(id).partition(partition)
            .sendTimestampNs(System.nanoTime()).putFix(new byte[fixLength], 0, fixLength);
        return frame(MessageHeaderEncoder.ENCODED_LENGTH + submit.encodedLength());
    }

    private ByteBuffer frame(final int length)
    {
        message.putInt(0, length, ByteOrder.LITTLE_ENDIAN);
        final byte[] bytes = new byte[4 + length];
        message.getBytes(0, bytes);
        return ByteBuffer.wrap(bytes);
    }

    /**
     * @return the next answer of one of the templates (partition maps skipped), its header in headerDecoder.
     */
    private DirectBuffer nextAnswer(final TlsTestPeer peer, final int... templates) throws Exception
    {
        while (true)
        {
            final int length = ByteBuffer.wrap(peer.receive(4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
            final UnsafeBuffer answer = new UnsafeBuffer(peer.receive(length));
            headerDecoder.wrap(answer, 0);
            for (final int template : templates)
            {
                if (template == headerDecoder.templateId())
                {
                    return answer;
                }
            }
        }
    }

    /** Sizes of the test's frames. */
    private static final class FrameBytes
    {
        static final int SMALL = 4 + MessageHeaderEncoder.ENCODED_LENGTH + SubmitOrderEncoder.BLOCK_LENGTH +
            SubmitOrderEncoder.fixHeaderLength() + 1;
    }

    /** Takes any bytes as an order: the test's orders are filler of the largest length, not FIX. */
    public static final class PassThrough implements OrderPreProcessor
    {
        @Override
        public RejectReason preProcess(
            final DirectBuffer order, final int offset, final int length, final OrderRecordEncoder record)
        {
            record.side(Side.BUY).quantity(1).symbol("X").clOrdId("filler");
            record.putFix(order, offset, length);
            return null;
        }

        @Override
        public String lastRejectText()
        {
            return "";
        }
    }
}
