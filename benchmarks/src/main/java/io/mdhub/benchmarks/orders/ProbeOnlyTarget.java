package io.mdhub.benchmarks.orders;

import java.util.Map;

import org.agrona.DirectBuffer;

import io.mdhub.orderprobe.probe.OrderTarget;

/**
 * The order probe's {@code probe-only} target: every order is acknowledged the moment it is submitted, on the
 * publisher's own thread, with no connection, no server and no I/O. What a run against it costs and takes is the
 * probe's own share of every other configuration: the creation thread's timed wake-ups, the hand-off of each order to
 * a parked publisher, the FIX order made and the timestamps kept. Beside the servers' configurations in one
 * {@code bench orders} run it says how much of the host's CPU is left to any order service at a rate. It takes no
 * options.
 */
public final class ProbeOnlyTarget implements OrderTarget
{
    /** The name the probe's {@code --target} selects it by. */
    public static final String NAME = "probe-only";

    private static final Session IMMEDIATE = new Session()
    {
        @Override
        public boolean isReady()
        {
            return true;
        }

        @Override
        public int poll()
        {
            return 0;
        }

        @Override
        public void submit(final long orderId, final DirectBuffer fix, final int offset, final int length)
        {
            // acknowledged at once: the order was made and handed over, which is all the probe itself does
        }

        @Override
        public void close()
        {
            // nothing is held
        }
    };

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Session connect(final int publisher, final long clientId)
    {
        return IMMEDIATE;
    }

    @Override
    public void close()
    {
        // nothing is shared
    }

    /**
     * Makes the target; it takes no options.
     */
    public static final class Factory implements OrderTarget.Factory
    {
        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public OrderTarget create(final Map<String, String> options)
        {
            if (!options.isEmpty())
            {
                throw new IllegalArgumentException("the " + NAME + " target takes no options: " + options.keySet());
            }
            return new ProbeOnlyTarget();
        }
    }
}
