package io.mdhub.backbone;

import java.util.function.BooleanSupplier;

import org.agrona.concurrent.AgentInvoker;

import io.aeron.Aeron;

/**
 * An Aeron client's conductor run from a server loop's duty cycle instead of a thread of its own. The conductor only
 * sends keepalives (every 500 ms), checks the driver's liveness and takes the driver's news of images and counters;
 * a thread of its own would wake for that ten times a second in an idle process, while the loops that poll the
 * backbone tick anyway. A client connected with {@link BackboneAttachment#clientContext} is invoked this way; for any
 * other client (one with its own conductor thread) this does nothing.
 * <p>
 * Several loops of one process may each hold one on the same client; they run the conductor one at a time (a client
 * that is closing itself, after a driver timeout, must not be closed by two of them at once). Synchronous client calls
 * (adding a publication) drive the conductor themselves and never wait for a loop.
 * <p>
 * The client lives only while a loop runs this: a loop calls it first in its cycle, so that nothing the cycle does
 * after it can keep it from running, and a loop that holds one ticks well within the driver's client liveness
 * timeout (10 s by default): its settings are held to {@link #MAX_LOOP_PERIOD_NS}.
 */
public final class ConductorDuty
{
    /** The conductor runs at most this often from a busy loop; an idle loop runs it at each tick. */
    public static final long INTERVAL_NS = 10_000_000L;
    /**
     * The longest a loop that holds one may go without a cycle while idle (its tick or longest idle delay): a tenth of
     * the driver's default client liveness timeout.
     */
    public static final long MAX_LOOP_PERIOD_NS = 1_000_000_000L;

    private final AgentInvoker invoker;
    private final BooleanSupplier isUsable;
    private long nextNs;

    /**
     * @param aeron the client.
     */
    public ConductorDuty(final Aeron aeron)
    {
        this(aeron, () -> true);
    }

    /**
     * @param aeron    the client.
     * @param isUsable asked under the lock the loops share, just before the conductor runs: false skips it. A
     *                 conductor that hit a fatal error (the driver timed out) closes its client, and unmaps its
     *                 memory, the next time it runs; while other loops still use that memory it must not run again
     *                 (see {@link BackboneLink}).
     */
    public ConductorDuty(final Aeron aeron, final BooleanSupplier isUsable)
    {
        this.invoker = aeron.conductorAgentInvoker();
        this.isUsable = isUsable;
        this.nextNs = System.nanoTime();
    }

    /**
     * @return true when the client's conductor is run by the loops holding this, false when it has its own thread.
     */
    public boolean isInvoked()
    {
        return null != invoker;
    }

    /**
     * Run the conductor if it is due. What it finds (a new image, a new counter) reaches the loop through the client's
     * handlers, which wake it, so the caller need not count it as its own work: a keepalive sent is no reason for a
     * polling loop to start its back-off again.
     *
     * @param nowNs {@link System#nanoTime()} of the caller's cycle.
     * @return true when the conductor ran.
     */
    public boolean doWork(final long nowNs)
    {
        if (null == invoker || nowNs - nextNs < 0)
        {
            return false;
        }
        nextNs = nowNs + INTERVAL_NS;
        synchronized (invoker)
        {
            if (!isUsable.getAsBoolean())
            {
                return false;
            }
            invoker.invoke();
        }
        return true;
    }
}
