package io.mdhub.distributor;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.config.BaseContext;
import io.mdhub.common.entitlement.EntitlementConfiguration;
import io.mdhub.common.entitlement.EntitlementSource;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.entitlement.WatchedEntitlementFile;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.status.InMemoryCounters;
import io.mdhub.common.tls.TlsSettings;
import io.mdhub.common.ripc.RipcTransport;
import io.mdhub.distributor.backbone.DistributorBackbone;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;

/**
 * Settings of a {@link Distributor}, the body of {@link Distributor.Context}: defaults from
 * {@link DistributorConfiguration} (and, for the provider listener's transport, {@link RipcConfiguration}).
 * {@link #conclude()} validates them and creates what the distributor runs on: its one event loop, the counters, the
 * core that owns every distributor structure, the backbone runtime and the entitlement checks; {@link #close()}
 * releases exactly what it created. A class of its own, generic in the concrete Context as {@code RipcContext} is,
 * so that {@link Distributor} holds the component and this file the settings.
 *
 * @param <T> the concrete Context type, so fluent setters return it.
 */
public abstract class DistributorSettings<T extends DistributorSettings<T>> extends BaseContext<T>
{
    private static final int COUNTERS_HEADROOM = 128;

    private int providerPort = DistributorConfiguration.providerPort();
    private boolean tlsEnabled = DistributorConfiguration.tlsEnabled();
    private TlsSettings tls;
    private String bindAddress = DistributorConfiguration.bindAddress();
    private int maxItemsPerService = DistributorConfiguration.maxItemsPerService();
    private int maxServices = DistributorConfiguration.maxServices();
    private int maxProviders = DistributorConfiguration.maxProviders();
    private int providerMaxOutputBytes = DistributorConfiguration.providerMaxOutputBytes();
    private long loginTimeoutNs = DistributorConfiguration.loginTimeoutNs();
    private String componentName = DistributorConfiguration.componentName();
    private boolean useEpoll = RipcConfiguration.epoll();
    private boolean registerMBean = true;
    private DistributorListener listener;
    private EntitlementSource entitlementSource;
    private boolean ownsEntitlementSource;
    private LoginThrottle loginThrottle;
    private CountersManager countersManager;
    private RipcServer.Context ripc = new RipcServer.Context();
    private DistributorBackbone.Context backbone = new DistributorBackbone.Context();
    private DistributorBackbone backboneRuntime;
    private String routes = DistributorConfiguration.routes();
    private String routeMirroring = DistributorConfiguration.routeMirroring();
    private boolean routeCacheEnabled = DistributorConfiguration.routeCacheEnabled();
    private int routeReconnectMs = DistributorConfiguration.routeReconnectMs();
    private String routeUser = DistributorConfiguration.routeUser();
    private long routePostTimeoutNs = DistributorConfiguration.routePostTimeoutNs();
    private List<RouteEndpoint> routeEndpoints = List.of();

    private InMemoryCounters ownCounters;
    private EventLoopGroup eventLoopGroup;
    private EventLoop eventLoop;
    private DistributorCore core;

