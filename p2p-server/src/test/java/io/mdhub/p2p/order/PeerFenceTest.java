package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;

import io.mdhub.common.net.SocketPoller;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The fence tells a dead peer process (connection refused) from a live one (connected, keep-alives arriving) and
 * from one it cannot reach (silent connection, unanswered connects): only the first is DOWN.
 */
@InterruptAfter(30)
class PeerFenceTest
{
    private static final long TIMEOUT_NS = 300_000_000L;
    private static final long CONNECT_TIMEOUT_NS = 300_000_000L;

    @Test
    void refusedWhileThePeerIsNotRunningUpWhileItIsAndDownWhenItCloses()
    {
        final int portA = MdTests.unusedPort();
        final int portB = MdTests.unusedPort();
        try (PeerFence a = fence(portA, portB))
        {
            MdTests.await("refused: nobody listens", () -> PeerFence.State.DOWN == poll(a));
            final PeerFence b = fence(portB, portA);
            MdTests.await("both up", () ->
            {
                poll(b);
                return PeerFence.State.UP == poll(a) && PeerFence.State.UP == poll(b);
            });
            b.close();
            MdTests.await("a sees b down", () -> PeerFence.State.DOWN == poll(a));
            final long untilNs = System.nanoTime() + 2 * TIMEOUT_NS;
            while (System.nanoTime() < untilNs) // every reconnect is refused: it stays down, never UNKNOWN or UP
            {
                assertEquals(PeerFence.State.DOWN, poll(a), a::reason);
                MdTests.idle(() -> "polling");
            }
        }
    }

    @Test
    void keepAlivesHoldAnIdleConnectionUpPastTheTimeout()
    {
        final int portA = MdTests.unusedPort();
        final int portB = MdTests.unusedPort();
        try (PeerFence a = fence(portA, portB); PeerFence b = fence(portB, portA))
        {
            MdTests.await("both up", () ->
            {
                poll(b);
                return PeerFence.State.UP == poll(a) && PeerFence.State.UP == poll(b);
            });
            final long untilNs = System.nanoTime() + 4 * TIMEOUT_NS;
            while (System.nanoTime() < untilNs)
            {
                assertEquals(PeerFence.State.UP, poll(a), a::reason);
                assertEquals(PeerFence.State.UP, poll(b), b::reason);
                MdTests.idle(() -> "polling");
            }
            assertEquals(0, a.connectionsLost());
            assertEquals(0, b.connectionsLost());
        }
    }

    @Test
    void silentConnectionsFromAnotherAddressAreRefusedOverTheBudgetAndThePeerStaysUp() throws IOException
    {
        final int portA = MdTests.unusedPort();
        final int portB = MdTests.unusedPort();
        final List<SocketChannel> junk = new ArrayList<>();
        final AtomicCounter refused = TestCounters.newCounter("refused");
        try (PeerFence a = new PeerFence(address(portA), address(portB), TIMEOUT_NS, CONNECT_TIMEOUT_NS,
            new AddressGate(0, "fence port", 4, 1_000, refused));
            PeerFence b = fence(portB, portA))
        {
            MdTests.await("both up", () ->
            {
                poll(b);
                return PeerFence.State.UP == poll(a) && PeerFence.State.UP == poll(b);
            });
            for (int i = 0; i < 20; i++)
            {
                final SocketChannel channel = SocketChannel.open();
                channel.bind(new InetSocketAddress("127.0.0.2", 0));
                channel.connect(address(portA));
                junk.add(channel);
            }
            MdTests.await(() -> "16 of 20 silent connections refused: " + refused.get(), () ->
            {
                poll(b);
                assertEquals(PeerFence.State.UP, poll(a), a::reason);
                return 16 == refused.get();
            });
            final long untilNs = System.nanoTime() + 2 * TIMEOUT_NS;
            while (System.nanoTime() < untilNs) // the peer's own connection is not one of them
            {
                poll(b);
                assertEquals(PeerFence.State.UP, poll(a), a::reason);
                assertEquals(PeerFence.State.UP, b.state(), b::reason);
                MdTests.idle(() -> "polling");
            }
        }
        finally
        {
            for (final SocketChannel channel : junk)
            {
                channel.close();
            }
        }
    }

