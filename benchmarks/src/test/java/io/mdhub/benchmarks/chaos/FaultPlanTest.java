package io.mdhub.benchmarks.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The faults of a run from its seed: the same seed gives the same run, every kind comes up as often as the others,
 * and the drawn moments and delays stay in their ranges.
 */
@InterruptAfter(10)
class FaultPlanTest
{
    private static final List<String> FAULTS = List.of("server-0", "server-1", "both", "catch-up", "backbone");

    @Test
    void theSameSeedGivesTheSameRunAndAnotherSeedAnother()
    {
        final List<FaultPlan.Round<String>> first = FaultPlan.plan(42, 20, FAULTS);
        assertEquals(first, FaultPlan.plan(42, 20, FAULTS));
        assertNotEquals(first, FaultPlan.plan(43, 20, FAULTS));
        assertEquals(first.subList(0, 7), FaultPlan.plan(42, 7, FAULTS), "fewer rounds: the same first rounds");
    }

    @Test
    void everyKindComesUpOnceInEachPassOverTheList()
    {
        for (long seed = 0; seed < 50; seed++)
        {
            final List<FaultPlan.Round<String>> plan = FaultPlan.plan(seed, 20, FAULTS);
            for (int pass = 0; pass < 4; pass++)
            {
                final HashSet<String> dealt = new HashSet<>();
                for (final FaultPlan.Round<String> round : plan.subList(pass * 5, pass * 5 + 5))
                {
                    dealt.add(round.fault());
                }
                assertEquals(new HashSet<>(FAULTS), dealt, "seed " + seed + " pass " + pass);
            }
        }
    }

    @Test
    void theOrderOfTheKindsIsRandomAndTheDrawsInTheirRanges()
    {
        final Map<String, Integer> firsts = new TreeMap<>();
        for (long seed = 0; seed < 200; seed++)
        {
            final List<FaultPlan.Round<String>> plan = FaultPlan.plan(seed, 10, FAULTS);
            firsts.merge(plan.get(0).fault(), 1, Integer::sum);
            for (int r = 0; r < plan.size(); r++)
            {
                final FaultPlan.Round<String> round = plan.get(r);
                assertEquals(r + 1, round.round());
                assertTrue(round.killAt() >= FaultPlan.KILL_FROM && round.killAt() < FaultPlan.KILL_TO,
                    round::toString);
                assertTrue(round.downMs() >= FaultPlan.DOWN_FROM_MS && round.downMs() <= FaultPlan.DOWN_TO_MS,
                    round::toString);
                assertTrue(round.againMs() >= FaultPlan.AGAIN_FROM_MS && round.againMs() <= FaultPlan.AGAIN_TO_MS,
                    round::toString);
                assertTrue(0 == round.victim() || 1 == round.victim(), round::toString);
            }
        }
        assertEquals(FAULTS.size(), firsts.size(), "each kind opens some runs: " + firsts);
    }

    @Test
    void aPlanNeedsFaultsAndRounds()
    {
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.plan(1, 3, List.of()));
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.plan(1, 0, FAULTS));
    }
}
