package io.mdhub.p2p;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.ObjectName;

import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.dictionary.DictionaryConfiguration;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.ripc.RipcServerPhases;
import io.mdhub.p2p.cache.CachingItemSource;
import io.mdhub.p2p.fanout.FanOutWorker;
import io.mdhub.p2p.fanout.WorkerSettings;
import io.mdhub.p2p.fanout.WorkerStatus;
import io.mdhub.p2p.source.ItemSourceFactory;
import io.mdhub.p2p.websocket.JsonMessages;
import io.mdhub.p2p.websocket.WebSocketListener;
import io.mdhub.p2p.websocket.WebSocketPort;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.EventExecutor;
import org.agrona.CloseHelper;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.status.CountersManager;

/**
 * The Point-to-Point server's consumer side: an RSSL (RIPC) server that real ETA consumers log in to, read the
 * source directory and dictionaries from, and open item streams on, fed by an item source per fan-out worker.
 * <p>
 * <b>Threading.</b> {@code mdhub.p2p.workers} = N fan-out workers = N Netty event loops. Netty spreads accepted
 * connections over the loops; each loop's {@link FanOutWorker} owns those connections, their watchlists, its item
 * table and its OWN {@link io.mdhub.p2p.source.ItemSource} (made by the Context's {@link ItemSourceFactory}), so
 * all state of a worker is touched by one thread only: single writer, no locks, no hand-off between threads on
 * the data path. Only the counters are shared (atomic adds) and the aggregate item limit (an atomic counter).
 * <pre>{@code
 * try (P2pServer server = P2pServer.launch(new P2pServer.Context().itemSourceFactory(factory)))
 * { ... }
 * }</pre>
 */
public final class P2pServer implements AutoCloseable
{
    /**
     * How the names of the fan-out worker threads begin (then the component name): what operators and the latency
     * benchmark look for to place them.
     */
    public static final String WORKER_THREAD_PREFIX = "p2p-worker-";

    private final Context ctx;
    private final FanOutWorker[] workers;
    private final IdentityHashMap<EventExecutor, FanOutWorker> workerByLoop = new IdentityHashMap<>();
    private final AtomicLong connectionIds = new AtomicLong();
    private final RipcServer[] ripcServers;
    private final WebSocketListener webSocket;
    private final ObjectName objectName;
    private final long startNs = System.nanoTime();
    private final Control control = new Control();

