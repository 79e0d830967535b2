package io.mdhub.benchmarks.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.probe.OrderProbe;
import io.mdhub.orderprobe.probe.OrderTarget;
import io.mdhub.orderprobe.probe.OrderTargets;

/**
 * The probe-only reference, found by name as the bench finds it: a run of the probe against it keeps every order of
 * its window, none failed, each acknowledged no earlier than it was sent and sent no earlier than it was created.
 */
@InterruptAfter(30)
class ProbeOnlyTargetTest
{
    private static final int RATE = 1_000;

    @TempDir
    Path dir;

    @Test
    void everyOrderOfTheWindowIsKeptAndAcknowledgedAtOnce() throws Exception
    {
        final OrderTarget target = OrderTargets.create(ProbeOnlyTarget.NAME, Map.of());
        final ProbeRun run = new OrderProbe(new OrderProbe.Settings()
            .rate(RATE)
            .warmupSeconds(1)
            .durationSeconds(1)
            .publishers(4)
            .clientIdBase(9_000)
            .target(target)
            .out(dir.resolve("run")))
            .run(() -> false);

        assertEquals(ProbeOnlyTarget.NAME, run.property("target"));
        assertEquals("0", run.property(ProbeRun.FAILED));
        assertEquals(RATE, run.orders(), "every order of the one-second window");
        final long[] created = run.createEpochNs();
        final long[] sent = run.sendEpochNs();
        final long[] ended = run.endEpochNs();
        for (int i = 0; i < run.orders(); i++)
        {
            assertTrue(created[i] <= sent[i] && sent[i] <= ended[i], "order " + i + " in time order");
        }
    }

    @Test
    void takesNoOptions()
    {
        assertThrows(IllegalArgumentException.class,
            () -> OrderTargets.create(ProbeOnlyTarget.NAME, Map.of("primary", "127.0.0.1:1")));
    }
}
