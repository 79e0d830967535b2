package io.mdhub.distributor;

import java.util.Set;

import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.entitlement.EntitlementSource;
import io.mdhub.common.entitlement.EntitlementTable;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.log.LogSummary;

/**
 * Which provider logins may publish which services, as the entitlement file's {@code provider} entries say: a login
 * the file does not know is refused (failures throttled per address, as consumer logins are), a service a provider
 * announces that it may not publish is refused and its items dropped, and a change of the file disconnects every
 * provider that has lost a right it is using (it logs in again under the new rules). Event loop only.
 */
final class ProviderEntitlements
{
    private static final Logger LOG = LoggerFactory.getLogger(ProviderEntitlements.class);

    private final EntitlementSource source;
    private final LoginThrottle throttle;
    private final AtomicCounter servicesRefused;
    private final LogSummary refusals;

    ProviderEntitlements(
        final EntitlementSource source, final LoginThrottle throttle, final AtomicCounter servicesRefused,
        final String component)
    {
        this.source = source;
        this.throttle = throttle;
        this.servicesRefused = servicesRefused;
        this.refusals = new LogSummary(LOG, component, "provider entitlement refusals", 2);
    }

    static ProviderEntitlements open(final AtomicCounter servicesRefused, final String component)
    {
        return new ProviderEntitlements(EntitlementSource.OPEN, LoginThrottle.off(), servicesRefused, component);
    }

    EntitlementSource source()
    {
        return source;
    }

    /**
     * @return null if the provider may log in, else why not.
     */
    String loginDenial(final String userName, final String address, final long nowNs)
    {
        final EntitlementTable table = source.current();
        if (table.isOpen())
        {
            return null;
        }
        if (throttle.isBlocked(address, nowNs))
        {
            return "too many failed logins from " + address + "; try again later";
        }
        final Set<String> services = table.publishableServices(userName);
        if (null == services || services.isEmpty())
        {
            throttle.onFailure(address, nowNs);
            final String why = "provider " + userName + " may publish no service";
            if (refusals.admit(0, "login", true, userName + " from " + address))
            {
                LOG.warn("provider login of {} from {} refused: {}", userName, address, why);
            }
            return why;
        }
        return null;
    }

    /**
     * @return true if the provider may publish the service; a refusal is counted and logged.
     */
    boolean mayPublish(final String userName, final String service, final long connectionId)
    {
        if (source.current().mayPublish(userName, service))
        {
            return true;
        }
        servicesRefused.increment();
        if (refusals.admit(1, "service", true, userName + " " + service))
        {
            LOG.warn("provider connection {} (user {}) may not publish service {}: refused, its items are dropped",
                connectionId, userName, service);
        }
        return false;
    }

    /**
     * @return null if the provider may go on publishing every service it publishes, else the first it may not.
     */
    String withdrawn(final ProviderLink provider)
    {
        final EntitlementTable table = source.current();
        final Set<String> services = table.publishableServices(provider.userName());
        if (null == services)
        {
            return "provider " + provider.userName() + " may publish no service";
        }
        for (final DistributedService service : provider.services())
        {
            if (!table.mayPublish(provider.userName(), service.name()))
            {
                return "provider " + provider.userName() + " may no longer publish " + service.name();
            }
        }
        return null;
    }
}
