package io.mdhub.common.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports for listeners of one host's own processes — an in-process pair, a demo, a test — that must be known before
 * they are bound, because two listeners each need the other's port. They come from below Linux's ephemeral range
 * (32768 up): a port from that range, as {@code new ServerSocket(0)} hands out, can be taken between the check and
 * the bind by any outgoing connection on the host, the process's own included — and a connect to a port nobody
 * listens on yet may even be made from that very port, and so connect the socket to itself.
 */
public final class LocalPorts
{
    private static final int FIRST_PORT = 20_000;
    private static final int PORTS = 12_000;
    private static final AtomicInteger NEXT_PORT =
        new AtomicInteger((int)(ProcessHandle.current().pid() * 7919 % PORTS));

    private LocalPorts()
    {
    }

    /**
     * @return a TCP port on the loopback address that was free a moment ago, below the ephemeral range; each call
     * starts from where the last one left off, and processes start at different places.
     * @throws IllegalStateException if every port of the range is taken.
     */
    public static int unused()
    {
        for (int attempt = 0; attempt < PORTS; attempt++)
        {
            final int port = FIRST_PORT + Math.floorMod(NEXT_PORT.getAndIncrement(), PORTS);
            try (ServerSocket socket = new ServerSocket())
            {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                return port;
            }
            catch (final IOException ex)
            {
                // taken: try the next
            }
        }
        throw new IllegalStateException("no free port in " + FIRST_PORT + ".." + (FIRST_PORT + PORTS - 1));
    }
}
