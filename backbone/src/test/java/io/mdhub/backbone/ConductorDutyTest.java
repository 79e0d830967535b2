package io.mdhub.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.status.SystemCounterDescriptor;
import io.mdhub.common.test.InterruptAfter;

/**
 * A server's Aeron client has no conductor thread: the driver keeps it only while a loop runs its duty, and the
 * driver's news reaches it through that duty.
 */
@InterruptAfter(30)
class ConductorDutyTest
{
    /** Four keepalive intervals: a stall of a second on a loaded box does not time a serviced client out. */
    private static final long LIVENESS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);

    private MediaDriver driver;
    private AtomicCounter clientTimeouts;

    @BeforeEach
    void launchDriver(@TempDir final Path dir)
    {
        driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .threadingMode(ThreadingMode.SHARED)
            .ipcTermBufferLength(64 * 1024)
            .timerIntervalNs(LIVENESS_TIMEOUT_NS / 10)
            .clientLivenessTimeoutNs(LIVENESS_TIMEOUT_NS)
            .publicationUnblockTimeoutNs(3 * LIVENESS_TIMEOUT_NS)
            .dirDeleteOnShutdown(true));
        clientTimeouts = driver.context().systemCounters().get(SystemCounterDescriptor.CLIENT_TIMEOUTS);
    }

    @AfterEach
    void closeDriver()
    {
        CloseHelper.quietClose(driver);
    }

    @Test
    void theDutyKeepsTheClientAliveAndBringsTheDriversNews() throws InterruptedException
    {
        try (Aeron aeron = Aeron.connect(BackboneAttachment.clientContext(driver.aeronDirectoryName())))
        {
            final ConductorDuty duty = new ConductorDuty(aeron);
            assertTrue(duty.isInvoked());
            final AtomicInteger images = new AtomicInteger();
            final Subscription subscription = aeron.addSubscription("aeron:ipc", 1001,
                (image) -> images.incrementAndGet(), (image) -> { });
            final Publication publication = aeron.addPublication("aeron:ipc", 1001);

            runFor(duty, 2 * LIVENESS_TIMEOUT_NS + LIVENESS_TIMEOUT_NS / 2);

            assertEquals(0, clientTimeouts.get(), "keepalives reached the driver");
            assertFalse(aeron.isClosed());
            while (0 == images.get())
            {
                duty.doWork(System.nanoTime());
                Thread.sleep(1);
            }
            assertEquals(1, subscription.imageCount());
            assertTrue(publication.isConnected());
        }
    }

    @Test
    void withoutTheDutyTheDriverTimesTheClientOut() throws InterruptedException
    {
        try (Aeron aeron = Aeron.connect(BackboneAttachment.clientContext(driver.aeronDirectoryName())))
        {
            aeron.addSubscription("aeron:ipc", 1001);
            final long deadlineNs = System.nanoTime() + 10 * LIVENESS_TIMEOUT_NS;
            while (0 == clientTimeouts.get())
            {
                assertTrue(System.nanoTime() - deadlineNs < 0, "the driver never timed the client out");
                Thread.sleep(10);
            }
        }
    }

    @Test
    void aClientWithItsOwnConductorThreadIsLeftAlone()
    {
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())))
        {
            final ConductorDuty duty = new ConductorDuty(aeron);
            assertFalse(duty.isInvoked());
            assertFalse(duty.doWork(System.nanoTime() + ConductorDuty.INTERVAL_NS));
        }
    }

    @Test
    void runsTheConductorAtMostOncePerInterval()
    {
        try (Aeron aeron = Aeron.connect(BackboneAttachment.clientContext(driver.aeronDirectoryName())))
        {
            final ConductorDuty duty = new ConductorDuty(aeron);
            final long nowNs = System.nanoTime();
            assertTrue(duty.doWork(nowNs));
            assertFalse(duty.doWork(nowNs + ConductorDuty.INTERVAL_NS - 1));
            assertTrue(duty.doWork(nowNs + ConductorDuty.INTERVAL_NS));
        }
    }

    @Test
    void aConductorThatIsNotUsableAnyMoreIsNotRun()
    {
        try (Aeron aeron = Aeron.connect(BackboneAttachment.clientContext(driver.aeronDirectoryName())))
        {
            final AtomicInteger asked = new AtomicInteger();
            final ConductorDuty duty = new ConductorDuty(aeron, () -> 1 == asked.incrementAndGet());
            final long nowNs = System.nanoTime();
            assertTrue(duty.doWork(nowNs));
            assertFalse(duty.doWork(nowNs + ConductorDuty.INTERVAL_NS), "no longer usable: not run");
            assertEquals(2, asked.get());
            assertFalse(aeron.isClosed());
        }
    }

    private static void runFor(final ConductorDuty duty, final long durationNs) throws InterruptedException
    {
        final long endNs = System.nanoTime() + durationNs;
        while (System.nanoTime() - endNs < 0)
        {
            duty.doWork(System.nanoTime());
            Thread.sleep(10);
        }
    }
}
