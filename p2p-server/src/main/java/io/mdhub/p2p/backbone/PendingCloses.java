package io.mdhub.p2p.backbone;

/**
 * Item closes the control stream could not take (back-pressured past the bounded retries), kept to be sent again on
 * the next housekeeping cycle so that a distributor does not keep a sink-driven item open upstream for nobody.
 * A bounded ring of (distributor epoch, service id, item handle): when it is full the oldest close is given up
 * (the caller counts and logs it), never the source's memory.
 */
final class PendingCloses
{
    private final long[] epochs;
    private final long[] serviceAndHandle;
    private int head;
    private int size;

    /**
     * @param capacity most closes kept.
     */
    PendingCloses(final int capacity)
    {
        epochs = new long[capacity];
        serviceAndHandle = new long[capacity];
    }

    /**
     * @param epoch     the epoch of the distributor whose handle is closed.
     * @param serviceId the service.
     * @param handle    the item handle.
     * @return false when the ring was full and the oldest close was given up to make room.
     */
    boolean add(final long epoch, final int serviceId, final int handle)
    {
        final boolean hadRoom = size < epochs.length;
        if (!hadRoom)
        {
            head = (head + 1) % epochs.length;
            size--;
        }
        final int tail = (head + size) % epochs.length;
        epochs[tail] = epoch;
        serviceAndHandle[tail] = ((long)serviceId << 32) | (handle & 0xFFFF_FFFFL);
        size++;
        return hadRoom;
    }

    boolean isEmpty()
    {
        return 0 == size;
    }

    int size()
    {
        return size;
    }

    long epoch()
    {
        return epochs[head];
    }

    int serviceId()
    {
        return (int)(serviceAndHandle[head] >>> 32);
    }

    int handle()
    {
        return (int)serviceAndHandle[head];
    }

    /**
     * Forget the oldest close (sent, or no longer worth sending).
     */
    void remove()
    {
        head = (head + 1) % epochs.length;
        size--;
    }
}
