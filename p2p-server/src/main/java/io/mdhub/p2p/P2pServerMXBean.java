package io.mdhub.p2p;

/**
 * Management of a running p2p-server over JMX ({@code io.mdhub:type=P2pServer,name=<component>}).
 */
public interface P2pServerMXBean
{
    /**
     * @return consumer connections open now.
     */
    int getConnectionCount();

    /**
     * @return distinct items open on the item sources of all workers.
     */
    long getItemsOpen();

    /**
     * @return consumer item streams open now.
     */
    long getWatchlistEntries();

    /**
     * @return one line per service the consumers have opened items of: id, name, items open now, updates received
     * (summed over the workers) and the update rate since the previous call of this method (per second; the first call
     * gives the rate since the server started). Micrometer exports the same counters, with rates, over JMX.
     */
    String[] getServices();

    /**
     * @return one line per connection: worker, id, remote address, user, watchlist size, pending output bytes and
     * writability.
     */
    String[] getConnections();

    /**
     * @return direct memory held by the consumer connections' buffer pool (chunks in use or cached), in bytes.
     */
    long getOutputPoolBytes();

    /**
     * Disconnect a consumer (counted as an admin drop).
     *
     * @param connectionId the {@code id=} of a line of {@link #getConnections()}.
     * @return true if the connection existed.
     */
    boolean dropConnection(long connectionId);
}
