package io.mdhub.benchmarks.peers;

/**
 * Loss and order of one publisher's updates as a subscriber sees them: the peers keep a connection's order, so every
 * update after the first should carry the sequence after the last one's. A jump counts the skipped updates as lost
 * (Redis and NATS drop for a slow subscriber); a sequence at or below the last counts as out of order. Single-threaded
 * writer (the client library's delivery thread); the totals are read from another thread.
 */
final class SequenceCheck
{
    private long last;
    private volatile long received;
    private volatile long lost;
    private volatile long outOfOrder;

    /**
     * @param sequence the update's sequence number (from 1).
     */
    void onUpdate(final long sequence)
    {
        if (0 != last)
        {
            if (sequence > last + 1)
            {
                lost += sequence - last - 1;
            }
            else if (sequence <= last)
            {
                outOfOrder++;
                received++;
                return;
            }
        }
        last = sequence;
        received++;
    }

    /**
     * @return updates received.
     */
    long received()
    {
        return received;
    }

    /**
     * @return updates skipped, so far.
     */
    long lost()
    {
        return lost;
    }

    /**
     * @return updates that came at or below the last sequence seen.
     */
    long outOfOrder()
    {
        return outOfOrder;
    }
}
