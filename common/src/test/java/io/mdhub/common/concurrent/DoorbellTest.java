package io.mdhub.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.mdhub.common.ripc.RipcTransport;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;

/**
 * The doorbell hand-off over a real embedded media driver and real Unix domain sockets.
 * <p>
 * The eventcount is checked step by step on one thread, in every order the sleeper's two steps (say asleep, poll once
 * more) and the publisher's two (publish, ring) can interleave: each time the message is either found by the last
 * poll or a ring byte waits on the socket, so a sleeper that blocked then would wake at once. Two broken variants —
 * a sleeper that skips the last poll, a publisher that looks at the flag before it publishes — lose the message in
 * some order, which shows the check can fail. Then on a Netty event loop with no timer that could deliver anything:
 * every message is delivered by its ring alone.
 */
@InterruptAfter(30)
class DoorbellTest
{
    private static final int STREAM = 1001;
    private static final String SLEEPER_ASLEEP = "S:asleep";
    private static final String SLEEPER_POLL = "S:poll";
    private static final String PUBLISHER_PUBLISH = "P:publish";
    private static final String PUBLISHER_RING = "P:ring";

    @TempDir
    Path dir;

    private MediaDriver driver;
    private Aeron aeron;
    private Subscription subscription;
    private ExclusivePublication publication;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);

    @BeforeEach
    void start()
    {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .threadingMode(ThreadingMode.SHARED)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        subscription = aeron.addSubscription(CommonContext.IPC_CHANNEL, STREAM);
        publication = aeron.addExclusivePublication(CommonContext.IPC_CHANNEL, STREAM);
        MdTests.await("the publication to see its subscriber", publication::isConnected);
    }

    @AfterEach
    void stop()
    {
        CloseHelper.quietCloseAll(publication, subscription, aeron, driver);
    }

    static Stream<List<String>> interleavings()
    {
        final List<List<String>> orders = new ArrayList<>();
        interleave(List.of(SLEEPER_ASLEEP, SLEEPER_POLL), List.of(PUBLISHER_PUBLISH, PUBLISHER_RING), new ArrayList<>(),
            orders);
        assertEquals(6, orders.size());
        return orders.stream();
    }

    @ParameterizedTest
    @MethodSource("interleavings")
    void noInterleavingLosesTheMessage(final List<String> steps) throws IOException
    {
        assertTrue(isDelivered(steps, false, false), "found by the last poll or rung, in the order " + steps);
    }

    @Test
    void theCheckCanFailBrokenHandOffsLoseMessages() throws IOException
    {
        int lostWithoutLastPoll = 0;
        int lostRingingFirst = 0;
        for (final List<String> steps : (Iterable<List<String>>)interleavings()::iterator)
        {
            lostWithoutLastPoll += isDelivered(steps, true, false) ? 0 : 1;
            lostRingingFirst += isDelivered(steps, false, true) ? 0 : 1;
        }
        assertTrue(lostWithoutLastPoll > 0, "a sleeper that does not poll after saying it sleeps loses messages");
        assertTrue(lostRingingFirst > 0, "a publisher that looks at the flag before it publishes loses messages");
    }

    @Test
    void aStreamWhoseSleeperIsAwakeRingsNothingAndASleepIsRungOnce() throws IOException
    {
        try (ServerSocketChannel server = listen();
            Doorbell doorbell = publishedDoorbell(server);
            DoorbellRinger ringer = DoorbellRinger.forPublication(aeron, publication);
            SocketChannel connection = acceptHello(server, doorbell))
        {
            for (int i = 0; i < 10_000; i++)
            {
                publish(ringer);
                ringer.ringIfPublished();
            }
            assertEquals(0, ringer.rings(), "no system call while the sleeper runs");
            assertFalse(ringer.ringIfPublished(), "nothing published since the last ring");

            doorbell.asleep();
            for (int i = 0; i < 3; i++)
            {
                publish(ringer);
                ringer.ringIfPublished();
            }
            assertEquals(1, ringer.rings(), "one byte per sleep, whatever is published after it");
            assertEquals(1, pendingRings(connection));
            assertFalse(doorbell.isAsleep(), "the ringer woke it");
        }
    }

    @Test
    void onlyAPublicationThatSaidHelloCoversTheSubscription() throws IOException
    {
        try (ServerSocketChannel server = listen(); Doorbell doorbell = publishedDoorbell(server))
        {
            assertFalse(doorbell.covers(subscription), "the publication's image has no ringer yet");
            try (DoorbellRinger ringer = DoorbellRinger.forPublication(aeron, publication);
                SocketChannel ignored = acceptHello(server, doorbell))
            {
                assertEquals(1, ringer.connected());
                assertTrue(doorbell.covers(subscription));
            }
            doorbell.onRingerGone(publication.sessionId());
            assertFalse(doorbell.covers(subscription), "its ringer gone, the image is not covered any more");
        }
    }

    @Test
    void onAnEpollLoopEveryMessageIsDeliveredByItsRingAlone() throws Exception
    {
        deliveredByRingsAlone(true);
    }

    @Test
    void onANioLoopEveryMessageIsDeliveredByItsRingAlone() throws Exception
    {
        deliveredByRingsAlone(false);
    }

    @Test
    void aRingerThatGoesAndAConnectionThatTalksNonsenseAffectOnlyThemselves() throws Exception
    {
        final EventLoopGroup group = RipcTransport.newEventLoopGroup(1, true, "doorbell-test");
        final EventLoop loop = group.next();
        final AtomicInteger cycles = new AtomicInteger();
        final EventLoopDoorbell bell = EventLoopDoorbell.open(aeron, "test", loop, cycles::incrementAndGet, STREAM);
        try
        {
            final DoorbellRinger ringer = DoorbellRinger.forPublication(aeron, publication);
            MdTests.await("the hello", () -> onLoop(loop, () -> bell.doorbell().covers(subscription)));
            final int beforeClose = loop.submit(cycles::get).syncUninterruptibly().getNow(); // after the hello's run
            ringer.close();
            MdTests.await("the sleeper to see its ringer go and look at its streams (a last message may have no ring)",
                () -> onLoop(loop, () -> !bell.doorbell().covers(subscription) && cycles.get() > beforeClose));

            try (SocketChannel garbage = SocketChannel.open(StandardProtocolFamily.UNIX))
            {
                garbage.connect(UnixDomainSocketAddress.of(bell.doorbell().socketPath()));
                garbage.write(ByteBuffer.wrap(new byte[] {7, 7, 7}));
                final ByteBuffer in = ByteBuffer.allocate(1);
                assertEquals(-1, garbage.read(in), "closed by the doorbell");
            }
            MdTests.await("the refusal to be counted", () -> 1 == refused(bell, loop));

            try (DoorbellRinger again = DoorbellRinger.forPublication(aeron, publication))
            {
                MdTests.await("a new ringer to be heard",
                    () -> onLoop(loop, () -> bell.doorbell().covers(subscription)));
                assertEquals(1, again.connected());
            }
        }
        finally
        {
            bell.close();
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).sync();
        }
        assertFalse(bell.doorbell().socketPath().toFile().exists(), "the socket file goes with the doorbell");
    }

    private void deliveredByRingsAlone(final boolean preferEpoll) throws Exception
    {
        final EventLoopGroup group = RipcTransport.newEventLoopGroup(1, preferEpoll, "doorbell-test");
        final EventLoop loop = group.next();
        final AtomicInteger received = new AtomicInteger();
        final EventLoopDoorbell[] bell = new EventLoopDoorbell[1];
        final DoorbellSleep sleep = new DoorbellSleep(subscription, () -> true);
        // a tick of an hour and a backoff that stops at an hour: only a ring can deliver once the loop sleeps
        final long hourNs = TimeUnit.HOURS.toNanos(1);
        final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop,
            (now) -> subscription.poll((buffer, offset, length, header) -> received.incrementAndGet(), 10),
            hourNs, hourNs, sleep, hourNs);
        try
        {
            bell[0] = sleep.doorbell(EventLoopDoorbell.open(aeron, "test", loop, cycle, STREAM));
            cycle.start();
            try (DoorbellRinger ringer = DoorbellRinger.forPublication(aeron, publication))
            {
                MdTests.await("the ringer's hello",
                    () -> onLoop(loop, () -> bell[0].doorbell().covers(subscription)));
                for (int i = 1; i <= 100; i++)
                {
                    MdTests.await("the loop to sleep", () -> bell[0].doorbell().isAsleep());
                    publish(ringer);
                    ringer.ringIfPublished();
                    final int expected = i;
                    MdTests.await(() -> "message " + expected + " delivered by its ring", () ->
                        received.get() == expected);
                }
                assertEquals(100, ringer.rings(), "each message found the loop asleep and rang once");
            }
        }
        finally
        {
            cycle.close();
            if (null != bell[0])
            {
                bell[0].close();
            }
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).sync();
        }
    }

    /**
     * Run the steps on this thread; the sleeper's state is the doorbell's counter, the ring a byte on a real socket.
     */
    private boolean isDelivered(final List<String> steps, final boolean skipLastPoll, final boolean ringFirst)
        throws IOException
    {
        try (ServerSocketChannel server = listen();
            Doorbell doorbell = publishedDoorbell(server);
            DoorbellRinger ringer = DoorbellRinger.forPublication(aeron, publication);
            SocketChannel connection = acceptHello(server, doorbell))
        {
            final int[] found = {0};
            for (final String step : steps)
            {
                switch (step)
                {
                    case SLEEPER_ASLEEP:
                        doorbell.asleep();
                        break;
                    case SLEEPER_POLL:
                        if (!skipLastPoll)
                        {
                            found[0] += subscription.poll((buffer, offset, length, header) -> { }, 10);
                        }
                        break;
                    case PUBLISHER_PUBLISH:
                        if (ringFirst)
                        {
                            ringer.ring(); // the broken order: the flag is looked at before the message exists
                        }
                        else
                        {
                            publish(ringer);
                        }
                        break;
                    case PUBLISHER_RING:
                        if (ringFirst)
                        {
                            publish(ringer);
                        }
                        else
                        {
                            ringer.ringIfPublished();
                        }
                        break;
                    default:
                        throw new IllegalStateException(step);
                }
            }
            final boolean isDelivered = found[0] == 1 || pendingRings(connection) > 0;
            subscription.poll((buffer, offset, length, header) -> { }, 10); // the next case starts empty
            return isDelivered;
        }
    }

    private ServerSocketChannel listen() throws IOException
    {
        return ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    }

    /**
     * A doorbell whose socket the test binds and reads itself, published on the driver.
     */
    private Doorbell publishedDoorbell(final ServerSocketChannel server) throws IOException
    {
        final Doorbell doorbell = new Doorbell(aeron, "test");
        server.bind(UnixDomainSocketAddress.of(doorbell.socketPath()));
        doorbell.publish(aeron, STREAM);
        return doorbell;
    }

    /**
     * Accept the ringer's connection (made when the ringer was) and read its hello into the doorbell.
     */
    private static SocketChannel acceptHello(final ServerSocketChannel server, final Doorbell doorbell)
        throws IOException
    {
        final SocketChannel connection = server.accept();
        final ByteBuffer hello = ByteBuffer.allocate(DoorbellDescriptor.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        while (hello.hasRemaining())
        {
            assertTrue(connection.read(hello) > 0, "the ringer says hello first");
        }
        assertEquals(DoorbellDescriptor.HELLO, hello.get(0));
        doorbell.onHello(hello.getInt(1));
        connection.configureBlocking(false);
        return connection;
    }

    private static int pendingRings(final SocketChannel connection) throws IOException
    {
        final ByteBuffer in = ByteBuffer.allocate(16);
        final int read = connection.read(in);
        for (int i = 0; i < Math.max(0, read); i++)
        {
            assertEquals(DoorbellDescriptor.RING, in.get(i));
        }
        return Math.max(0, read);
    }

    private void publish(final DoorbellRinger ringer)
    {
        while (publication.offer(message, 0, message.capacity()) < 0)
        {
            MdTests.checkInterrupted("offering a message");
        }
        ringer.published();
    }

    private static boolean onLoop(final EventLoop loop, final java.util.concurrent.Callable<Boolean> check)
    {
        return loop.submit(check).syncUninterruptibly().getNow();
    }

    private static long refused(final EventLoopDoorbell bell, final EventLoop loop)
    {
        return loop.submit(bell::refused).syncUninterruptibly().getNow();
    }

    private static void interleave(
        final List<String> sleeper, final List<String> publisher, final List<String> prefix,
        final List<List<String>> out)
    {
        if (sleeper.isEmpty() && publisher.isEmpty())
        {
            out.add(List.copyOf(prefix));
            return;
        }
        if (!sleeper.isEmpty())
        {
            prefix.add(sleeper.get(0));
            interleave(sleeper.subList(1, sleeper.size()), publisher, prefix, out);
            prefix.remove(prefix.size() - 1);
        }
        if (!publisher.isEmpty())
        {
            prefix.add(publisher.get(0));
            interleave(sleeper, publisher.subList(1, publisher.size()), prefix, out);
            prefix.remove(prefix.size() - 1);
        }
    }
}
