package io.mdhub.orderprobe.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.orderprobe.analysis.ProbeRun;

/**
 * The probe drives a target other than the order client exactly as it drives the client: a session per publisher,
 * opened, polled until ready, every released order submitted once; failed orders counted and not kept; the window
 * told before the first order; the target closed after its sessions. Targets are found by name on the class path.
 */
@InterruptAfter(30)
class OrderTargetTest
{
    private static final int RATE = 400;
    private static final int FAIL_EVERY = 10;

    @TempDir
    Path dir;

    @Test
    void theProbeDrivesAnotherTargetAsItDrivesTheOrderClient() throws Exception
    {
        final FakeOrderTarget target =
            (FakeOrderTarget)OrderTargets.create(FakeOrderTarget.NAME, Map.of("fail.every", "" + FAIL_EVERY));
        final AtomicLong windowStart = new AtomicLong();
        final AtomicLong windowEnd = new AtomicLong();
        final ProbeRun run = new OrderProbe(new OrderProbe.Settings()
            .rate(RATE)
            .warmupSeconds(1)
            .durationSeconds(1)
            .publishers(3)
            .clientIdBase(7_000)
            .target(target)
            .windowListener((start, end) ->
            {
                windowStart.set(start);
                windowEnd.set(end);
            })
            .out(dir.resolve("run")))
            .run(() -> false);

        assertEquals(3, target.sessions.get(), "a session per publisher");
        assertEquals(2 * RATE, target.submitted.size(), "every order of warm-up and window submitted");
        assertEquals(0, target.duplicates.get(), "each once");
        assertTrue(target.isClosed);
        assertEquals(0, target.openSessionsAtClose, "closed after every session");

        assertEquals(FakeOrderTarget.NAME, run.property("target"));
        assertEquals(Integer.toString(RATE / FAIL_EVERY), run.property(ProbeRun.FAILED), "one in ten refused");
        assertEquals(RATE - RATE / FAIL_EVERY, run.orders(), "the refused ones are not kept");
        assertEquals(Long.parseLong(run.property(ProbeRun.MEASURE_START_EPOCH_NS)), windowStart.get(),
            "the window told is the one recorded");
        assertEquals(1_000_000_000L, windowEnd.get() - windowStart.get());
        for (final long create : run.createEpochNs())
        {
            assertTrue(create >= windowStart.get() && create < windowEnd.get(), "every kept order within it");
        }
    }

    @Test
    void anUnknownTargetNamesTheOnesThereAre()
    {
        final IllegalArgumentException unknown =
            assertThrows(IllegalArgumentException.class, () -> OrderTargets.create("carrier-pigeon", Map.of()));
        assertTrue(unknown.getMessage().contains("there are: order-client, fake"), unknown::getMessage);
        assertThrows(IllegalArgumentException.class, () -> OrderTargets.create(FakeOrderTarget.NAME, Map.of()),
            "the factory's own check of its options");
    }
}
