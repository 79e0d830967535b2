package io.mdhub.distributor;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import javax.management.ObjectName;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.CountersReader;

import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.distributor.backbone.DistributorBackbone;

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
     * listener's transport, {@link RipcConfiguration}). Every setting, its setter and getter are in
     * {@link DistributorSettings}.
     */
    public static final class Context extends DistributorSettings<Context>
    {
    }
}
