package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.tls.TlsClientAuth;

/**
 * RIPC over TLS between MDHub's own server and client: messages cross a TLS port both ways; a plain-TCP client is
 * refused (counted, its own connection only) while a TLS client on the same server keeps working; mutual TLS
 * refuses a client without a certificate; a connection that never starts its TLS handshake is closed by the
 * handshake timeout and gives its address's handshake slot back.
 */
@InterruptAfter(60)
class RipcTlsTest
{
    private static final long HANDSHAKE_TIMEOUT_MS = 1_500;

    private final TlsTestKeys keys = TlsTestKeys.get();
    private RipcServer server;
    private RipcClient tlsClient;
    private RipcClient otherClient;

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(otherClient, tlsClient, server);
    }

    @Test
    void tlsClientExchangesMessagesWhileAPlainClientIsRefused() throws Exception
    {
        launchServer(TlsClientAuth.NONE, 64);
        tlsClient = client(keys.clientSettings(false).nettyClientContext());
        final BlockingQueue<byte[]> echoes = new LinkedBlockingQueue<>();
        final Channel channel = connect(tlsClient, echoes);
        assertTrue(channel.pipeline().get(SslHandler.class).engine().getSession().getProtocol().startsWith("TLSv1."));
        assertEcho(channel, echoes, "before");

        otherClient = client(null);
        final Future<Channel> plain = otherClient.connect("127.0.0.1", server.port());
        plain.awaitUninterruptibly();
        assertFalse(plain.isSuccess(), "a plain client is refused on a TLS port");
        assertInstanceOf(RipcHandshakeException.class, plain.cause());

        final RipcCounters counters = server.context().counters();
        MdTests.await("the refusal counted", () -> counters.tlsHandshakeFailures().get() >= 1);
        assertTrue(counters.disconnects(RipcDisconnectReason.TLS_HANDSHAKE).get() >= 1);
        assertEquals(1, counters.tlsHandshakesCompleted().get());
        assertEcho(channel, echoes, "after");
        assertTrue(channel.isActive(), "the TLS client's connection is untouched");
        assertEquals(1, tlsClient.context().counters().tlsHandshakesCompleted().get());
    }

    @Test
    void mutualTlsAcceptsAClientCertificateAndRefusesAClientWithout() throws Exception
    {
        launchServer(TlsClientAuth.REQUIRE, 64);
        tlsClient = client(keys.clientSettings(true).nettyClientContext());
        final BlockingQueue<byte[]> echoes = new LinkedBlockingQueue<>();
        final Channel channel = connect(tlsClient, echoes);
        assertEcho(channel, echoes, "mutual");

        otherClient = client(keys.clientSettings(false).nettyClientContext());
        final Future<Channel> anonymous = otherClient.connect("localhost", server.port());
        anonymous.awaitUninterruptibly();
        assertFalse(anonymous.isSuccess(), "no client certificate, no connection");
        final RipcCounters counters = server.context().counters();
        MdTests.await("the refusal counted", () -> 1 == counters.disconnects(RipcDisconnectReason.TLS_HANDSHAKE).get());
        assertEquals(1, counters.tlsHandshakeFailures().get());
        assertEcho(channel, echoes, "still");
    }

    @Test
    void aSilentConnectionIsClosedByTheHandshakeTimeoutAndGivesItsSlotBack() throws Exception
    {
        launchServer(TlsClientAuth.NONE, 1); // one handshake at a time per address
        try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), server.port()))
        {
            final RipcCounters counters = server.context().counters();
            MdTests.await("the silent connection accepted", () -> 1 == counters.connectionsOpened().get());
            tlsClient = client(keys.clientSettings(false).nettyClientContext());
            final Future<Channel> refused = tlsClient.connect("localhost", server.port());
            refused.awaitUninterruptibly();
            assertFalse(refused.isSuccess(), "the address's only handshake slot is held by the silent connection");
            assertEquals(1, counters.disconnects(RipcDisconnectReason.ADDRESS_BUDGET).get());

            final long startNs = System.nanoTime();
            assertEquals(-1, silent.getInputStream().read(), "closed by the server");
            final long heldMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            assertTrue(heldMs < HANDSHAKE_TIMEOUT_MS + 2_000, "closed within the handshake timeout: " + heldMs);
            MdTests.await("timeout counted", () -> 1 == counters.disconnects(RipcDisconnectReason.HANDSHAKE_TIMEOUT)
                .get());
            MdTests.await("TLS handshake not completed counted", () -> 1 == counters.tlsHandshakeFailures().get());

            final BlockingQueue<byte[]> echoes = new LinkedBlockingQueue<>();
            assertEcho(connect(tlsClient, echoes), echoes, "slot back"); // the slot was given back
        }
    }

    private void launchServer(final TlsClientAuth clientAuth, final int addressMaxHandshakes)
    {
        server = RipcServer.launch(new RipcServer.Context()
            .port(0)
            .componentName("tls-test")
            .handshakeTimeoutNs(TimeUnit.MILLISECONDS.toNanos(HANDSHAKE_TIMEOUT_MS))
            .addressMaxHandshakes(addressMaxHandshakes)
            .sslContext(keys.serverSettings(clientAuth).nettyServerContext())
            .channelHook((ch) -> ch.pipeline().addLast(new Echo())));
    }

    private static RipcClient client(final SslContext sslContext)
    {
        return RipcClient.launch(new RipcClient.Context()
            .hostName("tls-test-client")
            .componentName("tls-test-client")
            .versionFallback(true)
            .handshakeTimeoutNs(TimeUnit.SECONDS.toNanos(5))
            .sslContext(sslContext)
            .channelHook((ch) -> ch.pipeline().addLast(new Collect())));
    }

    private Channel connect(final RipcClient client, final BlockingQueue<byte[]> into)
    {
        final Future<Channel> connect = client.connect("localhost", server.port());
        connect.awaitUninterruptibly();
        assertTrue(connect.isSuccess(), () -> "TLS connect: " + connect.cause());
        final Channel channel = connect.getNow();
        channel.pipeline().get(Collect.class).into = into;
        return channel;
    }

    private static void assertEcho(final Channel channel, final BlockingQueue<byte[]> echoes, final String text)
        throws InterruptedException
    {
        final byte[] message = ("echo " + text).getBytes(StandardCharsets.US_ASCII);
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(channel.alloc(), message.length);
        buf.writeBytes(message);
        channel.writeAndFlush(buf);
        byte[] echo;
        while (null == (echo = echoes.poll(10, TimeUnit.MILLISECONDS)))
        {
            MdTests.checkInterrupted("the echo of '" + text + "'");
        }
        assertArrayEquals(message, echo);
    }

    /**
     * Server side: sends each message back.
     */
    private static final class Echo extends ChannelInboundHandlerAdapter
    {
        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            ctx.writeAndFlush(msg);
        }
    }

    /**
     * Client side: copies each message into the queue the test gave it.
     */
    private static final class Collect extends ChannelInboundHandlerAdapter
    {
        private volatile BlockingQueue<byte[]> into;

        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            final ByteBuf buf = (ByteBuf)msg;
            try
            {
                final byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                if (null != into)
                {
                    into.add(bytes);
                }
            }
            finally
            {
                buf.release();
            }
        }
    }

}
