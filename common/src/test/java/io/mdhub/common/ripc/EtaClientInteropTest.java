package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.hex;
import static io.mdhub.common.ripc.RipcTests.message;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.transport.AcceptOptions;
import com.refinitiv.eta.transport.BindOptions;
import com.refinitiv.eta.transport.Channel;
import com.refinitiv.eta.transport.Error;

import com.refinitiv.eta.transport.Server;
import com.refinitiv.eta.transport.Transport;
import com.refinitiv.eta.transport.TransportFactory;

import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaChannel;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MDHub's RIPC client against a server built with ETA 3.9.1.0's transport, and against raw servers that close or
 * refuse.
 */
@ExtendWith(EtaTransportExtension.class)
class EtaClientInteropTest
{
    private volatile RecordingRwfHandler app;
    private RipcClient client;
    private Server etaServer;
    private EtaChannel etaChannel;

    @AfterEach
    void tearDown()
    {
        if (null != client)
        {
            client.close();
        }
        if (null != etaChannel)
        {
            etaChannel.close();
        }
        if (null != etaServer)
        {
            etaServer.close(TransportFactory.createError());
        }
    }

    private void launchClient(final int port, final int pingTimeoutSeconds)
    {
        client = RipcClient.launch(new RipcClient.Context()
            .host("127.0.0.1")
            .port(port)
            .hostName("mdhub-test-host")
            .componentName("mdhub-client-test")
            .pingTimeoutNs(TimeUnit.SECONDS.toNanos(pingTimeoutSeconds))
            .channelHook((ch) ->
            {
                app = new RecordingRwfHandler(false, false); // one per connection: the last one is the live one
                ch.pipeline().addLast(app);
            }));
    }

    private int bindEtaServer(final int pingTimeoutSeconds)
    {
        final int port = MdTests.unusedPort();
        final BindOptions options = TransportFactory.createBindOptions();
        options.serviceName(Integer.toString(port));
        options.interfaceName("127.0.0.1");
        options.majorVersion(Codec.majorVersion());
        options.minorVersion(Codec.minorVersion());
        options.protocolType(Codec.protocolType());
        options.serverBlocking(false);
        options.channelsBlocking(false);
        options.pingTimeout(pingTimeoutSeconds);
        options.minPingTimeout(1);
        final Error error = TransportFactory.createError();
        etaServer = Transport.bind(options, error);
        assertTrue(null != etaServer, () -> "Transport.bind: " + error.text());
        return port;
    }

    private EtaChannel acceptEtaChannel()
    {
        final AcceptOptions acceptOptions = TransportFactory.createAcceptOptions();
        final Error error = TransportFactory.createError();
        Channel accepted;
        while (null == (accepted = etaServer.accept(acceptOptions, error)))
        {
            MdTests.idle(() -> "ETA server to accept: " + error.text());
        }
        final EtaChannel channel = new EtaChannel(accepted);
        channel.awaitActive();
        return channel;
    }

    private static <T> T await(final Future<T> future)
    {
        while (!future.isDone())
        {
            MdTests.idle(() -> "the RIPC client connect to complete");
        }
        return future.getNow();
    }

