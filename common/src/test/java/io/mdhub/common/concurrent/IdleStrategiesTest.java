package io.mdhub.common.concurrent;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mdhub.common.net.SocketIdleStrategy;
import io.mdhub.common.test.InterruptAfter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(10)
class IdleStrategiesTest
{
    @Test
    void parsesEveryAlias()
    {
        assertInstanceOf(NoOpIdleStrategy.class, IdleStrategies.parse("noop"));
        assertInstanceOf(BusySpinIdleStrategy.class, IdleStrategies.parse("spin"));
        assertInstanceOf(YieldingIdleStrategy.class, IdleStrategies.parse(" YIELD "));
        assertInstanceOf(SleepingIdleStrategy.class, IdleStrategies.parse("sleep-ns"));
        assertInstanceOf(SleepingMillisIdleStrategy.class, IdleStrategies.parse("sleep-ms"));
        assertInstanceOf(BackoffIdleStrategy.class, IdleStrategies.parse("backoff"));
        assertInstanceOf(SocketIdleStrategy.class, IdleStrategies.parse("socket"));
    }

    @Test
    void passesParameters()
    {
        assertTrue(IdleStrategies.parse("sleep-ns:100_000").toString().contains("sleepPeriodNs=100000"));
        assertTrue(IdleStrategies.parse("sleep-ms:5").toString().contains("sleepPeriodMs=5"));
        final String backoff = IdleStrategies.parse("backoff:1,2,3000,4000").toString();
        assertTrue(backoff.contains("maxSpins=1"), backoff);
        assertTrue(backoff.contains("maxYields=2"), backoff);
        assertTrue(backoff.contains("minParkPeriodNs=3000"), backoff);
        assertTrue(backoff.contains("maxParkPeriodNs=4000"), backoff);
        assertTrue(IdleStrategies.parse("socket").toString().contains("maxSpins=0, maxWaitMs=100"));
        assertTrue(IdleStrategies.parse("socket:5,7").toString().contains("maxSpins=5, maxWaitMs=7"));
    }

    @Test
    void instantiatesClassNames()
    {
        assertInstanceOf(SleepingMillisIdleStrategy.class,
            IdleStrategies.parse(SleepingMillisIdleStrategy.class.getName()));
    }

    @Test
    void returnsFreshStatefulInstances()
    {
        assertNotSame(IdleStrategies.parse("backoff"), IdleStrategies.parse("backoff"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", " ", "bogus", "noop:1", "sleep-ns:0", "sleep-ms:-1", "sleep-ns:1,2", "sleep-ns:x",
        "backoff:1,2", "backoff:1,2,3000,100", "backoff:1,2,0,100", "java.lang.String", "nosuch.Strategy",
        "bogus:1", "doorbell",
        "socket:1", "socket:0,0", "socket:-1,5" })
    void rejectsMalformedSpecifications(final String spec)
    {
        assertThrows(IllegalArgumentException.class, () -> IdleStrategies.parse(spec));
    }

    @Test
    void classifiesBusySpinning()
    {
        assertTrue(IdleStrategies.isBusySpinning(IdleStrategies.parse("noop")));
        assertTrue(IdleStrategies.isBusySpinning(IdleStrategies.parse("spin")));
        assertTrue(IdleStrategies.isBusySpinning(IdleStrategies.parse("yield")));
        assertFalse(IdleStrategies.isBusySpinning(IdleStrategies.parse("backoff")));
        assertFalse(IdleStrategies.isBusySpinning(IdleStrategies.parse("sleep-ns")));
        assertFalse(IdleStrategies.isBusySpinning(IdleStrategies.parse("sleep-ms")));
        assertFalse(IdleStrategies.isBusySpinning(IdleStrategies.parse("socket")));
        final IdleStrategy custom = new IdleStrategy()
        {
            public void idle(final int workCount)
            {
            }

            public void idle()
            {
            }

            public void reset()
            {
            }
        };
        assertTrue(IdleStrategies.isBusySpinning(custom));
    }

    @Test
    void budgetAllowsSpinnersUpToReservedCores()
    {
        final SpinBudget budget = new SpinBudget("test", 1)
            .add("a", IdleStrategies.parse("spin"))
            .add("b", IdleStrategies.parse("backoff"))
            .add("c", IdleStrategies.parse("sleep-ms"));
        assertEquals(1, budget.spinningAgentCount());
        budget.check();
    }

    @Test
    void budgetFailsWhenMoreAgentsSpinThanCores()
    {
        final SpinBudget budget = new SpinBudget("test", 1)
            .add("sender", IdleStrategies.parse("noop"))
            .add("receiver", IdleStrategies.parse("yield"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, budget::check);
        assertTrue(ex.getMessage().contains("sender=NoOpIdleStrategy"), ex.getMessage());
        assertTrue(ex.getMessage().contains("mdhub.spin.cores=1"), ex.getMessage());
    }

    @Test
    void defaultBudgetForbidsSpinning()
    {
        assertEquals(0, IdleConfiguration.SPIN_CORES_DEFAULT);
        final SpinBudget budget = new SpinBudget("test", IdleConfiguration.SPIN_CORES_DEFAULT)
            .add("agent", IdleStrategies.parse(IdleConfiguration.IDLE_STRATEGY_DEFAULT));
        budget.check();
        budget.add("spinner", IdleStrategies.parse("spin"));
        assertThrows(IllegalArgumentException.class, budget::check);
        assertThrows(IllegalArgumentException.class, () -> new SpinBudget("test", -1));
    }
}
