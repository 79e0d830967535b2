package io.mdhub.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.order.OrderTests;

/**
 * The wake-on-data hand-off: a sleeper blocks until a publisher to its IPC stream rings, a ringer rings only a
 * sleeper that said it sleeps (once per sleep), and ringers find doorbells through the driver's counters and let go
 * of closed ones.
 */
@InterruptAfter(30)
class DoorbellTest
{
    private static final int STREAM = 5001;

    @TempDir
    Path dir;

    private MediaDriver driver;
    private Aeron aeron;
    private Doorbell doorbell;
    private DoorbellRinger ringer;

    @BeforeEach
    void launch()
    {
        driver = OrderTests.launchDriver(dir, 64 * 1024);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(ringer, doorbell, aeron, driver);
    }

    @Test
    void aRingWakesABlockedSleeperAtOnce() throws Exception
    {
        doorbell = Doorbell.open(aeron, "test", 7, STREAM);
        ringer = DoorbellRinger.forStream(aeron, "aeron:ipc", STREAM);
        final CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() ->
        {
            final long startNs = System.nanoTime();
            doorbell.asleep();
            while (0 == doorbell.wakeUps())
            {
                doorbell.await(20_000); // only the ringer ends it early; the test's deadline is 30 s
            }
            return System.nanoTime() - startNs;
        });
        MdTests.await("the sleeper says it sleeps", () -> Doorbell.ASLEEP == stateOf(doorbell));
        ringer.ring();

