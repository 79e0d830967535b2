package io.mdhub.benchmarks.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The round loop both chaos commands share: a row per round, the system made whole after a round that broke it, and
 * the remaining rounds not run once that fails.
 */
@InterruptAfter(10)
class ChaosRoundsTest
{
    private static final List<String> FAULTS = List.of("a", "b");

    private final StringWriter printed = new StringWriter();
    private final PrintWriter console = new PrintWriter(printed);
    private final ChaosTable table = new ChaosTable(List.of("round", "fault", "verdict"));
    private final List<String> calls = new ArrayList<>();

    @Test
    void aRoundThatBrokeTheSystemIsFollowedByARestoreAndAFailedRestoreEndsTheRun() throws Exception
    {
        final ChaosRunOptions options = new ChaosRunOptions();
        options.rounds = 4;
        final int failed = options.play(console, FaultPlan.plan(1, 4, FAULTS), table, true,
            (round) -> run(round.round(), 2 == round.round() ? "broke it" : null),
            (round) -> round(round.round(), "not run"),
            () ->
            {
                calls.add("restore");
                return false;
            });
        assertEquals(List.of("run 1", "run 2", "restore"), calls);
        assertEquals(3, failed);
        assertEquals(List.of("ok", "FAIL: broke it", "FAIL: not run", "FAIL: not run"),
            table.rows().stream().map((row) -> row.get(2)).toList());
        final String[] lines = printed.toString().split("\n");
        assertEquals(table.header(), lines[0]);
        assertEquals(table.row(3), lines[4]);
    }

    @Test
    void noRoundRunsWhenTheSystemDidNotComeUpWhole() throws Exception
    {
        final ChaosRunOptions options = new ChaosRunOptions();
        final int failed = options.play(console, FaultPlan.plan(1, 2, FAULTS), table, false,
            (round) -> run(round.round(), null), (round) -> round(round.round(), "not run"),
            () -> calls.add("restore"));
        assertEquals(List.of(), calls);
        assertEquals(2, failed);
    }

    private ChaosRound run(final int n, final String failure)
    {
        calls.add("run " + n);
        return round(n, failure);
    }

    /**
     * @param failure why it failed, or null when it did not; a failed round left the system broken.
     */
    private static ChaosRound round(final int n, final String failure)
    {
        return new ChaosRound()
        {
            @Override
            public Verdict verdict()
            {
                return new Verdict().failIf(null != failure, failure);
            }

            @Override
            public List<String> cells()
            {
                return List.of(Integer.toString(n), "f", verdict().toString());
            }

            @Override
            public boolean leftBroken()
            {
                return null != failure;
            }
        };
    }
}
