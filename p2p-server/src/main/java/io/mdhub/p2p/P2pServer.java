package io.mdhub.p2p;

import java.nio.ByteBuffer;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import javax.management.ObjectName;

import com.refinitiv.eta.codec.DataDictionary;
import io.mdhub.common.concurrent.IdleConfiguration;
import io.mdhub.common.concurrent.SpinBudget;
import io.mdhub.common.config.BaseContext;
import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.dictionary.DictionaryConfiguration;
import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.entitlement.EntitlementConfiguration;
import io.mdhub.common.entitlement.EntitlementSource;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.entitlement.TokenValidator;
import io.mdhub.common.entitlement.WatchedEntitlementFile;
import io.mdhub.p2p.entitlement.ChronicleUsageLog;
import io.mdhub.p2p.entitlement.ConsumerEntitlements;
import io.mdhub.p2p.entitlement.UsageLog;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.status.MdCounters;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.tls.TlsSettings;
import io.mdhub.common.ripc.RipcTransport;
import io.mdhub.p2p.cache.CachingItemSource;
import io.mdhub.p2p.fanout.FanOutWorker;
import io.mdhub.p2p.fanout.WorkerSettings;
import io.mdhub.p2p.fanout.WorkerStatus;
import io.mdhub.p2p.source.ItemSourceFactory;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.EventExecutor;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
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
     * event-loop group; {@link #close()} releases the last two.
     */
    public static final class Context extends BaseContext<Context>
    {
        /**
         * Counters the in-memory CountersManager has room for (the server and one RIPC listener use about 55, each
         * service 2 more, each further listener about 20).
         */
        public static final int DEFAULT_COUNTERS_CAPACITY = 256;
        private static final int MIN_OUTPUT_BYTES = 4096;
        private static final int POOL_PAGE_SIZE = 8192;

        private String bindAddress = P2pConfiguration.bindAddress();
        private int port = P2pConfiguration.port();
        private int workers = P2pConfiguration.workers();
        private int maxItemsPerConsumer = P2pConfiguration.maxItemsPerConsumer();
        private int maxItems = P2pConfiguration.maxItems();
        private boolean cacheEnabled = P2pConfiguration.cacheEnabled();
        private int maxOutputBytes = P2pConfiguration.maxOutputBytes();
        private int guaranteedOutputBytes = P2pConfiguration.guaranteedOutputBytes();
        private long slowConsumerTimeoutNs = P2pConfiguration.slowConsumerTimeoutNs();
        private SlowConsumerPolicy slowConsumerPolicy = P2pConfiguration.slowConsumerPolicy();
        private long conflateTimeoutNs = P2pConfiguration.conflateTimeoutNs();
        private int outputPoolChunkSize = P2pConfiguration.outputPoolChunkSize();
        private PooledByteBufAllocator outputAllocator;
        private long loginTimeoutNs = P2pConfiguration.loginTimeoutNs();
        private FlushProfile flushProfile = P2pConfiguration.flushProfile();
        private List<ConsumerListener> extraListeners = P2pConfiguration.extraListeners();
        private boolean tlsEnabled = P2pConfiguration.tlsEnabled();
        private TlsSettings tls;
        private SslContext serverSslContext;
        private long flushIntervalNs = P2pConfiguration.flushIntervalNs();
        private String componentName = P2pConfiguration.componentName();
        private boolean registerMBean = true;
        private ItemSourceFactory itemSourceFactory;
        private String dictionaryFieldFile = DictionaryConfiguration.fieldFile();
        private String dictionaryEnumFile = DictionaryConfiguration.enumFile();
        private Supplier<DataDictionary> dictionarySupplier;
        private EntitlementSource entitlementSource;
        private boolean ownsEntitlementSource;
        private TokenValidator tokenValidator = TokenValidator.FILE;
        private LoginThrottle loginThrottle;
        private ConsumerEntitlements entitlements;
        private String usageDir = P2pConfiguration.usageDir();
        private UsageLog usageLog;
        private AtomicCounter usageRecords;
        private AtomicCounter usageFailures;
        private long postTimeoutNs = P2pConfiguration.postTimeoutNs();
        private RipcServer.Context ripcContext;
        private CountersManager countersManager;
        private EventLoopGroup eventLoopGroup;

        private boolean ownsCountersManager;
        private ByteBuffer countersMetaData;
        private ByteBuffer countersValues;
        private P2pCounters counters;

        @Override
        protected void concludeContext()
        {
            requireRange(P2pConfiguration.PORT_PROP_NAME, port, 0, 0xFFFF);
            requireRange(P2pConfiguration.WORKERS_PROP_NAME, workers, 1, P2pConfiguration.WORKERS_MAX);
            requirePositive(P2pConfiguration.MAX_ITEMS_PER_CONSUMER_PROP_NAME, maxItemsPerConsumer);
            requirePositive(P2pConfiguration.MAX_ITEMS_PROP_NAME, maxItems);
            if (0 == guaranteedOutputBytes)
            {
                guaranteedOutputBytes = maxOutputBytes / 2;
            }
            requireRange(P2pConfiguration.GUARANTEED_OUTPUT_BYTES_PROP_NAME, guaranteedOutputBytes,
                MIN_OUTPUT_BYTES / 2, maxOutputBytes);
            requireRange(P2pConfiguration.MAX_OUTPUT_BYTES_PROP_NAME, maxOutputBytes, MIN_OUTPUT_BYTES,
                Integer.MAX_VALUE);
            requirePositive(P2pConfiguration.SLOW_CONSUMER_TIMEOUT_PROP_NAME, slowConsumerTimeoutNs);
            if (null == slowConsumerPolicy)
            {
                throw new IllegalArgumentException(P2pConfiguration.SLOW_CONSUMER_POLICY_PROP_NAME + " is required");
            }
            if (SlowConsumerPolicy.CONFLATE == slowConsumerPolicy && conflateTimeoutNs < slowConsumerTimeoutNs)
            {
                throw new IllegalArgumentException(P2pConfiguration.CONFLATE_TIMEOUT_PROP_NAME + " (" +
                    conflateTimeoutNs + " ns) must be at least " + P2pConfiguration.SLOW_CONSUMER_TIMEOUT_PROP_NAME +
                    " (" + slowConsumerTimeoutNs + " ns)");
            }
            requireRange(P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_PROP_NAME, outputPoolChunkSize,
                P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_MIN, P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_MAX);
            if (Integer.bitCount(outputPoolChunkSize) != 1)
            {
                throw new IllegalArgumentException(P2pConfiguration.OUTPUT_POOL_CHUNK_SIZE_PROP_NAME +
                    " must be a power of two: " + outputPoolChunkSize);
            }
            requirePositive(P2pConfiguration.LOGIN_TIMEOUT_PROP_NAME, loginTimeoutNs);
            requirePositive(P2pConfiguration.FLUSH_INTERVAL_PROP_NAME, flushIntervalNs);
            if (null == itemSourceFactory)
            {
                throw new IllegalArgumentException("an itemSourceFactory is required");
            }
            final IdleStrategy busyPollIdle = itemSourceFactory.busyPollIdle();
            if (null != busyPollIdle)
            {
                final SpinBudget budget = new SpinBudget("p2p-server", IdleConfiguration.spinCores());
                for (int i = 0; i < workers; i++)
                {
                    budget.add("busy-polling worker " + i, busyPollIdle);
                }
                budget.check();
            }
            if (null == flushProfile)
            {
                throw new IllegalArgumentException(P2pConfiguration.FLUSH_PROFILE_PROP_NAME + " is required");
            }
            final java.util.Set<Integer> ports = new java.util.HashSet<>();
            for (final ConsumerListener listener : listeners())
            {
                if (0 != listener.port() && !ports.add(listener.port()))
                {
                    throw new IllegalArgumentException(P2pConfiguration.EXTRA_LISTENERS_PROP_NAME +
                        ": port " + listener.port() + " is listed twice (or is " + P2pConfiguration.PORT_PROP_NAME +
                        ")");
                }
            }
            if (listeners().stream().anyMatch(ConsumerListener::tls))
            {
                // key material is read now: a wrong path or password stops the server before it listens
                serverSslContext = (null == tls ? TlsSettings.fromConfiguration() : tls).nettyServerContext();
            }
            if (null != ripcContext && ripcContext.isConcluded())
            {
                throw new IllegalArgumentException("the RIPC context must not be concluded yet");
            }
            if (null == dictionarySupplier)
            {
                // loads the files now: a missing or malformed dictionary stops the server before it listens
                dictionarySupplier = DictionaryLoader.supplier(dictionaryFieldFile, dictionaryEnumFile);
            }

            if (null == countersManager)
            {
                ownsCountersManager = true;
                countersMetaData = ByteBuffer.allocateDirect(
                    DEFAULT_COUNTERS_CAPACITY * CountersManager.METADATA_LENGTH);
                countersValues = ByteBuffer.allocateDirect(
                    DEFAULT_COUNTERS_CAPACITY * CountersManager.COUNTER_LENGTH);
                countersManager = new CountersManager(
                    new UnsafeBuffer(countersMetaData), new UnsafeBuffer(countersValues));
            }
            counters = new P2pCounters(countersManager, componentName);
            if (null == usageLog)
            {
                usageLog = newUsageLog();
            }
            concludeEntitlements();
            outputAllocator = newOutputAllocator(workers, outputPoolChunkSize);
            if (null == eventLoopGroup)
            {
                eventLoopGroup = RipcTransport.newEventLoopGroup(
                    workers, RipcConfiguration.epoll(), WORKER_THREAD_PREFIX + componentName);
            }
        }

        private void concludeEntitlements()
        {
            if (null == entitlementSource)
            {
                final java.nio.file.Path file = EntitlementConfiguration.file();
                // an invalid file stops the server before it listens
                entitlementSource = null == file ? EntitlementSource.OPEN : WatchedEntitlementFile.open(
                    file, counters.entitlementReloads(), counters.entitlementReloadFailures());
                ownsEntitlementSource = null != file;
            }
            if (null == loginThrottle)
            {
                loginThrottle = EntitlementConfiguration.loginThrottle();
            }
            entitlements = new ConsumerEntitlements(entitlementSource, tokenValidator, loginThrottle, usageLog);
        }

        /**
         * Shut the worker event loops down (waiting), stop watching the entitlement file, then free the counters and
         * their in-memory buffers.
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
            // after the event loops: no worker appends any more
            CloseHelper.close(usageLog);
            usageLog = null;
            CloseHelper.closeAll(usageRecords, usageFailures);
            usageRecords = null;
            usageFailures = null;
            CloseHelper.close(counters);
            counters = null;
            if (ownsCountersManager)
            {
                countersManager = null;
                BufferUtil.free(countersMetaData);
                BufferUtil.free(countersValues);
                countersMetaData = null;
                countersValues = null;
                ownsCountersManager = false;
            }
        }

        /**
         * @param bindAddress address consumers connect to.
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
         * @param port consumer port, 0 for an ephemeral one.
         * @return this.
         */
        public Context port(final int port)
        {
            checkNotConcluded();
            this.port = port;
            return this;
        }

        /**
         * @return the configured port.
         */
        public int port()
        {
            return port;
        }

        /**
         * @param workers fan-out workers (event loops), 1 to 64.
         * @return this.
         */
        public Context workers(final int workers)
        {
            checkNotConcluded();
            this.workers = workers;
            return this;
        }

        /**
         * @return fan-out workers.
         */
        public int workers()
        {
            return workers;
        }

        /**
         * @param maxItemsPerConsumer item streams one connection may open.
         * @return this.
         */
        public Context maxItemsPerConsumer(final int maxItemsPerConsumer)
        {
            checkNotConcluded();
            this.maxItemsPerConsumer = maxItemsPerConsumer;
            return this;
        }

        /**
         * @return per-consumer item limit.
         */
        public int maxItemsPerConsumer()
        {
            return maxItemsPerConsumer;
        }

        /**
         * @param source where the entitlements come from and say they changed (default: the file
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
         * @return where the entitlements come from (set once concluded).
         */
        public EntitlementSource entitlementSource()
        {
            return entitlementSource;
        }

        /**
         * @param validator checks token logins (default: the entitlement file's {@code token-sha256} lines).
         * @return this.
         */
        public Context tokenValidator(final TokenValidator validator)
        {
            checkNotConcluded();
            this.tokenValidator = validator;
            return this;
        }

        /**
         * @param throttle failed logins per address (default from {@code mdhub.entitlements.login.*}).
         * @return this.
         */
        public Context loginThrottle(final LoginThrottle throttle)
        {
            checkNotConcluded();
            this.loginThrottle = throttle;
            return this;
        }

        /**
         * @return what the fan-out workers consult about consumers (set once concluded).
         */
        public ConsumerEntitlements entitlements()
        {
            return entitlements;
        }

        /**
         * @param usageDir directory of the usage log built at conclude when no {@link #usageLog(UsageLog)} is set;
         *                 empty for none.
         * @return this.
         */
        public Context usageDir(final String usageDir)
        {
            checkNotConcluded();
            this.usageDir = usageDir;
            return this;
        }

        /**
         * @return the usage log's directory, empty for none.
         */
        public String usageDir()
        {
            return usageDir;
        }

        /**
         * @param usageLog where the fan-out workers append usage records; owned by the server from now on (closed
         *                 with it). When not set, conclude opens a {@link ChronicleUsageLog} in {@link #usageDir()},
         *                 or uses {@link UsageLog#NONE} when that is empty.
         * @return this.
         */
        public Context usageLog(final UsageLog usageLog)
        {
            checkNotConcluded();
            this.usageLog = usageLog;
            return this;
        }

        /**
         * @return the usage log, after conclude ({@link UsageLog#NONE} when nothing is recorded).
         */
        public UsageLog usageLog()
        {
            return usageLog;
        }

        private UsageLog newUsageLog()
        {
            final String dir = null == usageDir ? "" : usageDir.trim();
            if (dir.isEmpty())
            {
                return UsageLog.NONE;
            }
            final Path path;
            try
            {
                path = Path.of(dir);
            }
            catch (final InvalidPathException ex)
            {
                throw new IllegalArgumentException(P2pConfiguration.USAGE_DIR_PROP_NAME + " is not a path: " + dir, ex);
            }
            usageRecords = countersManager.newCounter(
                "p2p-usage-records: component=" + componentName, MdCounters.P2P_USAGE_RECORDS_TYPE_ID);
            usageFailures = countersManager.newCounter(
                "p2p-usage-failures: component=" + componentName, MdCounters.P2P_USAGE_FAILURES_TYPE_ID);
            try
            {
                return new ChronicleUsageLog(path, usageRecords, usageFailures);
            }
            catch (final RuntimeException ex)
            {
                throw new IllegalArgumentException(P2pConfiguration.USAGE_DIR_PROP_NAME + ": cannot open a usage log " +
                    "in " + path + ": " + ex.getMessage(), ex);
            }
        }

        /**
         * @param postTimeoutNs time a consumer's post waits for its ACK before the poster gets a NAK (NoResponse).
         * @return this.
         */
        public Context postTimeoutNs(final long postTimeoutNs)
        {
            checkNotConcluded();
            this.postTimeoutNs = postTimeoutNs;
            return this;
        }

        /**
         * @return time a post waits for its ACK.
         */
        public long postTimeoutNs()
        {
            return postTimeoutNs;
        }

        /**
         * @param cacheEnabled keep an off-heap image of every open streaming item and answer new watchers from it.
         * @return this.
         */
        public Context cacheEnabled(final boolean cacheEnabled)
        {
            checkNotConcluded();
            this.cacheEnabled = cacheEnabled;
            return this;
        }

        /**
         * @return whether the item cache is on.
         */
        public boolean cacheEnabled()
        {
            return cacheEnabled;
        }

        /**
         * @param maxItems distinct items open on all item sources together.
         * @return this.
         */
        public Context maxItems(final int maxItems)
        {
            checkNotConcluded();
            this.maxItems = maxItems;
            return this;
        }

        /**
         * @return aggregate item limit.
         */
        public int maxItems()
        {
            return maxItems;
        }

        /**
         * @param guaranteedOutputBytes pending output a consumer may have and still count as keeping up (the
         *                              high write watermark; 0 for half of {@link #maxOutputBytes()}).
         * @return this.
         */
        public Context guaranteedOutputBytes(final int guaranteedOutputBytes)
        {
            checkNotConcluded();
            this.guaranteedOutputBytes = guaranteedOutputBytes;
            return this;
        }

        /**
         * @return pending output that starts a consumer's slow-consumer clock.
         */
        public int guaranteedOutputBytes()
        {
            return guaranteedOutputBytes;
        }

        /**
         * @param maxOutputBytes pending output that disconnects a consumer (at least 4096).
         * @return this.
         */
        public Context maxOutputBytes(final int maxOutputBytes)
        {
            checkNotConcluded();
            this.maxOutputBytes = maxOutputBytes;
            return this;
        }

        /**
         * @return the per-consumer output limit in bytes.
         */
        public int maxOutputBytes()
        {
            return maxOutputBytes;
        }

        /**
         * @param slowConsumerTimeoutNs how long a consumer may stay unwritable.
         * @return this.
         */
        public Context slowConsumerTimeoutNs(final long slowConsumerTimeoutNs)
        {
            checkNotConcluded();
            this.slowConsumerTimeoutNs = slowConsumerTimeoutNs;
            return this;
        }

        /**
         * @return the slow-consumer timeout in nanoseconds.
         */
        public long slowConsumerTimeoutNs()
        {
            return slowConsumerTimeoutNs;
        }

        /**
         * @param slowConsumerPolicy what happens to a consumer whose output passes the guaranteed output.
         * @return this.
         */
        public Context slowConsumerPolicy(final SlowConsumerPolicy slowConsumerPolicy)
        {
            checkNotConcluded();
            this.slowConsumerPolicy = slowConsumerPolicy;
            return this;
        }

        /**
         * @return the slow-consumer policy.
         */
        public SlowConsumerPolicy slowConsumerPolicy()
        {
            return slowConsumerPolicy;
        }

        /**
         * @param conflateTimeoutNs under the conflate policy, how long a consumer may stay unwritable (at least the
         *                          slow-consumer timeout).
         * @return this.
         */
        public Context conflateTimeoutNs(final long conflateTimeoutNs)
        {
            checkNotConcluded();
            this.conflateTimeoutNs = conflateTimeoutNs;
            return this;
        }

        /**
         * @return the conflation timeout in nanoseconds.
         */
        public long conflateTimeoutNs()
        {
            return conflateTimeoutNs;
        }

        /**
         * @param outputPoolChunkSize chunk size of the consumer connections' buffer pool (a power of two, 64k-16m).
         * @return this.
         */
        public Context outputPoolChunkSize(final int outputPoolChunkSize)
        {
            checkNotConcluded();
            this.outputPoolChunkSize = outputPoolChunkSize;
            return this;
        }

        /**
         * @return the consumer output pool's chunk size.
         */
        public int outputPoolChunkSize()
        {
            return outputPoolChunkSize;
        }

        /**
         * @return the buffer pool of the consumer connections, after conclude.
         */
        public PooledByteBufAllocator outputAllocator()
        {
            return outputAllocator;
        }

        /**
         * The consumer connections' own pool: one arena per worker, and chunks small enough that what a dropped
         * consumer's output filled goes back to the operating system chunk by chunk, instead of staying in the 4 MiB
         * chunks of Netty's process-wide pool that any long-lived buffer keeps. Per-thread caches as Netty's default.
         */
        private static PooledByteBufAllocator newOutputAllocator(final int workers, final int chunkSize)
        {
            final int maxOrder = Integer.numberOfTrailingZeros(chunkSize / POOL_PAGE_SIZE);
            return new PooledByteBufAllocator(true, 0, workers, POOL_PAGE_SIZE, maxOrder,
                PooledByteBufAllocator.defaultSmallCacheSize(), PooledByteBufAllocator.defaultNormalCacheSize(),
                true);
        }

        /**
         * @param loginTimeoutNs longest time from a consumer's handshake to its login request before it is closed.
         * @return this.
         */
        public Context loginTimeoutNs(final long loginTimeoutNs)
        {
            checkNotConcluded();
            this.loginTimeoutNs = loginTimeoutNs;
            return this;
        }

        /**
         * @return the login timeout in nanoseconds.
         */
        public long loginTimeoutNs()
        {
            return loginTimeoutNs;
        }

        /**
         * @param flushProfile latency or throughput.
         * @return this.
         */
        public Context flushProfile(final FlushProfile flushProfile)
        {
            checkNotConcluded();
            this.flushProfile = flushProfile;
            return this;
        }

        /**
         * @return the flush profile.
         */
        public FlushProfile flushProfile()
        {
            return flushProfile;
        }

        /**
         * @param extraListeners further ports beside {@link #port(int)}, each with its flush profile.
         * @return this.
         */
        public Context extraListeners(final List<ConsumerListener> extraListeners)
        {
            checkNotConcluded();
            this.extraListeners = List.copyOf(extraListeners);
            return this;
        }

        /**
         * @param tlsEnabled whether the main port speaks TLS.
         * @return this.
         */
        public Context tlsEnabled(final boolean tlsEnabled)
        {
            checkNotConcluded();
            this.tlsEnabled = tlsEnabled;
            return this;
        }

        /**
         * @return whether the main port speaks TLS.
         */
        public boolean tlsEnabled()
        {
            return tlsEnabled;
        }

        /**
         * @param tls the TLS settings of the TLS listeners; when null, conclude reads the {@code mdhub.tls.*} keys.
         * @return this.
         */
        public Context tls(final TlsSettings tls)
        {
            checkNotConcluded();
            this.tls = tls;
            return this;
        }

        /**
         * @return the TLS settings given, or null.
         */
        public TlsSettings tls()
        {
            return tls;
        }

        /**
         * @return after conclude, the TLS context every TLS listener shares; null when none speaks TLS.
         */
        public SslContext serverSslContext()
        {
            return serverSslContext;
        }

        /**
         * @return the further listeners.
         */
        public List<ConsumerListener> extraListeners()
        {
            return extraListeners;
        }

        /**
         * @return every listener: the main one ({@code port}, {@code flushProfile}) first, then the extra ones.
         */
        public List<ConsumerListener> listeners()
        {
            final List<ConsumerListener> all = new ArrayList<>(1 + extraListeners.size());
            all.add(new ConsumerListener(port, flushProfile, tlsEnabled));
            all.addAll(extraListeners);
            return all;
        }

        /**
         * @param flushIntervalNs flush interval of the throughput profile.
         * @return this.
         */
        public Context flushIntervalNs(final long flushIntervalNs)
        {
            checkNotConcluded();
            this.flushIntervalNs = flushIntervalNs;
            return this;
        }

        /**
         * @return the throughput flush interval in nanoseconds.
         */
        public long flushIntervalNs()
        {
            return flushIntervalNs;
        }

        /**
         * @param componentName name in the ConnectAck, Login refresh, logs, counters and the MBean.
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
         * @param registerMBean register the {@link P2pServerMXBean} (default true).
         * @return this.
         */
        public Context registerMBean(final boolean registerMBean)
        {
            checkNotConcluded();
            this.registerMBean = registerMBean;
            return this;
        }

        /**
         * @return true if the MXBean is registered.
         */
        public boolean registerMBean()
        {
            return registerMBean;
        }

        /**
         * @param itemSourceFactory makes each worker's item source (required).
         * @return this.
         */
        public Context itemSourceFactory(final ItemSourceFactory itemSourceFactory)
        {
            checkNotConcluded();
            this.itemSourceFactory = itemSourceFactory;
            return this;
        }

        /**
         * @return the item source factory.
         */
        public ItemSourceFactory itemSourceFactory()
        {
            return itemSourceFactory;
        }

        /**
         * @param dictionaryFieldFile RDMFieldDictionary file served as RWFFld, with
         *                            {@link #dictionaryEnumFile(String)}; empty for the dictionary MDHub ships.
         * @return this.
         */
        public Context dictionaryFieldFile(final String dictionaryFieldFile)
        {
            checkNotConcluded();
            this.dictionaryFieldFile = dictionaryFieldFile;
            return this;
        }

        /**
         * @return the field dictionary file, empty for the dictionary MDHub ships.
         */
        public String dictionaryFieldFile()
        {
            return dictionaryFieldFile;
        }

        /**
         * @param dictionaryEnumFile enumtype.def file served as RWFEnum, with {@link #dictionaryFieldFile(String)};
         *                           empty for the dictionary MDHub ships.
         * @return this.
         */
        public Context dictionaryEnumFile(final String dictionaryEnumFile)
        {
            checkNotConcluded();
            this.dictionaryEnumFile = dictionaryEnumFile;
            return this;
        }

        /**
         * @return the enumerated types file, empty for the dictionary MDHub ships.
         */
        public String dictionaryEnumFile()
        {
            return dictionaryEnumFile;
        }

        /**
         * @param dictionarySupplier loads the dictionary served to consumers, once per worker; when set, the
         *                           dictionary files are not read (default: none, and {@link #conclude()} makes one
         *                           for {@link #dictionaryFieldFile()} and {@link #dictionaryEnumFile()}).
         * @return this.
         */
        public Context dictionarySupplier(final Supplier<DataDictionary> dictionarySupplier)
        {
            checkNotConcluded();
            this.dictionarySupplier = dictionarySupplier;
            return this;
        }

        /**
         * @return the dictionary loader (after {@link #conclude()}, the one for the dictionary files if none was set).
         */
        public Supplier<DataDictionary> dictionarySupplier()
        {
            return dictionarySupplier;
        }

        /**
         * @param ripcContext RIPC transport settings to start from (ping timeouts...); port, bind address,
         *                    component name, event loops and counters are set from this Context. Owned by the server.
         * @return this.
         */
        public Context ripcContext(final RipcServer.Context ripcContext)
        {
            checkNotConcluded();
            this.ripcContext = ripcContext;
            return this;
        }

        /**
         * @return the RIPC settings, or null for defaults.
         */
        public RipcServer.Context ripcContext()
        {
            return ripcContext;
        }

        /**
         * @param countersManager where counters are allocated; when null, conclude creates an in-memory one.
         * @return this.
         */
        public Context countersManager(final CountersManager countersManager)
        {
            checkNotConcluded();
            this.countersManager = countersManager;
            return this;
        }

        /**
         * @return the CountersManager in use after conclude.
         */
        public CountersManager countersManager()
        {
            return countersManager;
        }

        /**
         * @return the workers' event-loop group, after conclude (owned by this Context).
         */
        public EventLoopGroup eventLoopGroup()
        {
            return eventLoopGroup;
        }

        /**
         * @return the counters, after conclude.
         */
        public P2pCounters counters()
        {
            return counters;
        }
    }
}
