package io.mdhub.p2p;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.Int2ObjectHashMap;

import io.mdhub.common.status.MdCounters;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The counters of one p2p-server, allocated once from the Context's {@link CountersManager} and shared by all
 * fan-out workers. Workers update them with atomic operations only, and batch the per-message totals
 * (messages/refreshes/updates/status out) once per source callback, so the fan-out loop touches plain fields.
 * Labels read {@code "<type>: key=value ... component=<name>"}.
 */
public final class P2pCounters implements AutoCloseable
{
    private final AtomicCounter connectionsActive;
    private final AtomicCounter loginsAccepted;
    private final AtomicCounter itemsOpen;
    private final AtomicCounter watchlistEntries;
    private final AtomicCounter messagesIn;
    private final AtomicCounter messagesOut;
    private final AtomicCounter refreshesOut;
    private final AtomicCounter updatesOut;
    private final AtomicCounter statusOut;
    private final AtomicCounter cacheRefreshes;
    private final AtomicCounter cacheMisses;
    private final AtomicCounter messagesIgnored;
    private final AtomicCounter updatesConflated;
    private final AtomicCounter entitlementReloads;
    private final AtomicCounter entitlementReloadFailures;
    private final AtomicCounter postsSent;
    private final AtomicCounter postsAcked;
    private final AtomicCounter postsRefused;
    private final AtomicCounter postsTimedOut;
    private final AtomicCounter[] disconnects = new AtomicCounter[DisconnectReason.values().length];
    private final AtomicCounter[] rejected = new AtomicCounter[RejectReason.values().length];
    private final Int2ObjectHashMap<ServiceCounters> services = new Int2ObjectHashMap<>();
    private final CountersManager countersManager;
    private final String suffix;
    private final AtomicCounter backboneReconnects;
    private final AtomicCounter backboneUp;

    /**
     * Allocate every counter; call from {@code conclude()} (CountersManager allocation is not thread safe).
     *
     * @param countersManager where to allocate.
     * @param component       component name for the labels.
     */
    public P2pCounters(final CountersManager countersManager, final String component)
    {
        this.countersManager = countersManager;
        this.suffix = " component=" + component;
        backboneReconnects = countersManager.newCounter(
            "backbone-reconnects:" + suffix, MdCounters.BACKBONE_RECONNECTS_TYPE_ID);
        backboneUp = countersManager.newCounter("backbone-up:" + suffix, MdCounters.BACKBONE_UP_TYPE_ID);
        connectionsActive = countersManager.newCounter(
            "p2p-connections-active:" + suffix, MdCounters.P2P_CONNECTIONS_ACTIVE_TYPE_ID);
        loginsAccepted = countersManager.newCounter(
            "p2p-logins-accepted:" + suffix, MdCounters.P2P_LOGINS_ACCEPTED_TYPE_ID);
        itemsOpen = countersManager.newCounter("p2p-items-open:" + suffix, MdCounters.P2P_ITEMS_OPEN_TYPE_ID);
        watchlistEntries = countersManager.newCounter(
            "p2p-watchlist-entries:" + suffix, MdCounters.P2P_WATCHLIST_ENTRIES_TYPE_ID);
        messagesIn = countersManager.newCounter("p2p-messages-in:" + suffix, MdCounters.P2P_MESSAGES_IN_TYPE_ID);
        messagesOut = countersManager.newCounter("p2p-messages-out:" + suffix, MdCounters.P2P_MESSAGES_OUT_TYPE_ID);
        refreshesOut = countersManager.newCounter(
            "p2p-refreshes-out:" + suffix, MdCounters.P2P_REFRESHES_OUT_TYPE_ID);
        updatesOut = countersManager.newCounter("p2p-updates-out:" + suffix, MdCounters.P2P_UPDATES_OUT_TYPE_ID);
        statusOut = countersManager.newCounter("p2p-status-out:" + suffix, MdCounters.P2P_STATUS_OUT_TYPE_ID);
        cacheRefreshes = countersManager.newCounter(
            "p2p-cache-refreshes:" + suffix, MdCounters.P2P_CACHE_REFRESHES_TYPE_ID);
        cacheMisses = countersManager.newCounter("p2p-cache-misses:" + suffix, MdCounters.P2P_CACHE_MISSES_TYPE_ID);
        messagesIgnored = countersManager.newCounter(
            "p2p-messages-ignored:" + suffix, MdCounters.P2P_MESSAGES_IGNORED_TYPE_ID);
        updatesConflated = countersManager.newCounter(
            "p2p-updates-conflated:" + suffix, MdCounters.P2P_UPDATES_CONFLATED_TYPE_ID);
        entitlementReloads = countersManager.newCounter(
            "entitlement-reloads:" + suffix, MdCounters.ENTITLEMENT_RELOADS_TYPE_ID);
        entitlementReloadFailures = countersManager.newCounter(
            "entitlement-reload-failures:" + suffix, MdCounters.ENTITLEMENT_RELOAD_FAILURES_TYPE_ID);

        final UnsafeBuffer key = new UnsafeBuffer(new byte[Integer.BYTES]);
        postsSent = newPostsCounter(countersManager, key, 1, "sent");
        postsAcked = newPostsCounter(countersManager, key, 2, "acked");
        postsRefused = newPostsCounter(countersManager, key, 3, "refused");
        postsTimedOut = newPostsCounter(countersManager, key, 4, "timed-out");
        for (final DisconnectReason reason : DisconnectReason.values())
        {
            key.putInt(0, reason.code());
            disconnects[reason.code()] = newCounter(countersManager, MdCounters.P2P_DISCONNECTS_TYPE_ID, key,
                "p2p-disconnects: reason=" + reason.label() + suffix);
        }
        for (final RejectReason reason : RejectReason.values())
        {
            key.putInt(0, reason.code());
            rejected[reason.code()] = newCounter(countersManager, MdCounters.P2P_REQUESTS_REJECTED_TYPE_ID, key,
                "p2p-requests-rejected: reason=" + reason.label() + suffix);
        }
    }

