package io.mdhub.common.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.test.TlsTestPeer;
import io.mdhub.common.tls.TlsClientAuth;
import io.mdhub.common.tls.TlsSettings;

/**
 * The TLS layer of {@link FrameConnection} against a TLS peer the test drives by hand ({@link TlsTestPeer}) on the
 * poller's own thread, so that each write of the peer is read by the server on its own: records cut at every byte
 * and in random chunks, messages at and around the largest length and the TLS record size, a peer that stops
 * reading, garbage after the handshake, ends inside a record or the handshake, and the close_notify of an orderly
 * close. Prints how long a handshake holds the poller.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FrameConnectionTlsTest
{
    private static final int MAX_MESSAGE = 100_000; // past the 64 KiB receive buffer: the buffer grows
    private static final int SEND_LIMIT = 256 * 1024;
    private static final byte ECHO = 'E';
    private static final byte CLOSE = 'C';
    private static final byte FLOOD = 'F';

    private final TlsTestKeys keys = TlsTestKeys.get();
    private final TlsSettings clientSettings = keys.clientSettings(false);
    private final SSLContext clientContext = clientSettings.jdkContext(false);
    private final List<FrameConnection> closed = new ArrayList<>();
    private final List<String> reasons = new ArrayList<>();
    private final UnsafeBuffer reply = new UnsafeBuffer(new byte[4096]);
    private SocketPoller poller;
    private InetSocketAddress address;
    private long pollNs;
    private long longestPollNs;
    private int tlsReady;
    private int floodRefusedAtPending = -1;

    @BeforeEach
    void listen()
    {
        poller = new SocketPoller(MAX_MESSAGE, SEND_LIMIT);
        final TlsSettings server = keys.serverSettings(TlsClientAuth.NONE);
        final SSLContext context = server.jdkContext(true);
        address = poller.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new Echo(), null,
            () -> server.newServerEngine(context)).boundAddress();
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietClose(poller);
    }

    @Test
    void recordsCutAtEveryByteAndInRandomChunksCarryEveryMessage() throws Exception
    {
        try (TlsTestPeer peer = peer(0).maxChunk(1))
        {
            peer.handshake(); // every handshake byte a write and a read of its own
            pumpUntil(() -> 1 == tlsReady);
            echo(peer, 20, 16_380, 16_381, 16_383, 16_384, 16_385); // one record, a record edge, two records
            final Random random = new Random(7);
            for (final int maxChunk : new int[] {3, 17, 700, 5_000, 40_000})
            {
                peer.maxChunk(maxChunk);
                final int min = FrameDescriptor.MIN_MESSAGE_LENGTH;
                echo(peer, MAX_MESSAGE, MAX_MESSAGE - 1, min, min + random.nextInt(MAX_MESSAGE - min),
                    65_532, 65_533); // a frame the size of the receive buffer, and one byte over
            }
            // several messages in one write, and a message cut across the last record of a write
            peer.maxChunk(Integer.MAX_VALUE);
            final byte[] batch = new byte[3 * (4 + 5_000)];
            final ByteBuffer frames = ByteBuffer.wrap(batch).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < 3; i++)
            {
                frames.putInt(5_000).put(ECHO).put(new byte[4_999]);
            }
            peer.send(batch);
            assertArrayEquals(batch, peer.receive(batch.length));
        }
        pumpUntil(() -> 1 == closed.size());
        assertNull(closed.get(0).tlsFailure(), reasons.toString());
    }

    @Test
    void handshakesAreTimedOnThePoller() throws Exception
    {
        final long[] longestNs = new long[40];
        final long[] totalNs = new long[longestNs.length];
        for (int i = 0; i < longestNs.length; i++)
        {
            longestPollNs = 0;
            try (TlsTestPeer peer = peer(0))
            {
                final long before = pollNs;
                peer.handshake();
                final int expected = i + 1;
                pumpUntil(() -> expected == tlsReady);
                longestNs[i] = longestPollNs;
                totalNs[i] = pollNs - before;
            }
        }
        System.out.printf("FrameConnectionTlsTest: a server handshake (TLS 1.3, EC P-256) holds the poller: first " +
            "%.2f ms (longest single poll %.2f ms); the last 20: median %.2f ms (longest poll median %.2f ms, " +
            "worst %.2f ms)%n", totalNs[0] / 1e6, longestNs[0] / 1e6, median(totalNs, 20) / 1e6,
            median(longestNs, 20) / 1e6, Arrays.stream(longestNs, 20, longestNs.length).max().getAsLong() / 1e6);
        assertEquals(longestNs.length, tlsReady);
    }

    @Test
    void orderlyCloseSendsCloseNotify() throws Exception
    {
        try (TlsTestPeer peer = peer(0))
        {
            peer.handshake();
            peer.send(frame(CLOSE, 16));
            assertTrue(peer.awaitEnd(), "a close_notify before the end");
        }
        assertEquals("asked to close", reasons.get(0));
    }

    @Test
    void garbageAfterTheHandshakeIsATlsFailure() throws Exception
    {
        try (TlsTestPeer peer = peer(0))
        {
            peer.handshake();
            echo(peer, 100);
            final byte[] garbage = new byte[300];
            new Random(3).nextBytes(garbage);
            garbage[0] = 23; // application data
            garbage[1] = 3;
            garbage[2] = 3;
            garbage[3] = 0;
            garbage[4] = (byte)200;
            peer.writeRaw(ByteBuffer.wrap(garbage));
            assertFalse(peer.awaitEnd(), "no close_notify after a failure");
        }
        pumpUntil(() -> 1 == closed.size());
        assertNotNull(closed.get(0).tlsFailure(), reasons.toString());
        assertTrue(closed.get(0).tlsFailure().startsWith("TLS failed"), closed.get(0).tlsFailure());
    }

    @Test
    void anEndInsideARecordIsATlsFailure() throws Exception
    {
        try (TlsTestPeer peer = peer(0))
        {
            peer.handshake();
            echo(peer, 100);
            final byte[] records = peer.wrap(frame(ECHO, 1_000));
            peer.writeRaw(ByteBuffer.wrap(records, 0, records.length - 5));
        }
        pumpUntil(() -> 1 == closed.size());
        assertNotNull(closed.get(0).tlsFailure(), reasons.toString());
        assertTrue(closed.get(0).tlsFailure().startsWith("TLS record cut short"), closed.get(0).tlsFailure());
    }

    @Test
    void anEndInsideTheHandshakeClosesBeforeTlsIsReady() throws Exception
    {
        final TlsTestPeer peer = peer(0).maxChunk(1);
        try (peer)
        {
            final byte[] hello = new byte[60];
            // the first bytes of a ClientHello record (handshake, TLS 1.2 record version, a long length)
            hello[0] = 22;
            hello[1] = 3;
            hello[2] = 1;
            hello[3] = 1;
            hello[4] = 0;
            hello[5] = 1;
            peer.writeRaw(ByteBuffer.wrap(hello));
        }
        pumpUntil(() -> 1 == closed.size());
        assertFalse(closed.get(0).isTlsReady());
        assertEquals("closed by peer during the TLS handshake", reasons.get(0));
        assertEquals(0, poller.connectionCount());
    }

    @Test
    void aPeerThatStopsReadingIsHeldAtTheSendLimit() throws Exception
    {
        try (TlsTestPeer peer = peer(8 * 1024))
        {
            peer.handshake();
            peer.send(frame(FLOOD, 16)); // the server answers until its send limit says no, and never reads
            pumpUntil(() -> floodRefusedAtPending >= 0);
        }
        System.out.printf("FrameConnectionTlsTest: a peer that stopped reading: %,d bytes waiting when the send " +
            "limit (%,d) said no%n", floodRefusedAtPending, SEND_LIMIT);
        assertTrue(floodRefusedAtPending <= SEND_LIMIT + 2 * 17 * 1024,
            "send limit plus at most two records in the network buffer: " + floodRefusedAtPending);
        assertTrue(floodRefusedAtPending >= SEND_LIMIT - 4_096, "it filled to its limit: " + floodRefusedAtPending);
    }

    @Test
    void aPlainPeerFailsTheHandshake()
    {
        final TlsTestPeer peer = peer(0);
        try (peer)
        {
            peer.writeRaw(ByteBuffer.wrap(frame(ECHO, 64))); // what a plain client's first message looks like
            assertFalse(peer.awaitEnd());
        }
        pumpUntil(() -> 1 == closed.size());
        assertTrue(closed.get(0).tlsFailure().startsWith("TLS handshake failed"), closed.get(0).tlsFailure());
    }

    private TlsTestPeer peer(final int receiveBytes)
    {
        return new TlsTestPeer(clientSettings.newClientEngine(clientContext, "localhost", address.getPort()),
            address, receiveBytes, this::pump, 11);
    }

    private void pump()
    {
        final long startNs = System.nanoTime();
        poller.poll();
        poller.flush();
        final long tookNs = System.nanoTime() - startNs;
        pollNs += tookNs;
        longestPollNs = Math.max(longestPollNs, tookNs);
    }

    private void pumpUntil(final java.util.function.BooleanSupplier condition)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, "timed out");
            pump();
            Thread.onSpinWait();
        }
    }

    private void echo(final TlsTestPeer peer, final int... lengths) throws SSLException
    {
        for (final int length : lengths)
        {
            final byte[] sent = frame(ECHO, length);
            peer.send(sent);
            assertArrayEquals(sent, peer.receive(sent.length), "message of " + length + " bytes");
        }
    }

    private static byte[] frame(final byte kind, final int length)
    {
        final byte[] frame = new byte[FrameDescriptor.frameLength(length)];
        final ByteBuffer buffer = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(length).put(kind);
        for (int i = 1; i < length; i++)
        {
            buffer.put((byte)(i * 31 + length));
        }
        return frame;
    }

    private static long median(final long[] values, final int from)
    {
        final long[] sorted = Arrays.copyOfRange(values, from, values.length);
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private final class Echo implements ConnectionHandler
    {
        private final UnsafeBuffer echoBuffer = new UnsafeBuffer(new byte[MAX_MESSAGE]);

        @Override
        public void onOpen(final FrameConnection connection)
        {
        }

        @Override
        public void onTlsReady(final FrameConnection connection)
        {
            tlsReady++;
        }

        @Override
        public void onMessage(
            final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
        {
            final byte kind = buffer.getByte(offset);
            if (CLOSE == kind)
            {
                connection.close("asked to close");
            }
            else if (FLOOD == kind)
            {
                reply.setMemory(0, reply.capacity(), (byte)'x');
                while (connection.offer(reply, 0, reply.capacity()))
                {
                    connection.flush();
                }
                floodRefusedAtPending = connection.pendingBytes();
            }
            else
            {
                echoBuffer.putBytes(0, buffer, offset, length);
                connection.offer(echoBuffer, 0, length);
            }
        }

        @Override
        public void onClose(final FrameConnection connection, final String reason)
        {
            closed.add(connection);
            reasons.add(reason);
        }
    }
}
