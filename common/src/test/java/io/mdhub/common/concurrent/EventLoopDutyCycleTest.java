package io.mdhub.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;

@InterruptAfter(10)
class EventLoopDutyCycleTest
{
    @Test
    void runsOnTheLoopAgainAtOnceWhileBusyAndStopsWhenClosed() throws InterruptedException
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            final AtomicInteger cycles = new AtomicInteger();
            final AtomicReference<Thread> thread = new AtomicReference<>();
            final int[] pending = {1000};
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                thread.set(Thread.currentThread());
                cycles.incrementAndGet();
                if (pending[0] > 0)
                {
                    pending[0]--;
                    return 1;
                }
                return 0;
            }, 1_000, 1_000_000).start();

            MdTests.await("the busy work to drain", () -> cycles.get() > 1000);
            assertTrue(loop.inEventLoop(thread.get()), "work runs on the event loop");
            cycle.close();
            final int stoppedAt = cycles.get();
            loop.submit(() -> null).sync();
            assertTrue(cycles.get() <= stoppedAt + 1, "at most the cycle in flight ran after close");
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void busyPollingCyclesWithoutTimersAndStillRunsTheLoopsOtherTasks() throws InterruptedException
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            final AtomicInteger idleCycles = new AtomicInteger();
            // timer mode with these bounds would manage about one idle cycle a second
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                idleCycles.incrementAndGet();
                return 0;
            }, 1_000_000_000L, 1_000_000_000L, IdleStrategies.parse("yield")).start();

            MdTests.await("idle cycles back to back", () -> idleCycles.get() > 10_000);
            final AtomicInteger otherTasks = new AtomicInteger();
            for (int i = 0; i < 100; i++)
            {
                loop.execute(otherTasks::incrementAndGet);
            }
            MdTests.await("the loop's other tasks to run between cycles", () -> 100 == otherTasks.get());
            cycle.close();
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void busyPollingRefusesAStrategyThatSleeps()
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            assertThrows(IllegalArgumentException.class, () -> new EventLoopDutyCycle(
                loop, (n) -> 0, 10, 10, IdleStrategies.parse("backoff")));
            assertThrows(IllegalArgumentException.class, () -> new EventLoopDutyCycle(
                loop, (n) -> 0, 10, 10, IdleStrategies.parse("sleep-ns")));
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void rejectsBadIdleBounds()
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            assertThrows(IllegalArgumentException.class, () -> new EventLoopDutyCycle(loop, (n) -> 0, -1, 10));
            assertThrows(IllegalArgumentException.class, () -> new EventLoopDutyCycle(loop, (n) -> 0, 0, 0));
            assertThrows(IllegalArgumentException.class, () -> new EventLoopDutyCycle(loop, (n) -> 0, 10, 5));
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void tickingRunsAgainAtOnceWhileBusyThenOnItsPeriodAndStopsWhenClosed() throws InterruptedException
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            final AtomicInteger cycles = new AtomicInteger();
            final int[] pending = {1000};
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                cycles.incrementAndGet();
                if (pending[0] > 0)
                {
                    pending[0]--;
                    return 1;
                }
                return 0;
            }, 0, 20_000_000L).start();

            // a thousand busy cycles at once: far fewer than a thousand 20 ms periods
            MdTests.await("the busy work to drain", () -> cycles.get() > 1000);
            final int drainedAt = cycles.get();
            Thread.sleep(200);
            final int idleCycles = cycles.get() - drainedAt;
            assertTrue(idleCycles >= 3 && idleCycles <= 15, "idle cycles in 200 ms at a 20 ms period: " + idleCycles);
            cycle.close();
            loop.submit(() -> null).sync();
            final int closedAt = cycles.get();
            Thread.sleep(60);
            assertEquals(closedAt, cycles.get(), "no tick after close");
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void aCycleHeldUpByTheLoopCountsAsLate() throws Exception
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            assertThrows(IllegalArgumentException.class,
                () -> new EventLoopDutyCycle(loop, (now) -> 0, 0, 5_000_000L).warnWhenLate("test", 5_000_000L));
            final AtomicInteger cycles = new AtomicInteger();
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                cycles.incrementAndGet();
                return 0;
            }, 0, 5_000_000L).warnWhenLate("test", 200_000_000L).start();
            MdTests.await("a few ticks", () -> cycles.get() > 5);
            assertEquals(0L, loop.submit(cycle::lateCycles).get(), "ticks on time");

            loop.execute(() -> LockSupport.parkNanos(400_000_000L)); // the loop busy for 0.4 s
            final int before = cycles.get();
            MdTests.await("a tick after the hold-up", () -> cycles.get() > before + 1);
            assertEquals(1L, loop.submit(cycle::lateCycles).get(), "the first tick after the hold-up");
            cycle.close();
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void aWakingCycleThatMayBlockPollsOnceMoreThenLeavesTheLoopAloneUntilWoken() throws Exception
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            final AtomicInteger cycles = new AtomicInteger();
            final AtomicInteger pending = new AtomicInteger(5);
            final FakeSleep sleep = new FakeSleep();
            final long hourNs = java.util.concurrent.TimeUnit.HOURS.toNanos(1);
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                cycles.incrementAndGet();
                return pending.getAndUpdate((p) -> Math.max(0, p - 1)) > 0 ? 1 : 0;
            }, hourNs, hourNs, sleep, hourNs).start();

            // five cycles with work, one that found nothing, and the poll after saying it sleeps
            MdTests.await("the burst drained and the loop asleep", () -> sleep.isAsleep && 7 == cycles.get());
            for (int i = 0; i < 10; i++)
            {
                loop.submit(() -> null).sync(); // the loop runs other tasks; no cycle is queued or due
            }
            assertEquals(7, cycles.get(), "nothing runs the cycle while the loop sleeps");
            assertEquals(1, sleep.asleepCalls);

            pending.set(1);
            loop.execute(cycle); // a ring: the waker runs the cycle on the loop
            MdTests.await("the woken cycle to drain and sleep again", () -> sleep.isAsleep && 10 == cycles.get());
            assertEquals(2, sleep.asleepCalls);

            sleep.mayBlock = false; // e.g. a publisher it cannot count on: back off on timers instead
            loop.execute(cycle);
            MdTests.await("one cycle", () -> 11 == cycles.get());
            loop.submit(() -> null).sync();
            assertEquals(2, sleep.asleepCalls, "it did not say it sleeps when it may not block");
            assertFalse(sleep.isAsleep);
            cycle.close();
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void aMessageThatArrivesAsTheCycleSaysItSleepsIsFoundByTheLastPoll() throws Exception
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            final AtomicInteger found = new AtomicInteger();
            final AtomicInteger inbox = new AtomicInteger();
            final FakeSleep sleep = new FakeSleep()
            {
                @Override
                public void asleep()
                {
                    if (0 == asleepCalls)
                    {
                        inbox.incrementAndGet(); // published between the idle poll and the flag: no ring will come
                    }
                    super.asleep();
                }
            };
            final long hourNs = java.util.concurrent.TimeUnit.HOURS.toNanos(1);
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                final int n = inbox.getAndSet(0);
                found.addAndGet(n);
                return n;
            }, hourNs, hourNs, sleep, hourNs);
            cycle.start();
            MdTests.await("the message found without a ring or a timer", () -> 1 == found.get());
            MdTests.await("and the loop asleep after it", () -> sleep.isAsleep && 2 == sleep.asleepCalls);
            cycle.close();
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void runsStartedByTicksAndWakersNeverMultiplyWhileTheCycleMayNotBlock() throws Exception
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            final AtomicInteger cycles = new AtomicInteger();
            final FakeSleep sleep = new FakeSleep();
            sleep.mayBlock = false; // e.g. requests queued for a stream with no subscriber: polls on its timers
            final long msNs = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1);
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                cycles.incrementAndGet();
                return 0;
            }, msNs, msNs, sleep, java.util.concurrent.TimeUnit.HOURS.toNanos(1)).start();
            MdTests.await("the first cycle", () -> cycles.get() >= 1);
            for (int i = 0; i < 1000; i++)
            {
                loop.execute(cycle); // rings, image changes, ticks: each starts a run
                cycle.wake();
            }
            loop.submit(() -> null).sync();
            final int afterWakes = cycles.get();
            Thread.sleep(100);
            // one backoff chain runs about once a millisecond; a chain per start would run 2,000 times a millisecond
            final int inTheWindow = cycles.get() - afterWakes;
            assertTrue(inTheWindow < 2_000, "one timer chain, not one per start: " + inTheWindow + " runs in 100 ms");
            cycle.close();
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void aCycleWhoseWorkThrowsGoesOnAndNeitherSleepsNorStops() throws Exception
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            final AtomicInteger cycles = new AtomicInteger();
            final FakeSleep sleep = new FakeSleep();
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                if (cycles.incrementAndGet() <= 3)
                {
                    throw new IllegalStateException("a bug in the work");
                }
                return 0;
            }, 1_000, 1_000_000, sleep, java.util.concurrent.TimeUnit.HOURS.toNanos(1)).start();
            MdTests.await("the cycle to get past the failures and sleep", () -> sleep.isAsleep);
            assertEquals(3L, loop.submit(cycle::failures).get());
            cycle.close();
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void theTickRunsASleepingCycle() throws Exception
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            final AtomicInteger cycles = new AtomicInteger();
            final FakeSleep sleep = new FakeSleep();
            final long hourNs = java.util.concurrent.TimeUnit.HOURS.toNanos(1);
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                cycles.incrementAndGet();
                return 0;
            }, hourNs, hourNs, sleep, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(5)).start();
            MdTests.await("ticks after the first sleep", () -> sleep.asleepCalls >= 5);
            cycle.close();
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }

    @Test
    void aWakingCycleNeedsASleepAndATick()
    {
        final DefaultEventLoop loop = new DefaultEventLoop();
        try
        {
            assertThrows(IllegalArgumentException.class,
                () -> new EventLoopDutyCycle(loop, (n) -> 0, 10, 10, (EventLoopDutyCycle.Sleep)null, 10));
            assertThrows(IllegalArgumentException.class,
                () -> new EventLoopDutyCycle(loop, (n) -> 0, 10, 10, new FakeSleep(), 0));
            assertThrows(IllegalArgumentException.class, () -> new EventLoopDutyCycle(
                loop, (n) -> 0, 10, 10, new FakeSleep(), 5_000_000L).warnWhenLate("test", 5_000_000L),
                "late means later than the tick");
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A sleep whose flag is a field; may block unless told otherwise.
     */
    private static class FakeSleep implements EventLoopDutyCycle.Sleep
    {
        volatile boolean mayBlock = true;
        volatile boolean isAsleep;
        volatile int asleepCalls;

        @Override
        public boolean mayBlock()
        {
            return mayBlock;
        }

        @Override
        public void asleep()
        {
            isAsleep = true;
            asleepCalls++;
        }

        @Override
        public void awake()
        {
            isAsleep = false;
        }
    }

    @Test
    void tickingAllocatesNothingPerIdleCycleWhereBackingOffDoes() throws InterruptedException
    {
        final long backingOff = bytesPerIdleCycle(1_000);
        final long ticking = bytesPerIdleCycle(0);
        assertTrue(backingOff >= 16, "a backoff step schedules a new timer task: " + backingOff + " bytes a cycle");
        assertTrue(ticking < backingOff / 4, "ticking: " + ticking + " bytes a cycle, backing off: " + backingOff);
    }

    /**
     * Idle cycles at a 1 ms period on an epoll event loop (whose own loop allocates nothing), measured by the JVM's
     * per-thread allocation counter over the cycles after a warm-up.
     */
    private static long bytesPerIdleCycle(final long minIdleNs) throws InterruptedException
    {
        assumeTrue(Epoll.isAvailable(), "needs the native epoll transport");
        final EpollEventLoopGroup group = new EpollEventLoopGroup(1);
        try
        {
            final EventLoop loop = group.next();
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final AtomicLong threadId = new AtomicLong();
            final AtomicInteger cycles = new AtomicInteger();
            final AtomicLong bytesAtWarm = new AtomicLong(-1);
            final AtomicLong bytesAtEnd = new AtomicLong(-1);
            final int warmCycles = 200;
            final int measuredCycles = 200;
            final EventLoopDutyCycle cycle = new EventLoopDutyCycle(loop, (now) ->
            {
                final int n = cycles.incrementAndGet();
                if (warmCycles == n)
                {
                    threadId.set(Thread.currentThread().getId());
                    bytesAtWarm.set(threads.getThreadAllocatedBytes(threadId.get()));
                }
                else if (warmCycles + measuredCycles == n)
                {
                    bytesAtEnd.set(threads.getThreadAllocatedBytes(threadId.get()));
                }
                return 0;
            }, minIdleNs, 1_000_000L).start();
            MdTests.await("idle cycles", () -> bytesAtEnd.get() >= 0);
            cycle.close();
            return (bytesAtEnd.get() - bytesAtWarm.get()) / measuredCycles;
        }
        finally
        {
            group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).sync();
        }
    }
}
