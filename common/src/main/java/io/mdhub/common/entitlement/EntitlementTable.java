package io.mdhub.common.entitlement;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One version of the entitlements: users and their rights, providers and the services they may publish, the locks of
 * items whose provider sends none (by service and item-name pattern), and the names of permission codes. Immutable,
 * so every thread reads it without locks; a reload makes a new one. {@link #OPEN} is the table of a server with no
 * entitlement file: everyone may do everything.
 */
public final class EntitlementTable
{
    /** No entitlement checks: every login, service, item and post is allowed. */
    public static final EntitlementTable OPEN = new EntitlementTable(
        0, true, Map.of(), Map.of(), List.of(), Map.of(), Map.of());

    private final long version;
    private final boolean isOpen;
    private final Map<String, UserRights> users;
    private final Map<String, Set<String>> providers;
    private final List<ItemLockRule> itemLocks;
    private final Map<Integer, String> codeNames;
    private final Map<String, String> userByTokenHash;

    EntitlementTable(
        final long version,
        final boolean isOpen,
        final Map<String, UserRights> users,
        final Map<String, Set<String>> providers,
        final List<ItemLockRule> itemLocks,
        final Map<Integer, String> codeNames,
        final Map<String, String> userByTokenHash)
    {
        this.version = version;
        this.isOpen = isOpen;
        this.users = Map.copyOf(users);
        this.providers = Map.copyOf(providers);
        this.itemLocks = List.copyOf(itemLocks);
        this.codeNames = Map.copyOf(codeNames);
        this.userByTokenHash = Map.copyOf(userByTokenHash);
    }

    /**
     * @return a number that grows with every table a source loads (0 for {@link #OPEN}).
     */
    public long version()
    {
        return version;
    }

    /**
     * @param version the version of a reloaded table.
     * @return this table under that version.
     */
    public EntitlementTable withVersion(final long version)
    {
        return new EntitlementTable(version, isOpen, users, providers, itemLocks, codeNames, userByTokenHash);
    }

    /**
     * @return true if nothing is checked (no entitlement file).
     */
    public boolean isOpen()
    {
        return isOpen;
    }

    /**
     * @param userName a login's user name.
     * @return the user's rights, or null if the table does not know the user.
     */
    public UserRights user(final String userName)
    {
        return isOpen ? UserRights.ALL : users.get(userName);
    }

    /**
     * @return how many users the table knows.
     */
    public int userCount()
    {
        return users.size();
    }

    /**
     * @param token an authentication token from a login.
     * @return the user it belongs to, or null if no user holds it.
     */
    public String userForToken(final String token)
    {
        return userByTokenHash.get(sha256(token));
    }

    /**
     * @param providerName a provider login's user name.
     * @return the services it may publish; null if it may publish nothing (or, for {@link #OPEN}, a set holding
     * {@code "*"}).
     */
    public Set<String> publishableServices(final String providerName)
    {
        return isOpen ? Set.of("*") : providers.get(providerName);
    }

    /**
     * @param providerName a provider login's user name.
     * @param service      a service it offers.
     * @return true if it may publish the service.
     */
    public boolean mayPublish(final String providerName, final String service)
    {
        final Set<String> services = publishableServices(providerName);
        return null != services && (services.contains("*") || services.contains(service));
    }

    /**
     * @param service a service name.
     * @param item    an item name.
     * @return the lock the file gives the item (the first rule that matches), or null.
     */
    public PermissionLock mappedLock(final String service, final CharSequence item)
    {
        for (int i = 0; i < itemLocks.size(); i++)
        {
            final ItemLockRule rule = itemLocks.get(i);
            if (rule.service.equals(service) && rule.pattern.matches(item))
            {
                return rule.lock;
            }
        }
        return null;
    }

    /**
     * @param code a permission code.
     * @return its name in the file ({@code code 62 NYSE}), or null.
     */
    public String codeName(final int code)
    {
        return codeNames.get(code);
    }

    /**
     * @return every code name of the file.
     */
    public Map<Integer, String> codeNames()
    {
        return codeNames;
    }

    static String sha256(final String text)
    {
        try
        {
            return HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is part of every JDK", ex);
        }
    }

    /**
     * A file line {@code items SERVICE PATTERN LOCK}.
     */
    static final class ItemLockRule
    {
        final String service;
        final NamePattern pattern;
        final PermissionLock lock;

        ItemLockRule(final String service, final NamePattern pattern, final PermissionLock lock)
        {
            this.service = service;
            this.pattern = pattern;
            this.lock = lock;
        }
    }

    /**
     * Gathers a table while a file is read.
     */
    static final class Builder
    {
        final Map<String, UserRights> users = new HashMap<>();
        final Map<String, Set<String>> providers = new HashMap<>();
        final List<ItemLockRule> itemLocks = new java.util.ArrayList<>();
        final Map<Integer, String> codeNames = new HashMap<>();
        final Map<String, String> userByTokenHash = new HashMap<>();

        EntitlementTable build()
        {
            return new EntitlementTable(1, false, users, providers, itemLocks, codeNames, userByTokenHash);
        }
    }
}
