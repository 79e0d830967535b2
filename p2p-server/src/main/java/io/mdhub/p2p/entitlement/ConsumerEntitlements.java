package io.mdhub.p2p.entitlement;

import io.mdhub.common.entitlement.EntitlementSource;
import io.mdhub.common.entitlement.EntitlementTable;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.entitlement.TokenValidator;

/**
 * What every fan-out worker of a server consults about its consumers: the entitlements in force, the token
 * validator, the throttle of failed logins (per address, across workers) and the usage log. Shared by the workers;
 * each keeps its own scratch record for the log.
 *
 * @param source   the entitlements and their changes.
 * @param tokens   checks token logins.
 * @param throttle failed logins per address.
 * @param usage    where grants, denials, opens and closes are recorded.
 */
public record ConsumerEntitlements(
    EntitlementSource source, TokenValidator tokens, LoginThrottle throttle, UsageLog usage)
{

    /**
     * @return the table in force.
     */
    public EntitlementTable table()
    {
        return source.current();
    }
}
