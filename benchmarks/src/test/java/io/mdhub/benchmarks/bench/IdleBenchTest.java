package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The idle report adds up processes and threads, says whether the bound was met, and leaves out threads that neither
 * woke nor ran.
 */
@Timeout(10)
class IdleBenchTest
{
    private static final List<IdleBench.ThreadIdle> THREADS = List.of(
        new IdleBench.ThreadIdle("backbone", "[sender,receive", 0.13, 25.0),
        new IdleBench.ThreadIdle("backbone", "G1 Service", 0.01, 2.0),
        new IdleBench.ThreadIdle("p2p", "p2p-worker-mdhu", 0.15, 10.0),
        new IdleBench.ThreadIdle("p2p", "Signal Dispatch", 0.0, 0.0));

    @Test
    void sumsPerProcessAndTogether()
    {
        final String report = IdleBench.report(THREADS);
        assertTrue(report.contains("| backbone | 0.140 | 27.0 |"), report);
        assertTrue(report.contains("| p2p | 0.150 | 10.0 |"), report);
        assertTrue(report.contains("| **together** | **0.290** | **37.0** |"), report);
        assertTrue(report.contains("Target: below 1.0 % of a core together: met."), report);
        assertTrue(report.contains("| p2p | `p2p-worker-mdhu` | 0.150 | 10.0 |"), report);
        assertFalse(report.contains("Signal Dispatch"), "a thread that neither woke nor ran is left out");
        assertEquals(0.29, IdleBench.total(THREADS), 1e-9);
    }

    @Test
    void saysWhenTheBoundIsMissed()
    {
        final String report = IdleBench.report(List.of(new IdleBench.ThreadIdle("p2p", "busy", 1.5, 1000.0)));
        assertTrue(report.contains("Target: below 1.0 % of a core together: missed."), report);
    }

    @Test
    void csvHasARowPerThread()
    {
        final String csv = IdleBench.csv(THREADS);
        assertEquals(5, csv.split("\n").length);
        assertTrue(csv.contains("backbone,\"[sender,receive\",0.1300,25.00"), csv);
    }
}
