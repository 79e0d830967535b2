package io.mdhub.backbone.protocol;

import java.util.Arrays;

/**
 * Loss detection for one distributor's data stream: every data message of a service carries the service's next
 * sequence number, so a p2p-server notices a gap the moment a later message arrives, and a tail loss when an
 * announcement reports a lastSequence beyond what it has seen. Sequences are the distributor's own, so keep one
 * tracker per distributor (two distributors carrying the same service number their messages independently). Service
 * ids are 16-bit; the state is one flat array indexed by service id that grows to the highest id seen (only when a
 * new, higher id appears: never per message). Not thread safe: the polling thread owns it.
 */
public final class ServiceSequenceTracker
{
    /**
     * {@link #onMessage} result: the message is the next one expected (or the first seen for its service).
     */
    public static final int IN_ORDER = 0;

    /**
     * {@link #onMessage} result: the message is older than one already seen (a duplicate); ignore it.
     */
    public static final int DUPLICATE = -1;

    private static final int SERVICE_ID_LIMIT = 1 << 16;
    private static final int INITIAL_CAPACITY = 64;

    private long[] lastSequence = new long[INITIAL_CAPACITY];

    /**
     * Record a data message's sequence number.
     *
     * @param serviceId the service (0..65535).
     * @param sequence  the message's sequence number (from 1).
     * @return {@link #IN_ORDER}, {@link #DUPLICATE}, or the number of messages missing before this one (positive).
     */
    public long onMessage(final int serviceId, final long sequence)
    {
        if (serviceId >= lastSequence.length)
        {
            grow(serviceId);
        }
        final long last = lastSequence[serviceId];
        if (0 == last || sequence == last + 1)
        {
            lastSequence[serviceId] = sequence;
            return IN_ORDER;
        }
        if (sequence <= last)
        {
            return DUPLICATE;
        }
        lastSequence[serviceId] = sequence;
        return sequence - last - 1;
    }

    /**
     * Compare with the lastSequence an announcement reports.
     *
     * @param serviceId         the service.
     * @param announcedSequence the distributor's last sequence for it.
     * @return how many messages were published that this tracker has not seen (0 when up to date).
     */
    public long missingBefore(final int serviceId, final long announcedSequence)
    {
        final long last = lastSequence(serviceId);
        return 0 == last ? 0 : Math.max(0, announcedSequence - last);
    }

    /**
     * @param serviceId the service.
     * @return the last sequence seen, 0 if none.
     */
    public long lastSequence(final int serviceId)
    {
        return serviceId < lastSequence.length ? lastSequence[serviceId] : 0;
    }

    /**
     * Forget one service (its distributor restarted with a new epoch, or the service went away).
     *
     * @param serviceId the service.
     */
    public void reset(final int serviceId)
    {
        if (serviceId < lastSequence.length)
        {
            lastSequence[serviceId] = 0;
        }
    }

    /**
     * Forget every service.
     */
    public void resetAll()
    {
        Arrays.fill(lastSequence, 0);
    }

    private void grow(final int serviceId)
    {
        if (serviceId < 0 || serviceId >= SERVICE_ID_LIMIT)
        {
            throw new IllegalArgumentException("service id out of range: " + serviceId);
        }
        lastSequence = Arrays.copyOf(lastSequence, Math.min(SERVICE_ID_LIMIT, Integer.highestOneBit(serviceId) << 1));
    }
}
