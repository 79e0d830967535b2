package io.mdhub.common.entitlement;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed logins per remote address: after {@code maxFailures} failures within {@code windowNs}, the address's logins
 * are refused without a check until {@code blockNs} after its last failure, so a client that guesses names or tokens
 * gets a handful of tries a minute. A successful login in between does not wipe the failures out (else a guesser
 * holding one valid login could reset its count); they age out with the window. Safe from several threads.
 */
public final class LoginThrottle
{
    private static final int PURGE_ABOVE = 4096;

    private final int maxFailures;
    private final long windowNs;
    private final long blockNs;
    private final ConcurrentHashMap<String, Failures> byAddress = new ConcurrentHashMap<>();

    /**
     * @return a throttle that never refuses: for servers without entitlements and for tests.
     */
    public static LoginThrottle off()
    {
        return new LoginThrottle(0, 1, 1);
    }

    /**
     * @param maxFailures failures allowed within the window (0 turns the throttle off).
     * @param windowNs    the window.
     * @param blockNs     how long an address that went over stays refused.
     */
    public LoginThrottle(final int maxFailures, final long windowNs, final long blockNs)
    {
        this.maxFailures = maxFailures;
        this.windowNs = windowNs;
        this.blockNs = blockNs;
    }

    /**
     * @param address the remote address (host, no port).
     * @param nowNs   {@link System#nanoTime()}.
     * @return true if the address's logins are refused now.
     */
    public boolean isBlocked(final String address, final long nowNs)
    {
        final Failures failures = byAddress.get(address);
        if (null == failures || 0 == maxFailures)
        {
            return false;
        }
        synchronized (failures)
        {
            return failures.count >= maxFailures && nowNs - failures.lastNs < blockNs;
        }
    }

    /**
     * @param address the remote address whose login failed.
     * @param nowNs   {@link System#nanoTime()}.
     */
    public void onFailure(final String address, final long nowNs)
    {
        if (0 == maxFailures)
        {
            return;
        }
        if (byAddress.size() > PURGE_ABOVE)
        {
            byAddress.values().removeIf((f) -> f.isStale(nowNs, Math.max(windowNs, blockNs)));
        }
        final Failures failures = byAddress.computeIfAbsent(address, (a) -> new Failures());
        synchronized (failures)
        {
            final boolean isWindowOver = failures.count < maxFailures && nowNs - failures.firstNs > windowNs;
            if (isWindowOver || nowNs - failures.lastNs > blockNs)
            {
                failures.count = 0;
                failures.firstNs = nowNs;
            }
            failures.count++;
            failures.lastNs = nowNs;
        }
    }

    private static final class Failures
    {
        int count;
        long firstNs;
        long lastNs;

        synchronized boolean isStale(final long nowNs, final long periodNs)
        {
            return nowNs - lastNs > periodNs;
        }
    }
}
