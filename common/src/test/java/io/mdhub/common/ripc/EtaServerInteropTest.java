package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.message;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.transport.ChannelInfo;

import com.refinitiv.eta.transport.TransportReturnCodes;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaChannel;

import org.junit.jupiter.api.AfterEach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real ETA 3.9.1.0 consumer against a minimal server built from MDHub's RIPC classes.
 */
@ExtendWith(EtaTransportExtension.class)
class EtaServerInteropTest
{
    private static final int PING_TIMEOUT_SECONDS = 3;
    private static final String COMPONENT = "eta-server-interop-test";

    private RipcServer server;
    private RecordingRwfHandler handler;
    private EtaChannel consumer;

    @AfterEach
    void tearDown()
    {
        if (null != consumer)
        {
            consumer.close();
        }
        if (null != server)
        {
            server.close();
        }
    }

    private void launchServer(final boolean echo)
    {
        handler = new RecordingRwfHandler(true, echo);
        server = RipcServer.launch(new RipcServer.Context()
            .port(MdTests.unusedPort())
            .componentName("mdhub-test/1.0")
            .pingTimeoutNs(TimeUnit.SECONDS.toNanos(60))
            .minPingTimeoutNs(TimeUnit.SECONDS.toNanos(1))
            .channelHook((ch) -> ch.pipeline().addLast(handler)));
    }

    private LoginRefresh login(final String user)
    {
        consumer.write(EtaLogin.loginRequest(1, user));
        final LoginRefresh refresh = EtaLogin.decodeLoginRefresh(consumer.awaitMessage());
        assertEquals(1, refresh.streamId());
        assertEquals(user, refresh.userName().toString());
        assertEquals(StreamStates.OPEN, refresh.state().streamState());
        assertEquals(DataStates.OK, refresh.state().dataState());
        assertTrue(refresh.checkSolicited());
        assertEquals("Login accepted by mdhub-test", refresh.state().text().toString());
        assertEquals("mdhub-test", refresh.attrib().applicationName().toString());
        assertEquals(1, refresh.features().supportViewRequests());
        return refresh;
    }

    @Test
    @InterruptAfter(30)
    void etaConsumerLogsInAndStaysConnectedAcrossPingIntervals()
    {
        launchServer(false);
        consumer = EtaChannel.connect("127.0.0.1", server.port(), PING_TIMEOUT_SECONDS, COMPONENT);

        final ChannelInfo info = consumer.info();
        assertEquals(RipcTests.MAX_USER_MSG_SIZE - 2, info.maxFragmentSize());
        assertEquals(PING_TIMEOUT_SECONDS, info.pingTimeout());
        assertEquals(0, info.compressionType());
        assertEquals("mdhub-test/1.0", info.componentInfo().get(0).componentVersion().toString());
        assertEquals(14, consumer.channel().majorVersion());

        login("alice");
        final RipcSession session = handler.session;
        assertEquals(RipcVersion.RIPC14, session.version());
        assertEquals(PING_TIMEOUT_SECONDS, session.pingTimeoutSeconds());
        assertTrue(session.remoteComponent().endsWith(COMPONENT), session.remoteComponent());
        assertTrue(EtaLogin.isLoginRequest(handler.received.peek()));

        // more than two full ping timeouts: both sides must keep pinging for the link to survive
        final long endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(2L * PING_TIMEOUT_SECONDS + 1);
        while (System.nanoTime() < endNs)
        {
            assertTrue(consumer.service(), "ETA consumer lost the connection");
            MdTests.idle(() -> "ping intervals to pass");
        }
        assertTrue(consumer.pingsReceived() >= 2 * PING_TIMEOUT_SECONDS, "server pings: " + consumer.pingsReceived());
        final RipcCounters counters = server.context().counters();
        assertTrue(counters.pingsIn().get() >= 2 * PING_TIMEOUT_SECONDS, "client pings: " + counters.pingsIn().get());
        assertEquals(0, counters.disconnects(RipcDisconnectReason.PING_TIMEOUT).get());
        assertEquals(1, counters.connectionsActive().get());
        assertEquals(1, counters.handshakesCompleted().get());

        consumer.write(EtaLogin.loginRequest(1, "bob")); // still usable
        assertEquals("bob", EtaLogin.decodeLoginRefresh(consumer.awaitMessage()).userName().toString());
    }

