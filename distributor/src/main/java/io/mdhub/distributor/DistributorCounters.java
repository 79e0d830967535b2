package io.mdhub.distributor;

import java.nio.charset.StandardCharsets;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.status.MdCounters;

/**
 * The distributor-wide counters, and the allocation of per-service and per-connection counters from the same
 * {@link CountersManager}. CountersManager allocation is not thread safe: after conclude, allocate only on the
 * distributor's event loop. Labels follow {@code "<type>: key=value ..."}.
 */
final class DistributorCounters implements AutoCloseable
{
    private final CountersManager countersManager;
    private final String suffix;
    private final AtomicCounter providersActive;
    private final AtomicCounter loginsRejected;
    private final AtomicCounter messagesDropped;
    private final AtomicCounter sinkItemsOpened;
    private final AtomicCounter sinkItemsClosed;
    private final AtomicCounter sinkReissues;
    private final AtomicCounter routeConnectFailures;
    private final AtomicCounter postsApplied;
    private final AtomicCounter postsForwarded;
    private final AtomicCounter postsRefused;
    private final AtomicCounter servicesRefused;
    private final AtomicCounter entitlementReloads;
    private final AtomicCounter entitlementReloadFailures;
    private final AtomicCounter[] disconnects = new AtomicCounter[ProviderDisconnectReason.values().length];
    private final AtomicCounter[] itemsRejected = new AtomicCounter[ItemRejectReason.values().length];

    DistributorCounters(final CountersManager countersManager, final String component)
    {
        this.countersManager = countersManager;
        this.suffix = " component=" + component;
        providersActive = newCounter(MdCounters.DISTRIBUTOR_PROVIDERS_ACTIVE_TYPE_ID, "distributor-providers-active:");
        loginsRejected = newCounter(MdCounters.DISTRIBUTOR_LOGINS_REJECTED_TYPE_ID, "distributor-logins-rejected:");
        messagesDropped = newCounter(
            MdCounters.DISTRIBUTOR_MESSAGES_DROPPED_TYPE_ID, "distributor-messages-dropped:");
        sinkItemsOpened = newCounter(
            MdCounters.DISTRIBUTOR_SINK_ITEMS_OPENED_TYPE_ID, "distributor-sink-items-opened:");
        sinkItemsClosed = newCounter(
            MdCounters.DISTRIBUTOR_SINK_ITEMS_CLOSED_TYPE_ID, "distributor-sink-items-closed:");
        sinkReissues = newCounter(MdCounters.DISTRIBUTOR_SINK_REISSUES_TYPE_ID, "distributor-sink-reissues:");
        routeConnectFailures = newCounter(
            MdCounters.DISTRIBUTOR_ROUTE_CONNECT_FAILURES_TYPE_ID, "distributor-route-connect-failures:");
        postsApplied = newKeyedCounter(MdCounters.DISTRIBUTOR_POSTS_TYPE_ID, 1, "distributor-posts: outcome=applied");
        postsForwarded = newKeyedCounter(
            MdCounters.DISTRIBUTOR_POSTS_TYPE_ID, 2, "distributor-posts: outcome=forwarded");
        postsRefused = newKeyedCounter(MdCounters.DISTRIBUTOR_POSTS_TYPE_ID, 3, "distributor-posts: outcome=refused");
        servicesRefused = newCounter(
            MdCounters.ENTITLEMENT_SERVICES_REFUSED_TYPE_ID, "entitlement-services-refused:");
        entitlementReloads = newCounter(MdCounters.ENTITLEMENT_RELOADS_TYPE_ID, "entitlement-reloads:");
        entitlementReloadFailures = newCounter(
            MdCounters.ENTITLEMENT_RELOAD_FAILURES_TYPE_ID, "entitlement-reload-failures:");
        for (final ProviderDisconnectReason reason : ProviderDisconnectReason.values())
        {
            disconnects[reason.code()] = newKeyedCounter(MdCounters.DISTRIBUTOR_DISCONNECTS_TYPE_ID, reason.code(),
                "distributor-disconnects: reason=" + reason.label());
        }
        for (final ItemRejectReason reason : ItemRejectReason.values())
        {
            itemsRejected[reason.code()] = newKeyedCounter(MdCounters.DISTRIBUTOR_ITEMS_REJECTED_TYPE_ID,
                reason.code(), "distributor-items-rejected: reason=" + reason.label());
        }
    }

    /**
     * @return services providers announced that they may not publish.
     */
    AtomicCounter servicesRefused()
    {
        return servicesRefused;
    }

    /**
     * @return entitlement file versions applied after the first.
     */
    AtomicCounter entitlementReloads()
    {
        return entitlementReloads;
    }

    /**
     * @return entitlement file changes that were not valid.
     */
    AtomicCounter entitlementReloadFailures()
    {
        return entitlementReloadFailures;
    }

    private AtomicCounter newKeyedCounter(final int typeId, final int code, final String label)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[Integer.BYTES]);
        key.putInt(0, code);
        final UnsafeBuffer labelBuffer = new UnsafeBuffer((label + suffix).getBytes(StandardCharsets.US_ASCII));
        return countersManager.newCounter(typeId, key, 0, Integer.BYTES, labelBuffer, 0, labelBuffer.capacity());
    }

    /**
     * Allocate a counter labelled with the component.
     *
     * @param typeId an {@link MdCounters} type id.
     * @param label  the label up to the component suffix, e.g. {@code "distributor-service-items: service=X"}.
     * @return the counter; close it to free its slot.
     */
    AtomicCounter newCounter(final int typeId, final String label)
    {
        return countersManager.newCounter(label + suffix, typeId);
    }

    AtomicCounter providersActive()
    {
        return providersActive;
    }

    AtomicCounter loginsRejected()
    {
        return loginsRejected;
    }

    AtomicCounter messagesDropped()
    {
        return messagesDropped;
    }

    AtomicCounter sinkItemsOpened()
    {
        return sinkItemsOpened;
    }

    AtomicCounter sinkItemsClosed()
    {
        return sinkItemsClosed;
    }

    AtomicCounter sinkReissues()
    {
        return sinkReissues;
    }

    AtomicCounter routeConnectFailures()
    {
        return routeConnectFailures;
    }

    /**
     * @return posts applied to a non-interactive service's cache and published.
     */
    public AtomicCounter postsApplied()
    {
        return postsApplied;
    }

    /**
     * @return posts forwarded to a mounted provider.
     */
    public AtomicCounter postsForwarded()
    {
        return postsForwarded;
    }

    /**
     * @return posts refused with a NAK.
     */
    public AtomicCounter postsRefused()
    {
        return postsRefused;
    }

    AtomicCounter disconnects(final ProviderDisconnectReason reason)
    {
        return disconnects[reason.code()];
    }

    AtomicCounter itemsRejected(final ItemRejectReason reason)
    {
        return itemsRejected[reason.code()];
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(disconnects);
        CloseHelper.closeAll(itemsRejected);
        CloseHelper.closeAll(providersActive, loginsRejected, messagesDropped, sinkItemsOpened, sinkItemsClosed,
            sinkReissues, routeConnectFailures, postsApplied, postsForwarded, postsRefused, servicesRefused,
            entitlementReloads, entitlementReloadFailures);
    }
}
