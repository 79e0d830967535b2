package io.mdhub.common.test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

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

    /** Ports handed out lie below Linux's ephemeral range (32768 up), which outgoing connections take from. */
    private static final int FIRST_PORT = 20_000;
    private static final int PORTS = 12_000;
    private static final AtomicInteger NEXT_PORT =
        new AtomicInteger((int)(ProcessHandle.current().pid() * 7919 % PORTS));

    /**
     * A port for a test's listener that was free a moment ago. Ports come from below the kernel's ephemeral range:
     * a port from that range (as {@code new ServerSocket(0)} gives) can be taken, between the check and the
     * listener's bind, by any outgoing connection of the test itself — the order path's clients and peers connect
     * from ephemeral ports.
     *
     * @return a TCP port on 127.0.0.1 that was free a moment ago.
     */
    public static int unusedPort()
    {
        for (int attempt = 0; attempt < PORTS; attempt++)
        {
            final int port = FIRST_PORT + Math.floorMod(NEXT_PORT.getAndIncrement(), PORTS);
            try (ServerSocket socket = new ServerSocket())
            {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                return port;
            }
            catch (final IOException ex)
            {
                // taken: try the next
            }
        }
        throw new IllegalStateException("no free port in " + FIRST_PORT + ".." + (FIRST_PORT + PORTS - 1));
    }
}
