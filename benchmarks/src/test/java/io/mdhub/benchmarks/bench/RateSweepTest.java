package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Listed rates are all tried, however high; open-ended steps stop at the limit; a rate not sustained ends the sweep.
 */
@Timeout(10)
class RateSweepTest
{
    private final List<Long> tried = new ArrayList<>();
    private final StringWriter console = new StringWriter();

    @Test
    void listedRatesAboveTheOpenEndedLimitAreTried() throws Exception
    {
        new RateSweep(new long[] {1_000_000, 2_000_000}, false, 100_000, 1_500_000)
            .run(this::sustained, new PrintWriter(console), "x");
        assertEquals(List.of(1_000_000L, 2_000_000L), tried);
    }

    @Test
    void openEndedStepsStopAtTheLimit() throws Exception
    {
        new RateSweep(new long[] {1_300_000}, true, 100_000, 1_500_000)
            .run(this::sustained, new PrintWriter(console), "x");
        assertEquals(List.of(1_300_000L, 1_400_000L, 1_500_000L), tried);
    }

    @Test
    void aRateNotSustainedEndsTheSweep() throws Exception
    {
        new RateSweep(new long[] {100, 200, 300}, false, 100, 1_000)
            .run((rate) -> row(rate, rate < 200), new PrintWriter(console), "x");
        assertEquals(List.of(100L, 200L), tried);
    }

    private LatencyRow sustained(final long rate)
    {
        return row(rate, true);
    }

    private LatencyRow row(final long rate, final boolean sustained)
    {
        tried.add(rate);
        return new LatencyRow(rate, rate, 1, 0, 1, 1, 1, 1, 1, 1, 0, sustained);
    }
}
