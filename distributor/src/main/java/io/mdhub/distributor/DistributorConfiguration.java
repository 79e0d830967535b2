package io.mdhub.distributor;

import io.mdhub.common.config.ConfigValues;

/**
 * Distributor configuration: the only place {@code mdhub.distributor.*} system properties are read. Each setting is a
 * {@code *_PROP_NAME} / {@code *_DEFAULT} pair whose value seeds a {@link Distributor.Context} field. The provider
 * listener's transport settings (ping timeouts, frame sizes, packing) are the {@code mdhub.ripc.*} keys.
 */
public final class DistributorConfiguration
{
    /**
     * TCP port non-interactive providers connect to.
     */
    public static final String PROVIDER_PORT_PROP_NAME = "mdhub.distributor.provider.port";

    /**
     * Default provider port: 14003, where ETA's NIProvider example connects by default.
     */
    public static final int PROVIDER_PORT_DEFAULT = 14003;

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
     * Most provider connections at once; later connections are closed at once.
     */
    public static final String MAX_PROVIDERS_PROP_NAME = "mdhub.distributor.max.providers";

    /**
     * Default number of provider connections.
     */
    public static final int MAX_PROVIDERS_DEFAULT = 64;

    /**
     * Component name: sent to providers in the handshake, used in logs, counter labels and the MBean name.
     */
    public static final String COMPONENT_NAME_PROP_NAME = "mdhub.distributor.component.name";

    /**
     * Default component name.
     */
    public static final String COMPONENT_NAME_DEFAULT = "mdhub-distributor";

    private DistributorConfiguration()
    {
    }

    /**
     * @return the provider port.
     */
    public static int providerPort()
    {
        return ConfigValues.getInt(PROVIDER_PORT_PROP_NAME, PROVIDER_PORT_DEFAULT);
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
        return ConfigValues.getInt(MAX_ITEMS_PER_SERVICE_PROP_NAME, MAX_ITEMS_PER_SERVICE_DEFAULT);
    }

    /**
     * @return the most services.
     */
    public static int maxServices()
    {
        return ConfigValues.getInt(MAX_SERVICES_PROP_NAME, MAX_SERVICES_DEFAULT);
    }

    /**
     * @return the most provider connections.
     */
    public static int maxProviders()
    {
        return ConfigValues.getInt(MAX_PROVIDERS_PROP_NAME, MAX_PROVIDERS_DEFAULT);
    }

    /**
     * @return the component name.
     */
    public static String componentName()
    {
        return ConfigValues.getString(COMPONENT_NAME_PROP_NAME, COMPONENT_NAME_DEFAULT);
    }
}
