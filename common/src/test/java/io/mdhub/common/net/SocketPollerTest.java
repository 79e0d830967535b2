package io.mdhub.common.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * Length-prefixed messages over real loopback sockets: order and integrity across partial reads and writes, a
 * message longer than the receive buffer, bad frames and peers that stop reading cost that connection only, refused
 * connects are told apart, a thread blocked in {@link SocketPoller#await} wakes for data, a wake-up or its
 * deadline, and the idle strategy blocks after work only for an owner that promised its deadline covers its work.
 */
@InterruptAfter(30)
class SocketPollerTest
{
    private static final int MAX_MESSAGE = 200_000;
    private static final InetSocketAddress ANY_LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final SocketPoller server = new SocketPoller(MAX_MESSAGE, 1 << 20);
    private final SocketPoller client = new SocketPoller(MAX_MESSAGE, 1 << 20);
    private final Recorder serverSide = new Recorder();
    private final Recorder clientSide = new Recorder();
    private final List<Socket> rawSockets = new ArrayList<>();

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(client, server);
        rawSockets.forEach(CloseHelper::quietClose);
    }

    @Test
    void messagesArriveWholeAndInOrderBothWays()
    {
        serverSide.echo = true;
        final InetSocketAddress address = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        final FrameConnection connection = client.connect(address, clientSide);
        final int count = 2_000;
        final UnsafeBuffer message = new UnsafeBuffer(new byte[4096]);
        for (int i = 0; i < count; i++)
        {
            final int length = 8 + (i * 37) % 4000;
            fill(message, i, length);
            while (!connection.offer(message, 0, length))
            {
                pollBoth(); // the send limit pushes back until the server has read some
            }
            if (0 == i % 100)
            {
                pollBoth();
            }
        }
        MdTests.await(() -> "echoes: " + clientSide.messages.size(), () ->
        {
            pollBoth();
            return clientSide.messages.size() == count;
        });
        for (int i = 0; i < count; i++)
        {
            final byte[] got = clientSide.messages.get(i);
            assertEquals(8 + (i * 37) % 4000, got.length, "message " + i);
            assertTrue(isFilled(got, i), "content of message " + i);
        }
        assertEquals(1, serverSide.opened.size());
        assertTrue(clientSide.closed.isEmpty());
    }

    @Test
    void aFrameTricklingInByteByByteIsOneMessage() throws Exception
    {
        final InetSocketAddress address = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        final Socket raw = rawConnect(address);
        final byte[] frame = frame(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        final OutputStream out = raw.getOutputStream();
        for (final byte b : frame)
        {
            out.write(b);
            out.flush();
            server.poll();
        }
        MdTests.await("the message", () ->
        {
            server.poll();
            return 1 == serverSide.messages.size();
        });
        assertEquals(12, serverSide.messages.get(0).length);
        assertEquals(12, serverSide.messages.get(0)[11]);
    }

    @Test
    void aMessageLongerThanTheReceiveBufferGrowsIt()
    {
        serverSide.echo = true;
        final InetSocketAddress address = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        final FrameConnection connection = client.connect(address, clientSide);
        final int length = 150_000;
        final UnsafeBuffer message = new UnsafeBuffer(new byte[length]);
        fill(message, 7, length);
        assertTrue(connection.offer(message, 0, length));
        MdTests.await("the echo", () ->
        {
            pollBoth();
            return 1 == clientSide.messages.size();
        });
        assertTrue(isFilled(clientSide.messages.get(0), 7));
    }

    @Test
    void aBadLengthClosesThatConnectionOnly() throws Exception
    {
        serverSide.echo = true;
        final InetSocketAddress address = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        final FrameConnection good = client.connect(address, clientSide);
        final Socket bad = rawConnect(address);
        bad.getOutputStream().write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(-5).array());
        final Socket huge = rawConnect(address);
        huge.getOutputStream().write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(MAX_MESSAGE + 1).array());
        MdTests.await(() -> "two closes: " + serverSide.closed, () ->
        {
            pollBoth();
            return 2 == serverSide.closed.size();
        });
        assertTrue(serverSide.closed.stream().allMatch((reason) -> reason.startsWith("malformed frame")),
            serverSide.closed.toString());
        assertEquals(-1, bad.getInputStream().read(), "the bad peer is disconnected");

        final UnsafeBuffer message = new UnsafeBuffer(new byte[16]);
        fill(message, 3, 16);
        assertTrue(good.offer(message, 0, 16));
        MdTests.await("the good connection's echo", () ->
        {
            pollBoth();
            return 1 == clientSide.messages.size();
        });
    }

    @Test
    void aPeerThatStopsReadingMeetsTheSendLimitAndOthersAreServed() throws Exception
    {
        final InetSocketAddress address = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        rawConnect(address); // connects, never reads
        final FrameConnection other = client.connect(address, clientSide);
        MdTests.await("both accepted", () ->
        {
            pollBoth();
            return 2 == serverSide.opened.size() && other.isOpen();
        });
        final FrameConnection stuck = serverSide.opened.get(0);
        final FrameConnection reading = serverSide.opened.get(1);
        stuck.sendLimitBytes(64 * 1024); // raised to one largest frame
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
        fill(message, 1, 1000);
        int offered = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (stuck.offer(message, 0, 1000) && System.nanoTime() < deadline)
        {
            offered++;
            server.flush();
        }
        assertTrue(offered > 60, "the kernel's buffers took some first: " + offered);
        assertEquals(FrameDescriptor.frameLength(MAX_MESSAGE), stuck.sendLimitBytes());
        assertTrue(stuck.pendingBytes() <= stuck.sendLimitBytes(), "bounded: " + stuck.pendingBytes());
        assertTrue(reading.offer(message, 0, 1000));
        MdTests.await("the reading client is served", () ->
        {
            pollBoth();
            return 1 == clientSide.messages.size();
        });
        assertFalse(stuck.isClosed(), "back-pressure is the owner's decision");
    }

    @Test
    void aRefusedConnectIsToldApartAndMessagesOfferedWhileConnectingGoOnceOpen()
    {
        final SocketPoller.Listener listener = server.listen(ANY_LOOPBACK, serverSide);
        final InetSocketAddress address = listener.boundAddress();
        listener.close();
        final FrameConnection refused = client.connect(address, clientSide);
        MdTests.await("the refusal", () ->
        {
            client.poll();
            return refused.isClosed();
        });
        assertTrue(refused.wasRefused());
        assertEquals(1, clientSide.closed.size());
        assertTrue(clientSide.opened.isEmpty());

        serverSide.echo = true;
        final InetSocketAddress again = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        final FrameConnection connection = client.connect(again, clientSide);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[8]);
        fill(message, 9, 8);
        assertTrue(connection.offer(message, 0, 8));
        MdTests.await("the echo", () ->
        {
            pollBoth();
            return 1 == clientSide.messages.size();
        });
    }

    @Test
    void aPeerThatClosesHasItsWholeMessagesDeliveredFirst() throws Exception
    {
        final InetSocketAddress address = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        final Socket raw = rawConnect(address);
        final byte[] one = frame(new byte[] {1, 1, 1, 1, 1, 1, 1, 1});
        final byte[] partial = new byte[] {20, 0, 0, 0, 1, 2};
        final OutputStream out = raw.getOutputStream();
        out.write(one);
        out.write(partial);
        out.flush();
        raw.close();
        MdTests.await("the close", () ->
        {
            server.poll();
            return 1 == serverSide.closed.size();
        });
        assertEquals(1, serverSide.messages.size());
        assertEquals("closed by peer", serverSide.closed.get(0));
        assertEquals(0, server.connectionCount());
    }

    @Test
    void awaitWakesForDataForAWakeUpAndForTheDeadline() throws Exception
    {
        final InetSocketAddress address = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        final Socket raw = rawConnect(address);
        MdTests.await("accepted", () ->
        {
            server.poll();
            return 1 == serverSide.opened.size();
        });
        final CompletableFuture<Long> woken = CompletableFuture.supplyAsync(() ->
        {
            final long start = System.nanoTime();
            server.await(20_000);
            return System.nanoTime() - start;
        });
        Thread.sleep(50);
        raw.getOutputStream().write(frame(new byte[8]));
        assertTrue(woken.get(10, TimeUnit.SECONDS) < TimeUnit.SECONDS.toNanos(10), "woken by the data");
        assertEquals(1, server.poll());

        final CompletableFuture<Long> wokenUp = CompletableFuture.supplyAsync(() ->
        {
            final long start = System.nanoTime();
            server.await(20_000);
            return System.nanoTime() - start;
        });
        Thread.sleep(50);
        server.wakeup();
        assertTrue(wokenUp.get(10, TimeUnit.SECONDS) < TimeUnit.SECONDS.toNanos(10), "woken by wakeup()");

        server.deadlineNs(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20));
        final long start = System.nanoTime();
        server.await(20_000);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "ended by the deadline");
        server.deadlineNs(Long.MAX_VALUE);
    }

    @Test
    void theIdleStrategyBlocksOnTheAttachedPoller() throws Exception
    {
        final SocketIdleStrategy idle = new SocketIdleStrategy(0, 10_000);
        idle.attach(server);
        final CompletableFuture<Long> woken = CompletableFuture.supplyAsync(() ->
        {
            final long start = System.nanoTime();
            idle.idle(0);
            return System.nanoTime() - start;
        });
        Thread.sleep(50);
        server.wakeup();
        final long waitedNs = woken.get(10, TimeUnit.SECONDS);
        assertTrue(waitedNs < TimeUnit.SECONDS.toNanos(9), "woken, not timed out");
        assertTrue(waitedNs >= TimeUnit.MILLISECONDS.toNanos(20), "blocked until the wake-up: " + waitedNs + " ns");
    }

    @Test
    void afterWorkTheIdleStrategyBlocksOnlyForAnOwnerWhoseDeadlineCoversItsWork() throws Exception
    {
        final InetSocketAddress address = server.listen(ANY_LOOPBACK, serverSide).boundAddress();
        final Socket raw = rawConnect(address);
        MdTests.await("accepted", () ->
        {
            server.poll();
            return 1 == serverSide.opened.size();
        });
        final SocketIdleStrategy idle = new SocketIdleStrategy(0, 20_000);
        idle.attach(server);

        final CompletableFuture<Void> notPromised = CompletableFuture.runAsync(() -> idle.idle(1));
        notPromised.get(10, TimeUnit.SECONDS); // a block would last the 20 s longest wait

        server.blockAfterWork(true);
        server.deadlineNs(System.nanoTime()); // work left: the wait ends at once
        CompletableFuture.runAsync(() -> idle.idle(1)).get(5, TimeUnit.SECONDS);

        server.deadlineNs(Long.MAX_VALUE);
        final CompletableFuture<Void> promised = CompletableFuture.runAsync(() -> idle.idle(1));
        Thread.sleep(100);
        assertFalse(promised.isDone(), "blocked after a cycle that did work, nothing pending");
        raw.getOutputStream().write(frame(new byte[8]));
        promised.get(10, TimeUnit.SECONDS);
        assertEquals(1, serverSide.messages.size(), "the wait read what woke it");
        assertEquals(1, server.poll(), "and the next poll reports it without selecting again");
    }

    private void pollBoth()
    {
        server.poll();
        server.flush();
        client.poll();
        client.flush();
    }

    private Socket rawConnect(final InetSocketAddress address) throws IOException
    {
        final Socket socket = new Socket(address.getAddress(), address.getPort());
        rawSockets.add(socket);
        return socket;
    }

    private static byte[] frame(final byte[] message)
    {
        return ByteBuffer.allocate(FrameDescriptor.frameLength(message.length)).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(message.length).put(message).array();
    }

    private static void fill(final UnsafeBuffer buffer, final int seed, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(i, (byte)(seed * 31 + i));
        }
    }

    private static boolean isFilled(final byte[] bytes, final int seed)
    {
        for (int i = 0; i < bytes.length; i++)
        {
            if (bytes[i] != (byte)(seed * 31 + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Keeps what a side saw; optionally answers every message with itself.
     */
    private static final class Recorder implements ConnectionHandler
    {
        final List<FrameConnection> opened = new ArrayList<>();
        final List<byte[]> messages = new ArrayList<>();
        final List<String> closed = new ArrayList<>();
        boolean echo;

        @Override
        public void onOpen(final FrameConnection connection)
        {
            opened.add(connection);
        }

        @Override
        public void onMessage(
            final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
        {
            final byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            messages.add(copy);
            if (echo && !connection.offer(buffer, offset, length))
            {
                throw new IllegalStateException("echo refused");
            }
        }

        @Override
        public void onClose(final FrameConnection connection, final String reason)
        {
            closed.add(reason);
        }
    }
}
