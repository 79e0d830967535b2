package io.mdhub.distributor;

import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

import io.mdhub.common.cache.ImageRefreshEncoder;
import io.mdhub.common.status.MdCounters;

/**
 * Every service the distributor carries, merged across providers by name. A service keeps the id its first provider
 * gave it when that id is free, otherwise it gets the lowest free id; a later provider announcing the same name under
 * another id is mapped onto it (its messages are renumbered). Services are never removed, so ids stay stable while
 * the process lives. Also hands out item handles, unique across services and never reused. Owned by the
 * distributor's event loop.
 */
public final class ServiceDirectory
{
    private static final int MAX_SERVICE_ID = 0xFFFF;

    private final Object2ObjectHashMap<String, DistributedService> byName = new Object2ObjectHashMap<>();
    private final Int2ObjectHashMap<DistributedService> byId = new Int2ObjectHashMap<>();
    private final List<DistributedService> services = new ArrayList<>();
    private final int maxServices;
    private final int maxItemsPerService;
    private final DistributorCounters counters;
    private final ImageRefreshEncoder refreshEncoder = new ImageRefreshEncoder();
    private final ImageUpdates imageUpdates;
    private int nextItemHandle = 1;

    ServiceDirectory(
        final int maxServices,
        final int maxItemsPerService,
        final DistributorCounters counters,
        final ImageUpdates imageUpdates)
    {
        this.imageUpdates = imageUpdates;
        this.maxServices = maxServices;
        this.maxItemsPerService = maxItemsPerService;
        this.counters = counters;
    }

    /**
     * @param name a service name.
     * @return the service, or null.
     */
    public DistributedService service(final String name)
    {
        return byName.get(name);
    }

    /**
     * @param serviceId a distributor-wide service id.
     * @return the service, or null.
     */
    public DistributedService service(final int serviceId)
    {
        return byId.get(serviceId);
    }

    /**
     * @return every service in the order they appeared (do not modify).
     */
    public List<DistributedService> services()
    {
        return services;
    }

    /**
     * @return number of items cached across services.
     */
    public int itemCount()
    {
        int count = 0;
        for (int i = 0; i < services.size(); i++)
        {
            count += services.get(i).cache().size();
        }
        return count;
    }

    /**
     * Find a service by name, or add it.
     *
     * @return the service, or null when the service limit is reached.
     */
    DistributedService findOrAdd(final String name, final int preferredId)
    {
        final DistributedService existing = byName.get(name);
        if (null != existing)
        {
            return existing;
        }
        if (services.size() >= maxServices)
        {
            return null;
        }
        int id = preferredId;
        if (id <= 0 || id > MAX_SERVICE_ID || byId.containsKey(id))
        {
            id = 1;
            while (byId.containsKey(id))
            {
                id++;
            }
        }
        final String suffix = " service=" + name;
        final DistributedService service = new DistributedService(
            id,
            name,
            new ItemCache(maxItemsPerService, refreshEncoder),
            counters.newCounter(MdCounters.DISTRIBUTOR_SERVICE_ITEMS_TYPE_ID, "distributor-service-items:" + suffix),
            counters.newCounter(
                MdCounters.DISTRIBUTOR_SERVICE_UPDATES_IN_TYPE_ID, "distributor-service-updates-in:" + suffix),
            counters.newCounter(
                MdCounters.DISTRIBUTOR_SERVICE_REFRESHES_IN_TYPE_ID, "distributor-service-refreshes-in:" + suffix),
            imageUpdates);
        byName.put(name, service);
        byId.put(id, service);
        services.add(service);
        return service;
    }

    /**
     * @return the highest item handle handed out so far (0 before the first item); handles are never reused, so
     * every item the directory holds has a handle from 1 to this.
     */
    public int lastItemHandle()
    {
        return nextItemHandle - 1;
    }

    int nextItemHandle()
    {
        return nextItemHandle++;
    }

    void close()
    {
        for (int i = 0; i < services.size(); i++)
        {
            services.get(i).closeCounters();
        }
    }
}