    @Test
    @InterruptAfter(20)
    void logsInToAnEtaServerAndExchangesPackedAndFragmentedMessagesBothWays()
    {
        final int port = bindEtaServer(3);
        launchClient(port, 3);
        final Future<io.netty.channel.Channel> connect = client.connect();
        etaChannel = acceptEtaChannel();
        final io.netty.channel.Channel channel = await(connect);
        assertTrue(connect.isSuccess(), () -> String.valueOf(connect.cause()));

        final RipcSession session = app.session;
        assertEquals(RipcVersion.RIPC14, session.version());
        assertEquals(6144, session.maxUserMsgSize());
        assertEquals(3, session.pingTimeoutSeconds());
        assertTrue(session.remoteComponent().startsWith("etaj3.9.1"), session.remoteComponent());
        assertNotEquals(0, session.sharedKey(), "ETA's server offered TR_SL1_64 and we answered it");

        channel.writeAndFlush(Unpooled.wrappedBuffer(EtaLogin.loginRequest(1, "erin")));
        final LoginRequest request = EtaLogin.decodeLoginRequest(etaChannel.awaitMessage());
        assertEquals("erin", request.userName().toString());
        etaChannel.write(EtaLogin.loginRefresh(1, "erin"));

        MdTests.await("login refresh at the client", () -> !app.received.isEmpty());
        final LoginRefresh refresh = EtaLogin.decodeLoginRefresh(app.received.poll());
        assertEquals(StreamStates.OPEN, refresh.state().streamState());
        assertEquals(DataStates.OK, refresh.state().dataState());
        assertEquals("erin", refresh.userName().toString());

        // MDHub -> ETA: a burst between flushes (packed) and a fragmented message
        final byte[] a = message(57, 1);
        final byte[] b = message(300, 2);
        final byte[] c = message(1, 3);
        final byte[] big = message(20_000, 4);
        channel.write(Unpooled.wrappedBuffer(a), channel.voidPromise());
        channel.write(Unpooled.wrappedBuffer(b), channel.voidPromise());
        channel.write(Unpooled.wrappedBuffer(c), channel.voidPromise());
        channel.write(Unpooled.wrappedBuffer(big), channel.voidPromise());
        channel.flush();
        for (final byte[] expected : List.of(a, b, c, big))
        {
            assertArrayEquals(expected, etaChannel.awaitMessage());
        }

        // ETA -> MDHub: packed and fragmented
        etaChannel.writePacked(c, b, a);
        etaChannel.write(big);
        MdTests.await("4 messages at the client", () -> app.received.size() == 4);
        for (final byte[] expected : List.of(c, b, a, big))
        {
            assertArrayEquals(expected, app.received.poll());
        }

        // our client pings the ETA server (ETA never pings by itself): 3 s timeout -> a ping at least every 1 s
        final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3500);
        final int pingsBefore = etaChannel.pingsReceived();
        while (System.nanoTime() < endNs)
        {
            assertTrue(etaChannel.service());
            MdTests.idle(() -> "pings from the MDHub client");
        }
        final int pings = etaChannel.pingsReceived() - pingsBefore;
        assertTrue(pings >= 3, "pings: " + pings);
        assertTrue(channel.isActive());
        assertTrue(client.context().counters().pingsIn().get() >= 2, "ETA server pings reached the client");
    }

    @Test
    @InterruptAfter(15)
    void fallsBackToRipc13WhenTheServerClosesTheRipc14Handshake() throws IOException
    {
        try (ServerSocket serverSocket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress()))
        {
            launchClient(serverSocket.getLocalPort(), 60);
            final Future<io.netty.channel.Channel> connect = client.connect();

            try (Socket first = accept(serverSocket))
            {
                final byte[] req14 = readMessage(first.getInputStream());
                assertEquals(0x17, req14[6]);
                assertEquals(0x08, req14[7], "RIPC14 asks for key exchange");
                assertEquals("mdhub-test-host", new String(req14, 16, req14[15], StandardCharsets.US_ASCII));
            }
            try (Socket second = accept(serverSocket))
            {
                final byte[] req13 = readMessage(second.getInputStream());
                assertEquals(0x16, req13[6]);
                second.getOutputStream().write(RipcTests.concat(List.of(
                    hex("00 21 01 01 0a 00 00 00 00 08 18 00 03 3c 0e 01 00 00 00 0d 0c"),
                    "mini-ads/0.1".getBytes(StandardCharsets.US_ASCII),
                    RipcTests.normalFrame(message(33, 7)))));
                await(connect);
                assertTrue(connect.isSuccess(), () -> String.valueOf(connect.cause()));
                assertEquals(RipcVersion.RIPC13, app.session.version());
                assertEquals("mini-ads/0.1", app.session.remoteComponent());
                MdTests.await("first message after the RIPC13 ack", () -> !app.received.isEmpty());
                assertArrayEquals(message(33, 7), app.received.poll());
            }
        }
    }

    @Test
    @InterruptAfter(15)
    void failsTheConnectWithTheReasonWhenTheServerNaks() throws IOException
    {
        final Future<io.netty.channel.Channel> connect;
        try (ServerSocket serverSocket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress()))
        {
            launchClient(serverSocket.getLocalPort(), 60);
            connect = client.connect();
            try (Socket socket = accept(serverSocket))
            {
                readMessage(socket.getInputStream());
                final byte[] text = "Connection refused.\0".getBytes(StandardCharsets.US_ASCII);
                final byte[] nak = RipcTests.concat(List.of(
                    new byte[]{0, (byte)(8 + text.length), 1, 2, 8, 0, 0, (byte)text.length}, text));
                socket.getOutputStream().write(nak);
                await(connect);
            }
        }
        final RipcHandshakeException failure = assertInstanceOf(RipcHandshakeException.class, connect.cause());
        assertEquals(RipcDisconnectReason.CONNECT_REFUSED, failure.reason());
        assertTrue(failure.getMessage().contains("Connection refused."), failure.getMessage());
        assertEquals(1, client.context().counters().disconnects(RipcDisconnectReason.CONNECT_REFUSED).get());
    }

    private static Socket accept(final ServerSocket serverSocket) throws IOException
    {
        serverSocket.setSoTimeout(20);
        while (true)
        {
            try
            {
                final Socket socket = serverSocket.accept();
                socket.setSoTimeout(0);
                return socket;
            }
            catch (final java.net.SocketTimeoutException ex)
            {
                MdTests.checkInterrupted("a connection from the RIPC client");
            }
        }
    }

    private static byte[] readMessage(final InputStream in) throws IOException
    {
        final int high = in.read();
        final int low = in.read();
        final int length = (high << 8) | low;
        final byte[] message = new byte[length];
        message[0] = (byte)high;
        message[1] = (byte)low;
        int read = 2;
        while (read < length)
        {
            final int n = in.read(message, read, length - read);
            if (n < 0)
            {
                throw new IOException("closed");
            }
            read += n;
        }
        return message;
    }
}
