package io.mdhub.p2p.fanout;

import java.util.ArrayList;
import java.util.List;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import io.mdhub.common.rwf.eta.DirectoryServices;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ServiceInfo;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * A worker's copy of its item source's service directory, kept as ETA {@link Service} descriptions ready for the
 * {@code DirectoryEncoder}: INFO (name, vendor, capabilities plus Dictionary, the RWFFld/RWFEnum dictionaries this
 * server provides, QoS realtime tick-by-tick) and STATE (ServiceState, AcceptingRequests). Worker thread only.
 */
final class DirectoryView
{
    private final String vendor;
    private final ArrayList<Service> services = new ArrayList<>();
    private final Int2ObjectHashMap<ServiceInfo> infoById = new Int2ObjectHashMap<>();
    private boolean isLoaded;

    DirectoryView(final String vendor)
    {
        this.vendor = vendor;
    }

    /**
     * Read the source's services the first time a consumer needs the directory; until then the source's service
     * changes are not applied one by one (the first read has them all).
     */
    void ensureLoaded(final ItemSource source)
    {
        if (!isLoaded)
        {
            reset(source.services());
            isLoaded = true;
        }
    }

    /**
     * @return true once the services were read from the source.
     */
    boolean isLoaded()
    {
        return isLoaded;
    }

    void reset(final List<ServiceInfo> infos)
    {
        services.clear();
        infoById.clear();
        for (final ServiceInfo info : infos)
        {
            put(info);
        }
    }

    /**
     * @return true if the service is new.
     */
    boolean put(final ServiceInfo info)
    {
        final boolean isNew = null == infoById.put(info.serviceId(), info);
        if (!isNew)
        {
            remove(info.serviceId());
            infoById.put(info.serviceId(), info);
        }
        services.add(toService(info, MapEntryActions.ADD));
        return isNew;
    }

    void remove(final int serviceId)
    {
        infoById.remove(serviceId);
        for (int i = services.size() - 1; i >= 0; i--)
        {
            if (services.get(i).serviceId() == serviceId)
            {
                services.remove(i);
            }
        }
    }

    List<Service> services()
    {
        return services;
    }

    ServiceInfo info(final int serviceId)
    {
        return infoById.get(serviceId);
    }

    int lowestServiceId()
    {
        int lowest = -1;
        for (final ServiceInfo info : infoById.values())
        {
            if (-1 == lowest || info.serviceId() < lowest)
            {
                lowest = info.serviceId();
            }
        }
        return lowest;
    }

    int serviceIdByName(final Buffer name)
    {
        return serviceIdByName(name.toString());
    }

    int serviceIdByName(final String wanted)
    {
        for (final ServiceInfo info : infoById.values())
        {
            if (info.name().equals(wanted))
            {
                return info.serviceId();
            }
        }
        return -1;
    }

    Service stateChange(final ServiceInfo info)
    {
        final Service service = toService(info, MapEntryActions.UPDATE);
        service.flags(Service.ServiceFlags.HAS_STATE);
        return service;
    }

    Service added(final ServiceInfo info)
    {
        return toService(info, MapEntryActions.ADD);
    }

    static Service deleted(final int serviceId)
    {
        final Service service = DirectoryMsgFactory.createService();
        service.serviceId(serviceId);
        service.action(MapEntryActions.DELETE);
        return service;
    }

    private Service toService(final ServiceInfo info, final int action)
    {
        final Service service = DirectoryServices.service(info.serviceId(), info.name(), vendor, info.capabilities(),
            info.isUp(), info.isAcceptingRequests(), action);
        service.info().applyHasIsSource();
        service.info().isSource(0); // MDHub republishes its providers' data, as an ADS does
        return service;
    }
}
