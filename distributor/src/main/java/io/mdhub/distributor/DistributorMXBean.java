package io.mdhub.distributor;

/**
 * JMX view and control of a distributor ({@code io.mdhub:type=Distributor,name=<component>}). Every call runs on the
 * distributor's event loop (the only thread that touches its state) and waits for it, at most a few seconds.
 */
public interface DistributorMXBean
{
    /**
     * @return one line per service: id, name, state, accepting requests, providers, cached items, sink-driven (served
     * by mounted interactive providers), caching.
     */
    String[] getServices();

    /**
     * @return one line per provider connection: id, kind (provider: connected to us; route: mounted by us), remote
     * address, user, services, items.
     */
    String[] getConnections();

    /**
     * @return items cached across services.
     */
    int getItemCount();

    /**
     * Disconnect a provider connection (its services go down, its items turn stale).
     *
     * @param connectionId the id shown by {@link #getConnections()}.
     * @return true if the connection existed.
     */
    boolean dropConnection(long connectionId);
}