    /**
     * A crashed host: the established connection goes quiet (no reset), and new connects get no answer (here: a
     * listener that never accepts, its backlog full, so the kernel drops the SYNs). The fence must not say DOWN —
     * the peer may be alive behind a cut network — but UNKNOWN; once the host answers again and refuses (it came
     * back without the process), DOWN.
     */
    @Test
    void silentPeerIsUnknownNeverDownUntilAConnectIsRefused() throws IOException
    {
        final int portA = MdTests.unusedPort();
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        final ServerSocket deadHost = new ServerSocket(0, 1, loopback);
        final List<SocketChannel> fillers = new ArrayList<>();
        try (PeerFence a = new PeerFence(new InetSocketAddress(loopback, portA),
            new InetSocketAddress(loopback, deadHost.getLocalPort()), TIMEOUT_NS, CONNECT_TIMEOUT_NS, defaultGate()))
        {
            MdTests.await("connected to the host", () -> PeerFence.State.UP == poll(a));
            try (Socket accepted = deadHost.accept())
            {
                // the host dies: nothing is written on the connection any more, and its accept queue fills
                for (int i = 0; i < 2; i++)
                {
                    final SocketChannel filler = SocketChannel.open();
                    filler.configureBlocking(false);
                    filler.connect(deadHost.getLocalSocketAddress());
                    fillers.add(filler);
                }
                MdTests.await(() -> "connects unanswered: " + a.state() + " " + a.reason(), () ->
                {
                    assertNotEquals(PeerFence.State.DOWN, poll(a), a::reason);
                    return a.reason().startsWith("no answer");
                });
                assertEquals(PeerFence.State.UNKNOWN, a.state());
                assertTrue(a.connectionsLost() >= 1, "the silent connection counts as lost");
                assertTrue(accepted.getInputStream().available() > 0, "the fence probed the silent connection");
            }
            for (final SocketChannel filler : fillers)
            {
                CloseHelper.quietClose(filler);
            }
            deadHost.close(); // the host is back without the process: connects are refused
            MdTests.await(() -> "refused: " + a.reason(), () -> PeerFence.State.DOWN == poll(a));
        }
        finally
        {
            CloseHelper.quietClose(deadHost);
            for (final SocketChannel filler : fillers)
            {
                CloseHelper.quietClose(filler);
            }
        }
    }

    /**
     * Watched on its owner's poller, a fence runs when one of its sockets is ready or one of its timers is due: two
     * fences come up, stay up past the timeout on keep-alives alone, and see each other go, with a poll count that
     * keep-alives explain (a fence that asked to run on every wake-up of its owner would make the loop spin).
     */
    @Test
    void watchedFenceRunsWhenASocketIsReadyOrATimerIsDue()
    {
        final int portA = MdTests.unusedPort();
        final int portB = MdTests.unusedPort();
        try (SocketPoller pollerA = new SocketPoller(1024, 1024 * 1024);
            SocketPoller pollerB = new SocketPoller(1024, 1024 * 1024);
            PeerFence a = fence(portA, portB);
            PeerFence b = fence(portB, portA))
        {
            a.watchOn(pollerA);
            b.watchOn(pollerB);
            final long[] polls = new long[2];
            MdTests.await("both up", () ->
            {
                serve(b, pollerB, polls, 1);
                serve(a, pollerA, polls, 0);
                return PeerFence.State.UP == a.state() && PeerFence.State.UP == b.state();
            });
            polls[0] = 0;
            polls[1] = 0;
            final long startNs = System.nanoTime();
            final long untilNs = startNs + 4 * TIMEOUT_NS;
            while (System.nanoTime() < untilNs)
            {
                serve(a, pollerA, polls, 0);
                serve(b, pollerB, polls, 1);
                assertEquals(PeerFence.State.UP, a.state(), a::reason);
                assertEquals(PeerFence.State.UP, b.state(), b::reason);
            }
            assertEquals(0, a.connectionsLost());
            assertEquals(0, b.connectionsLost());
            // each fence keeps two connections and sends a byte on each every quarter of the timeout, and the peer
            // does the same: at most 2 x (16 + 16) polls in four timeouts, fewer when two fall in one poll (a fence
            // polled every 10 ms would be polled 120 times)
            final long keepAliveEvents = 2 * 2 * (System.nanoTime() - startNs) / (TIMEOUT_NS / 4);
            assertTrue(polls[0] > 0 && polls[0] <= keepAliveEvents + 8, () -> "fence a polled " + polls[0]);
            assertTrue(polls[1] > 0 && polls[1] <= keepAliveEvents + 8, () -> "fence b polled " + polls[1]);

            pollerB.close(); // b's process ends: its poller lets go of the sockets, which then close
            b.close();
            MdTests.await("a sees b down", () ->
            {
                serve(a, pollerA, polls, 0);
                return PeerFence.State.DOWN == a.state();
            });
        }
    }

    /**
     * One wake-up of the fence's owner: wait on its poller until a socket is ready or the fence's next timer (at
     * most 20 ms, so that the other fence of the test is served too), and poll the fence if it is due.
     */
    private static void serve(final PeerFence fence, final SocketPoller poller, final long[] polls, final int index)
    {
        poller.deadlineNs(Math.min(fence.deadlineNs(System.nanoTime()), System.nanoTime() + 20_000_000L));
        poller.await(20);
        final long nowNs = System.nanoTime();
        if (fence.isDue(nowNs))
        {
            fence.poll(nowNs);
            polls[index]++;
        }
    }

    private static PeerFence fence(final int port, final int peerPort)
    {
        return new PeerFence(address(port), address(peerPort), TIMEOUT_NS, CONNECT_TIMEOUT_NS, defaultGate());
    }

    private static AddressGate defaultGate()
    {
        return new AddressGate(0, "fence port", OrderServiceConfiguration.ADDRESS_MAX_HANDSHAKES_DEFAULT,
            OrderServiceConfiguration.ADDRESS_ACCEPT_RATE_DEFAULT, TestCounters.newCounter("refused"));
    }

    private static PeerFence.State poll(final PeerFence fence)
    {
        fence.poll(System.nanoTime());
        return fence.state();
    }

    private static InetSocketAddress address(final int port)
    {
        return new InetSocketAddress("localhost", port);
    }
}