    @Override
    protected void concludeContext()
    {
        requireRange(DistributorConfiguration.PROVIDER_PORT_PROP_NAME, providerPort, 0, 0xFFFF);
        requireRange(DistributorConfiguration.MAX_ITEMS_PER_SERVICE_PROP_NAME, maxItemsPerService, 1,
            Integer.MAX_VALUE);
        requireRange(DistributorConfiguration.MAX_SERVICES_PROP_NAME, maxServices, 1, 0xFFFF);
        requireRange(DistributorConfiguration.MAX_PROVIDERS_PROP_NAME, maxProviders, 1, 0xFFFF);
        requireRange(DistributorConfiguration.PROVIDER_MAX_OUTPUT_BYTES_PROP_NAME, providerMaxOutputBytes, 4096,
            Integer.MAX_VALUE);
        requirePositive(DistributorConfiguration.LOGIN_TIMEOUT_PROP_NAME, loginTimeoutNs);
        if (null == componentName || componentName.isEmpty())
        {
            throw new IllegalArgumentException(DistributorConfiguration.COMPONENT_NAME_PROP_NAME + " is empty");
        }
        if (null == listener)
        {
            listener = new DistributorListener()
            {
            };
        }
        requireRange(DistributorConfiguration.ROUTE_RECONNECT_MS_PROP_NAME, routeReconnectMs, 1,
            DistributorConfiguration.ROUTE_RECONNECT_MS_MAX);
        requirePositive("routePostTimeoutNs", routePostTimeoutNs);
        final boolean isLoadBalancing = "load-balance".equals(routeMirroring);
        if (!isLoadBalancing && !"hot-standby".equals(routeMirroring))
        {
            throw new IllegalArgumentException(DistributorConfiguration.ROUTE_MIRRORING_PROP_NAME +
                " must be hot-standby or load-balance: " + routeMirroring);
        }
        routeEndpoints = RouteEndpoint.parse(routes, routeUser, routeReconnectMs);
        backbone.conclude();
        if (null == countersManager)
        {
            ownCounters = new InMemoryCounters(COUNTERS_HEADROOM + 3 * maxServices + 2 * maxProviders);
            countersManager = ownCounters.manager();
        }
        // ONE thread: it owns every distributor structure (single writer, no locks)
        eventLoopGroup = RipcTransport.newEventLoopGroup(
            1, useEpoll, Distributor.EVENT_LOOP_THREAD_PREFIX + componentName);
        eventLoop = eventLoopGroup.next();
        final DistributorCounters counters = new DistributorCounters(countersManager, componentName);
        final ServiceDirectory directory = new ServiceDirectory(maxServices, maxItemsPerService, counters,
            new ImageUpdates(eventLoop));
        final ProviderReadGate readGate = new ProviderReadGate(eventLoop, counters);
        DistributorListener listeners = listener;
        final SinkDrivenItems sinkItems = new SinkDrivenItems(isLoadBalancing, routeCacheEnabled,
            routePostTimeoutNs);
        final ItemPosts posts = new ItemPosts();
        if (backbone.isActive())
        {
            backboneRuntime = new DistributorBackbone(
                backbone, directory, countersManager, componentName, eventLoop, readGate, sinkItems, posts);
            listeners = new CompositeDistributorListener(backboneRuntime.outbound(), listener);
        }
        core = new DistributorCore(componentName, maxProviders, providerMaxOutputBytes, loginTimeoutNs, directory,
            listeners, counters, readGate, ripc.partialFrameTimeoutNs(), sinkItems, posts);
        concludeEntitlements(counters);
        final DistributorCore sessionsCore = core;
        ripc.port(providerPort)
            // key material is read now: a wrong path or password stops the distributor before it listens
            .sslContext(tlsEnabled ? TlsSettings.orConfiguration(tls).nettyServerContext() :
                null)
            .bindAddress(bindAddress)
            .componentName(componentName)
            .eventLoopGroup(eventLoopGroup)
            .countersManager(countersManager)
            .channelHook((channel) -> channel.pipeline().addLast(new ProviderSession(sessionsCore)));
    }

    /**
     * Stop the event loop (waiting for it), then free the counters and, if this Context created it, the
     * counters memory.
     */
    @Override
    public void close()
    {
        if (null != eventLoopGroup)
        {
            eventLoopGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            eventLoopGroup = null;
        }
        if (ownsEntitlementSource)
        {
            CloseHelper.quietClose(entitlementSource);
            entitlementSource = null;
            ownsEntitlementSource = false;
        }
        if (null != backboneRuntime)
        {
            backboneRuntime.close();
            backboneRuntime = null;
        }
        backbone.close();
        if (null != core)
        {
            core.close();
            core = null;
        }
        if (null != ownCounters)
        {
            countersManager = null;
            ownCounters.close();
            ownCounters = null;
        }
    }

    /**
     * @param providerPort TCP port providers connect to, 0 for an ephemeral one.
     * @return this.
     */
    public T providerPort(final int providerPort)
    {
        checkNotConcluded();
        this.providerPort = providerPort;
        return self();
    }

    /**
     * @param tlsEnabled whether the provider port speaks TLS.
     * @return this.
     */
    public T tlsEnabled(final boolean tlsEnabled)
    {
        checkNotConcluded();
        this.tlsEnabled = tlsEnabled;
        return self();
    }

    /**
     * @return whether the provider port speaks TLS.
     */
    public boolean tlsEnabled()
    {
        return tlsEnabled;
    }

    /**
     * @param tls TLS settings of the provider port; when null, conclude reads the {@code mdhub.tls.*} keys.
     * @return this.
     */
    public T tls(final TlsSettings tls)
    {
        checkNotConcluded();
        this.tls = tls;
        return self();
    }

    /**
     * @return the provider port.
     */
    public int providerPort()
    {
        return providerPort;
    }

    /**
     * @param bindAddress address the provider listener binds to.
     * @return this.
     */
    public T bindAddress(final String bindAddress)
    {
        checkNotConcluded();
        this.bindAddress = bindAddress;
        return self();
    }

    /**
     * @return the bind address.
     */
    public String bindAddress()
    {
        return bindAddress;
    }

    /**
     * @param maxItemsPerService most items one service caches.
     * @return this.
     */
    public T maxItemsPerService(final int maxItemsPerService)
    {
        checkNotConcluded();
        this.maxItemsPerService = maxItemsPerService;
        return self();
    }