    private AtomicCounter newPostsCounter(
        final CountersManager countersManager, final UnsafeBuffer key, final int code, final String outcome)
    {
        key.putInt(0, code);
        return newCounter(countersManager, MdCounters.P2P_POSTS_TYPE_ID, key, "p2p-posts: outcome=" + outcome + suffix);
    }

    private static AtomicCounter newCounter(
        final CountersManager countersManager, final int typeId, final UnsafeBuffer key, final String label)
    {
        final UnsafeBuffer labelBuffer = new UnsafeBuffer(label.getBytes(StandardCharsets.US_ASCII));
        return countersManager.newCounter(typeId, key, 0, Integer.BYTES, labelBuffer, 0, labelBuffer.capacity());
    }

    /**
     * @return new backbone clients after the backbone daemon was lost (set by the server's {@code BackboneLink}).
     */
    public AtomicCounter backboneReconnects()
    {
        return backboneReconnects;
    }

    /**
     * @return 1 while the backbone daemon is there, 0 while it is waited for (set by the server's
     * {@code BackboneLink}).
     */
    public AtomicCounter backboneUp()
    {
        return backboneUp;
    }

    /**
     * @return consumer connections open now.
     */
    public AtomicCounter connectionsActive()
    {
        return connectionsActive;
    }

    /**
     * @return logins accepted.
     */
    public AtomicCounter loginsAccepted()
    {
        return loginsAccepted;
    }

    /**
     * @return distinct items open on the item sources now.
     */
    public AtomicCounter itemsOpen()
    {
        return itemsOpen;
    }

    /**
     * @return consumer item streams open now.
     */
    public AtomicCounter watchlistEntries()
    {
        return watchlistEntries;
    }

    /**
     * @return messages received from consumers.
     */
    public AtomicCounter messagesIn()
    {
        return messagesIn;
    }

    /**
     * @return messages written to consumers.
     */
    public AtomicCounter messagesOut()
    {
        return messagesOut;
    }

    /**
     * @return item refreshes written.
     */
    public AtomicCounter refreshesOut()
    {
        return refreshesOut;
    }

    /**
     * @return item updates written.
     */
    public AtomicCounter updatesOut()
    {
        return updatesOut;
    }

    /**
     * @return item statuses written.
     */
    public AtomicCounter statusOut()
    {
        return statusOut;
    }

    /**
     * @return refreshes for new watchers answered from the item cache.
     */
    public AtomicCounter cacheRefreshes()
    {
        return cacheRefreshes;
    }

    /**
     * @return image requests the item cache passed upstream.
     */
    public AtomicCounter cacheMisses()
    {
        return cacheMisses;
    }

    /**
     * @return consumer messages not acted on (see {@link MdCounters#P2P_MESSAGES_IGNORED_TYPE_ID}).
     */
    public AtomicCounter messagesIgnored()
    {
        return messagesIgnored;
    }

    /**
     * @return consumers' posts sent on towards their provider.
     */
    public AtomicCounter postsSent()
    {
        return postsSent;
    }

