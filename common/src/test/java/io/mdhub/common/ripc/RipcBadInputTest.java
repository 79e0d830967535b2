package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.hex;
import static io.mdhub.common.ripc.RipcTests.message;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaChannel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad peers on raw sockets while two healthy ETA consumers stay connected: each bad peer is disconnected alone,
 * within a bounded time, with its own reason counted, and the healthy consumers keep exchanging messages.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EtaTransportExtension.class)
class RipcBadInputTest
{
    private static final long HANDSHAKE_TIMEOUT_MS = 1000;
    private static final long PARTIAL_FRAME_TIMEOUT_MS = 1500;
    private static final int PING_TIMEOUT_SECONDS = 3;
    private static final String COMPONENT = "ripc-bad-input-test";

    private RipcServer server;
    private EtaChannel healthyA;
    private EtaChannel healthyB;
    private final EnumMap<RipcDisconnectReason, Long> before = new EnumMap<>(RipcDisconnectReason.class);

    @BeforeAll
    void setUp()
    {
        server = RipcServer.launch(new RipcServer.Context()
            .port(MdTests.unusedPort())
            .componentName("bad-input-test")
            .handshakeTimeoutNs(TimeUnit.MILLISECONDS.toNanos(HANDSHAKE_TIMEOUT_MS))
            .partialFrameTimeoutNs(TimeUnit.MILLISECONDS.toNanos(PARTIAL_FRAME_TIMEOUT_MS))
            .maxReassembledMessageSize(100_000)
            .minPingTimeoutNs(TimeUnit.SECONDS.toNanos(1))
            .channelHook((ch) -> ch.pipeline().addLast(new RecordingRwfHandler(true, true))));
        healthyA = EtaChannel.connect("127.0.0.1", server.port(), PING_TIMEOUT_SECONDS, COMPONENT);
        healthyB = EtaChannel.connect("127.0.0.1", server.port(), PING_TIMEOUT_SECONDS, COMPONENT);
    }

    @AfterAll
    void tearDown()
    {
        healthyA.close();
        healthyB.close();
        server.close();
    }