        final long waitedNs = waited.get(10, TimeUnit.SECONDS);
        assertTrue(waitedNs < TimeUnit.SECONDS.toNanos(10), "woken after " + waitedNs + " ns");
        assertEquals(1, ringer.rings());
        assertEquals(Doorbell.AWAKE, stateOf(doorbell), "the ringer swapped the state");
        assertTrue(doorbell.wakeUps() >= 1);
    }

    @Test
    void ringsOnlyASleeperAndOncePerSleep()
    {
        doorbell = Doorbell.open(aeron, "test", STREAM);
        ringer = DoorbellRinger.forStream(aeron, "aeron:ipc?term-length=64k", STREAM);

        ringer.ring();
        assertTrue(ringer.isConnected(), "found through the counters");
        assertEquals(0, ringer.rings(), "an awake thread is not rung");
        assertEquals(1, doorbell.await(5_000), "the ringer's connection is accepted");

        doorbell.asleep();
        assertEquals(Publication.BACK_PRESSURED, ringer.ringIfPublished(Publication.BACK_PRESSURED));
        assertEquals(0, ringer.rings(), "nothing was published: not rung");
        assertEquals(64L, ringer.ringIfPublished(64L));
        ringer.ring();
        assertEquals(1, ringer.rings(), "one byte per sleep");
        assertTrue(doorbell.await(5_000) > 0, "the byte is waiting");

        assertEquals(0, doorbell.await(1), "drained: a second wait times out");
        doorbell.asleep();
        doorbell.awake();
        ringer.ring();
        assertEquals(1, ringer.rings(), "awake again: not rung");
    }

    @Test
    void aRingerFindsOnlyADoorbellForItsStreamAndLetsGoOfAClosedOne() throws Exception
    {
        ringer = DoorbellRinger.forStream(aeron, "aeron:ipc", STREAM);
        ringer.ring();
        assertFalse(ringer.isConnected(), "no doorbell yet");

        try (Doorbell other = Doorbell.open(aeron, "other", STREAM + 1))
        {
            doorbell = Doorbell.open(aeron, "test", STREAM);
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(DoorbellRinger.LOOKUP_INTERVAL_NS) + 100);
            doorbell.asleep();
            other.asleep();
            ringer.ring();
            assertTrue(ringer.isConnected(), "looked up again after a second");
            assertEquals(Doorbell.AWAKE, stateOf(doorbell));
            assertEquals(Doorbell.ASLEEP, stateOf(other), "another stream's sleeper is left alone");
        }

        final Path socket = doorbell.socketPath();
        assertTrue(Files.exists(socket));
        doorbell.close();
        assertFalse(Files.exists(socket), "the socket is deleted");
        MdTests.await("the ringer lets go of a doorbell whose counter the driver freed", () ->
        {
            ringer.ring();
            return !ringer.isConnected();
        });
    }

    @Test
    void everySleeperOfAStreamIsWokenAndALaterOneIsFoundWhileTheFirstIsConnected() throws Exception
    {
        doorbell = Doorbell.open(aeron, "first", STREAM);
        ringer = DoorbellRinger.forStream(aeron, "aeron:ipc", STREAM);
        ringer.ring();
        assertEquals(1, ringer.connected());

        try (Doorbell second = Doorbell.open(aeron, "second", STREAM))
        {
            doorbell.asleep();
            second.asleep();
            ringer.ring();
            assertEquals(Doorbell.AWAKE, stateOf(doorbell), "the one already known is woken");
            assertEquals(Doorbell.ASLEEP, stateOf(second), "not looked up again within the second");

            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(DoorbellRinger.LOOKUP_INTERVAL_NS) + 100);
            doorbell.asleep();
            ringer.ring();
            assertEquals(2, ringer.connected(), "the newer sleeper is found although the first is connected");
            assertEquals(Doorbell.AWAKE, stateOf(doorbell));
            assertEquals(Doorbell.AWAKE, stateOf(second), "both sleepers of the stream are woken by one ring");
            assertEquals(3, ringer.rings());
            assertTrue(second.await(5_000) > 0, "the second sleeper's connection or byte is waiting");
        }
        MdTests.await("the closed sleeper is let go, the other kept", () ->
        {
            ringer.ring();
            return 1 == ringer.connected();
        });
        doorbell.asleep();
        ringer.ring();
        assertEquals(Doorbell.AWAKE, stateOf(doorbell), "the remaining sleeper is still woken");
        assertEquals(0, ringer.missed());
    }

    @Test
    void aDoorbellThatRefusedIsNotTriedAgainForTenSeconds() throws Exception
    {
        doorbell = Doorbell.open(aeron, "unreachable", STREAM);
        final Path socket = doorbell.socketPath();
        Files.delete(socket); // what a gone or foreign sleeper looks like to a ringer: its counter, no listener
        ringer = DoorbellRinger.forStream(aeron, "aeron:ipc", STREAM);
        ringer.ring();
        assertFalse(ringer.isConnected());

        try (ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX))
        {
            listener.bind(UnixDomainSocketAddress.of(socket)); // reachable again
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(DoorbellRinger.LOOKUP_INTERVAL_NS) + 100);
            ringer.ring();
            assertFalse(ringer.isConnected(), "a refusal is remembered: no channel and exception every second");
        }
    }

    @Test
    void sleepersBeyondTheRingersCapacityAreCountedAsMissed()
    {
        final Doorbell[] sleepers = new Doorbell[DoorbellRinger.MAX_BELLS + 1];
        try
        {
            for (int i = 0; i < sleepers.length; i++)
            {
                sleepers[i] = Doorbell.open(aeron, "sleeper-" + i, STREAM);
            }
            ringer = DoorbellRinger.forStream(aeron, "aeron:ipc", STREAM);
            ringer.ring();
            assertEquals(DoorbellRinger.MAX_BELLS, ringer.connected());
            assertEquals(1, ringer.missed());
        }
        finally
        {
            CloseHelper.quietCloseAll(sleepers);
        }
    }

    @Test
    void aSleeperThatDoesNotAcceptNeverStallsItsRingers()
    {
        doorbell = Doorbell.open(aeron, "test", STREAM);
        final DoorbellRinger[] ringers = new DoorbellRinger[120]; // more than a listening socket's backlog of 50
        try
        {
            int connected = 0;
            for (int i = 0; i < ringers.length; i++)
            {
                ringers[i] = DoorbellRinger.forStream(aeron, "aeron:ipc", STREAM);
                ringers[i].ring(); // returns whether or not the full backlog takes its connection
                connected += ringers[i].isConnected() ? 1 : 0;
            }
            assertTrue(connected >= 50 && connected < ringers.length, connected + " ringers connected");
        }
        finally
        {
            CloseHelper.quietCloseAll(ringers);
        }
    }

    @Test
    void onlyIpcPublicationsRing()
    {
        final ExclusivePublication udp =
            aeron.addExclusivePublication("aeron:udp?endpoint=localhost:" + MdTests.unusedPort(), STREAM);
        try (Subscription ignored = aeron.addSubscription("aeron:ipc", STREAM))
        {
            assertSame(DoorbellRinger.NONE, DoorbellRinger.forPublication(aeron, udp));
            DoorbellRinger.NONE.ring();
            assertFalse(DoorbellRinger.NONE.isConnected());
        }
        finally
        {
            udp.close();
        }
    }

    @Test
    void theIdleStrategySaysItSleepsAfterItsSpinsAndYieldsAndAnyWorkWakesIt()
    {
        doorbell = Doorbell.open(aeron, "test", STREAM);
        final DoorbellIdleStrategy idle = new DoorbellIdleStrategy(2, 1, 1);
        idle.attach(doorbell);

        for (int i = 0; i < 4; i++)
        {
            idle.idle(0); // a first call, two spins, one yield
            assertEquals(Doorbell.AWAKE, stateOf(doorbell), "call " + i);
        }
        idle.idle(0);
        assertEquals(Doorbell.ASLEEP, stateOf(doorbell), "said it sleeps, and returned for one more poll");
        final long startNs = System.nanoTime();
        idle.idle(0);
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MICROSECONDS.toNanos(900), "blocked for its 1 ms");
        idle.idle(1);
        assertEquals(Doorbell.AWAKE, stateOf(doorbell));
    }

    @Test
    void withoutADoorbellItBacksOffFromOneMicrosecond()
    {
        final DoorbellIdleStrategy idle = new DoorbellIdleStrategy(0, 0, 1000);
        for (int i = 0; i < 3; i++)
        {
            idle.idle(0); // a first call, a spin, the yields used up: from here on it parks
        }
        final long startNs = System.nanoTime();
        for (int i = 0; i < 5; i++)
        {
            idle.idle(0); // 1, 2, 4, 8, 16 µs (plus the timer slack), nowhere near the 1 s longest wait
        }
        final long tookNs = System.nanoTime() - startNs;
        assertTrue(tookNs < TimeUnit.MILLISECONDS.toNanos(500), "parked " + tookNs + " ns");
        assertEquals(null, idle.doorbell());
    }

    @Test
    void readsOnlyWellFormedKeys()
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[Doorbell.MAX_KEY_BYTES]);
        key.putInt(0, 1);
        key.putInt(4, STREAM);
        key.putInt(8, 4);
        key.putStringWithoutLengthAscii(12, "/a/b");
        assertTrue(Doorbell.wakesFor(key, 0, STREAM));
        assertFalse(Doorbell.wakesFor(key, 0, STREAM + 1));
        assertEquals("/a/b", Doorbell.pathOf(key, 0));

        key.putInt(8, Doorbell.MAX_KEY_BYTES); // the path would run past the key
        assertFalse(Doorbell.wakesFor(key, 0, STREAM));
        assertNull(Doorbell.pathOf(key, 0));
        key.putInt(0, 0); // no stream
        assertNull(Doorbell.pathOf(key, 0));
        key.putInt(0, Integer.MAX_VALUE); // more streams than a key holds
        assertFalse(Doorbell.wakesFor(key, 0, STREAM));
    }

    @Test
    void refusesWhatAKeyCannotHold()
    {
        assertThrows(IllegalArgumentException.class, () -> Doorbell.open(aeron, "none"));
        assertThrows(IllegalArgumentException.class, () -> Doorbell.open(aeron, "many", new int[30]));
    }

    @Test
    void aSocketLeftByAnEndedProcessIsRemovedWhenTheNextDoorbellOpens() throws Exception
    {
        final Path socketDir = Path.of(driver.aeronDirectoryName());
        final FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        try (Doorbell live = Doorbell.open(aeron, "live", STREAM))
        {
            Files.setLastModifiedTime(live.socketPath(), old);
            // what a crashed owner leaves: a bound socket's file, its listener gone
            final Path crashed = socketDir.resolve("mdhub-doorbell-dead.sock");
            try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX))
            {
                server.bind(UnixDomainSocketAddress.of(crashed));
            }
            Files.setLastModifiedTime(crashed, old);
            final Path justBound = socketDir.resolve("mdhub-doorbell-young.sock"); // as a bind before its listen
            try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX))
            {
                server.bind(UnixDomainSocketAddress.of(justBound));
            }

            doorbell = Doorbell.open(aeron, "next", STREAM + 1);

            assertFalse(Files.exists(crashed), "no one listens: removed");
            assertTrue(Files.exists(justBound), "too young to tell from a socket about to listen: kept");
            assertTrue(Files.exists(live.socketPath()), "a live doorbell's socket is kept");
            assertTrue(Files.exists(doorbell.socketPath()));
            assertEquals(1, Doorbell.removeStaleSockets(socketDir, Duration.ZERO), "the young one once old enough");
            assertFalse(Files.exists(justBound));
            assertTrue(Files.exists(live.socketPath()));
        }
    }

    private long stateOf(final Doorbell doorbell)
    {
        final CountersReader counters = aeron.countersReader();
        return counters.getCounterValue(doorbell.counterId());
    }
}
