package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The fence tells a dead peer process (connection refused or closed) from a live one (connected).
 */
@InterruptAfter(30)
class PeerFenceTest
{
    @Test
    void refusedWhileThePeerIsNotRunningUpWhileItIsAndDownWhenItCloses()
    {
        final int portA = freePort();
        final int portB = freePort();
        try (PeerFence a = new PeerFence(address(portA), address(portB)))
        {
            MdTests.await("refused: nobody listens", () -> PeerFence.State.DOWN == poll(a));
            final PeerFence b = new PeerFence(address(portB), address(portA));
            MdTests.await("both up", () ->
            {
                poll(b);
                return PeerFence.State.UP == poll(a) && PeerFence.State.UP == poll(b);
            });
            b.close();
            MdTests.await("a sees b down", () -> PeerFence.State.DOWN == poll(a));
            assertEquals(PeerFence.State.DOWN, poll(a));
        }
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

    private static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
