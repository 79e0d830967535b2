package io.mdhub.distributor;

import java.util.concurrent.TimeUnit;


import io.mdhub.common.config.ConfigValues;
import io.mdhub.common.management.ManagementConfiguration;

/**
 * Distributor configuration: the only place {@code mdhub.distributor.*} system properties are read. Each setting is a
 * {@code *_PROP_NAME} / {@code *_DEFAULT} pair whose value seeds a {@link Distributor.Context} field. The provider
 * listener's transport settings (ping timeouts, frame sizes, packing) are the {@code mdhub.ripc.*} keys.
 */
public final class DistributorConfiguration
{
    /**
     * Port of the management endpoint ({@code /metrics} for Prometheus, {@code /health}): -1 off, 0 any free
     * port.
     */
    public static final String HTTP_PORT_PROP_NAME = "mdhub.distributor.http.port";

    /**
     * Default of {@link #HTTP_PORT_PROP_NAME}: one port per role, so one distributor per host is scraped
     * without settings; a second one on the host logs that the port is taken and runs without the endpoint.
     */
    public static final int HTTP_PORT_DEFAULT = 9471;

    /**
     * TCP port non-interactive providers connect to.
     */
    public static final String PROVIDER_PORT_PROP_NAME = "mdhub.distributor.provider.port";

    /**
     * Default provider port: 14003, where ETA's NIProvider example connects by default.
     */
    public static final int PROVIDER_PORT_DEFAULT = 14003;

    /**
     * Whether the provider port speaks TLS (with the {@code mdhub.tls.*} settings) instead of plain TCP.
     */
    public static final String TLS_ENABLED_PROP_NAME = "mdhub.distributor.tls.enabled";

    /**
     * Default: plain TCP.
     */
    public static final boolean TLS_ENABLED_DEFAULT = false;

    /**
     * Address the provider listener binds to.
     */
    public static final String BIND_ADDRESS_PROP_NAME = "mdhub.distributor.bind.address";

    /**
     * Default bind address: loopback only, so nothing is exposed by accident.
     */
    public static final String BIND_ADDRESS_DEFAULT = "127.0.0.1";

    /**
     * Most items one service may cache; an item refresh beyond it is refused with Closed/TOO_MANY_ITEMS.
     */
    public static final String MAX_ITEMS_PER_SERVICE_PROP_NAME = "mdhub.distributor.max.items.per.service";

    /**
     * Default items per service.
     */
    public static final int MAX_ITEMS_PER_SERVICE_DEFAULT = 100_000;

    /**
     * Most services the distributor carries (across all providers).
     */
    public static final String MAX_SERVICES_PROP_NAME = "mdhub.distributor.max.services";

    /**
     * Default number of services.
     */
    public static final int MAX_SERVICES_DEFAULT = 64;

    /**
     * Most provider connections at once; later connections are closed at once. Mounted routes count towards it but
     * are never refused.
     */
    public static final String MAX_PROVIDERS_PROP_NAME = "mdhub.distributor.max.providers";

    /**
     * Default number of provider connections.
     */
    public static final int MAX_PROVIDERS_DEFAULT = 64;

    /**
     * Bytes the distributor may have waiting to be written to one provider connection (statuses, login answers,
     * item requests on a mounted route); above it the provider is disconnected as slow (it stopped reading). A size:
     * {@code 64k}, {@code 16m}.
     */
    public static final String PROVIDER_MAX_OUTPUT_BYTES_PROP_NAME = "mdhub.distributor.provider.max.output.bytes";

    /**
     * Default output a provider connection may hold: 64 MiB, far above a route's burst of 100,000 item requests.
     */
    public static final int PROVIDER_MAX_OUTPUT_BYTES_DEFAULT = 64 * 1024 * 1024;

    /**
     * Longest time from a provider's completed RIPC handshake to its login request; a connection still not logged in
     * then is closed (reason {@code login-timeout}), so connections that never log in cannot hold the provider slots. A
     * duration: {@code 10s}, {@code 500ms}.
     */
    public static final String LOGIN_TIMEOUT_PROP_NAME = "mdhub.distributor.login.timeout";

    /**
     * Default login timeout: as long as the RIPC handshake may take.
     */
    public static final long LOGIN_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Component name: sent to providers in the handshake, used in logs, counter labels and the MBean name.
     */
    public static final String COMPONENT_NAME_PROP_NAME = "mdhub.distributor.component.name";

    /**
     * Default component name.
     */
    public static final String COMPONENT_NAME_DEFAULT = "mdhub-distributor";

    /**
     * Interactive providers the distributor mounts (routes): a comma-separated list of {@code host:port}. The
     * distributor connects out to each, logs in as a consumer, reads its source directory and forwards item requests
     * on demand. Several endpoints announcing the same service name mirror it.
     */
    public static final String ROUTES_PROP_NAME = "mdhub.distributor.routes";

    /**
     * Default routes: none.
     */
    public static final String ROUTES_DEFAULT = "";

    /**
     * How a service served by several mounted endpoints is shared: {@code hot-standby} (the first endpoint up serves
     * every item; on its loss the next takes them over) or {@code load-balance} (new items go to the endpoint with
     * the fewest; a lost endpoint's items move to the others).
     */
    public static final String ROUTE_MIRRORING_PROP_NAME = "mdhub.distributor.route.mirroring";

    /**
     * Default mirroring mode.
     */
    public static final String ROUTE_MIRRORING_DEFAULT = "hot-standby";