    /**
     * @return posts acknowledged to their posters.
     */
    public AtomicCounter postsAcked()
    {
        return postsAcked;
    }

    /**
     * @return posts refused with a NAK (here or upstream).
     */
    public AtomicCounter postsRefused()
    {
        return postsRefused;
    }

    /**
     * @return posts whose outcome did not come within the post timeout.
     */
    public AtomicCounter postsTimedOut()
    {
        return postsTimedOut;
    }

    /**
     * @param reason why.
     * @return the disconnect counter of that reason.
     */
    public AtomicCounter disconnects(final DisconnectReason reason)
    {
        return disconnects[reason.code()];
    }

    /**
     * @return updates not written to consumers that were behind (conflate policy).
     */
    public AtomicCounter updatesConflated()
    {
        return updatesConflated;
    }

    /**
     * @return entitlement file versions applied after the first.
     */
    public AtomicCounter entitlementReloads()
    {
        return entitlementReloads;
    }

    /**
     * @return entitlement file changes that were not valid.
     */
    public AtomicCounter entitlementReloadFailures()
    {
        return entitlementReloadFailures;
    }

    /**
     * @param reason why.
     * @return the rejected-request counter of that reason.
     */
    public AtomicCounter rejected(final RejectReason reason)
    {
        return rejected[reason.code()];
    }

    /**
     * The counters of one service, allocated when a worker first opens an item of it and kept for the server's
     * life. Synchronized: workers on different threads may meet a new service at once (rare, never per message).
     *
     * @param serviceId   the consumer-facing service id.
     * @param serviceName its name, for the labels.
     * @return the service's counters.
     */
    public synchronized ServiceCounters service(final int serviceId, final String serviceName)
    {
        ServiceCounters service = services.get(serviceId);
        if (null == service)
        {
            final String label = " service=" + serviceName + suffix;
            service = new ServiceCounters(
                serviceId,
                serviceName,
                countersManager.newCounter("p2p-service-items:" + label, MdCounters.P2P_SERVICE_ITEMS_TYPE_ID),
                countersManager.newCounter(
                    "p2p-service-updates-in:" + label, MdCounters.P2P_SERVICE_UPDATES_IN_TYPE_ID));
            services.put(serviceId, service);
        }
        return service;
    }

    /**
     * @return the counters of every service met so far, in no particular order.
     */
    public synchronized List<ServiceCounters> services()
    {
        return new ArrayList<>(services.values());
    }

    /**
     * Free every counter.
     */
    @Override
    public synchronized void close()
    {
        for (final ServiceCounters service : services.values())
        {
            service.itemsOpen.close();
            service.updatesIn.close();
        }
        services.clear();
        connectionsActive.close();
        loginsAccepted.close();
        itemsOpen.close();
        watchlistEntries.close();
        messagesIn.close();
        messagesOut.close();
        refreshesOut.close();
        updatesOut.close();
        statusOut.close();
        cacheRefreshes.close();
        cacheMisses.close();
        messagesIgnored.close();
        updatesConflated.close();
        postsSent.close();
        postsAcked.close();
        postsRefused.close();
        postsTimedOut.close();
        backboneReconnects.close();
        backboneUp.close();
        entitlementReloads.close();
        entitlementReloadFailures.close();
        for (final AtomicCounter counter : disconnects)
        {
            counter.close();
        }
        for (final AtomicCounter counter : rejected)
        {
            counter.close();
        }
    }

    /**
     * Per-service counters: items open (a level) and updates received (a running total, so a metrics dashboard shows
     * it as a rate). Workers add to them with atomic operations, batched per source event like the totals above.
     */
    public static final class ServiceCounters
    {
        private final int serviceId;
        private final String serviceName;
        private final AtomicCounter itemsOpen;
        private final AtomicCounter updatesIn;

        ServiceCounters(
            final int serviceId, final String serviceName, final AtomicCounter itemsOpen, final AtomicCounter updatesIn)
        {
            this.serviceId = serviceId;
            this.serviceName = serviceName;
            this.itemsOpen = itemsOpen;
            this.updatesIn = updatesIn;
        }

        /**
         * @return the service id.
         */
        public int serviceId()
        {
            return serviceId;
        }

        /**
         * @return the service name the counters were labelled with.
         */
        public String serviceName()
        {
            return serviceName;
        }

        /**
         * @return distinct items of the service open now.
         */
        public AtomicCounter itemsOpen()
        {
            return itemsOpen;
        }

        /**
         * @return updates of the service received so far.
         */
        public AtomicCounter updatesIn()
        {
            return updatesIn;
        }
    }
}
