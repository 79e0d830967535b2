package io.mdhub.common.test;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.mdhub.common.net.LocalPorts;

/**
 * Interrupt-aware waits for tests. None has its own timeout: the test's {@link InterruptAfter} deadline interrupts
 * the thread and the wait fails with a {@link TimeoutException} that says what it was waiting for.
 */
public final class MdTests
{
    private static final long PARK_NS = 100_000L;

    private MdTests()
    {
    }

    /**
     * Wait until the condition holds.
     *
     * @param what      what is awaited, for the failure message.
     * @param condition the condition to poll.
     */
    public static void await(final String what, final BooleanSupplier condition)
    {
        await(() -> what, condition);
    }

    /**
     * Wait until the condition holds, describing the state lazily on failure.
     *
     * @param what      supplier of the failure message, called only on timeout.
     * @param condition the condition to poll.
     */
    public static void await(final Supplier<String> what, final BooleanSupplier condition)
    {
        while (!condition.getAsBoolean())
        {
            idle(what);
        }
    }

    /**
     * Back off briefly, failing if the thread was interrupted by the test deadline.
     *
     * @param what supplier of the failure message.
     */
    public static void idle(final Supplier<String> what)
    {
        if (Thread.interrupted())
        {
            throw new AssertionError("timed out waiting for: " + what.get(), new TimeoutException());
        }
        LockSupport.parkNanos(PARK_NS);
    }

    /**
     * Check the interrupt flag inside a hand-written wait loop.
     *
     * @param what what the loop waits for.
     */
    public static void checkInterrupted(final String what)
    {
        if (Thread.interrupted())
        {
            throw new AssertionError("timed out waiting for: " + what, new TimeoutException());
        }
    }

    /**
     * A port for a test's listener that was free a moment ago, from below the kernel's ephemeral range (see
     * {@link LocalPorts}): the order path's clients and peers connect from ephemeral ports.
     *
     * @return a TCP port on 127.0.0.1 that was free a moment ago.
     */
    public static int unusedPort()
    {
        return LocalPorts.unused();
    }
}
