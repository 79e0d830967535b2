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
