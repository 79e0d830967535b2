package io.mdhub.distributor;

import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.status.AtomicCounter;

import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

/**
 * A service as the distributor carries it: a distributor-wide id, the name providers announce it by, its state
 * merged across the providers that publish it (up while at least one of them is connected and reports it up), its
 * item cache and counters. Owned by the distributor's event loop.
 */
public final class DistributedService
{
    /** ServiceState value for a service that is up. */
    public static final int STATE_UP = 1;
    /** ServiceState value for a service that is down. */
    public static final int STATE_DOWN = 0;

    private final int id;
    private final String name;
    private final ItemCache cache;
    private final List<ProviderLink> providers = new ArrayList<>(2);
    private final IntArrayList providerStates = new IntArrayList(2, 0); // what each provider reports, by index
    private final IntArrayList providerAccepting = new IntArrayList(2, 0);
    private final Service info = DirectoryMsgFactory.createService();
    private final AtomicCounter itemsCounter;
    private final AtomicCounter updatesIn;
    private final AtomicCounter refreshesIn;
    private boolean isSinkDriven;
    private boolean isCaching = true;
    private int serviceState = STATE_DOWN;
    private int acceptingRequests;

    DistributedService(
        final int id,
        final String name,
        final ItemCache cache,
        final AtomicCounter itemsCounter,
        final AtomicCounter updatesIn,
        final AtomicCounter refreshesIn)
    {
        this.id = id;
        this.name = name;
        this.cache = cache;
        this.itemsCounter = itemsCounter;
        this.updatesIn = updatesIn;
        this.refreshesIn = refreshesIn;
    }

    /**
     * @return the distributor-wide service id.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return the service name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the item cache.
     */
    public ItemCache cache()
    {
        return cache;
    }

    /**
     * @return 1 up, 0 down.
     */
    public int serviceState()
    {
        return serviceState;
    }

    /**
     * @return 1 if the service accepts requests.
     */
    public int acceptingRequests()
    {
        return acceptingRequests;
    }

    /**
     * @return the directory description (INFO, STATE) the last provider announced, as an ETA Service whose
     * serviceId is the distributor-wide id.
     */
    public Service info()
    {
        return info;
    }

    /**
     * @return true when a mounted interactive provider serves the service: its items exist only while the backbone
     * wants them, and requests go to the provider.
     */
    public boolean isSinkDriven()
    {
        return isSinkDriven;
    }

    /**
     * @return true when the item images are kept (and new requests for open items are answered from them); false
     * for a sink-driven service mounted with the cache off: every request gets a fresh refresh from the provider.
     */
    public boolean isCaching()
    {
        return isCaching;
    }

    void sinkDriven(final boolean isCaching)
    {
        this.isSinkDriven = true;
        this.isCaching = isCaching;
    }

    /**
     * The connection a new item of this sink-driven service is requested on: hot standby, the logged-in connection
     * of the endpoint listed first (the others wait); load balancing, the one with the fewest items.
     *
     * @return the connection, or null when none is up.
     */
    ProviderLink pickLink(final boolean isLoadBalancing)
    {
        RouteSession best = null;
        for (int i = 0; i < providers.size(); i++)
        {
            final ProviderLink link = providers.get(i);
            if (link.isRoute() && link.isLoggedIn && !link.isClosing)
            {
                final RouteSession route = (RouteSession)link;
                if (null == best || (isLoadBalancing ? route.itemCount() < best.itemCount() :
                    route.endpoint().order() < best.endpoint().order()))
                {
                    best = route;
                }
            }
        }
        return best;
    }

    /**
     * @return number of provider connections publishing the service.
     */
    public int providerCount()
    {
        return providers.size();
    }

    /**
     * A provider starts publishing the service; until it reports a state it counts as up and accepting.
     *
     * @return true if it was not publishing it yet.
     */
    boolean addProvider(final ProviderLink session)
    {
        if (!providers.contains(session))
        {
            providers.add(session);
            providerStates.addInt(STATE_UP);
            providerAccepting.addInt(1);
            return true;
        }
        return false;
    }

    /**
     * A provider stops publishing the service: the state is merged again from the others (down when none is left).
     *
     * @return true if the merged state changed.
     */
    boolean removeProvider(final ProviderLink session)
    {
        final int index = providers.indexOf(session);
        if (index >= 0)
        {
            providers.remove(index);
            providerStates.removeAt(index);
            providerAccepting.removeAt(index);
        }
        return mergeState();
    }

    /**
     * What one provider reports; the service's state is merged from every provider's.
     *
     * @return true if the merged state changed.
     */
    boolean providerState(final ProviderLink session, final int serviceState, final int acceptingRequests)
    {
        final int index = providers.indexOf(session);
        if (index >= 0)
        {
            providerStates.setInt(index, serviceState);
            providerAccepting.setInt(index, acceptingRequests);
        }
        return mergeState();
    }

    /**
     * Up while any provider reports it up, accepting while any of those accepts (with none up, while any accepts):
     * one mirror going down, or leaving, must not take the service down while another serves it.
     */
    private boolean mergeState()
    {
        int mergedState = STATE_DOWN;
        int acceptingUp = 0;
        int acceptingAny = 0;
        for (int i = 0; i < providers.size(); i++)
        {
            final boolean isAccepting = 0 != providerAccepting.getInt(i);
            acceptingAny |= isAccepting ? 1 : 0;
            if (STATE_UP == providerStates.getInt(i))
            {
                mergedState = STATE_UP;
                acceptingUp |= isAccepting ? 1 : 0;
            }
        }
        return state(mergedState, STATE_UP == mergedState ? acceptingUp : acceptingAny);
    }

    /**
     * @return true if the state changed.
     */
    private boolean state(final int serviceState, final int acceptingRequests)
    {
        final boolean changed = serviceState != this.serviceState || acceptingRequests != this.acceptingRequests;
        this.serviceState = serviceState;
        this.acceptingRequests = acceptingRequests;
        return changed;
    }

    void copyInfo(final Service announced)
    {
        announced.copy(info);
        info.serviceId(id);
    }

    void itemAdded()
    {
        itemsCounter.increment();
    }

    void itemRemoved()
    {
        itemsCounter.decrement();
    }

    AtomicCounter updatesIn()
    {
        return updatesIn;
    }

    AtomicCounter refreshesIn()
    {
        return refreshesIn;
    }

    void closeCounters()
    {
        itemsCounter.close();
        updatesIn.close();
        refreshesIn.close();
    }
}
