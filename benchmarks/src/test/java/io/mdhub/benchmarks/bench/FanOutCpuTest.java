package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The JSON update's cost as the throughput report derives it: the fanout-json step's CPU less its RSSL updates at the
 * same rate's RSSL-only cost, per JSON update; only rates that both tests sustained.
 */
@InterruptAfter(10)
class FanOutCpuTest
{
    @Test
    void theJsonUpdateIsChargedWhatTheRsslUpdatesLeaveOfTheStepsCpu()
    {
        // RSSL only: 200 ms/s for 1 M updates out = 200 ns; with JSON: 300 ms/s for 0.5 M RSSL + 0.5 M JSON
        final FanOutCpu rssl = new FanOutCpu("fanout", 20_000, 20_000, 1_000_000, 0, 200_000_000, true);
        final FanOutCpu json = new FanOutCpu("fanout-json", 20_000, 20_000, 500_000, 500_000, 300_000_000, true);

        assertEquals(200, rssl.nsPerUpdateOut());
        assertEquals(300, json.nsPerUpdateOut());
        assertEquals(400.0, json.jsonUpdateNs(rssl.nsPerUpdateOut()), 1e-9);
        final String table = FanOutCpu.jsonCostTable(List.of(rssl, json));
        assertTrue(table.contains("| 20,000 | 200 | 300 | 400 | 2.00 |"), table);
        assertEquals("fanout-json,20000,20000,500000,500000,300.0,300,true", json.csv());
    }

    @Test
    void aRateThatOneOfTheTestsDidNotSustainIsLeftOut()
    {
        final List<FanOutCpu> rows = List.of(
            new FanOutCpu("fanout", 10_000, 10_000, 500_000, 0, 100_000_000, true),
            new FanOutCpu("fanout-json", 10_000, 10_000, 250_000, 250_000, 150_000_000, false),
            new FanOutCpu("fanout-json", 20_000, 20_000, 500_000, 500_000, 300_000_000, true));

        assertTrue(FanOutCpu.jsonCostTable(rows).startsWith("No rate was sustained by both"),
            FanOutCpu.jsonCostTable(rows));
    }
}
