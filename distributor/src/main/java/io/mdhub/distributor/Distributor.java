package io.mdhub.distributor;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import javax.management.ObjectName;

import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import io.mdhub.common.config.BaseContext;
import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.entitlement.EntitlementConfiguration;
import io.mdhub.common.entitlement.EntitlementSource;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.entitlement.WatchedEntitlementFile;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.tls.TlsSettings;
import io.mdhub.common.ripc.RipcTransport;
import io.mdhub.distributor.backbone.DistributorBackbone;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;

/**
 * The Source Distributor: an RSSL server that ETA non-interactive providers publish into. It logs providers in,
 * merges their source directories into one {@link ServiceDirectory}, caches every published item's image per service
 * and hands every refresh, update, status and service change to one {@link DistributorListener} (the backbone
 * publisher).
 * <p>
 * Threading: the provider listener runs on ONE Netty event loop, and that thread owns all distributor state (the
 * directory, the caches, the sessions, the counters it allocates after launch). Nothing is shared with another
 * thread, so nothing is locked; JMX calls and {@link #onEventLoop(Function)} hop onto the event loop and wait.
 * The listener is called on that thread.
 * <pre>{@code
 * try (Distributor distributor = Distributor.launch(new Distributor.Context().listener(publisher)))
 * { ... }
 * }</pre>
 */
public final class Distributor implements AutoCloseable
{
    /**
     * How the name of the distributor's event-loop thread begins (then the component name): what operators and the
     * latency benchmark look for to place and prioritise it.
     */
    public static final String EVENT_LOOP_THREAD_PREFIX = "distributor-";

    private static final long CLOSE_TIMEOUT_SECONDS = 5;

    private final Context ctx;
    private final RipcServer server;
    private final DistributorControl control;
    private final ObjectName mbeanName;

    private Distributor(final Context ctx)
    {
        this.ctx = ctx;
        this.control = new DistributorControl(ctx.core(), ctx.eventLoop());
        RipcServer launched = null;
        ObjectName registered = null;
        try
        {
            if (null != ctx.backboneRuntime())
            {
                ctx.backboneRuntime().start();
            }
            launched = RipcServer.launch(ctx.ripc());
            for (final RouteEndpoint endpoint : ctx.routeEndpoints())
            {
                endpoint.start(ctx.core(), ctx.eventLoopGroup(), ctx.componentName());
            }
            if (ctx.registerMBean())
            {
                registered = MBeans.register(ctx.componentName(), control);
            }
        }
        catch (final RuntimeException ex)
        {
            ctx.routeEndpoints().forEach(CloseHelper::quietClose);
            CloseHelper.quietClose(launched);
            throw ex;
        }
        this.server = launched;
        this.mbeanName = registered;
    }

