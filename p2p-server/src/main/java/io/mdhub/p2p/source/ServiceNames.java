package io.mdhub.p2p.source;

/**
 * The services a worker's consumers see, by name and by id: JSON messages name services ({@code "Service":
 * "DIRECT_FEED"}) where RWF carries their ids.
 */
public interface ServiceNames
{
    /**
     * @param name a service name.
     * @return its id, or -1 when no such service is served.
     */
    int serviceId(String name);

    /**
     * @param serviceId a service id.
     * @return its name, or null when no such service is served.
     */
    String serviceName(int serviceId);

    /**
     * @return the service a request that names none is for (the WebSocket API lets a request leave the service out,
     * as an ADS serves its default service): the lowest service id served, or -1 when none is.
     */
    int defaultServiceId();

    /**
     * @param serviceId the one service's id.
     * @param name      its name.
     * @return the names of a source that serves that one service (tools, benchmarks, tests).
     */
    static ServiceNames single(final int serviceId, final String name)
    {
        return new ServiceNames()
        {
            @Override
            public int serviceId(final String serviceName)
            {
                return name.equals(serviceName) ? serviceId : -1;
            }

            @Override
            public String serviceName(final int id)
            {
                return serviceId == id ? name : null;
            }

            @Override
            public int defaultServiceId()
            {
                return serviceId;
            }
        };
    }
}
