package io.mdhub.common.net;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * Ports handed out for listeners known in advance lie below the ephemeral range, can be bound, and a port held by a
 * listener is not handed out.
 */
@InterruptAfter(10)
class LocalPortsTest
{
    @Test
    void portsLieBelowTheEphemeralRangeAndCanBeBound() throws IOException
    {
        for (int i = 0; i < 20; i++)
        {
            final int port = LocalPorts.unused();
            assertTrue(port >= 1024 && port < 32_768, "below the ephemeral range: " + port);
            try (ServerSocket socket = new ServerSocket())
            {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
        }
    }

    @Test
    void aPortHeldByAListenerIsSkipped() throws IOException
    {
        final int held = LocalPorts.unused();
        try (ServerSocket socket = new ServerSocket())
        {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), held));
            for (int i = 0; i < 12_000; i++)
            {
                assertNotEquals(held, LocalPorts.unused(), "a port in use came round again");
            }
        }
    }
}
