package io.mdhub.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.mdhub.common.test.InterruptAfter;

/**
 * The link's state machine against a real media driver in this JVM, closed and launched again on the same directory:
 * loss is noticed and told to every member, the old client is closed only once every member let go of it, a driver
 * that comes back is picked up with a new client that works, and a link that waits too long gives up once.
 */
@InterruptAfter(60)
class BackboneLinkTest
{
    private static final long CLIENT_DRIVER_TIMEOUT_MS = 2_000;
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final int STREAM_ID = 1001;

    private String aeronDir;
    private MediaDriver driver;
    private BackboneLink link;

    @BeforeEach
    void launchDriver(@TempDir final Path dir)
    {
        aeronDir = dir.resolve("aeron").toString();
        driver = launch();
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(link, driver);
    }

    @Test
    void aLostDriverIsToldToEveryMemberAndAReturningOneIsPickedUpWithANewClient()
    {
        link = BackboneLink.connect(aeronDir, 30_000, CLIENT_DRIVER_TIMEOUT_MS);
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
        final AtomicCounter reconnects = counters.newCounter("backbone-reconnects");
        final AtomicCounter up = counters.newCounter("backbone-up");
        link.counters(reconnects, up);
        assertEquals(1, up.get());

        final Recorder first = new Recorder();
        final Recorder second = new Recorder();
        final BackboneLink.Member one = link.join(first);
        final BackboneLink.Member two = link.join(second);
        final Aeron oldClient = link.aeron();
        assertSame(oldClient, one.aeron());

        CloseHelper.close(driver); // the driver says it shut down: clients notice at their next keepalive check
        driver = null;
        awaitWhileDriving(() -> 1 == first.lost.get(), one);
        assertFalse(link.isUp());
        assertNull(one.aeron());
        assertEquals(0, up.get());
        assertFalse(oldClient.isClosed(), "the other member may still use the old client's memory");

        awaitWhileDriving(() -> 1 == second.lost.get(), two);
        assertTrue(oldClient.isClosed(), "the last member out closes the old client");
        assertEquals(0, first.restored.size());

        driver = launch();
        awaitWhileDriving(() -> 1 == first.restored.size() && 1 == second.restored.size(), one, two);
        assertTrue(link.isUp());
        assertEquals(1, link.reconnects());
        assertEquals(1, reconnects.get());
        assertEquals(1, up.get());
        final Aeron newClient = first.restored.get(0);
        assertNotSame(oldClient, newClient);
        assertSame(newClient, second.restored.get(0)); // one new client, made in one place
        assertSame(newClient, two.aeron());

        exchangeOneMessage(newClient, one, two);
        assertEquals(1, first.lost.get(), "no loss while the new driver lives");
    }

    @Test
    void aLinkWithNoReconnectTimeoutGivesUpAtTheLoss()
    {
        link = BackboneLink.connect(aeronDir, 0, CLIENT_DRIVER_TIMEOUT_MS);
        final AtomicInteger givenUp = new AtomicInteger();
        link.onGiveUp(givenUp::incrementAndGet);
        final Recorder recorder = new Recorder();
        final BackboneLink.Member member = link.join(recorder);

        closeDriverUntilLost(recorder, member);
        assertEquals(1, givenUp.get());
        assertTrue(link.isGivenUp());
        driveFor(TimeUnit.MILLISECONDS.toNanos(600), member);
        assertEquals(1, givenUp.get(), "given up once");
    }

