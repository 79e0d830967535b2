package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.connectAck;
import static io.mdhub.common.ripc.RipcTests.hex;
import static io.mdhub.common.ripc.RipcTests.keyExchangeBlock;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link RipcClient} against raw servers: a malformed ack ends the connect with no version fallback, a close
 * during the handshake completes the connect without starting another attempt.
 */
@InterruptAfter(15)
class RipcClientTest
{
    private static RipcClient launch(final int port)
    {
        return RipcClient.launch(new RipcClient.Context()
            .host("127.0.0.1")
            .port(port)
            .hostName("client-test")
            .componentName("client-test")
            .handshakeTimeoutNs(TimeUnit.SECONDS.toNanos(3)));
    }

    static Stream<Arguments> malformedAcks()
    {
        return Stream.of(
            Arguments.of("short ack", hex("00 0c 01 01 0a 00 00 00 00 09 18 00")),
            Arguments.of("key exchange prime 2", connectAck(9, 6144, 3, 60, keyExchangeBlock(2, 5, 3), "bad")),
            Arguments.of("maxUserMsgSize 3", connectAck(9, 3, 3, 60, hex("08 00 00"), "bad")),
            Arguments.of("ping timeout 0", connectAck(9, 6144, 3, 0, hex("08 00 00"), "bad")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedAcks")
    void malformedAckFailsWithBadHandshakeAfterExactlyOneConnection(final String name, final byte[] ack)
        throws IOException
    {
        try (ServerSocket serverSocket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
            RipcClient client = launch(serverSocket.getLocalPort()))
        {
            final Future<Channel> connect = client.connect();
            try (Socket socket = RipcTests.accept(serverSocket))
            {
                assertEquals(0x17, RipcTests.readMessage(socket.getInputStream())[6], "RIPC14 first");
                socket.getOutputStream().write(ack);
                awaitDone(connect);
            }
            final RipcHandshakeException failure = assertInstanceOf(RipcHandshakeException.class, connect.cause());
            assertEquals(RipcDisconnectReason.BAD_HANDSHAKE, failure.reason(), failure::getMessage);
            assertEquals(RipcVersion.RIPC14, failure.version());
            // a RIPC13 retry would have opened (and counted) a second connection before the connect completed
            assertEquals(1, client.context().counters().connectionsOpened().get(), "connection attempts");
        }
    }

    @Test
    void closeDuringTheHandshakeCompletesTheConnectWithoutAFallbackAttempt() throws IOException
    {
        try (ServerSocket serverSocket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
            RipcClient client = launch(serverSocket.getLocalPort()))
        {
            final Future<Channel> connect = client.connect();
            try (Socket socket = RipcTests.accept(serverSocket))
            {
                RipcTests.readMessage(socket.getInputStream()); // the handshake is now waiting for our ack
                client.close();
                assertTrue(connect.isDone(), "close() completes connects in progress");
                final RipcHandshakeException failure =
                    assertInstanceOf(RipcHandshakeException.class, connect.cause());
                assertEquals(RipcDisconnectReason.LOCAL_CLOSE, failure.reason(), failure::getMessage);
                assertEquals(RipcVersion.RIPC14, failure.version());
                assertEquals(-1, socket.getInputStream().read(), "the client closed its connection");
            }
        }
    }

    @Test
    void serverThatPromisesNoPingsIsNotTimedOutButStillPinged() throws IOException
    {
        try (ServerSocket serverSocket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
            RipcClient client = launch(serverSocket.getLocalPort()))
        {
            final Future<Channel> connect = client.connect();
            try (Socket socket = RipcTests.accept(serverSocket))
            {
                RipcTests.readMessage(socket.getInputStream());
                // session flags 0x01: the server expects pings but sends none; ping timeout 1 s
                socket.getOutputStream().write(connectAck(9, 6144, 0x01, 1, hex("08 00 00"), "quiet"));
                awaitDone(connect);
                assertTrue(connect.isSuccess(), () -> String.valueOf(connect.cause()));
                assertEquals(4, RipcTests.readMessage(socket.getInputStream()).length, "ClientKey");

                final long startNs = System.nanoTime();
                int pings = 0;
                while (System.nanoTime() - startNs < TimeUnit.MILLISECONDS.toNanos(2500)) // 2.5 x the timeout
                {
                    assertArrayEquals(hex("00 03 02"), RipcTests.readMessage(socket.getInputStream()));
                    pings++;
                }
                assertTrue(pings >= 5, "pings every third of the timeout: " + pings);
                assertTrue(connect.getNow().isActive(), "silence from a server that promised no pings is fine");
            }
        }
    }

    @Test
    void serverThatPromisesPingsButStaysSilentIsTimedOut() throws IOException
    {
        try (ServerSocket serverSocket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
            RipcClient client = launch(serverSocket.getLocalPort()))
        {
            final Future<Channel> connect = client.connect();
            try (Socket socket = RipcTests.accept(serverSocket))
            {
                RipcTests.readMessage(socket.getInputStream());
                socket.getOutputStream().write(connectAck(9, 6144, 0x03, 1, hex("08 00 00"), "silent"));
                awaitDone(connect);
                assertTrue(connect.isSuccess(), () -> String.valueOf(connect.cause()));
                final Channel channel = connect.getNow();
                MdTests.await("the client to time the silent server out", () -> !channel.isActive());
                assertEquals(RipcDisconnectReason.PING_TIMEOUT, RipcDisconnects.reason(channel));
            }
        }
    }

    @Test
    void connectAfterCloseFailsAtOnce()
    {
        final RipcClient client = launch(MdTests.unusedPort());
        client.close();
        final Future<Channel> connect = client.connect();
        assertTrue(connect.isDone());
        assertTrue(!connect.isSuccess());
    }

    @Test
    void hostNamesThatDoNotFitTheConnectReqAreRejectedAtConclude()
    {
        final String tooLong = "h".repeat(RipcClient.Context.MAX_HOST_NAME_LENGTH + 1);
        assertThrows(IllegalArgumentException.class, () -> new RipcClient.Context().hostName(tooLong).conclude());
        assertThrows(IllegalArgumentException.class, () -> new RipcClient.Context().hostName("h\u00f6st").conclude());
        assertEquals(255 - 17 - ConnectReqDescriptor.MAX_IP_ADDRESS_LENGTH, RipcClient.Context.MAX_HOST_NAME_LENGTH);
    }

    private static void awaitDone(final Future<?> future)
    {
        while (!future.isDone())
        {
            MdTests.idle(() -> "the RIPC client connect to complete");
        }
    }
}
