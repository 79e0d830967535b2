package io.mdhub.benchmarks.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.orderprobe.probe.OrderTarget;
import io.mdhub.orderprobe.probe.OrderTargets;

/**
 * The TCP floor in one JVM on ephemeral loopback ports: backup, primary, and the probe's tcp-floor target as the
 * clients. Every order is answered, each answer to the connection (and client and order) it belongs to while many
 * connections submit at once; a connection that dies or talks nonsense goes alone; a backup that goes takes the
 * clients' connections with it instead of leaving them waiting.
 */
@InterruptAfter(30)
class TcpFloorTest
{
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress("127.0.0.1", 0);
    private static final byte[] FIX = "8=FIX.4.4|9=5|35=D|10=000|".getBytes(StandardCharsets.US_ASCII);

    private TcpFloorBackup backup;
    private TcpFloorPrimary primary;
    private OrderTarget target;

    @BeforeEach
    void start() throws IOException
    {
        backup = TcpFloorBackup.start(ANY_LOOPBACK_PORT);
        primary = TcpFloorPrimary.start(ANY_LOOPBACK_PORT, new InetSocketAddress("127.0.0.1", backup.port()), 10);
        target = OrderTargets.create(TcpFloorTarget.NAME, Map.of(TcpFloorTarget.PRIMARY, "127.0.0.1:" +
            primary.port(), TcpFloorTarget.TIMEOUT_MS, "5000"));
    }

    @AfterEach
    void stop()
    {
        CloseHelper.quietCloseAll(target, primary, backup);
    }

    @Test
    void everyOrderIsAnsweredToItsOwnConnection() throws Exception
    {
        final int clients = 4;
        final int orders = 2_000;
        final List<Thread> threads = new ArrayList<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CountDownLatch go = new CountDownLatch(1);
        for (int c = 0; c < clients; c++)
        {
            final long clientId = 100 + c;
            final int publisher = c;
            final Thread thread = new Thread(() ->
            {
                try (OrderTarget.Session session = target.connect(publisher, clientId))
                {
                    go.await();
                    submit(session, 1, orders); // the same order ids on every connection: only the client tells
                }
                catch (final Exception | AssertionError ex)
                {
                    failure.compareAndSet(null, ex);
                }
            });
            threads.add(thread);
            thread.start();
        }
        go.countDown();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertEquals(null, failure.get(), "each session checks that every answer is its own order's");
        // the servers count an answer after writing it: the client may have read the last one before that
        MdTests.await(() -> "every order counted: forwarded " + primary.forwarded() + ", answered by the backup " +
            backup.answered() + ", by the primary " + primary.answered(), () ->
            clients * orders == primary.forwarded() && clients * orders == backup.answered() &&
            clients * orders == primary.answered());
        assertEquals(0, primary.dropped());
    }

    @Test
    void aConnectionThatDiesDoesNotStopTheOthers() throws Exception
    {
        try (OrderTarget.Session survivor = target.connect(0, 1))
        {
            submit(survivor, 1, 100);

            // a client that sends an order and dies before its answer comes
            try (Socket dying = new Socket("127.0.0.1", primary.port()))
            {
                final DataOutputStream out = new DataOutputStream(dying.getOutputStream());
                out.writeInt(TcpFloorFrame.HEADER_LENGTH + FIX.length);
                out.writeInt(0);
                out.writeLong(2);
                out.writeLong(1);
                out.write(FIX);
                out.flush();
            }
            // one that talks nonsense: an impossible frame length
            try (Socket garbage = new Socket("127.0.0.1", primary.port()))
            {
                garbage.getOutputStream().write(new byte[] {127, 127, 127, 127, 1, 2, 3});
                MdTests.await("the primary to close the nonsense connection",
                    () -> isClosedByPeer(garbage));
            }
            // and a session closed between two orders of another
            final OrderTarget.Session closed = target.connect(1, 3);
            submit(closed, 1, 10);
            closed.close();

            submit(survivor, 101, 200);
            // the survivor's, the dying one's (forwarded whenever its thread gets to it), the closed one's
            MdTests.await("every order to be forwarded", () -> 100 + 200 + 1 + 10 == primary.forwarded());
            MdTests.await("the dead client's order to come back",
                () -> primary.forwarded() == primary.answered() + primary.dropped());
            // the backup counts an answer after writing it
            MdTests.await("every order forwarded to be answered", () -> primary.forwarded() == backup.answered());
        }
        try (OrderTarget.Session later = target.connect(2, 4))
        {
            submit(later, 1, 10); // slots freed by the dead are taken again
        }
        assertEquals(5, primary.accepted());
    }

    @Test
    void aBackupThatGoesClosesTheClientsConnections()
    {
        try (OrderTarget.Session session = target.connect(0, 1))
        {
            submit(session, 1, 10);
            backup.close();
            assertThrows(UncheckedIOException.class, () -> submit(session, 11, 10_000),
                "the primary closes its clients' connections: the client fails at once, it does not wait");
        }
    }

    private static void submit(final OrderTarget.Session session, final long first, final int count)
    {
        final UnsafeBuffer fix = new UnsafeBuffer(FIX);
        for (long orderId = first; orderId < first + count; orderId++)
        {
            session.submit(orderId, fix, 0, FIX.length);
        }
    }

    private static boolean isClosedByPeer(final Socket socket)
    {
        try
        {
            return socket.getInputStream().read() < 0;
        }
        catch (final IOException ex)
        {
            return true; // reset
        }
    }
}