    @Test
    @InterruptAfter(20)
    void consumerThatStopsPingingIsDisconnectedAfterTheNegotiatedTimeout()
    {
        launchServer(false);
        consumer = EtaChannel.connect("127.0.0.1", server.port(), PING_TIMEOUT_SECONDS, COMPONENT);
        login("carol");
        consumer.autoPing(false);
        final long silentSinceNs = System.nanoTime(); // the login request was the consumer's last write

        final RipcCounters counters = server.context().counters();
        MdTests.await("ping-timeout disconnect",
            () -> 1 == counters.disconnects(RipcDisconnectReason.PING_TIMEOUT).get());
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - silentSinceNs);
        assertTrue(elapsedMs >= PING_TIMEOUT_SECONDS * 1000L - 300, "disconnected too early: " + elapsedMs);
        assertTrue(elapsedMs <= PING_TIMEOUT_SECONDS * 1000L + 1500, "disconnected too late: " + elapsedMs);
        consumer.awaitClosed();
        MdTests.await("no active connection", () -> 0 == counters.connectionsActive().get());
    }

    @Test
    @InterruptAfter(20)
    void etaPackedAndFragmentedMessagesAreReassembledExactlyAndOursAreReadByEta()
    {
        launchServer(true);
        consumer = EtaChannel.connect("127.0.0.1", server.port(), 60, COMPONENT);
        login("dave");
        handler.received.clear();

        final byte[] a = message(57, 1);
        final byte[] b = message(100, 2);
        final byte[] c = message(3, 3);
        consumer.writePacked(a, b, c);
        final byte[] big = message(20_000, 4);
        consumer.write(big);

        final RipcCounters counters = server.context().counters();
        MdTests.await("4 messages at the server", () -> handler.received.size() == 4);
        assertArrayEquals(a, handler.received.poll());
        assertArrayEquals(b, handler.received.poll());
        assertArrayEquals(c, handler.received.poll());
        assertArrayEquals(big, handler.received.poll());

        // the server echoed the packed burst as one packed frame and the big one as fragments: ETA reads them
        assertArrayEquals(a, consumer.awaitMessage());
        assertArrayEquals(b, consumer.awaitMessage());
        assertArrayEquals(c, consumer.awaitMessage());
        assertArrayEquals(big, consumer.awaitMessage());
        // login refresh (1) + packed echo (1) + 20000 bytes in 6147-byte fragments (4)
        assertEquals(6, counters.framesOut().get());
        assertEquals(5, counters.messagesOut().get());

        // and a burst written by the application between flushes goes out packed
        final io.netty.channel.Channel channel = handler.channel;
        final byte[] d = message(500, 5);
        final byte[] e = message(700, 6);
        channel.write(io.netty.buffer.Unpooled.wrappedBuffer(d), channel.voidPromise());
        channel.write(io.netty.buffer.Unpooled.wrappedBuffer(e), channel.voidPromise());
        channel.flush();
        assertArrayEquals(d, consumer.awaitMessage());
        assertArrayEquals(e, consumer.awaitMessage());
        MdTests.await("packed frame counted", () -> 7 == counters.framesOut().get());
    }

    @Test
    @InterruptAfter(20)
    void nonRwfProtocolIsRefusedWithANak()
    {
        launchServer(false);
        consumer = EtaChannel.connectAsync("127.0.0.1", server.port(), 60, 2, COMPONENT);
        assertEquals(TransportReturnCodes.CHAN_INIT_REFUSED, consumer.awaitInitResult());
        final RipcCounters counters = server.context().counters();
        MdTests.await("refusal counted", () -> 1 == counters.disconnects(RipcDisconnectReason.CONNECT_REFUSED).get());
        assertEquals(0, counters.handshakesCompleted().get());
    }
}