    /**
     * @return the most items per service.
     */
    public int maxItemsPerService()
    {
        return maxItemsPerService;
    }

    /**
     * @param maxServices most services across providers.
     * @return this.
     */
    public T maxServices(final int maxServices)
    {
        checkNotConcluded();
        this.maxServices = maxServices;
        return self();
    }

    /**
     * @return the most services.
     */
    public int maxServices()
    {
        return maxServices;
    }

    /**
     * @param maxProviders most provider connections at once.
     * @return this.
     */
    public T maxProviders(final int maxProviders)
    {
        checkNotConcluded();
        this.maxProviders = maxProviders;
        return self();
    }

    /**
     * @return the most provider connections.
     */
    public int maxProviders()
    {
        return maxProviders;
    }

    /**
     * @param providerMaxOutputBytes bytes that may wait to be written to one provider connection before it is
     *                               disconnected as slow.
     * @return this.
     */
    public T providerMaxOutputBytes(final int providerMaxOutputBytes)
    {
        this.providerMaxOutputBytes = providerMaxOutputBytes;
        return self();
    }

    /**
     * @return the output one provider connection may hold, in bytes.
     */
    public int providerMaxOutputBytes()
    {
        return providerMaxOutputBytes;
    }

    /**
     * @param loginTimeoutNs longest time from a provider's handshake to its login request before it is closed.
     * @return this.
     */
    public T loginTimeoutNs(final long loginTimeoutNs)
    {
        checkNotConcluded();
        this.loginTimeoutNs = loginTimeoutNs;
        return self();
    }

    /**
     * @return the longest time a provider connection may stay without a login, in nanoseconds.
     */
    public long loginTimeoutNs()
    {
        return loginTimeoutNs;
    }

    /**
     * @param componentName name in the handshake, logs, counter labels and the MBean name.
     * @return this.
     */
    public T componentName(final String componentName)
    {
        checkNotConcluded();
        this.componentName = componentName;
        return self();
    }

    /**
     * @return the component name.
     */
    public String componentName()
    {
        return componentName;
    }

    /**
     * @param useEpoll use native epoll when available.
     * @return this.
     */
    public T useEpoll(final boolean useEpoll)
    {
        checkNotConcluded();
        this.useEpoll = useEpoll;
        return self();
    }

    /**
     * @return true to use epoll when available.
     */
    public boolean useEpoll()
    {
        return useEpoll;
    }

    /**
     * @param registerMBean register the {@link DistributorMXBean} under the component name.
     * @return this.
     */
    public T registerMBean(final boolean registerMBean)
    {
        checkNotConcluded();
        this.registerMBean = registerMBean;
        return self();
    }

    /**
     * @return true to register the MBean.
     */
    public boolean registerMBean()
    {
        return registerMBean;
    }

    private void concludeEntitlements(final DistributorCounters counters)
    {
        if (null == entitlementSource)
        {
            final java.nio.file.Path file = EntitlementConfiguration.file();
            // an invalid file stops the distributor before it listens
            entitlementSource = null == file ? EntitlementSource.OPEN : WatchedEntitlementFile.open(
                file, counters.entitlementReloads(), counters.entitlementReloadFailures());
            ownsEntitlementSource = null != file;
        }
        if (null == loginThrottle)
        {
            loginThrottle = EntitlementConfiguration.loginThrottle();
        }
        final DistributorCore entitledCore = core;
        entitledCore.entitlements = new ProviderEntitlements(
            entitlementSource, loginThrottle, counters.servicesRefused(), componentName);
        final EventLoop loop = eventLoop;
        entitlementSource.onChange(() ->
        {
            try
            {
                loop.execute(entitledCore::onEntitlementsChanged);
            }
            catch (final java.util.concurrent.RejectedExecutionException ex)
            {
                // closing: no provider left to check
            }
        });
    }

    /**
     * @param source which provider logins may publish which services (default: the file
     *               {@code mdhub.entitlements.file} if set, else no checks). Not closed by this Context.
     * @return this.
     */
    public T entitlementSource(final EntitlementSource source)
    {
        checkNotConcluded();
        this.entitlementSource = source;
        return self();
    }

    /**
     * @param throttle failed provider logins per address (default from {@code mdhub.entitlements.login.*}).
     * @return this.
     */
    public T loginThrottle(final LoginThrottle throttle)
    {
        checkNotConcluded();
        this.loginThrottle = throttle;
        return self();
    }

    /**
     * @param listener receives the distributor's events on its event loop; a no-op one when null.
     * @return this.
     */
    public T listener(final DistributorListener listener)
    {
        checkNotConcluded();
        this.listener = listener;
        return self();
    }

    /**
     * @return the listener.
     */
    public DistributorListener listener()
    {
        return listener;
    }

