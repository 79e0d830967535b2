package io.mdhub.distributor;

import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;

import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.cache.ImageScratch;
import io.mdhub.common.log.LogSummary;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.LoginRequestDecoder;
import io.mdhub.common.rwf.eta.LoginResponseEncoder;
import io.mdhub.common.rwf.eta.StatusMsgEncoder;

/**
 * The state of one distributor and the tools that work on it, all owned by the distributor's single event-loop
 * thread: the service directory with its item caches, the provider sessions, the listener, the counters, and one
 * instance of each flyweight, ETA reader/writer and scratch buffer, shared by every session because only that one
 * thread ever uses them (single writer: no locks anywhere), and the {@link ProviderReadGate} through which the
 * backbone pauses the providers' reading.
 */
final class DistributorCore
{
    final String component;
    final int maxProviders;
    final int providerMaxOutputBytes;
    final long loginTimeoutNs;
    final DistributorListener listener;
    final DistributorCounters counters;
    final ServiceDirectory directory;
    final ProviderReadGate readGate;
    final long partialFrameTimeoutNs;
    final Long2ObjectHashMap<ProviderLink> sessions = new Long2ObjectHashMap<>();
    final RwfMsgFlyweight msg = new RwfMsgFlyweight();
    final ImageScratch imageScratch = new ImageScratch();
    final EtaMsgReader reader = new EtaMsgReader();
    final EtaMsgWriter writer = new EtaMsgWriter();
    final StatusMsgEncoder statusEncoder = new StatusMsgEncoder();
    final ServiceIdRewriter rewriter = new ServiceIdRewriter();
    final ExpandableDirectByteBuffer scratch = new ExpandableDirectByteBuffer(1024);
    final LoginRequestDecoder loginDecoder = new LoginRequestDecoder();
    final LoginResponseEncoder loginEncoder = new LoginResponseEncoder("MDHub distributor", 0, 0, 0, 0);
    final Buffer loginAcceptText = CodecFactory.createBuffer();
    final Buffer loginRejectText = CodecFactory.createBuffer();
    final ItemFeed items;
    final ItemGroups groups;
    final DirectoryFeed directoryFeed;
    final SinkDrivenItems sinkItems;
    final ItemPosts posts;
    /** Which provider logins may publish which services; set by the launcher (no checks until then). */
    ProviderEntitlements entitlements;
    /** Provider disconnects logged a few at a time, a flood of them summarised. */
    final LogSummary disconnectLog;
    private long nextConnectionId = 1;

    DistributorCore(
        final String component,
        final int maxProviders,
        final int maxServices,
        final int maxItemsPerService,
        final DistributorListener listener,
        final DistributorCounters counters)
    {
        this(component, maxProviders, DistributorConfiguration.PROVIDER_MAX_OUTPUT_BYTES_DEFAULT,
            DistributorConfiguration.LOGIN_TIMEOUT_DEFAULT_NS,
            new ServiceDirectory(maxServices, maxItemsPerService, counters, new ImageUpdates(null)), listener, counters,
            new ProviderReadGate(null, counters), RipcConfiguration.PARTIAL_FRAME_TIMEOUT_DEFAULT_NS,
            new SinkDrivenItems(false, true), new ItemPosts());
    }

    @SuppressWarnings("checkstyle:ParameterNumber") // the parts the launcher builds around one event loop
    DistributorCore(
        final String component,
        final int maxProviders,
        final int providerMaxOutputBytes,
        final long loginTimeoutNs,
        final ServiceDirectory directory,
        final DistributorListener listener,
        final DistributorCounters counters,
        final ProviderReadGate readGate,
        final long partialFrameTimeoutNs,
        final SinkDrivenItems sinkItems,
        final ItemPosts posts)
    {
        this.component = component;
        this.maxProviders = maxProviders;
        this.providerMaxOutputBytes = providerMaxOutputBytes;
        this.loginTimeoutNs = loginTimeoutNs;
        this.listener = listener;
        this.counters = counters;
        this.directory = directory;
        this.readGate = readGate;
        this.partialFrameTimeoutNs = partialFrameTimeoutNs;
        this.items = new ItemFeed(this);
        this.groups = new ItemGroups(this);
        this.directoryFeed = new DirectoryFeed(this);
        this.sinkItems = sinkItems;
        sinkItems.attach(this);
        this.posts = posts;
        posts.attach(this);
        this.entitlements = ProviderEntitlements.open(counters.servicesRefused(), component);
        this.disconnectLog = new LogSummary(LoggerFactory.getLogger(ProviderLink.class), component,
            "provider disconnects", ProviderDisconnectReason.values().length);
        loginAcceptText.data("Provider login accepted by MDHub distributor " + component);
        loginRejectText.data("MDHub distributor accepts provider logins only (Role=1, non-interactive provider)");
    }

    void close()
    {
        readGate.close();
        directory.close();
        counters.close();
    }

    long nextConnectionId()
    {
        return nextConnectionId++;
    }

    /**
     * The entitlements changed (event loop): a provider that lost the right to log in or to publish a service it
     * publishes is disconnected; it logs in again under the new rules.
     */
    void onEntitlementsChanged()
    {
        final java.util.ArrayList<ProviderLink> refused = new java.util.ArrayList<>();
        final java.util.ArrayList<String> reasons = new java.util.ArrayList<>();
        for (final ProviderLink link : sessions.values())
        {
            if (!link.isRoute() && link.isLoggedIn)
            {
                final String why = entitlements.withdrawn(link);
                if (null != why)
                {
                    refused.add(link);
                    reasons.add(why);
                }
            }
        }
        for (int i = 0; i < refused.size(); i++)
        {
            refused.get(i).disconnect(ProviderDisconnectReason.ENTITLEMENT_WITHDRAWN, reasons.get(i));
        }
    }
}
