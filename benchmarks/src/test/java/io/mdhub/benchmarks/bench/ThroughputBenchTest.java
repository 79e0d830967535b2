package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;

import io.mdhub.benchmarks.client.ClientStatsLine;
import io.mdhub.common.test.InterruptAfter;

/**
 * How a consumer-test rate is judged from the client's and the source's once-a-second lines: only the measured
 * seconds count, and a step is sustained only with nothing lost, the watchlist whole and quiet in every measured
 * second, the source at 95 % of the rate and the client at 95 % of what its watchlists make of the input.
 */
@InterruptAfter(10)
class ThroughputBenchTest
{
    private static final long RATE = 100_000;
    private static final int ITEMS = 1_000;

    private final ThroughputBench bench = new ThroughputBench();

    ThroughputBenchTest()
    {
        bench.warmupSeconds = 2;
        bench.stepSeconds = 3;
        bench.mounts = 4;
    }

    @Test
    void aSteadyStepIsSustainedAndMeasuredOverItsMeasuredSecondsOnly()
    {
        // the warm-up seconds are slow and recovering: they do not count
        final String client = lines((second) -> second < 2 ? line(50_000, ITEMS - 1, 1, 0) : line(RATE, ITEMS, 0, 0));
        final ThroughputBench.Step step =
            bench.consumerStep("nofanout", RATE, client, source(RATE), 0, true);

        assertTrue(step.sustained(), step::csv);
        assertEquals(RATE, step.input());
        assertEquals(RATE, step.output());
        assertEquals(0, step.lost());
    }

    @Test
    void aSuspectOrAClosedItemInAMeasuredSecondIsNotSustained()
    {
        assertFalse(bench.consumerStep("nofanout", RATE, lines((second) -> line(RATE, ITEMS, second == 3 ? 1 : 0, 0)),
            source(RATE), 0, true).sustained(), "a Suspect item");
        assertFalse(bench.consumerStep("nofanout", RATE, lines((second) -> line(RATE, second == 4 ? ITEMS - 1 : ITEMS,
            0, 0)), source(RATE), 0, true).sustained(), "an item not open");
    }

    @Test
    void aLostUpdateOrAFailedMountIsNotSustained()
    {
        final ThroughputBench.Step lost = bench.consumerStep("nofanout", RATE,
            lines((second) -> line(RATE, ITEMS, 0, second < 3 ? 7 : 9)), source(RATE), 7, true);
        assertFalse(lost.sustained(), lost::csv);
        assertEquals(2, lost.lost(), "the updates lost since the step began");

        final String failed = lines((second) -> line(RATE, ITEMS, 0, 0)) + "mdhub-client: a mount failed: closed\n";
        final ThroughputBench.Step failedStep = bench.consumerStep("nofanout", RATE, failed, source(RATE), 0, true);
        assertFalse(failedStep.sustained(), failedStep::csv);
        assertEquals(-1, failedStep.lost());
        assertFalse(bench.consumerStep("nofanout", RATE, lines((second) -> line(RATE, ITEMS, 0, 0)), source(RATE), 0,
            false).sustained(), "a client that exited");
    }

    @Test
    void theSourceMustReach95PercentOfTheRate()
    {
        final String client = lines((second) -> line(94_000, ITEMS, 0, 0));
        assertFalse(bench.consumerStep("nofanout", RATE, client, source(94_000), 0, true).sustained());
        assertTrue(bench.consumerStep("nofanout", RATE, lines((second) -> line(96_000, ITEMS, 0, 0)), source(96_000),
            0, true).sustained());
    }

    @Test
    void theFanOutClientMustGet95PercentOfHalfItsMountsPerUpdate()
    {
        // four mounts on halves: every update reaches two of them
        final ThroughputBench.Step behind = bench.consumerStep("fanout", RATE,
            lines((second) -> line(2 * RATE * 90 / 100, ITEMS, 0, 0)), source(RATE), 0, true);
        assertFalse(behind.sustained(), behind::csv);
        final ThroughputBench.Step keepingUp = bench.consumerStep("fanout", RATE,
            lines((second) -> line(2 * RATE * 96 / 100, ITEMS, 0, 0)), source(RATE), 0, true);
        assertTrue(keepingUp.sustained(), keepingUp::csv);
    }

    /**
     * @return the client's report lines of the step's warm-up and measured seconds, plus one more second.
     */
    private String lines(final IntFunction<String> second)
    {
        final StringBuilder out = new StringBuilder("mdhub-client: 1 mount(s) watching\n");
        for (int i = 0; i < bench.warmupSeconds + bench.stepSeconds + 1; i++)
        {
            out.append(second.apply(i)).append(" latency p50 10.0 us\n");
        }
        return out.toString();
    }

    private static String line(final long updates, final int open, final int suspect, final long lost)
    {
        return new ClientStatsLine(0, updates, 0, open, ITEMS, suspect, 0, lost).format();
    }

    private String source(final long rate)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < bench.warmupSeconds + bench.stepSeconds + 1; i++)
        {
            out.append("source: connections 1, open items 1000, updates/s ").append(rate)
                .append(", updates 0, target ").append(rate).append("/s, backoffs 0\n");
        }
        return out.toString();
    }
}