    /**
     * Conclude the Context and start listening for providers. On failure the Context is closed.
     *
     * @param ctx the settings; the distributor owns it from now on and closes it.
     * @return the running distributor.
     */
    public static Distributor launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, Distributor::new);
    }

    /**
     * @return the concluded Context.
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * @return the provider port actually bound (useful with port 0).
     */
    public int port()
    {
        return server.port();
    }

    /**
     * @return the counters (distributor, per service, per connection and the listener's RIPC counters).
     */
    public CountersReader countersReader()
    {
        return ctx.countersManager();
    }

    /**
     * @return the JMX view, usable without JMX.
     */
    public DistributorMXBean mxBean()
    {
        return control;
    }

    /**
     * Run a function against the directory and caches on the event loop that owns them, and wait for its result
     * (at most a few seconds). For tools, tests and the request path of a later in-process caller; never call it on
     * a hot path.
     *
     * @param query reads the directory; must not keep references to buffers or items after it returns.
     * @param <T>   the result type.
     * @return what the function returned.
     */
    public <T> T onEventLoop(final Function<ServiceDirectory, T> query)
    {
        return control.call(() -> query.apply(ctx.core().directory));
    }

    /**
     * @return the backbone side (publication, control, announcements), or null when the distributor runs without a
     * backbone. Its counters and accessors belong to the event loop: read them through {@link #onEventLoop}.
     */
    public DistributorBackbone backbone()
    {
        return ctx.backboneRuntime();
    }

    /**
     * Stop the backbone duty cycle, unregister the MBean, stop listening and close every provider connection, then
     * close the Context (event loop, backbone publication and subscription, Aeron client if owned, counters).
     */
    @Override
    public void close()
    {
        MBeans.unregister(mbeanName);
        if (null != ctx.backboneRuntime())
        {
            ctx.backboneRuntime().stop();
        }
        // Close the provider connections first and let the event loop run their channelInactive (Netty runs it
        // after the close future completes): sessions free their counters there, and the CountersManager must not
        // be used from two threads at once when the RIPC server frees its own counters next.
        ctx.routeEndpoints().forEach(CloseHelper::quietClose);
        server.channels().close().awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        control.call(() -> Boolean.TRUE);
        CloseHelper.quietClose(server);
        ctx.close();
    }

    /**
     * Settings of a {@link Distributor}; defaults from {@link DistributorConfiguration} (and, for the provider
     * listener's transport, {@link RipcConfiguration}).
     */
    public static final class Context extends BaseContext<Context>
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

        private boolean ownsCountersManager;
        private ByteBuffer countersMetaData;
        private ByteBuffer countersValues;
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
                ownsCountersManager = true;
                final int capacity = COUNTERS_HEADROOM + 3 * maxServices + 2 * maxProviders;
                countersMetaData = ByteBuffer.allocateDirect(capacity * CountersManager.METADATA_LENGTH);
                countersValues = ByteBuffer.allocateDirect(capacity * CountersManager.COUNTER_LENGTH);
                countersManager = new CountersManager(
                    new UnsafeBuffer(countersMetaData), new UnsafeBuffer(countersValues));
            }
            // ONE thread: it owns every distributor structure (single writer, no locks)
            eventLoopGroup = RipcTransport.newEventLoopGroup(1, useEpoll, EVENT_LOOP_THREAD_PREFIX + componentName);
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
                .sslContext(tlsEnabled ? (null == tls ? TlsSettings.fromConfiguration() : tls).nettyServerContext() :
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
            if (ownsCountersManager)
            {
                ownsCountersManager = false;
                countersManager = null;
                BufferUtil.free(countersMetaData);
                BufferUtil.free(countersValues);
            }
        }

        /**
         * @param providerPort TCP port providers connect to, 0 for an ephemeral one.
         * @return this.
         */
        public Context providerPort(final int providerPort)
        {
            checkNotConcluded();
            this.providerPort = providerPort;
            return this;
        }

        /**
         * @param tlsEnabled whether the provider port speaks TLS.
         * @return this.
         */
        public Context tlsEnabled(final boolean tlsEnabled)
        {
            checkNotConcluded();
            this.tlsEnabled = tlsEnabled;
            return this;
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
        public Context tls(final TlsSettings tls)
        {
            checkNotConcluded();
            this.tls = tls;
            return this;
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
        public Context bindAddress(final String bindAddress)
        {
            checkNotConcluded();
            this.bindAddress = bindAddress;
            return this;
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
        public Context maxItemsPerService(final int maxItemsPerService)
        {
            checkNotConcluded();
            this.maxItemsPerService = maxItemsPerService;
            return this;
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
        public Context maxServices(final int maxServices)
        {
            checkNotConcluded();
            this.maxServices = maxServices;
            return this;
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
        public Context maxProviders(final int maxProviders)
        {
            checkNotConcluded();
            this.maxProviders = maxProviders;
            return this;
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
        public Context providerMaxOutputBytes(final int providerMaxOutputBytes)
        {
            this.providerMaxOutputBytes = providerMaxOutputBytes;
            return this;
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
        public Context loginTimeoutNs(final long loginTimeoutNs)
        {
            checkNotConcluded();
            this.loginTimeoutNs = loginTimeoutNs;
            return this;
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
        public Context componentName(final String componentName)
        {
            checkNotConcluded();
            this.componentName = componentName;
            return this;
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
        public Context useEpoll(final boolean useEpoll)
        {
            checkNotConcluded();
            this.useEpoll = useEpoll;
            return this;
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
        public Context registerMBean(final boolean registerMBean)
        {
            checkNotConcluded();
            this.registerMBean = registerMBean;
            return this;
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
        public Context entitlementSource(final EntitlementSource source)
        {
            checkNotConcluded();
            this.entitlementSource = source;
            return this;
        }

        /**
         * @param throttle failed provider logins per address (default from {@code mdhub.entitlements.login.*}).
         * @return this.
         */
        public Context loginThrottle(final LoginThrottle throttle)
        {
            checkNotConcluded();
            this.loginThrottle = throttle;
            return this;
        }

        /**
         * @param listener receives the distributor's events on its event loop; a no-op one when null.
         * @return this.
         */
        public Context listener(final DistributorListener listener)
        {
            checkNotConcluded();
            this.listener = listener;
            return this;
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
        public Context countersManager(final CountersManager countersManager)
        {
            checkNotConcluded();
            this.countersManager = countersManager;
            return this;
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
        public Context routes(final String routes)
        {
            checkNotConcluded();
            this.routes = routes;
            return this;
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
        public Context routeMirroring(final String routeMirroring)
        {
            checkNotConcluded();
            this.routeMirroring = routeMirroring;
            return this;
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
        public Context routeCacheEnabled(final boolean routeCacheEnabled)
        {
            checkNotConcluded();
            this.routeCacheEnabled = routeCacheEnabled;
            return this;
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
        public Context routeReconnectMs(final int routeReconnectMs)
        {
            checkNotConcluded();
            this.routeReconnectMs = routeReconnectMs;
            return this;
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
        public Context routeUser(final String routeUser)
        {
            checkNotConcluded();
            this.routeUser = routeUser;
            return this;
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
        public Context routePostTimeoutNs(final long routePostTimeoutNs)
        {
            checkNotConcluded();
            this.routePostTimeoutNs = routePostTimeoutNs;
            return this;
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
        public Context clone()
        {
            final Context copy = super.clone();
            copy.ripc = ripc.clone();
            copy.backbone = backbone.clone();
            copy.backboneRuntime = null;
            copy.countersManager = ownsCountersManager ? null : countersManager;
            copy.ownsCountersManager = false;
            copy.countersMetaData = null;
            copy.countersValues = null;
            copy.eventLoopGroup = null;
            copy.eventLoop = null;
            copy.core = null;
            copy.routeEndpoints = List.of();
            return copy;
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
}
