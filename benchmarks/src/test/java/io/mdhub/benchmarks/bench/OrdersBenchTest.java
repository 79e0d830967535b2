package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * How many orders the bench sizes each server for: every order of its pair over the whole sweep.
 */
@InterruptAfter(10)
class OrdersBenchTest
{
    @Test
    void aServerIsSizedForItsPairsOrdersOverTheSweep()
    {
        // 4,000 + 6,000 + 8,000 + 10,000 orders/s, 90 s a run, twice: 5.04 M orders on the one pair, + 10 %
        assertEquals(5_544_000L, OrdersBench.expectedOrdersPerServer(List.of(4000L, 6000L, 8000L, 10000L), 2, 0,
            90, 2));
        assertEquals(5_544_000L, OrdersBench.expectedOrdersPerServer(List.of(4000L, 6000L, 8000L, 10000L), 1, 0,
            90, 2), "one server alone holds them all too");
        assertEquals(1_848_000L, OrdersBench.expectedOrdersPerServer(List.of(4000L, 6000L, 8000L, 10000L), 6, 0,
            90, 2), "three pairs share the total");
        assertEquals(5_940_000L, OrdersBench.expectedOrdersPerServer(List.of(4000L, 6000L, 8000L), 2, 4000, 90, 2),
            "and the first step past the listed rates, 12,000/s");
    }

    @Test
    void theSizeIsNeverBelowTheDefaultNorAboveTheIndexLimit()
    {
        assertEquals(1_000_000L, OrdersBench.expectedOrdersPerServer(List.of(500L), 2, 0, 4, 1));
        assertEquals(20_000_000L, OrdersBench.expectedOrdersPerServer(List.of(60_000L), 2, 0, 3600, 2));
    }
}
