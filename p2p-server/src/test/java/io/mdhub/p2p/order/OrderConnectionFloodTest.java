package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.agrona.CloseHelper;
import org.agrona.collections.Long2LongHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * A flood of connections from one address (127.0.0.2) to server 0's order port and peer port — junk bytes, and
 * connections held open without a word — while a client on 127.0.0.1 sends orders: every order is acknowledged
 * within {@link #ACK_BOUND_MS}, the pair stays paired, and the flooder's connections over its address's budget are
 * closed as they are accepted.
 */
@InterruptAfter(90)
class OrderConnectionFloodTest
{
    private static final long ACK_BOUND_MS = 500;
    private static final int FLOOD_CONNECTIONS = 1_500;
    private static final int SILENT_CONNECTIONS = 200;
    private static final int ORDERS = 400;

    @TempDir
    Path dir;

    private TestOrderPair pair;
    private Thread flooder;
    private final AtomicBoolean isFlooding = new AtomicBoolean(true);
    private final List<Socket> silent = new ArrayList<>();

    @AfterEach
    void close() throws InterruptedException
    {
        isFlooding.set(false);
        if (null != flooder)
        {
            flooder.join(10_000);
        }
        silent.forEach(CloseHelper::quietClose);
        CloseHelper.quietClose(pair);
    }

    @Test
    void aHealthyClientIsAcknowledgedWhileAnotherAddressFloodsTheOrderAndPeerPorts() throws Exception
    {
        pair = new TestOrderPair(dir);
        pair.launch(0, (ctx) -> ctx.addressBudget(16, 100));
        pair.launch(1, (ctx) -> ctx.addressBudget(16, 100));
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);

        final AtomicInteger attempted = new AtomicInteger();
        final int[] ports = {pair.orderPorts[0], pair.peerPorts[0]};
        flooder = new Thread(() -> flood(ports, attempted), "order-flooder");
        flooder.start();
        MdTests.await("the flood under way", () -> attempted.get() > 100);

        final Long2LongHashMap sentNs = new Long2LongHashMap(-1);
        final long[] ackNs = new long[ORDERS];
        int acked = 0;
        long nextId = 1;
        long nextSendNs = System.nanoTime();
        while (acked < ORDERS)
        {
            final long nowNs = System.nanoTime();
            if (nextId <= ORDERS && nowNs - nextSendNs >= 0)
            {
                pair.client.submit(nextId, (int)(nextId % TestOrderPair.PARTITIONS), -1);
                sentNs.put(nextId++, nowNs);
                nextSendNs += 2_000_000L;
            }
            pair.client.poll();
            final Long2LongHashMap.KeyIterator ids = sentNs.keySet().iterator();
            while (ids.hasNext())
            {
                final long id = ids.nextValue();
                if (pair.client.acks.containsKey(id))
                {
                    ackNs[acked++] = nowNs - sentNs.get(id);
                    ids.remove();
                }
                else
                {
                    assertTrue(nowNs - sentNs.get(id) < 10_000_000_000L, () -> "order " + id + " unanswered: " +
                        pair.states());
                }
            }
            MdTests.checkInterrupted("orders during the flood");
            LockSupport.parkNanos(100_000L);
        }
        isFlooding.set(false);
        flooder.join(30_000);

        Arrays.sort(ackNs);
        final long maxMs = ackNs[ORDERS - 1] / 1_000_000;
        final long refused = pair.servers[0].counters().connectionsRefused.get();
        System.out.printf("order flood: %d connection attempts from 127.0.0.2, %d refused at accept; healthy " +
            "client's acks median %d us, p99 %d us, max %d ms%n", attempted.get(), refused,
            ackNs[ORDERS / 2] / 1_000, ackNs[ORDERS * 99 / 100] / 1_000, maxMs);
        assertTrue(maxMs <= ACK_BOUND_MS, "every order acknowledged within " + ACK_BOUND_MS + " ms: max " + maxMs);
        assertTrue(refused > 0, "connections over the flooder's budget closed at accept");
        assertTrue(pair.eachServerPrimaryOfHalf(), pair::states);
        pair.assertEachOrderOnceWithContiguousSequences();
    }

    /**
     * From 127.0.0.2, alternately to each port: junk connections (bytes that are no frame) and silent ones held
     * open, until told to stop or all are made.
     */
    private void flood(final int[] ports, final AtomicInteger attempted)
    {
        final byte[] junk = new byte[64];
        Arrays.fill(junk, (byte)0x7F);
        int made = 0;
        while (isFlooding.get() && made < FLOOD_CONNECTIONS)
        {
            final int port = ports[made & 1];
            made++;
            try
            {
                final Socket socket = new Socket();
                socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
                attempted.incrementAndGet();
                if (silent.size() < SILENT_CONNECTIONS && 0 == (made & 6))
                {
                    silent.add(socket);
                    continue;
                }
                try (OutputStream out = socket.getOutputStream())
                {
                    out.write(junk);
                }
                catch (final IOException ignored)
                {
                    // closed by the server already: what the flood is for
                }
                socket.close();
            }
            catch (final IOException ex)
            {
                attempted.incrementAndGet(); // refused or reset: still an attempt
            }
        }
    }
}
