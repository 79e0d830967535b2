package io.mdhub.common.entitlement;

/**
 * Where the servers get their entitlements: the current table, and a word when it changes (the servers then check
 * every open login and stream again). The default is the watched file ({@link WatchedEntitlementFile}); a site with
 * its own permissioning system implements this over it.
 */
public interface EntitlementSource extends AutoCloseable
{
    /** No entitlement file: everything is allowed, nothing ever changes. */
    EntitlementSource OPEN = new EntitlementSource()
    {
        public EntitlementTable current()
        {
            return EntitlementTable.OPEN;
        }

        public void onChange(final Runnable listener)
        {
        }

        public void close()
        {
        }
    };

    /**
     * @return the table in force; safe from any thread.
     */
    EntitlementTable current();

    /**
     * @param listener told (on the source's own thread) after {@link #current()} changed.
     */
    void onChange(Runnable listener);

    /**
     * Stops watching for changes.
     */
    void close();
}
