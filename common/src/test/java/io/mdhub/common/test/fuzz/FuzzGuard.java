package io.mdhub.common.test.fuzz;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import net.jqwik.api.lifecycle.AroundTryHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.TryExecutionResult;
import net.jqwik.api.lifecycle.TryExecutor;
import net.jqwik.api.lifecycle.TryLifecycleContext;

/**
 * The two things a fuzz try must prove beside "no foreign exception": it ends, and it allocates a bounded amount.
 * <ul>
 * <li>A try that runs longer than {@link #TRY_TIMEOUT_MS} is stopped by a watchdog thread and fails with the stack
 * where it was: a decoder loop that never ends is CPU-bound and deaf to interrupts, so the watchdog interrupts first
 * and then stops the thread (the only way to end such a loop inside the JVM; the try's objects are thrown away).</li>
 * <li>A try whose thread allocates more heap than {@link #MAX_TRY_ALLOCATION_BYTES} fails: inputs are a few KiB, so
 * only an allocation sized by a length field read from the input gets there.</li>
 * </ul>
 * Both bounds are generous (a 2-core shared host, GC pauses), so neither can fail a healthy decoder.
 */
public final class FuzzGuard implements AroundTryHook
{
    /** Longest a single try may run (fuzz.tryTimeoutMs). */
    public static final long TRY_TIMEOUT_MS = Long.getLong("fuzz.tryTimeoutMs", 10_000);

    /** Most heap a single try may allocate (fuzz.maxTryAllocationBytes). */
    public static final long MAX_TRY_ALLOCATION_BYTES = Long.getLong("fuzz.maxTryAllocationBytes", 16L << 20);

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r ->
    {
        final Thread thread = new Thread(r, "fuzz-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    private static volatile Thread fuzzThread;
    private static volatile long tryId;
    private static volatile long tryStartNs;
    private static volatile long stoppedTryId;
    private static volatile StackTraceElement[] stoppedAt;

    static
    {
        WATCHDOG.scheduleAtFixedRate(FuzzGuard::watch, 100, 100, TimeUnit.MILLISECONDS);
    }

    @Override
    @SuppressWarnings("checkstyle:IllegalCatch") // the watchdog's ThreadDeath ends a try that never ends
    public TryExecutionResult aroundTry(
        final TryLifecycleContext context, final TryExecutor aTry, final List<Object> parameters)
    {
        final Thread thread = Thread.currentThread();
        final long allocatedBefore = THREADS.getThreadAllocatedBytes(thread.getId());
        stoppedAt = null;
        tryId++;
        tryStartNs = System.nanoTime();
        fuzzThread = thread;
        TryExecutionResult result;
        try
        {
            result = aTry.execute(parameters);
        }
        catch (final ThreadDeath ex)
        {
            result = null; // stopped by the watchdog: reported below with the stack where it was
        }
        finally
        {
            fuzzThread = null;
        }
        Thread.interrupted(); // an interrupt that came as the try ended must not reach the next one

        final StackTraceElement[] stack = stoppedAt;
        if (null != stack || null == result)
        {
            final AssertionError error = new AssertionError("try did not end within " + TRY_TIMEOUT_MS + " ms");
            error.setStackTrace(null == stack ? new StackTraceElement[0] : stack);
            return TryExecutionResult.falsified(error);
        }
        final long allocated = THREADS.getThreadAllocatedBytes(thread.getId()) - allocatedBefore;
        if (result.isSatisfied() && allocated > MAX_TRY_ALLOCATION_BYTES)
        {
            return TryExecutionResult.falsified(new AssertionError("try allocated " + allocated +
                " bytes of heap, bound " + MAX_TRY_ALLOCATION_BYTES));
        }
        return result;
    }

    @Override
    public PropagationMode propagateTo()
    {
        return PropagationMode.ALL_DESCENDANTS; // put on a class, it must reach the tries of its properties
    }

    @Override
    public int aroundTryProximity()
    {
        return -100; // outermost: the time and allocation of every other hook's work count too
    }

    @SuppressWarnings("removal")
    private static void watch()
    {
        final Thread thread = fuzzThread;
        final long id = tryId;
        if (null == thread || System.nanoTime() - tryStartNs < TimeUnit.MILLISECONDS.toNanos(TRY_TIMEOUT_MS))
        {
            return;
        }
        final StackTraceElement[] stack = thread.getStackTrace();
        if (stoppedTryId != id)
        {
            stoppedTryId = id;
            stoppedAt = stack;
            System.err.println("fuzz try over " + TRY_TIMEOUT_MS + " ms, stopping it at " +
                Arrays.toString(Arrays.copyOf(stack, Math.min(stack.length, 12))));
            thread.interrupt();
        }
        else if (thread == fuzzThread && id == tryId)
        {
            thread.stop();
        }
    }
}
