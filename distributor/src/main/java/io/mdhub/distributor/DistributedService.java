package io.mdhub.distributor;

import java.util.ArrayList;
import java.util.List;

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
    private final List<Publisher> publishers = new ArrayList<>(2);
    private final Service info = DirectoryMsgFactory.createService();
    private final AtomicCounter itemsCounter;
    private final AtomicCounter updatesIn;
    private final AtomicCounter refreshesIn;
    private final ImageUpdates imageUpdates;
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
        final AtomicCounter refreshesIn,
        final ImageUpdates imageUpdates)
    {
        this.id = id;
        this.imageUpdates = imageUpdates;
        this.name = name;
        this.cache = cache;
        this.itemsCounter = itemsCounter;
        this.updatesIn = updatesIn;
        this.refreshesIn = refreshesIn;
    }

    /**
     * @return how its items' images take their updates.
     */
    ImageUpdates imageUpdates()
    {
        return imageUpdates;
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
        for (int i = 0; i < publishers.size(); i++)
        {
            final ProviderLink link = publishers.get(i).link;
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
        return publishers.size();
    }

    /**
     * A provider starts publishing the service; until it reports a state it counts as up and accepting.
     */
    void addProvider(final ProviderLink session)
    {
        if (null == publisher(session))
        {
            publishers.add(new Publisher(session));
            mergeState();
        }
    }

    /**
     * A provider stops publishing the service: the state is merged again from the others (down when none is left).
     *
     * @return true if the merged state changed.
     */
    boolean removeProvider(final ProviderLink session)
    {
        publishers.remove(publisher(session));
        return mergeState();
    }

    /**
     * What one provider reports; the service's state is merged from every provider's.
     *
     * @return true if the merged state changed.
     */
    boolean providerState(final ProviderLink session, final int serviceState, final int acceptingRequests)
    {
        final Publisher publisher = publisher(session);
        if (null != publisher)
        {
            publisher.serviceState = serviceState;
            publisher.acceptingRequests = acceptingRequests;
        }
        return mergeState();
    }

    private Publisher publisher(final ProviderLink session)
    {
        for (int i = 0; i < publishers.size(); i++)
        {
            if (publishers.get(i).link == session)
            {
                return publishers.get(i);
            }
        }
        return null;
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
        for (int i = 0; i < publishers.size(); i++)
        {
            final Publisher publisher = publishers.get(i);
            final int accepting = 0 != publisher.acceptingRequests ? 1 : 0;
            acceptingAny |= accepting;
            if (STATE_UP == publisher.serviceState)
            {
                mergedState = STATE_UP;
                acceptingUp |= accepting;
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

    /**
     * One provider connection publishing the service, with the state it last reported.
     */
    private static final class Publisher
    {
        final ProviderLink link;
        int serviceState = STATE_UP;
        int acceptingRequests = 1;

        Publisher(final ProviderLink link)
        {
            this.link = link;
        }
    }
}
