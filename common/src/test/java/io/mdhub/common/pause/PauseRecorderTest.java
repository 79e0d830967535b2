package io.mdhub.common.pause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

@InterruptAfter(60)
class PauseRecorderTest
{
    @Test
    void aRecordingFindsAForcedCollectionWithItsCauseAndWindow()
    {
        try (PauseRecorder recorder = PauseRecorder.recording("test-server"))
        {
            final long beforeNs = System.currentTimeMillis() * 1_000_000L;
            System.gc();
            final long afterNs = (System.currentTimeMillis() + 1) * 1_000_000L;
            final List<PauseEvent> pauses = recorder.pauses();
            final PauseEvent gc = pauses.stream().filter(PauseEvent::isGc).findFirst()
                .orElseThrow(() -> new AssertionError("no GC pause among " + pauses));
            assertEquals("test-server", gc.process());
            assertTrue(gc.durationNs() > 0, gc::toString);
            assertTrue(gc.startEpochNs() >= beforeNs - 1_000_000L && gc.endEpochNs() <= afterNs + 1_000_000L,
                () -> gc + " within [" + beforeNs + ", " + afterNs + "]");
            assertTrue(recorder.getPauses().length >= pauses.size(), "a later read holds at least as many");
        }
    }

    @Test
    void aStreamingRecorderSeesPausesWhileItRunsAndServesThemOverJmx() throws Exception
    {
        try (PauseRecorder recorder = PauseRecorder.streaming("test-probe"))
        {
            final javax.management.ObjectName name = MBeans.register("test-probe", recorder);
            try
            {
                System.gc();
                MdTests.await("the forced collection streamed",
                    () -> recorder.pauses().stream().anyMatch(PauseEvent::isGc));
                final String[] lines = (String[])MBeans.server().getAttribute(name, "Pauses");
                assertTrue(lines.length > 0);
                assertTrue(PauseEvent.fromLine(lines[lines.length - 1]).process().equals("test-probe"));
            }
            finally
            {
                MBeans.unregister(name);
            }
        }
    }

    @Test
    void aStopOfTheWholeProcessIsAHiccupBesideItsSafepoint()
    {
        // a 1 ms period catches every stop longer than 2 ms, however short the collection turns out on this machine
        System.setProperty(PauseRecorder.HICCUP_PERIOD_NS_PROP_NAME, "1000000");
        try (PauseRecorder recorder = PauseRecorder.recording("test-server"))
        {
            // a full collection over ~100 MB of live objects: every Java thread, the meter's too, waits for its end
            final Object[] live = new Object[1_000_000];
            for (int i = 0; i < live.length; i++)
            {
                live[i] = new long[10];
            }
            final long beforeNs = System.currentTimeMillis() * 1_000_000L;
            System.gc();
            final long afterNs = (System.currentTimeMillis() + 1) * 1_000_000L;
            java.lang.ref.Reference.reachabilityFence(live); // live through the collection
            MdTests.await("the meter woke after the stop", () -> recorder.pauses().stream()
                .anyMatch(p -> HiccupMeter.CAUSE.equals(p.cause()) && p.endEpochNs() >= beforeNs));
            final List<PauseEvent> pauses = recorder.pauses();
            final PauseEvent gc = pauses.stream().filter(PauseEvent::isGc)
                .filter(p -> p.startEpochNs() >= beforeNs - 1_000_000L).findFirst()
                .orElseThrow(() -> new AssertionError("no GC pause among " + pauses));
            final PauseEvent hiccup = pauses.stream().filter(p -> HiccupMeter.CAUSE.equals(p.cause()))
                .filter(p -> p.startEpochNs() < gc.endEpochNs() && p.endEpochNs() > gc.startEpochNs()).findFirst()
                .orElseThrow(() -> new AssertionError("no hiccup overlapping " + gc + " among " + pauses));
            assertEquals("test-server", hiccup.process());
            assertTrue(hiccup.durationNs() >= 1_000_000L, hiccup::toString);
            assertTrue(hiccup.startEpochNs() <= afterNs, () -> hiccup + " before " + afterNs);
            for (int i = 1; i < pauses.size(); i++)
            {
                assertTrue(pauses.get(i - 1).startEpochNs() <= pauses.get(i).startEpochNs(), "oldest first");
            }
        }
        finally
        {
            System.clearProperty(PauseRecorder.HICCUP_PERIOD_NS_PROP_NAME);
        }
    }

    @Test
    void noHiccupMeterWhenItsThresholdIsZero()
    {
        System.setProperty(PauseRecorder.HICCUP_THRESHOLD_NS_PROP_NAME, "0");
        try (PauseRecorder recorder = PauseRecorder.recording("test-no-meter"))
        {
            assertTrue(Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("mdhub-hiccups-test-no-meter")));
        }
        finally
        {
            System.clearProperty(PauseRecorder.HICCUP_THRESHOLD_NS_PROP_NAME);
        }
        assertThrows(IllegalArgumentException.class, () -> new HiccupMeter("x", 0, 1_000_000L));
    }

    @Test
    void linesRoundTripAndBadOnesAreRefused()
    {
        final PauseEvent event = new PauseEvent("p2p-0", "G1CollectForAllocation", 1_700_000_000_000_000_000L, 1234);
        assertEquals(event, PauseEvent.fromLine(event.toLine()));
        assertEquals(1_700_000_000_000_001_234L, event.endEpochNs());
        assertTrue(event.isGc());
        assertThrows(IllegalArgumentException.class, () -> PauseEvent.fromLine("a,b,c"));
        assertThrows(IllegalArgumentException.class, () -> PauseEvent.fromLine("a,b,c,d"));
    }
}
