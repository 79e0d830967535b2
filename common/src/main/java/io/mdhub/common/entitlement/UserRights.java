package io.mdhub.common.entitlement;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one user may do: log in with which applications from which positions, use which services holding which
 * permission codes, post to which services. Immutable; part of an {@link EntitlementTable}.
 */
public final class UserRights
{
    /** Everything, for every user: what an open table (no entitlement file) gives. */
    public static final UserRights ALL = new UserRights("*", List.of(), List.of(), Map.of(), Set.of(), true);

    private final String name;
    private final List<String> applications;
    private final List<NamePattern> positions;
    private final Map<String, CodeSet> services;
    private final Set<String> postServices;
    private final boolean isAll;

    UserRights(
        final String name,
        final List<String> applications,
        final List<NamePattern> positions,
        final Map<String, CodeSet> services,
        final Set<String> postServices,
        final boolean isAll)
    {
        this.name = name;
        this.applications = List.copyOf(applications);
        this.positions = List.copyOf(positions);
        this.services = Map.copyOf(services);
        this.postServices = Set.copyOf(postServices);
        this.isAll = isAll;
    }

    /**
     * @return the user name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @param application the login's application id (may be null or empty when the login gave none).
     * @param position    the login's position (may be null or empty).
     * @return null if the user may log in with them, else why not.
     */
    public String loginDenial(final String application, final String position)
    {
        if (!applications.isEmpty() && (null == application || !applications.contains(application)))
        {
            return "application id '" + (null == application ? "" : application) + "' is not permitted for user " +
                name;
        }
        if (!positions.isEmpty() && !matchesAny(positions, null == position ? "" : position))
        {
            return "position '" + (null == position ? "" : position) + "' is not permitted for user " + name;
        }
        return null;
    }

    /**
     * @param service a service name.
     * @return true if the user may see the service (in the directory) and request its items.
     */
    public boolean mayUseService(final String service)
    {
        return isAll || services.containsKey(service);
    }

    /**
     * @param service a service name.
     * @return true if the user may post to the service's items (it must also be entitled to the item).
     */
    public boolean mayPost(final String service)
    {
        return isAll || postServices.contains(service);
    }

    /**
     * @param service a service name.
     * @param item    the item name (for the reason text).
     * @param lock    the item's lock, null if it has none.
     * @return null if the user may see the item, else why not (the text of a Closed/NotEntitled status).
     */
    public String itemDenial(final String service, final CharSequence item, final PermissionLock lock)
    {
        if (isAll)
        {
            return null;
        }
        final CodeSet codes = services.get(service);
        if (null == codes)
        {
            return "User " + name + " is not entitled to service " + service;
        }
        if (null != lock && !lock.opensWith(codes))
        {
            return "User " + name + " is not entitled to " + item + " of " + service + " (lock " + lock + ")";
        }
        return null;
    }

    private static boolean matchesAny(final List<NamePattern> patterns, final String value)
    {
        for (int i = 0; i < patterns.size(); i++)
        {
            if (patterns.get(i).matches(value))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString()
    {
        return "user " + name + " services=" + services + " post=" + postServices;
    }
}
