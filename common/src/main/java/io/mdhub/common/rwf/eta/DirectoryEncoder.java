package io.mdhub.common.rwf.eta;

import java.util.ArrayList;
import java.util.List;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

/**
 * Encodes Source Directory refreshes and updates for a set of services (ETA {@link Service} descriptions: Name,
 * Vendor, IsSource, Capabilities, DictionariesProvided/Used, QoS, ServiceState, AcceptingRequests...), sending only
 * the filter entries the consumer asked for. A service's filter entries are hidden for the duration of one encode
 * by masking its flags (and swapping out its group list), then restored, so nothing is copied or allocated.
 */
public final class DirectoryEncoder
{
    private static final int FILTER_TO_SERVICE_FLAGS_MASK = Service.ServiceFlags.HAS_INFO
        | Service.ServiceFlags.HAS_STATE | Service.ServiceFlags.HAS_LOAD | Service.ServiceFlags.HAS_DATA
        | Service.ServiceFlags.HAS_LINK;

    private final List<Service.ServiceGroup> noGroups = new ArrayList<>(0);
    private final DirectoryRefresh refresh = (DirectoryRefresh)DirectoryMsgFactory.createMsg();
    private final DirectoryUpdate update = (DirectoryUpdate)DirectoryMsgFactory.createMsg();
    private final int[] savedFlags;
    private final List<?>[] savedGroups;

    /**
     * @param maxServices the largest number of services one message carries.
     */
    public DirectoryEncoder(final int maxServices)
    {
        savedFlags = new int[maxServices];
        savedGroups = new List<?>[maxServices];
        refresh.rdmMsgType(DirectoryMsgType.REFRESH);
        update.rdmMsgType(DirectoryMsgType.UPDATE);
        refresh.serviceList(new ArrayList<>(maxServices));
        update.serviceList(new ArrayList<>(maxServices));
    }

    /**
     * Encode a complete directory refresh.
     *
     * @param iterator  to encode into.
     * @param streamId  of the directory stream.
     * @param filter    the requested filter ({@code Directory.ServiceFilterFlags}).
     * @param serviceId only this service, or -1 for all.
     * @param solicited true when answering a request, false for an unsolicited resync.
     * @param services  the services the server offers.
     * @param text      state text.
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encodeRefresh(
        final EncodeIterator iterator,
        final int streamId,
        final long filter,
        final int serviceId,
        final boolean solicited,
        final List<Service> services,
        final Buffer text)
    {
        final List<Service> list = refresh.serviceList();
        refresh.clear();
        refresh.rdmMsgType(DirectoryMsgType.REFRESH);
        refresh.serviceList(list);
        list.clear();
        refresh.streamId(streamId);
        refresh.filter(filter);
        refresh.applyClearCache();
        if (solicited)
        {
            refresh.applySolicited();
        }
        if (serviceId >= 0)
        {
            refresh.applyHasServiceId();
            refresh.serviceId(serviceId);
        }
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        refresh.state().text(text);
        select(services, serviceId, list);
        return encodeMasked(list, filter, iterator, true);
    }

    /**
     * Encode a directory update carrying changed services (each Service's action and flags say what changed).
     *
     * @param iterator to encode into.
     * @param streamId of the directory stream.
     * @param filter   the consumer's filter.
     * @param changed  the changed services.
     * @return an ETA {@code CodecReturnCodes} value.
     */
    public int encodeUpdate(
        final EncodeIterator iterator, final int streamId, final long filter, final List<Service> changed)
    {
        final List<Service> list = update.serviceList();
        update.clear();
        update.rdmMsgType(DirectoryMsgType.UPDATE);
        update.serviceList(list);
        list.clear();
        update.streamId(streamId);
        update.applyHasFilter();
        update.filter(filter);
        select(changed, -1, list);
        return encodeMasked(list, filter, iterator, false);
    }

    private void select(final List<Service> services, final int serviceId, final List<Service> into)
    {
        for (int i = 0, size = services.size(); i < size; i++)
        {
            final Service service = services.get(i);
            if (serviceId < 0 || service.serviceId() == serviceId)
            {
                if (into.size() == savedFlags.length)
                {
                    throw new IllegalStateException("more services than maxServices " + savedFlags.length);
                }
                into.add(service);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private int encodeMasked(
        final List<Service> list, final long filter, final EncodeIterator iterator, final boolean isRefresh)
    {
        final int allowed = serviceFlagsFor(filter);
        final int count = list.size();
        for (int i = 0; i < count; i++)
        {
            final Service service = list.get(i);
            savedFlags[i] = service.flags();
            savedGroups[i] = service.groupStateList();
            service.flags(service.flags() & (allowed | ~FILTER_TO_SERVICE_FLAGS_MASK));
            if (0 == (filter & Directory.ServiceFilterFlags.GROUP))
            {
                service.groupStateList(noGroups);
            }
        }
        try
        {
            return isRefresh ? refresh.encode(iterator) : update.encode(iterator);
        }
        finally
        {
            for (int i = 0; i < count; i++)
            {
                final Service service = list.get(i);
                service.flags(savedFlags[i]);
                service.groupStateList((List<Service.ServiceGroup>)savedGroups[i]);
                savedGroups[i] = null;
            }
            noGroups.clear();
        }
    }

    private static int serviceFlagsFor(final long filter)
    {
        int flags = 0;
        if (0 != (filter & Directory.ServiceFilterFlags.INFO))
        {
            flags |= Service.ServiceFlags.HAS_INFO;
        }
        if (0 != (filter & Directory.ServiceFilterFlags.STATE))
        {
            flags |= Service.ServiceFlags.HAS_STATE;
        }
        if (0 != (filter & Directory.ServiceFilterFlags.LOAD))
        {
            flags |= Service.ServiceFlags.HAS_LOAD;
        }
        if (0 != (filter & Directory.ServiceFilterFlags.DATA))
        {
            flags |= Service.ServiceFlags.HAS_DATA;
        }
        if (0 != (filter & Directory.ServiceFilterFlags.LINK))
        {
            flags |= Service.ServiceFlags.HAS_LINK;
        }
        return flags;
    }
}