    /**
     * @param countersManager where counters are allocated (not freed by this Context); when null, conclude
     *                        creates an in-memory one sized for the service and provider limits.
     * @return this.
     */
    public T countersManager(final CountersManager countersManager)
    {
        checkNotConcluded();
        this.countersManager = countersManager;
        return self();
    }

    /**
     * @return the CountersManager (after conclude, the one in use).
     */
    public CountersManager countersManager()
    {
        return countersManager;
    }

    /**
     * The provider listener's transport settings (ping timeouts, frame sizes, packing), from the
     * {@code mdhub.ripc.*} keys; change them before launch. Port, bind address, component name, event loop,
     * counters and the channel hook are set from this Context at conclude.
     *
     * @return the RIPC server Context.
     */
    public RipcServer.Context ripc()
    {
        return ripc;
    }

    /**
     * @param routes interactive providers to mount, {@code host:port,...} (blank for none).
     * @return this.
     */
    public T routes(final String routes)
    {
        checkNotConcluded();
        this.routes = routes;
        return self();
    }

    /**
     * @return the interactive providers to mount.
     */
    public String routes()
    {
        return routes;
    }

    /**
     * @param routeMirroring {@code hot-standby} or {@code load-balance}.
     * @return this.
     */
    public T routeMirroring(final String routeMirroring)
    {
        checkNotConcluded();
        this.routeMirroring = routeMirroring;
        return self();
    }

    /**
     * @return the mirroring mode of mounted services.
     */
    public String routeMirroring()
    {
        return routeMirroring;
    }

    /**
     * @param routeCacheEnabled keep images of sink-driven items (false: every request gets a fresh refresh).
     * @return this.
     */
    public T routeCacheEnabled(final boolean routeCacheEnabled)
    {
        checkNotConcluded();
        this.routeCacheEnabled = routeCacheEnabled;
        return self();
    }

    /**
     * @return true if sink-driven items are cached.
     */
    public boolean routeCacheEnabled()
    {
        return routeCacheEnabled;
    }

    /**
     * @param routeReconnectMs wait between connection attempts to a mounted provider.
     * @return this.
     */
    public T routeReconnectMs(final int routeReconnectMs)
    {
        checkNotConcluded();
        this.routeReconnectMs = routeReconnectMs;
        return self();
    }

    /**
     * @return the wait between connection attempts to a mounted provider, in milliseconds.
     */
    public int routeReconnectMs()
    {
        return routeReconnectMs;
    }

    /**
     * @param routeUser user name for the logins on mounted providers.
     * @return this.
     */
    public T routeUser(final String routeUser)
    {
        checkNotConcluded();
        this.routeUser = routeUser;
        return self();
    }

    /**
     * @return user name for the logins on mounted providers.
     */
    public String routeUser()
    {
        return routeUser;
    }

    /**
     * @param routePostTimeoutNs how long a post forwarded to a mounted provider waits for its AckMsg before the
     *                           poster is answered NAK NO_RESPONSE.
     * @return this.
     */
    public T routePostTimeoutNs(final long routePostTimeoutNs)
    {
        checkNotConcluded();
        this.routePostTimeoutNs = routePostTimeoutNs;
        return self();
    }

    /**
     * @return how long a post forwarded to a mounted provider waits for its answer, in nanoseconds.
     */
    public long routePostTimeoutNs()
    {
        return routePostTimeoutNs;
    }

    List<RouteEndpoint> routeEndpoints()
    {
        return routeEndpoints;
    }

    EventLoopGroup eventLoopGroup()
    {
        return eventLoopGroup;
    }

    /**
     * @return a copy with the same settings that owns nothing and has a fresh RIPC Context with the same
     * transport settings.
     */
    @Override
    public T clone()
    {
        final T clone = super.clone();
        final DistributorSettings<T> copy = clone; // private fields are reached through the class, not through T
        copy.ripc = ripc.clone();
        copy.backbone = backbone.clone();
        copy.backboneRuntime = null;
        copy.countersManager = null != ownCounters ? null : countersManager;
        copy.ownCounters = null;
        copy.eventLoopGroup = null;
        copy.eventLoop = null;
        copy.core = null;
        copy.routeEndpoints = List.of();
        return clone;
    }

    /**
     * The backbone settings, from the {@code mdhub.distributor.backbone.*} keys: give it an Aeron client or an
     * Aeron directory to publish onto the backbone; change them before launch.
     *
     * @return the backbone Context.
     */
    public DistributorBackbone.Context backbone()
    {
        return backbone;
    }

    DistributorBackbone backboneRuntime()
    {
        return backboneRuntime;
    }

    EventLoop eventLoop()
    {
        return eventLoop;
    }

    DistributorCore core()
    {
        return core;
    }
}
