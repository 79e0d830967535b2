package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Arrays;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.order.fix.FixOrderEncoder;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.tls.TlsClientAuth;
import io.mdhub.common.tls.TlsSettings;

/**
 * The client order port over TLS: an order client with TLS submits orders and gets every ack; a plain-TCP
 * connection to the TLS port is closed and counted while the TLS client keeps going. Prints the order round trip
 * (submit to ack) with and without TLS, measured in the same run (no timed assertion).
 */
@InterruptAfter(120)
class OrderTlsTest
{
    private static final int WARMUP_ORDERS = 5_000;
    private static final int MEASURED_ORDERS = 5_000;

    @TempDir
    Path dir;

    private final TlsTestKeys keys = TlsTestKeys.get();
    private final FixOrderEncoder encoder = new FixOrderEncoder();
    private final UnsafeBuffer fix = new UnsafeBuffer(new byte[1024]);
    private TestOrderPair pair;
    private OrderClient client;
    private long orderId = 1;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(client, pair);
    }

    @Test
    void tlsClientGetsItsAcksWhileAPlainConnectionIsRefused() throws Exception
    {
        final long[] tlsNs = run(true);
        try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), pair.orderPorts[0]))
        {
            final byte[] junk = new byte[64];
            Arrays.fill(junk, (byte)0x20);
            final OutputStream out = plain.getOutputStream();
            out.write(junk); // what a plain order client's hello looks like to TLS: not a TLS record
            assertEquals(-1, plain.getInputStream().read(), "closed by the server");
        }
        MdTests.await("the refusal counted", () -> pair.servers[0].counters().tlsHandshakeFailures.get() >= 1);
        for (int i = 0; i < 100; i++)
        {
            submit(); // the TLS client is untouched
        }
        assertEquals(WARMUP_ORDERS + MEASURED_ORDERS + 100, client.ackCount(), "every order acknowledged");
        assertTrue(pair.servers[0].counters().tlsHandshakesCompleted.get() >= 1);
        CloseHelper.quietCloseAll(client, pair);
        client = null;
        pair = null;

        final long[] plainNs = run(false);
        System.out.printf("OrderTlsTest: order round trip over %d orders (us) p50/p90/p99: plain %.1f/%.1f/%.1f, " +
            "TLS %.1f/%.1f/%.1f%n", MEASURED_ORDERS,
            plainNs[MEASURED_ORDERS / 2] / 1e3, plainNs[MEASURED_ORDERS * 9 / 10] / 1e3,
            plainNs[MEASURED_ORDERS * 99 / 100] / 1e3,
            tlsNs[MEASURED_ORDERS / 2] / 1e3, tlsNs[MEASURED_ORDERS * 9 / 10] / 1e3,
            tlsNs[MEASURED_ORDERS * 99 / 100] / 1e3);
    }

    /**
     * Start a pair (TLS on the order ports or not), connect a client, warm up, then time each order's round trip.
     */
    private long[] run(final boolean tls)
    {
        pair = new TestOrderPair(dir.resolve(tls ? "tls" : "plain"));
        final TlsSettings server = keys.serverSettings(TlsClientAuth.NONE);
        pair.launch(0, (ctx) -> ctx.sink(new OrderSinks.NoOpSink()).tlsEnabled(tls).tls(server));
        pair.launch(1, (ctx) -> ctx.sink(new OrderSinks.NoOpSink()).tlsEnabled(tls).tls(server));
        client = OrderClient.connect(new OrderClient.Context()
            .clientId(4243)
            .servers(pair.clientServers())
            .tls(tls ? keys.clientSettings(false) : null));
        MdTests.await("the client's partition maps", () ->
        {
            client.poll();
            return client.isReady();
        });
        for (int i = 0; i < WARMUP_ORDERS; i++)
        {
            submit();
        }
        final long[] roundTripNs = new long[MEASURED_ORDERS];
        for (int i = 0; i < MEASURED_ORDERS; i++)
        {
            final long startNs = System.nanoTime();
            submit();
            roundTripNs[i] = System.nanoTime() - startNs;
        }
        Arrays.sort(roundTripNs);
        return roundTripNs;
    }

    private void submit()
    {
        final long id = orderId++;
        final int length = encoder.clOrdId(id).msgSeqNum((int)id).sendingTimeMs(1_764_000_000_000L)
            .transactTimeMs(1_764_000_000_000L).symbol("VOD.L").side(Side.BUY).quantity(100)
            .ordType((byte)'2').price(10_000 + id % 100, -2).encode(fix, 0);
        client.submit(id, fix, 0, length);
    }
}
