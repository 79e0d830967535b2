package io.mdhub.common.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;

/**
 * A reason's code is its position and its label its lower-case name with dashes, made once per enum type.
 */
@InterruptAfter(10)
class CounterReasonTest
{
    enum Sample implements CounterReason
    {
        FIRST,
        SLOW_CONSUMER,
        TOO_MANY_ITEMS_2
    }

    private static final Sample[] SAMPLES = Sample.values();

    @Test
    void codesArePositionsAndLabelsAreDashedLowerCaseNames()
    {
        assertEquals(0, Sample.FIRST.code());
        assertEquals(2, Sample.TOO_MANY_ITEMS_2.code());
        assertEquals("first", Sample.FIRST.label());
        assertEquals("slow-consumer", Sample.SLOW_CONSUMER.label());
        assertEquals("too-many-items-2", Sample.TOO_MANY_ITEMS_2.label());
    }

    @Test
    void aLabelIsMadeOnceAndCostsNoAllocation()
    {
        assertSame(Sample.SLOW_CONSUMER.label(), Sample.SLOW_CONSUMER.label());
        assertEquals(0, Allocations.leastAllocatedBytes(() ->
        {
            long sum = 0;
            for (int i = 0; i < 1_000; i++)
            {
                sum += SAMPLES[i % SAMPLES.length].label().length();
            }
            return sum;
        }, 20));
    }
}
