package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.ripc.RipcDisconnectReason;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;

/**
 * A flood of connections from one address (127.0.0.2: junk bytes, and connections that never finish their
 * handshake) while a consumer on another address (127.0.0.1) streams an item: the consumer's updates all arrive, in
 * order, each within {@link #LATENCY_BOUND_MS} of its publication, and the flooder's connections beyond its
 * address's budget are closed as they are accepted.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(90)
class P2pConnectionFloodTest
{
    /** The bound every update of the healthy consumer keeps during the flood, publication to receipt. */
    private static final long LATENCY_BOUND_MS = 250;
    private static final int JUNK_CONNECTIONS = 1_000;
    private static final int SILENT_CONNECTIONS = 300;
    private static final int UPDATES = 400;

    private final StubMarketDataSource source = new StubMarketDataSource()
        .service(1, "FEED")
        .item(1, "TRI.N", FieldIds.BID, 1);
    private final List<Socket> silent = new ArrayList<>();
    private P2pServer server;
    private EtaConsumer consumer;
    private Thread flooder;
    private final AtomicBoolean isFlooding = new AtomicBoolean(true);

    @AfterEach
    void close() throws InterruptedException
    {
        isFlooding.set(false);
        if (null != flooder)
        {
            flooder.join(10_000);
        }
        silent.forEach(CloseHelper::quietClose);
        CloseHelper.closeAll(consumer, server);
    }

    @Test
    void aHealthyConsumersUpdatesKeepFlowingWhileAnotherAddressFloodsThePort() throws Exception
    {
        final RipcServer.Context ripc = new RipcServer.Context();
        server = P2pServer.launch(new P2pServer.Context()
            .port(0).componentName("flood-test").itemSourceFactory(source).ripcContext(ripc));
        consumer = EtaConsumer.connect(server.port());
        assertEquals(StreamStates.OPEN, consumer.login("healthy").state().streamState());
        consumer.requestItem(5, 1, "TRI.N");
        assertEquals(MsgClasses.REFRESH, consumer.awaitMessage(5).msgClass());

        final AtomicInteger attempted = new AtomicInteger();
        flooder = new Thread(() -> flood(server.port(), attempted), "flooder");
        flooder.start();
        MdTests.await("the flood under way", () -> attempted.get() > 100);

        final long[] latencyNs = new long[UPDATES];
        for (int i = 0; i < UPDATES; i++)
        {
            final long publishedNs = System.nanoTime();
            source.update(1, "TRI.N", 0, FieldIds.BID, 2 + i);
            final EtaMessage update = consumer.awaitMessage(5);
            latencyNs[i] = System.nanoTime() - publishedNs;
            assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
            assertEquals(2L + i, update.mantissa(FieldIds.BID), "in order, none lost");
        }
        isFlooding.set(false);
        flooder.join(30_000);

        Arrays.sort(latencyNs);
        final long maxMs = latencyNs[UPDATES - 1] / 1_000_000;
        System.out.printf("flood: %d connection attempts from 127.0.0.2; healthy consumer latency median %d us, " +
            "p99 %d us, max %d ms%n", attempted.get(), latencyNs[UPDATES / 2] / 1_000,
            latencyNs[UPDATES * 99 / 100] / 1_000, maxMs);
        assertTrue(maxMs <= LATENCY_BOUND_MS, "every update within " + LATENCY_BOUND_MS + " ms: max " + maxMs);
        final long refused = ripc.counters().disconnects(RipcDisconnectReason.ADDRESS_BUDGET).get();
        assertTrue(refused > 0, "connections over the flooder's budget closed at accept: " + refused);
    }

    /**
     * From 127.0.0.2: junk connections (garbage instead of a ConnectReq) and silent ones held open, interleaved,
     * until told to stop or all are made.
     */
    private void flood(final int port, final AtomicInteger attempted)
    {
        final byte[] junk = new byte[64];
        Arrays.fill(junk, (byte)0x7F);
        int junkMade = 0;
        int silentMade = 0;
        while (isFlooding.get() && (junkMade < JUNK_CONNECTIONS || silentMade < SILENT_CONNECTIONS))
        {
            try
            {
                final Socket socket = new Socket();
                socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
                attempted.incrementAndGet();
                if (silentMade < SILENT_CONNECTIONS && 0 == (attempted.get() & 3))
                {
                    silent.add(socket);
                    silentMade++;
                }
                else
                {
                    try (OutputStream out = socket.getOutputStream())
                    {
                        out.write(junk);
                    }
                    catch (final IOException ignored)
                    {
                        // closed by the server already: what the flood is for
                    }
                    socket.close();
                    junkMade++;
                }
            }
            catch (final IOException ex)
            {
                attempted.incrementAndGet(); // refused or reset: still an attempt
            }
        }
    }
}
