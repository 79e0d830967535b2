package io.mdhub.p2p.source;

import java.util.Arrays;

/**
 * One service of an item source's directory, as consumers see it in the Source Directory: id, name, state and the
 * domains it serves. Immutable; a change is a new instance.
 */
public final class ServiceInfo
{
    private final int serviceId;
    private final String name;
    private final boolean isUp;
    private final boolean isAcceptingRequests;
    private final int[] capabilities;

    /**
     * @param serviceId           the id consumers put in their item keys (0 to 65535).
     * @param name                the service name (ASCII).
     * @param isUp                ServiceState: true = up.
     * @param isAcceptingRequests AcceptingRequests.
     * @param capabilities        RDM domain types served (e.g. 6 MarketPrice).
     */
    public ServiceInfo(
        final int serviceId,
        final String name,
        final boolean isUp,
        final boolean isAcceptingRequests,
        final int... capabilities)
    {
        if (serviceId < 0 || serviceId > 0xFFFF)
        {
            throw new IllegalArgumentException("serviceId out of range: " + serviceId);
        }
        this.serviceId = serviceId;
        this.name = name;
        this.isUp = isUp;
        this.isAcceptingRequests = isAcceptingRequests;
        this.capabilities = capabilities.clone();
    }

    /**
     * @return the service id.
     */
    public int serviceId()
    {
        return serviceId;
    }

    /**
     * @return the service name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return true if the service is up.
     */
    public boolean isUp()
    {
        return isUp;
    }

    /**
     * @return true if the service accepts requests.
     */
    public boolean isAcceptingRequests()
    {
        return isAcceptingRequests;
    }

    /**
     * @return the domain types served (a copy).
     */
    public int[] capabilities()
    {
        return capabilities.clone();
    }

    /**
     * @param isUp the new state.
     * @return a copy with the state changed (accepting requests follows the state).
     */
    public ServiceInfo withState(final boolean isUp)
    {
        return new ServiceInfo(serviceId, name, isUp, isUp, capabilities);
    }

    @Override
    public String toString()
    {
        return "ServiceInfo{id=" + serviceId + ", name=" + name + ", up=" + isUp + ", accepting=" +
            isAcceptingRequests + ", capabilities=" + Arrays.toString(capabilities) + "}";
    }
}