    /**
     * Keep images of sink-driven items and answer new requests for open items from them. Off: every request gets a
     * fresh refresh from the provider (a reissue), as in the published latency configuration.
     */
    public static final String ROUTE_CACHE_ENABLED_PROP_NAME = "mdhub.distributor.route.cache.enabled";

    /**
     * Default: cache on.
     */
    public static final boolean ROUTE_CACHE_ENABLED_DEFAULT = true;

    /**
     * Wait between attempts to (re)connect a mounted endpoint, in milliseconds.
     */
    public static final String ROUTE_RECONNECT_MS_PROP_NAME = "mdhub.distributor.route.reconnect.ms";

    /**
     * Default reconnect wait.
     */
    public static final int ROUTE_RECONNECT_MS_DEFAULT = 1000;

    /** Longest route reconnect interval: an hour. */
    public static final int ROUTE_RECONNECT_MS_MAX = 3_600_000;

    /**
     * User name the distributor logs in with on mounted providers.
     */
    public static final String ROUTE_USER_PROP_NAME = "mdhub.distributor.route.user";

    /**
     * Default route user name.
     */
    public static final String ROUTE_USER_DEFAULT = "mdhub-distributor";

    /**
     * How long a consumer's post forwarded to a mounted provider waits for the provider's AckMsg before the poster is
     * answered NAK NO_RESPONSE. A duration: {@code 15s}, {@code 500ms}.
     */
    public static final String ROUTE_POST_TIMEOUT_PROP_NAME = "mdhub.distributor.route.post.timeout";

    /**
     * Default route post timeout.
     */
    public static final long ROUTE_POST_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(15);

    private DistributorConfiguration()
    {
    }

    /**
     * @return the management endpoint's port (-1 off, 0 any free port).
     */
    public static int httpPort()
    {
        return ManagementConfiguration.port(HTTP_PORT_PROP_NAME, HTTP_PORT_DEFAULT);
    }

    /**
     * @return the provider port.
     */
    public static int providerPort()
    {
        return ConfigValues.getInt(PROVIDER_PORT_PROP_NAME, PROVIDER_PORT_DEFAULT, 0, 65_535);
    }

    /**
     * @return whether the provider port speaks TLS.
     */
    public static boolean tlsEnabled()
    {
        return ConfigValues.getBoolean(TLS_ENABLED_PROP_NAME, TLS_ENABLED_DEFAULT);
    }

    /**
     * @return the bind address.
     */
    public static String bindAddress()
    {
        return ConfigValues.getString(BIND_ADDRESS_PROP_NAME, BIND_ADDRESS_DEFAULT);
    }

    /**
     * @return the most items per service.
     */
    public static int maxItemsPerService()
    {
        return ConfigValues.getInt(MAX_ITEMS_PER_SERVICE_PROP_NAME, MAX_ITEMS_PER_SERVICE_DEFAULT, 1, 100_000_000);
    }

    /**
     * @return the most services.
     */
    public static int maxServices()
    {
        return ConfigValues.getInt(MAX_SERVICES_PROP_NAME, MAX_SERVICES_DEFAULT, 1, 65_535);
    }

    /**
     * @return the most provider connections.
     */
    public static int maxProviders()
    {
        return ConfigValues.getInt(MAX_PROVIDERS_PROP_NAME, MAX_PROVIDERS_DEFAULT, 1, 65_535);
    }

    /**
     * @return the output a provider connection may hold, in bytes.
     */
    public static int providerMaxOutputBytes()
    {
        return ConfigValues.getSize(
            PROVIDER_MAX_OUTPUT_BYTES_PROP_NAME, PROVIDER_MAX_OUTPUT_BYTES_DEFAULT, 64 * 1024, 1024 * 1024 * 1024);
    }

    /**
     * @return the login timeout in nanoseconds.
     */
    public static long loginTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            LOGIN_TIMEOUT_PROP_NAME, LOGIN_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1));
    }

    /**
     * @return {@link #ROUTE_POST_TIMEOUT_PROP_NAME} or its default.
     */
    public static long routePostTimeoutNs()
    {
        return ConfigValues.getDurationNs(
            ROUTE_POST_TIMEOUT_PROP_NAME, ROUTE_POST_TIMEOUT_DEFAULT_NS,
            TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1));
    }

    /**
     * @return the component name.
     */
    public static String componentName()
    {
        return ConfigValues.getString(COMPONENT_NAME_PROP_NAME, COMPONENT_NAME_DEFAULT);
    }

    /**
     * @return the mounted endpoints, {@code host:port,...}.
     */
    public static String routes()
    {
        return ConfigValues.getString(ROUTES_PROP_NAME, ROUTES_DEFAULT);
    }

    /**
     * @return the mirroring mode.
     */
    public static String routeMirroring()
    {
        return ConfigValues.getString(ROUTE_MIRRORING_PROP_NAME, ROUTE_MIRRORING_DEFAULT);
    }

    /**
     * @return true if sink-driven items are cached.
     */
    public static boolean routeCacheEnabled()
    {
        return ConfigValues.getBoolean(ROUTE_CACHE_ENABLED_PROP_NAME, ROUTE_CACHE_ENABLED_DEFAULT);
    }

    /**
     * @return the reconnect wait in milliseconds.
     */
    public static int routeReconnectMs()
    {
        return ConfigValues.getInt(ROUTE_RECONNECT_MS_PROP_NAME, ROUTE_RECONNECT_MS_DEFAULT, 1, ROUTE_RECONNECT_MS_MAX);
    }

    /**
     * @return the route user name.
     */
    public static String routeUser()
    {
        return ConfigValues.getString(ROUTE_USER_PROP_NAME, ROUTE_USER_DEFAULT);
    }
}
