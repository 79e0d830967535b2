package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The first event is logged at once; later ones at most once per interval, each line standing for every event since
 * the last one.
 */
@InterruptAfter(10)
class LogIntervalTest
{
    @Test
    void aLineIsDueOncePerIntervalAndCountsTheEventsSinceTheLast()
    {
        final LogInterval log = new LogInterval(1_000);
        assertEquals(1, log.onEvent(-5_000), "the first event, whatever the clock reads");
        assertEquals(0, log.onEvent(-4_500));
        assertEquals(0, log.onEvent(-4_000), "exactly one interval later: not yet");
        assertEquals(3, log.onEvent(-3_999), "the two held back and this one");
        assertEquals(0, log.onEvent(-3_000));
        assertEquals(2, log.onEvent(10_000));
    }
}
