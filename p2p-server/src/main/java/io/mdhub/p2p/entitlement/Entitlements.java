package io.mdhub.p2p.entitlement;

import org.agrona.DirectBuffer;

/**
 * Decides what a logged-in consumer may do, asked on the fan-out worker that serves it (so an implementation must be
 * safe to call from several workers at once, and quick: it is asked per post). The default allows everything.
 */
@FunctionalInterface
public interface Entitlements
{
    /** Everyone may do everything. */
    Entitlements ALLOW_ALL = (userName, serviceId, domainType, name, nameOffset, nameLength) -> true;

    /**
     * @param userName   the consumer's login user name.
     * @param serviceId  the service posted to.
     * @param domainType the item's domain.
     * @param name       holds the item name (ASCII).
     * @param nameOffset where it starts.
     * @param nameLength its length.
     * @return true if the user may post to the item.
     */
    boolean mayPost(
        String userName, int serviceId, int domainType, DirectBuffer name, int nameOffset, int nameLength);
}
