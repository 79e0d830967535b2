package io.mdhub.p2p.backbone;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Publication;

/**
 * Item closes to the distributors. A close the control stream cannot take now is kept and sent again from
 * housekeeping, in order, after older ones (at most {@code capacity}; beyond that the oldest is given up, counted
 * and logged). A close to a distributor nobody listens for any more is moot (its items end with it); while the
 * backbone is lost, closes wait for it, since the distributor still holds the interest. Owned by the worker's loop.
 */
final class UpstreamCloses
{
    /** The source's log lines keep one logger name, whichever part writes them. */
    private static final Logger LOG = LoggerFactory.getLogger(BackboneItemSource.class);

    private final ControlSender control;
    private final Runnable wake;
    private final int workerIndex;
    private final int capacity;
    private final int perCycle;
    private final PendingCloses pending;
    private long givenUp;

    /**
     * @param wake     wakes the duty cycle, which polls on its timers while closes wait.
     * @param perCycle most pending closes sent by one {@link #sendPending()}.
     */
    UpstreamCloses(
        final ControlSender control, final Runnable wake, final int workerIndex, final int capacity, final int perCycle)
    {
        this.control = control;
        this.wake = wake;
        this.workerIndex = workerIndex;
        this.capacity = capacity;
        this.perCycle = perCycle;
        this.pending = new PendingCloses(capacity);
    }

    /**
     * Tell the distributor nobody here wants an item any more, now or from housekeeping.
     */
    void close(final long distributorEpoch, final int serviceId, final int handle)
    {
        if (!pending.isEmpty() || !send(distributorEpoch, serviceId, handle))
        {
            wake.run();
            if (!pending.add(distributorEpoch, serviceId, handle))
            {
                givenUp++;
                LOG.warn("worker {}: {} item closes wait for the control stream; the oldest was given up ({} so far)",
                    workerIndex, capacity, givenUp);
            }
        }
    }

    /**
     * @return how many kept closes went out (at most {@code perCycle}).
     */
    int sendPending()
    {
        int sent = 0;
        while (!pending.isEmpty() && sent < perCycle && send(pending.epoch(), pending.serviceId(), pending.handle()))
        {
            pending.remove();
            sent++;
        }
        return sent;
    }

    boolean isEmpty()
    {
        return pending.isEmpty();
    }

    /**
     * @return closes given up because too many waited.
     */
    long givenUp()
    {
        return givenUp;
    }

    private boolean send(final long distributorEpoch, final int serviceId, final int handle)
    {
        if (control.isDown())
        {
            return false; // kept until the backbone is back: the distributor still holds the interest
        }
        final long result = control.closeItem(distributorEpoch, serviceId, handle);
        return result > 0 || Publication.NOT_CONNECTED == result || Publication.CLOSED == result;
    }
}
