package io.mdhub.common.management;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The liveness of event loops: each is given an empty task and must run it within the timeout. Nothing is
 * scheduled between checks, so a sleeping loop is woken only when someone asks.
 */
public final class LoopLiveness
{
    private LoopLiveness()
    {
    }

    /**
     * @param what      the loops' name in the detail ("worker", "event loop").
     * @param loops     the loops.
     * @param timeoutMs how long each may take.
     * @return a check that is up when every loop ran its task in time.
     */
    public static HealthCheck of(final String what, final List<? extends Executor> loops, final long timeoutMs)
    {
        return () ->
        {
            final long startNs = System.nanoTime();
            long slowestNs = 0;
            for (int i = 0; i < loops.size(); i++)
            {
                final long askedNs = System.nanoTime();
                try
                {
                    CompletableFuture.runAsync(() -> { }, loops.get(i)).get(timeoutMs, TimeUnit.MILLISECONDS);
                }
                catch (final TimeoutException ex)
                {
                    return HealthStatus.down(what + " " + i + " has not run a task in " + timeoutMs + " ms");
                }
                catch (final RejectedExecutionException ex)
                {
                    return HealthStatus.down(what + " " + i + " is shut down");
                }
                slowestNs = Math.max(slowestNs, System.nanoTime() - askedNs);
            }
            return HealthStatus.up(loops.size() + " " + what + (loops.size() == 1 ? "" : "s") + " answered in " +
                TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNs) + " us (slowest " +
                TimeUnit.NANOSECONDS.toMicros(slowestNs) + " us)");
        };
    }
}
