package io.mdhub.common.management;

import io.mdhub.common.config.ConfigValues;

/**
 * Settings of the management endpoint that every server shares; each role names its own port setting
 * ({@code mdhub.backbone.http.port}, {@code mdhub.distributor.http.port}, {@code mdhub.p2p.http.port}). The only
 * place that reads them from system properties.
 */
public final class ManagementConfiguration
{
    /** The address the management endpoint listens on. */
    public static final String BIND_ADDRESS_PROP_NAME = "mdhub.http.bind.address";
    /**
     * Default of {@link #BIND_ADDRESS_PROP_NAME}: loopback, as the RSSL ports, so nothing is exposed by accident; a
     * Prometheus on another host needs {@code 0.0.0.0} or the host's address.
     */
    public static final String BIND_ADDRESS_DEFAULT = "127.0.0.1";
    /** How long a liveness check waits for an event loop to run a task before calling it stalled. */
    public static final String LOOP_TIMEOUT_MS_PROP_NAME = "mdhub.http.health.loop.timeout.ms";
    /** Default of {@link #LOOP_TIMEOUT_MS_PROP_NAME}. */
    public static final long LOOP_TIMEOUT_MS_DEFAULT = 1_000;

    private ManagementConfiguration()
    {
    }

    /**
     * @return the address to listen on.
     */
    public static String bindAddress()
    {
        return ConfigValues.getString(BIND_ADDRESS_PROP_NAME, BIND_ADDRESS_DEFAULT);
    }

    /**
     * @return how long a liveness check waits for an event loop, in milliseconds.
     */
    public static long loopTimeoutMs()
    {
        return ConfigValues.getLong(LOOP_TIMEOUT_MS_PROP_NAME, LOOP_TIMEOUT_MS_DEFAULT, 10, 3_600_000);
    }

    /**
     * Read a role's port setting.
     *
     * @param propName     the role's setting.
     * @param defaultValue its default.
     * @return the port: -1 off, 0 any free one.
     */
    public static int port(final String propName, final int defaultValue)
    {
        return ConfigValues.getInt(propName, defaultValue, -1, 65_535);
    }
}