    @Test
    void aDriverThatDoesNotComeBackInTimeIsGivenUpOnOnce()
    {
        link = BackboneLink.connect(aeronDir, 1_000, CLIENT_DRIVER_TIMEOUT_MS);
        final AtomicInteger givenUp = new AtomicInteger();
        link.onGiveUp(givenUp::incrementAndGet);
        final Recorder recorder = new Recorder();
        final BackboneLink.Member member = link.join(recorder);

        closeDriverUntilLost(recorder, member);
        final long lostNs = System.nanoTime();
        assertEquals(0, givenUp.get(), "it waits first");
        awaitWhileDriving(() -> 1 == givenUp.get(), member);
        assertTrue(System.nanoTime() - lostNs >= TimeUnit.MILLISECONDS.toNanos(700),
            "not before the timeout (less the first checks' delay)");
        driver = launch();
        driveFor(TimeUnit.MILLISECONDS.toNanos(600), member);
        assertEquals(0, recorder.restored.size(), "a link that gave up does not reconnect");
        assertEquals(1, givenUp.get());
    }

    @Test
    void aMemberCannotJoinWhileDownAndARestoreThatThrowsCountsAsALoss()
    {
        link = BackboneLink.connect(aeronDir, 30_000, CLIENT_DRIVER_TIMEOUT_MS);
        final Recorder recorder = new Recorder();
        recorder.failRestores = 1;
        final BackboneLink.Member member = link.join(recorder);

        closeDriverUntilLost(recorder, member);
        assertThrows(IllegalStateException.class, () -> link.join(new Recorder()));

        driver = launch();
        // the first restore throws: counted as lost again, the next client is taken
        awaitWhileDriving(() -> 2 == recorder.restored.size() && member.isUp(), member);
        assertEquals(2, recorder.lost.get());
        assertEquals(2, link.reconnects());
        assertTrue(recorder.restored.get(0).isClosed(), "the client whose restore failed is closed");
    }

    /**
     * Close the driver (it says it shut down) and drive the member until its listener is told of the loss.
     */
    private void closeDriverUntilLost(final Recorder recorder, final BackboneLink.Member member)
    {
        CloseHelper.close(driver);
        driver = null;
        awaitWhileDriving(() -> 1 == recorder.lost.get(), member);
    }

    private MediaDriver launch()
    {
        return MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED)
            .ipcTermBufferLength(64 * 1024)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(false));
    }

    private static void exchangeOneMessage(final Aeron aeron, final BackboneLink.Member... members)
    {
        try (Subscription subscription = aeron.addSubscription("aeron:ipc", STREAM_ID);
            Publication publication = aeron.addPublication("aeron:ipc", STREAM_ID))
        {
            final UnsafeBuffer message = new UnsafeBuffer(new byte[8]);
            message.putLong(0, 42);
            awaitWhileDriving(() -> publication.offer(message) > 0, members);
            final long[] received = {0};
            awaitWhileDriving(() -> subscription.poll(
                (buffer, offset, length, header) -> received[0] = buffer.getLong(offset), 1) > 0, members);
            assertEquals(42, received[0]);
        }
    }

    private static void awaitWhileDriving(final BooleanSupplier condition, final BackboneLink.Member... members)
    {
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, "timed out");
            drive(members);
        }
    }

    private static void driveFor(final long durationNs, final BackboneLink.Member... members)
    {
        final long endNs = System.nanoTime() + durationNs;
        while (System.nanoTime() - endNs < 0)
        {
            drive(members);
        }
    }

    private static void drive(final BackboneLink.Member... members)
    {
        for (final BackboneLink.Member member : members)
        {
            member.doWork(System.nanoTime());
        }
        try
        {
            Thread.sleep(5);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static void assertSame(final Object expected, final Object actual)
    {
        assertNotNull(actual);
        org.junit.jupiter.api.Assertions.assertSame(expected, actual);
    }

    private static final class Recorder implements BackboneLink.Listener
    {
        final AtomicInteger lost = new AtomicInteger();
        final List<Aeron> restored = new ArrayList<>();
        int failRestores;

        @Override
        public void onBackboneLost()
        {
            lost.incrementAndGet();
        }

        @Override
        public void onBackboneRestored(final Aeron aeron)
        {
            restored.add(aeron);
            if (failRestores > 0)
            {
                failRestores--;
                throw new IllegalStateException("restore refused by the test");
            }
        }
    }
}
