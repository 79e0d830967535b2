package io.mdhub.orderprobe.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.concurrent.TimerSlack;
import io.mdhub.common.order.client.OrderClient;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.orderprobe.analysis.ProbeReport;
import io.mdhub.orderprobe.analysis.ProbeRun;
import io.mdhub.orderprobe.analysis.RunGroup;
import io.mdhub.orderprobe.demo.InProcessOrderPair;

/**
 * The probe against a real active/active pair in one JVM (loopback TCP): every released order of the
 * measured window is submitted once, synchronously, by one of the publishing threads, and comes back with its three
 * timestamps in order; the run directory loads back and reports.
 */
@InterruptAfter(120)
class OrderProbeTest
{
    @TempDir
    Path dir;

    private InProcessOrderPair pair;

    @BeforeEach
    void launchPair()
    {
        pair = new InProcessOrderPair(dir, false);
    }

    @AfterEach
    void close()
    {
        CloseHelper.quietClose(pair);
    }

    @Test
    void anInjectedStopOutsideTheMeasuredWindowIsRefusedBeforeTheRun()
    {
        // it would fire after the run, or keep the probe waiting for it: refused when the settings are checked
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new OrderProbe(
            new OrderProbe.Settings().durationSeconds(2).stops(List.of(new StopInjection("order-server-1", 1, 1_900,
                200)))));
        assertTrue(refused.getMessage().contains("within the measured 2 s"), refused::getMessage);
        new OrderProbe(new OrderProbe.Settings().durationSeconds(2)
            .stops(List.of(new StopInjection("order-server-1", 1, 1_800, 200)))); // ends with the window: accepted
    }

    @Test
    void everyMeasuredOrderIsSubmittedOnceWithItsThreeTimestamps() throws Exception
    {
        final Path out = dir.resolve("run-A");
        final ProbeRun run = new OrderProbe(new OrderProbe.Settings()
            .probeId("A")
            .rate(300)
            .warmupSeconds(1)
            .durationSeconds(2)
            .publishers(2)
            .clientIdBase(9_000)
            .client(new OrderClient.Context().servers(pair.servers()))
            .out(out))
            .run(() -> false);

        assertEquals("0", run.property(ProbeRun.FAILED));
        assertEquals(600, run.orders(), "2 s at 300/s after the warm-up");
        if (TimerSlack.ofCurrentThread() > 0)
        {
            assertEquals(Long.toString(OrderProbe.DEFAULT_CREATION_TIMER_SLACK_NS),
                run.property("creation.timer.slack.ns"), "the creation thread lowered its timer slack");
        }
        assertTrue(Long.parseLong(run.property("creation.mean.lateness.us")) >= 0);
        final long measureStart = Long.parseLong(run.property(ProbeRun.MEASURE_START_EPOCH_NS));
        for (int i = 0; i < run.orders(); i++)
        {
            final long create = run.createEpochNs()[i];
            assertTrue(create >= measureStart, "only orders due after the warm-up");
            assertTrue(run.sendEpochNs()[i] >= create, "sent after it was due (one clock anchor for both)");
            assertTrue(run.endEpochNs()[i] > run.sendEpochNs()[i], "answered after it was sent");
            if (i > 0)
            {
                assertEquals(1e9 / 300, create - run.createEpochNs()[i - 1], 2, "evenly spaced creation");
            }
        }
        assertTrue(run.pauses().stream().allMatch((p) -> p.process().equals("probe-A")),
            () -> "no server endpoint given: only the probe's own pauses, under its name: " + run.pauses());

        final ProbeRun loaded = ProbeRun.load(out);
        assertEquals(run.orders(), loaded.orders());
        final String text = ProbeReport.write(RunGroup.group(List.of(loaded), 1_000_000_000L), out.resolve("r"));
        assertTrue(text.contains("two_server 300/s"), text);
        assertTrue(Files.exists(out.resolve("r").resolve("summary.csv")));
    }
}
