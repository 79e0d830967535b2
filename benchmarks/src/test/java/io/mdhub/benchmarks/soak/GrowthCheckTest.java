package io.mdhub.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(30)
class GrowthCheckTest
{
    private static final long MB = 1024 * 1024;
    private final GrowthCheck check = new GrowthCheck(0.10, 16 * MB, 0.1);

    @Test
    void aLeakOfOneMegabyteAMinuteGrows()
    {
        final List<Long> samples = new ArrayList<>();
        for (int minute = 0; minute < 60; minute++)
        {
            samples.add(200 * MB + minute * MB);
        }
        final GrowthCheck.Verdict verdict = check.check(samples);
        assertTrue(verdict.grows(), verdict::toString);
        assertEquals(1.0, verdict.perSample() / MB, 1e-9);
    }

    @Test
    void aRiseThatStopsAfterWarmUpAndNoiseAroundALevelPass()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final List<Long> samples = new ArrayList<>();
        for (int minute = 0; minute < 60; minute++)
        {
            final long level = minute < 5 ? 100 * MB + minute * 40 * MB : 300 * MB;
            samples.add(level + random.nextLong(-8 * MB, 8 * MB));
        }
        assertFalse(check.check(samples).grows(), () -> check.check(samples).toString());
    }

    @Test
    void aStepThatStaysFlatPassesButADescriptorLostEveryMinuteGrows()
    {
        final GrowthCheck descriptors = new GrowthCheck(0.10, 16, 0.1);
        final List<Long> samples = new ArrayList<>();
        final List<Long> leaking = new ArrayList<>();
        for (int minute = 0; minute < 60; minute++)
        {
            samples.add(minute < 30 ? 120L : 140L);
            leaking.add(120L + minute);
        }
        assertFalse(descriptors.check(samples).grows(), () -> descriptors.check(samples).toString());
        assertTrue(descriptors.check(leaking).grows(), () -> descriptors.check(leaking).toString());
    }

    @Test
    void tooShortASeriesHasNoVerdict()
    {
        assertThrows(IllegalArgumentException.class,
            () -> check.check(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L)));
    }
}
