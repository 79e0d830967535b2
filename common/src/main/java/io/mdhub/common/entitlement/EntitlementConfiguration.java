package io.mdhub.common.entitlement;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.mdhub.common.config.ConfigValues;

/**
 * The {@code mdhub.entitlements.*} settings, shared by the p2p-server (consumer logins, services, items, posts) and
 * the distributor (provider logins and the services they publish): the only place they are read.
 */
public final class EntitlementConfiguration
{
    /** The entitlement file; empty (the default) means no checks: every login, service and item is allowed. */
    public static final String FILE_PROP_NAME = "mdhub.entitlements.file";

    /** Default of {@link #FILE_PROP_NAME}: none. */
    public static final String FILE_DEFAULT = "";

    /** Failed logins from one address within {@link #LOGIN_FAILURE_WINDOW_PROP_NAME} before it is refused. */
    public static final String LOGIN_FAILURES_MAX_PROP_NAME = "mdhub.entitlements.login.failures.max";

    /** Default of {@link #LOGIN_FAILURES_MAX_PROP_NAME}. */
    public static final int LOGIN_FAILURES_MAX_DEFAULT = 5;

    /** Upper bound of {@link #LOGIN_FAILURES_MAX_PROP_NAME} (0 turns the throttle off). */
    public static final int LOGIN_FAILURES_MAX_MAX = 1_000_000;

    /** The window failed logins are counted over. */
    public static final String LOGIN_FAILURE_WINDOW_PROP_NAME = "mdhub.entitlements.login.failure.window";

    /** Default of {@link #LOGIN_FAILURE_WINDOW_PROP_NAME}: one minute. */
    public static final long LOGIN_FAILURE_WINDOW_DEFAULT_NS = TimeUnit.MINUTES.toNanos(1);

    /** How long an address that failed too often is refused after its last failure. */
    public static final String LOGIN_BLOCK_PROP_NAME = "mdhub.entitlements.login.block";

    /** Default of {@link #LOGIN_BLOCK_PROP_NAME}: one minute. */
    public static final long LOGIN_BLOCK_DEFAULT_NS = TimeUnit.MINUTES.toNanos(1);

    /** Bounds of the two durations. */
    public static final long DURATION_MIN_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Upper bound of the two durations: a day. */
    public static final long DURATION_MAX_NS = TimeUnit.DAYS.toNanos(1);

    private EntitlementConfiguration()
    {
    }

    /**
     * @return the entitlement file, or null when entitlements are off.
     */
    public static Path file()
    {
        final String file = ConfigValues.getString(FILE_PROP_NAME, FILE_DEFAULT).trim();
        return file.isEmpty() ? null : Path.of(file);
    }

    /**
     * @return the throttle of failed logins the settings describe.
     */
    public static LoginThrottle loginThrottle()
    {
        return new LoginThrottle(
            ConfigValues.getInt(LOGIN_FAILURES_MAX_PROP_NAME, LOGIN_FAILURES_MAX_DEFAULT, 0, LOGIN_FAILURES_MAX_MAX),
            ConfigValues.getDurationNs(LOGIN_FAILURE_WINDOW_PROP_NAME, LOGIN_FAILURE_WINDOW_DEFAULT_NS,
                DURATION_MIN_NS, DURATION_MAX_NS),
            ConfigValues.getDurationNs(LOGIN_BLOCK_PROP_NAME, LOGIN_BLOCK_DEFAULT_NS, DURATION_MIN_NS,
                DURATION_MAX_NS));
    }
}