    static Stream<Arguments> protocolViolations()
    {
        final byte[] oldVersion = hex(RawRipcPeer.ETA_CONNECT_REQ);
        oldVersion[6] = 0x15; // RIPC12: closed so that ETA would retry lower
        final byte[] unknownVersion = hex(RawRipcPeer.ETA_CONNECT_REQ);
        unknownVersion[3] = 0x12;
        final byte[] badOpcode = hex(RawRipcPeer.ETA_CONNECT_REQ);
        badOpcode[2] = 0x05;
        final byte[] inconsistent = hex(RawRipcPeer.ETA_CONNECT_REQ);
        inconsistent[8] = 0x1e; // headerLength no longer matches the container
        return Stream.of(
            Arguments.of("garbage length", false, hex("00 01 02 03"), RipcDisconnectReason.BAD_HANDSHAKE),
            Arguments.of("HTTP instead of RIPC", false, "GET / HTTP/1.1\r\n\r\n".getBytes(),
                RipcDisconnectReason.BAD_HANDSHAKE),
            Arguments.of("bad opcode", false, badOpcode, RipcDisconnectReason.BAD_HANDSHAKE),
            Arguments.of("unknown version", false, unknownVersion, RipcDisconnectReason.BAD_HANDSHAKE),
            Arguments.of("inconsistent ConnectReq", false, inconsistent, RipcDisconnectReason.BAD_HANDSHAKE),
            Arguments.of("RIPC12", false, oldVersion, RipcDisconnectReason.VERSION_NOT_SUPPORTED),
            Arguments.of("truncated frame", true, hex("00 02 02"), RipcDisconnectReason.FRAME_TOO_SHORT),
            Arguments.of("frame too long", true, hex("30 00 02 00 00"), RipcDisconnectReason.FRAME_TOO_LONG),
            Arguments.of("compression not negotiated", true, hex("00 05 06 aa bb"), RipcDisconnectReason.BAD_FLAGS),
            Arguments.of("unknown extended flags", true, hex("00 06 03 40 00 01"), RipcDisconnectReason.BAD_FLAGS),
            Arguments.of("continuation without first fragment", true, hex("00 08 03 04 00 07 aa bb"),
                RipcDisconnectReason.BAD_FRAGMENT),
            Arguments.of("reassembly over the cap", true, hex("00 0c 03 08 00 10 00 00 00 01 aa bb"),
                RipcDisconnectReason.REASSEMBLY_LIMIT),
            Arguments.of("fragments beyond the announced total", true,
                hex("00 0c 03 08 00 00 00 03 00 01 aa bb 00 08 03 04 00 01 cc dd"),
                RipcDisconnectReason.BAD_FRAGMENT),
            Arguments.of("packed sub-length overrun", true, hex("00 08 12 00 09 aa bb cc"),
                RipcDisconnectReason.BAD_PACKING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocolViolations")
    @InterruptAfter(15)
    void protocolViolationDisconnectsOnlyTheBadPeer(
        final String name, final boolean afterHandshake, final byte[] bad, final RipcDisconnectReason reason)
        throws IOException
    {
        try (RawRipcPeer peer = new RawRipcPeer(server.port()))
        {
            snapshotCounters();
            if (afterHandshake)
            {
                peer.assertAckIsRipc14(peer.handshake(PING_TIMEOUT_SECONDS));
            }
            peer.send(bad);
            final long sentNs = System.nanoTime();
            awaitDisconnect(peer, reason);
            assertTrue(System.nanoTime() - sentNs < TimeUnit.SECONDS.toNanos(1), "disconnect not prompt");
        }
        assertHealthyPeersStillWork();
    }

    @Test
    @InterruptAfter(15)
    void peerThatNeverFinishesTheHandshakeIsDisconnected() throws IOException
    {
        // taken before the peer exists: the server's timer cannot start earlier, so a stall here cannot
        // make the disconnect look early
        final long startNs = System.nanoTime();
        try (RawRipcPeer peer = new RawRipcPeer(server.port()))
        {
            snapshotCounters();
            peer.send(Arrays.copyOf(RawRipcPeer.connectReq(PING_TIMEOUT_SECONDS), 20));
            awaitDisconnect(peer, RipcDisconnectReason.HANDSHAKE_TIMEOUT);
            assertElapsedAbout(startNs, HANDSHAKE_TIMEOUT_MS);
        }
        assertHealthyPeersStillWork();
    }

    @Test
    @InterruptAfter(15)
    void peerThatAcksButNeverSendsTheClientKeyIsDisconnected() throws IOException
    {
        // taken before the peer exists: the server's timer cannot start earlier, so a stall here cannot
        // make the disconnect look early
        final long startNs = System.nanoTime();
        try (RawRipcPeer peer = new RawRipcPeer(server.port()))
        {
            snapshotCounters();
            peer.send(RawRipcPeer.connectReq(PING_TIMEOUT_SECONDS));
            peer.assertAckIsRipc14(peer.readMessage());
            awaitDisconnect(peer, RipcDisconnectReason.HANDSHAKE_TIMEOUT);
            assertElapsedAbout(startNs, HANDSHAKE_TIMEOUT_MS);
        }
        assertHealthyPeersStillWork();
    }

    @Test
    @InterruptAfter(15)
    void handshakeTrickledOneBytePerIntervalHitsTheHandshakeTimeout() throws IOException
    {
        // taken before the peer exists: the server's timer cannot start earlier, so a stall here cannot
        // make the disconnect look early
        final long startNs = System.nanoTime();
        try (RawRipcPeer peer = new RawRipcPeer(server.port()))
        {
            snapshotCounters();
            trickle(peer, RawRipcPeer.connectReq(PING_TIMEOUT_SECONDS), RipcDisconnectReason.HANDSHAKE_TIMEOUT);
            assertElapsedAbout(startNs, HANDSHAKE_TIMEOUT_MS);
        }
        assertHealthyPeersStillWork();
    }

    @Test
    @InterruptAfter(15)
    void frameTrickledOneBytePerIntervalHitsThePartialFrameTimeoutBeforeAnyPingTimeout() throws IOException
    {
        // taken before the peer exists: the server's timer cannot start earlier, so a stall here cannot
        // make the disconnect look early
        final long startNs = System.nanoTime();
        try (RawRipcPeer peer = new RawRipcPeer(server.port()))
        {
            snapshotCounters();
            peer.handshake(PING_TIMEOUT_SECONDS);
            // bytes keep arriving far more often than the 3 s ping timeout, so only the partial-frame check helps
            trickle(peer, RipcTests.normalFrame(message(100, 1)), RipcDisconnectReason.PARTIAL_FRAME_TIMEOUT);
            assertElapsedAbout(startNs, PARTIAL_FRAME_TIMEOUT_MS);
            assertEquals(before.get(RipcDisconnectReason.PING_TIMEOUT), disconnects(RipcDisconnectReason.PING_TIMEOUT));
        }
        assertHealthyPeersStillWork();
    }

    @Test
    @InterruptAfter(15)
    void fragmentedMessageNeverCompletedHitsThePartialFrameTimeoutBeforeAnyPingTimeout() throws IOException
    {
        final long startNs = System.nanoTime();
        try (RawRipcPeer peer = new RawRipcPeer(server.port()))
        {
            snapshotCounters();
            peer.handshake(PING_TIMEOUT_SECONDS);
            // complete frames, so no partial frame: only the reassembly (opened here, never finished) is stale
            peer.send(RipcTests.firstFragment(7, 50_000, 100));
            peer.send(RipcTests.nextFragment(7, 100));
            awaitDisconnect(peer, RipcDisconnectReason.PARTIAL_FRAME_TIMEOUT);
            assertElapsedAbout(startNs, PARTIAL_FRAME_TIMEOUT_MS);
        }
        assertHealthyPeersStillWork();
    }

    @Test
    @InterruptAfter(15)
    void silentPeerHitsThePingTimeout() throws IOException
    {
        // taken before the peer exists: the server's timer cannot start earlier, so a stall here cannot
        // make the disconnect look early
        final long startNs = System.nanoTime();
        try (RawRipcPeer peer = new RawRipcPeer(server.port()))
        {
            snapshotCounters();
            final byte[] ack = peer.handshake(PING_TIMEOUT_SECONDS);
            assertEquals(PING_TIMEOUT_SECONDS, ack[13]);
            awaitDisconnect(peer, RipcDisconnectReason.PING_TIMEOUT);
            assertElapsedAbout(startNs, TimeUnit.SECONDS.toMillis(PING_TIMEOUT_SECONDS));
        }
        assertHealthyPeersStillWork();
    }

    private void trickle(final RawRipcPeer peer, final byte[] bytes, final RipcDisconnectReason reason)
    {
        final long intervalNs = TimeUnit.MILLISECONDS.toNanos(300);
        long nextNs = System.nanoTime();
        int sent = 0;
        while (!peer.isClosedByServer())
        {
            serviceHealthyPeers();
            if (System.nanoTime() >= nextNs && sent < bytes.length - 1) // never the last byte
            {
                try
                {
                    peer.send(new byte[]{bytes[sent++]});
                }
                catch (final IOException ex)
                {
                    break; // the server closed while we were writing
                }
                nextNs += intervalNs;
            }
            MdTests.idle(() -> "the trickling peer to be disconnected");
        }
        awaitCounted(reason);
    }

    private void snapshotCounters()
    {
        for (final RipcDisconnectReason reason : RipcDisconnectReason.values())
        {
            before.put(reason, disconnects(reason));
        }
    }

    private long disconnects(final RipcDisconnectReason reason)
    {
        return server.context().counters().disconnects(reason).get();
    }

    private void awaitDisconnect(final RawRipcPeer peer, final RipcDisconnectReason reason)
    {
        while (!peer.isClosedByServer())
        {
            serviceHealthyPeers();
            MdTests.idle(() -> "the server to close the bad peer (" + reason.label() + ")");
        }
        awaitCounted(reason);
    }

    private void awaitCounted(final RipcDisconnectReason reason)
    {
        MdTests.await(() -> reason.label() + " counted", () -> disconnects(reason) == before.get(reason) + 1);
        for (final RipcDisconnectReason other : RipcDisconnectReason.values())
        {
            if (other != reason)
            {
                assertEquals(before.get(other), disconnects(other), "no " + other.label() + " disconnect");
            }
        }
    }

    private void serviceHealthyPeers()
    {
        assertTrue(healthyA.service(), "healthy consumer A was disconnected");
        assertTrue(healthyB.service(), "healthy consumer B was disconnected");
    }

    private void assertHealthyPeersStillWork()
    {
        final byte[] toA = message(40, 11);
        final byte[] toB = message(9000, 12); // fragmented both ways
        healthyA.write(toA);
        healthyB.write(toB);
        assertArrayEquals(toA, healthyA.awaitMessage(healthyB));
        assertArrayEquals(toB, healthyB.awaitMessage(healthyA));
        MdTests.await("only the two healthy consumers remain",
            () -> 2 == server.context().counters().connectionsActive().get());
    }

    private static void assertElapsedAbout(final long startNs, final long timeoutMs)
    {
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        assertTrue(elapsedMs >= timeoutMs - 100, "disconnected too early: " + elapsedMs + " ms");
        assertTrue(elapsedMs <= timeoutMs + 1000, "disconnected too late: " + elapsedMs + " ms");
    }
}
