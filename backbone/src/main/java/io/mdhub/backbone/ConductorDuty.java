package io.mdhub.backbone;

import org.agrona.concurrent.AgentInvoker;

import io.aeron.Aeron;

/**
 * An Aeron client's conductor run from a server loop's duty cycle instead of a thread of its own. The conductor only
 * sends keepalives (every 500 ms), checks the driver's liveness and takes the driver's news of images and counters;
 * a thread of its own would wake for that ten times a second in an idle process, while the loops that poll the
 * backbone tick anyway. A client connected with {@link BackboneAttachment#clientContext} is invoked this way; for any
 * other client (one with its own conductor thread) this does nothing.
 * <p>
 * Several loops of one process may each hold one on the same client: the conductor runs its work under the client's
 * lock, taken with a try-lock, so a loop that finds another one in it goes on at once. Synchronous client calls
 * (adding a publication) drive the conductor themselves and never wait for a loop.
 */
public final class ConductorDuty
{
    /** The conductor runs at most this often from a busy loop; an idle loop runs it at each tick. */
    public static final long INTERVAL_NS = 10_000_000L;

    private final AgentInvoker invoker;
    private long nextNs;

    /**
     * @param aeron the client.
     */
    public ConductorDuty(final Aeron aeron)
    {
        this.invoker = aeron.conductorAgentInvoker();
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
     * Run the conductor if it is due.
     *
     * @param nowNs {@link System#nanoTime()} of the caller's cycle.
     * @return the conductor's work count: images or counters it took news of.
     */
    public int doWork(final long nowNs)
    {
        if (null == invoker || nowNs - nextNs < 0)
        {
            return 0;
        }
        nextNs = nowNs + INTERVAL_NS;
        return invoker.invoke();
    }
}