    private P2pServer(final Context ctx)
    {
        this.ctx = ctx;
        final WorkerSettings settings = new WorkerSettings(ctx.componentName(), ctx.maxItemsPerConsumer(),
            ctx.maxItems(), ctx.maxOutputBytes(), ctx.slowConsumerTimeoutNs(), ctx.loginTimeoutNs(),
            ctx.flushIntervalNs(), ctx.counters(), ctx.dictionarySupplier(), ctx.entitlements(), ctx.postTimeoutNs(),
            ctx.slowConsumerPolicy(), ctx.conflateTimeoutNs());
        final ItemSourceFactory sourceFactory = ctx.cacheEnabled() ? CachingItemSource.factory(
            ctx.itemSourceFactory(), ctx.counters().cacheRefreshes(), ctx.counters().cacheMisses()) :
            ctx.itemSourceFactory();
        workers = new FanOutWorker[ctx.workers()];
        int index = 0;
        for (final EventExecutor executor : ctx.eventLoopGroup())
        {
            final FanOutWorker worker = new FanOutWorker(index, (EventLoop)executor, settings, sourceFactory);
            workers[index++] = worker;
            workerByLoop.put(executor, worker);
        }
        // a changed entitlement file is applied by every worker on its own thread, to its own consumers
        ctx.entitlementSource().onChange(this::applyEntitlementChange);

        final List<ConsumerListener> listeners = ctx.listeners();
        ripcServers = new RipcServer[listeners.size()];
        try
        {
            for (int i = 0; i < ripcServers.length; i++)
            {
                final ConsumerListener listener = listeners.get(i);
                final RipcServer.Context ripcContext = 0 == i && null != ctx.ripcContext() ?
                    ctx.ripcContext() : new RipcServer.Context();
                ripcServers[i] = RipcServer.launch(ripcContext
                    .port(listener.port())
                    .bindAddress(ctx.bindAddress())
                    // RIPC counters are labelled by component: a further listener's carry its port
                    .componentName(0 == i ? ctx.componentName() : ctx.componentName() + "-" + listener.port())
                    .eventLoopGroup(ctx.eventLoopGroup())
                    .countersManager(ctx.countersManager())
                    .tcpNoDelay(FlushProfile.LATENCY == listener.profile())
                    .sslContext(listener.tls() ? ctx.serverSslContext() : null)
                    .channelHook((channel) -> initChannel(channel, listener.profile())));
            }
            // the WebSocket API's connections flush as the main port's do
            final FlushProfile webSocketProfile = ctx.flushProfile();
            webSocket = ctx.webSocketPort() < 0 ? null : new WebSocketListener(ctx.eventLoopGroup(),
                new WebSocketPort(ctx.bindAddress(), ctx.webSocketPort(), ctx.webSocketSslContext(),
                    FlushProfile.LATENCY == webSocketProfile, ctx.webSocketPingTimeoutNs(), ctx.webSocketPageEnabled()),
                (loop) -> new JsonMessages(workerByLoop.get(loop).dictionary(), workerByLoop.get(loop),
                    (int)TimeUnit.NANOSECONDS.toSeconds(ctx.webSocketPingTimeoutNs())),
                (channel) -> initChannel(channel, webSocketProfile),
                // rssl.rwf: the RIPC settings of an RSSL port, its own counters (label component-ws)
                RipcServerPhases.launch(new RipcServer.Context()
                    .componentName(ctx.componentName() + "-ws")
                    .eventLoopGroup(ctx.eventLoopGroup())
                    .countersManager(ctx.countersManager())
                    .channelHook((channel) -> initChannel(channel, webSocketProfile))),
                ctx.countersManager(), ctx.componentName());
            for (final FanOutWorker worker : workers)
            {
                worker.start();
            }
        }
        catch (final RuntimeException ex)
        {
            closeListeners();
            closeWorkers();
            throw ex;
        }
        objectName = ctx.registerMBean() ? MBeans.register("P2pServer", ctx.componentName(), control) : null;
    }

