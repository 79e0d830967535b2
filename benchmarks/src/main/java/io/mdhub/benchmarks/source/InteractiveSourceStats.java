package io.mdhub.benchmarks.source;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What an {@link InteractiveSource} has done, over every connection. Written by the event loops (request-path
 * counts as they happen, update counts once per pacing tick per connection) and read by any thread.
 */
public final class InteractiveSourceStats
{
    volatile long targetRate;
    final AtomicLong connections = new AtomicLong();
    final AtomicLong connectionsAccepted = new AtomicLong();
    final AtomicLong logins = new AtomicLong();
    final AtomicLong loginsRefused = new AtomicLong();
    final AtomicLong directoryRequests = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final AtomicLong reissues = new AtomicLong();
    final AtomicLong snapshots = new AtomicLong();
    final AtomicLong batchRequests = new AtomicLong();
    final AtomicLong closes = new AtomicLong();
    final AtomicLong openItems = new AtomicLong();
    final AtomicLong refreshesSent = new AtomicLong();
    final AtomicLong updatesSent = new AtomicLong();
    final AtomicLong statusSent = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong ignored = new AtomicLong();
    final AtomicLong writeBackoffs = new AtomicLong();
    final AtomicLong slowConsumerDisconnects = new AtomicLong();
    final AtomicLong badPeerDisconnects = new AtomicLong();

    /**
     * @return the commanded update rate, per connection.
     */
    public long targetRate()
    {
        return targetRate;
    }

    /**
     * @return consumer connections open now (handshake done).
     */
    public long connections()
    {
        return connections.get();
    }

    /**
     * @return consumer connections accepted since the start.
     */
    public long connectionsAccepted()
    {
        return connectionsAccepted.get();
    }

    /**
     * @return consumer logins accepted.
     */
    public long logins()
    {
        return logins.get();
    }

    /**
     * @return logins refused (provider role, malformed).
     */
    public long loginsRefused()
    {
        return loginsRefused.get();
    }

    /**
     * @return source directory requests answered.
     */
    public long directoryRequests()
    {
        return directoryRequests.get();
    }

    /**
     * @return item requests received (new streams, snapshots, reissues and each item of a batch).
     */
    public long requests()
    {
        return requests.get();
    }

    /**
     * @return requests on a stream that was already open (answered by a fresh solicited refresh).
     */
    public long reissues()
    {
        return reissues.get();
    }

    /**
     * @return snapshot (non-streaming) requests answered.
     */
    public long snapshots()
    {
        return snapshots.get();
    }

    /**
     * @return batch requests (each also counts its items in {@link #requests()}).
     */
    public long batchRequests()
    {
        return batchRequests.get();
    }

    /**
     * @return item streams closed by consumers (each stream of a batch close counts).
     */
    public long closes()
    {
        return closes.get();
    }

    /**
     * @return streaming items open now, over every connection.
     */
    public long openItems()
    {
        return openItems.get();
    }

    /**
     * @return item refreshes sent.
     */
    public long refreshesSent()
    {
        return refreshesSent.get();
    }

    /**
     * @return item updates sent.
     */
    public long updatesSent()
    {
        return updatesSent.get();
    }

    /**
     * @return status messages sent (refusals, batch acknowledgements).
     */
    public long statusSent()
    {
        return statusSent.get();
    }

    /**
     * @return requests refused with a Closed status (no name, unknown service, unsupported domain, no login...).
     */
    public long rejected()
    {
        return rejected.get();
    }

    /**
     * @return messages that could not be parsed.
     */
    public long malformed()
    {
        return malformed.get();
    }

    /**
     * @return well-formed messages the source does not act on (posts, generic messages...).
     */
    public long ignored()
    {
        return ignored.get();
    }

    /**
     * @return pacing ticks that stopped early because the connection was not writable.
     */
    public long writeBackoffs()
    {
        return writeBackoffs.get();
    }

    /**
     * @return connections closed because their pending output passed the limit or stayed unwritable too long.
     */
    public long slowConsumerDisconnects()
    {
        return slowConsumerDisconnects.get();
    }

    /**
     * @return connections closed for bad input (unreadable message, failure while handling one).
     */
    public long badPeerDisconnects()
    {
        return badPeerDisconnects.get();
    }

    @Override
    public String toString()
    {
        return "connections=" + connections() + " logins=" + logins() + " requests=" + requests() +
            " reissues=" + reissues() + " snapshots=" + snapshots() + " closes=" + closes() +
            " openItems=" + openItems() + " refreshes=" + refreshesSent() + " updates=" + updatesSent() +
            " status=" + statusSent() + " rejected=" + rejected() + " malformed=" + malformed() +
            " backoffs=" + writeBackoffs() + " slowDisconnects=" + slowConsumerDisconnects() +
            " badPeerDisconnects=" + badPeerDisconnects();
    }
}
