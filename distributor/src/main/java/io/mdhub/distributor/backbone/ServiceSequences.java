package io.mdhub.distributor.backbone;

/**
 * The per-service sequence numbers of the data stream: every data message of a service (refresh, update, status)
 * takes the service's next number, from 1, so p2p-servers see loss as a gap, or as an announcement whose
 * {@code lastSequence} is ahead of what they received. Indexed by service id (backbone service ids are 16 bits), so
 * the hot path is one array access. Also remembers that an announcement is due early (a service changed, or a live
 * message was lost to back-pressure), so the news reaches p2p-servers before the next regular interval.
 * Owned by the distributor's event loop.
 */
final class ServiceSequences
{
    private static final int SERVICE_ID_COUNT = 0x1_0000;

    private final long[] lastSequence = new long[SERVICE_ID_COUNT];
    private boolean isAnnouncementDue;

    /**
     * Take the next number for a message that is published once, whatever happens (live data): if it is lost, the
     * gap must be visible.
     */
    long advance(final int serviceId)
    {
        return ++lastSequence[serviceId & 0xFFFF];
    }

    /**
     * @return the number the next message would take, without taking it (answers that are retried until sent).
     */
    long peekNext(final int serviceId)
    {
        return lastSequence[serviceId & 0xFFFF] + 1;
    }

    /**
     * A message numbered by {@link #peekNext(int)} was published.
     */
    void commit(final int serviceId, final long sequence)
    {
        lastSequence[serviceId & 0xFFFF] = sequence;
    }

    /**
     * @return the sequence of the service's last data message, 0 if none.
     */
    long last(final int serviceId)
    {
        return lastSequence[serviceId & 0xFFFF];
    }

    void announcementDue()
    {
        isAnnouncementDue = true;
    }

    boolean isAnnouncementDue()
    {
        return isAnnouncementDue;
    }

    void announced()
    {
        isAnnouncementDue = false;
    }
}
