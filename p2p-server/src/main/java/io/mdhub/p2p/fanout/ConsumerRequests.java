package io.mdhub.p2p.fanout;

/**
 * The item streams a worker's consumers ask for, open and close. Worker thread only.
 */
final class ConsumerRequests
{
    private final ItemTable items;
    private final EntitlementChecks entitlements;
    private final DirectoryView directory;

    ConsumerRequests(final ItemTable items, final EntitlementChecks entitlements, final DirectoryView directory)
    {
        this.items = items;
        this.entitlements = entitlements;
        this.directory = directory;
    }

    /**
     * Ends a consumer's login, whichever way it ends (the login stream closed, the permission withdrawn, the
     * connection closed): every stream of it closes (each granted one recorded as closed), then the logoff.
     */
    void logOff(final ConsumerSession session, final String reason)
    {
        for (final ItemWatch watch : session.watches.values())
        {
            entitlements.closed(watch, directory.info(watch.serviceId), reason);
            items.detach(watch);
        }
        entitlements.logoff(session, reason);
        session.watches.clear();
        session.directoryStreamId = 0;
        session.isLoggedIn = false;
    }
}
