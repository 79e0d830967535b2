package io.mdhub.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.netty.channel.DefaultEventLoop;

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
            assertThrows(IllegalArgumentException.class, () -> new EventLoopDutyCycle(loop, (n) -> 0, 0, 10));
            assertThrows(IllegalArgumentException.class, () -> new EventLoopDutyCycle(loop, (n) -> 0, 10, 5));
        }
        finally
        {
            loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }
}