    /**
     * Conclude the Context and start serving. On failure the Context is closed.
     *
     * @param ctx the settings; the server owns it from now on and closes it.
     * @return the running server.
     */
    public static P2pServer launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, P2pServer::new);
    }

    private void initChannel(final Channel channel, final FlushProfile profile)
    {
        final FanOutWorker worker = workerByLoop.get(channel.eventLoop());
        // unwritable above the guaranteed output starts the slow-consumer clock; the maximum disconnects at once
        channel.config().setWriteBufferWaterMark(
            new WriteBufferWaterMark(ctx.guaranteedOutputBytes() / 2, ctx.guaranteedOutputBytes()));
        channel.config().setAllocator(ctx.outputAllocator());
        channel.pipeline().addLast("p2p-consumer", worker.newSession(connectionIds.incrementAndGet(), profile));
    }

    private void applyEntitlementChange()
    {
        for (final FanOutWorker worker : workers)
        {
            try
            {
                worker.eventLoop().execute(worker::onEntitlementsChanged);
            }
            catch (final java.util.concurrent.RejectedExecutionException ex)
            {
                // the server is closing: nobody left to check
            }
        }
    }

    /**
     * @return the port consumers connect to (useful with port 0).
     */
    public int port()
    {
        return ripcServers[0].port();
    }

    /**
     * @param index 0 for the main listener ({@code mdhub.p2p.port}), then the extra listeners in order.
     * @return the port that listener is bound to (useful with port 0).
     */
    public int port(final int index)
    {
        return ripcServers[index].port();
    }

    /**
     * @return the WebSocket API's port (useful with port 0), or -1 when it is not served.
     */
    public int webSocketPort()
    {
        return null == webSocket ? -1 : webSocket.port();
    }

    /**
     * @return the concluded Context (counters, settings).
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * Ask each worker, on its own event loop, what its source carries and hears now: for health checks and tools,
     * never a hot path.
     *
     * @param timeoutMs how long each worker may take to answer.
     * @return one status per worker, in worker order.
     * @throws TimeoutException   when a worker does not answer in time (its loop is stalled).
     * @throws ExecutionException when asking failed.
     * @throws InterruptedException when interrupted while waiting.
     */
    public List<WorkerStatus> workerStatus(final long timeoutMs)
        throws TimeoutException, ExecutionException, InterruptedException
    {
        final List<WorkerStatus> statuses = new ArrayList<>(workers.length);
        for (final FanOutWorker worker : workers)
        {
            try
            {
                statuses.add(worker.eventLoop().submit(worker::status).get(timeoutMs, TimeUnit.MILLISECONDS));
            }
            catch (final TimeoutException ex)
            {
                throw new TimeoutException("worker " + statuses.size() + " did not answer in " + timeoutMs + " ms");
            }
        }
        return statuses;
    }

    /**
     * @return the workers' event loops, in worker order.
     */
    public List<EventLoop> workerLoops()
    {
        final List<EventLoop> loops = new ArrayList<>(workers.length);
        for (final FanOutWorker worker : workers)
        {
            loops.add(worker.eventLoop());
        }
        return loops;
    }

    /**
     * @return the management interface (also registered over JMX when enabled).
     */
    public P2pServerMXBean control()
    {
        return control;
    }

    /**
     * Stop listening and close every connection, close the item sources on their threads, then the Context.
     */
    @Override
    public void close()
    {
        MBeans.unregister(objectName);
        closeListeners();
        closeWorkers();
        ctx.close();
    }

    private void closeListeners()
    {
        for (final RipcServer server : ripcServers)
        {
            CloseHelper.quietClose(server);
        }
        CloseHelper.quietClose(webSocket);
    }

    private void closeWorkers()
    {
        for (final FanOutWorker worker : workers)
        {
            if (null != worker)
            {
                worker.close();
            }
        }
    }

    private final class Control implements P2pServerMXBean
    {
        private final Long2LongHashMap lastUpdatesIn = new Long2LongHashMap(0);
        private long lastSampleNs = startNs;

        @Override
        public int getConnectionCount()
        {
            return (int)ctx.counters().connectionsActive().get();
        }

        @Override
        public long getItemsOpen()
        {
            return ctx.counters().itemsOpen().get();
        }

        @Override
        public long getWatchlistEntries()
        {
            return ctx.counters().watchlistEntries().get();
        }

        @Override
        public synchronized String[] getServices()
        {
            final long nowNs = System.nanoTime();
            final double seconds = Math.max(1e-9, (nowNs - lastSampleNs) / 1e9);
            lastSampleNs = nowNs;
            final List<P2pCounters.ServiceCounters> services = ctx.counters().services();
            services.sort(Comparator.comparingInt(P2pCounters.ServiceCounters::serviceId));
            final String[] lines = new String[services.size()];
            for (int i = 0; i < lines.length; i++)
            {
                final P2pCounters.ServiceCounters service = services.get(i);
                final long updatesIn = service.updatesIn().get();
                final long previous = lastUpdatesIn.put(service.serviceId(), updatesIn);
                lines[i] = "id=" + service.serviceId() + " name=" + service.serviceName() +
                    " items=" + service.itemsOpen().get() + " updatesIn=" + updatesIn +
                    " updatesPerSecond=" + Math.round((updatesIn - previous) / seconds);
            }
            return lines;
        }

        @Override
        public String[] getConnections()
        {
            final List<String> lines = new ArrayList<>();
            for (final FanOutWorker worker : workers)
            {
                lines.addAll(worker.eventLoop().submit(worker::describeSessions)
                    .syncUninterruptibly().getNow());
            }
            return lines.toArray(new String[0]);
        }

        @Override
        public long getOutputPoolBytes()
        {
            return ctx.outputAllocator().metric().usedDirectMemory();
        }

        @Override
        public boolean dropConnection(final long connectionId)
        {
            for (final FanOutWorker worker : workers)
            {
                if (worker.eventLoop().submit(() -> worker.drop(connectionId)).syncUninterruptibly().getNow())
                {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Settings of a {@link P2pServer}; defaults from {@link P2pConfiguration} and, for the dictionary files,
     * {@link DictionaryConfiguration}. {@link #conclude()} creates what was not supplied: the dictionary loader
     * (loading the files once, so a bad one stops the server), an in-memory {@link CountersManager}, the workers'
     * event-loop group; {@link #close()} releases the last two. Every setting, its setter and getter are in
     * {@link P2pServerSettings} and {@link P2pConnectionSettings}.
     */
    public static final class Context extends P2pServerSettings<Context>
    {
    }
}
