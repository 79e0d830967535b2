package io.mdhub.p2p.order;

import java.util.function.Supplier;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.tls.TlsSettings;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.Paths;

import javax.management.ObjectName;

import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.config.BaseContext;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.net.SocketIdleStrategy;
import io.mdhub.common.net.SocketPoller;

/**
 * The order service of one server of an active/active pair: an {@link OrderAgent} on its own thread, its sockets
 * (client connections and the peer link, on one {@link SocketPoller} that the agent's idle strategy blocks on), its
 * fence, its write-behind queue and its counters (an in-memory {@link CountersManager} unless one is supplied; the
 * process exports them over JMX). It needs no media driver: clients, peer and fence all speak TCP.
 * <pre>{@code
 * try (OrderService service = OrderService.launch(new OrderService.Context().serverId(0)))
 * { ... }
 * }</pre>
 */
public final class OrderService implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderService.class);

    private final Context ctx;
    private final OrderCounters counters;
    private final PeerFence fence;
    private final OrderQueue queue;
    private final OrderAgent agent;
    private final AgentRunner runner;
    private final Control control = new Control();
    private final LogInterval agentErrorLog = new LogInterval(LogInterval.ONE_SECOND_NS); // the agent's thread only
    private final ObjectName objectName;

    private OrderService(final Context ctx)
    {
        this.ctx = ctx;
        counters = new OrderCounters(ctx.countersManager(), ctx.serverId());
        PeerFence fence = null;
        OrderQueue queue = null;
        SocketPoller poller = null;
        try
        {
            fence = new PeerFence(ctx.fenceAddress(), ctx.peerFenceAddress(), ctx.fenceTimeoutNs(),
                ctx.fenceConnectTimeoutNs(), new AddressGate(ctx.serverId(), "fence port", ctx.addressMaxHandshakes(),
                ctx.addressAcceptRate(), counters.connectionsRefused));
            queue = new OrderQueue(ctx.queueDirectory());
            poller = new SocketPoller(OrderServiceConfiguration.MAX_MESSAGE_BYTES,
                OrderServiceConfiguration.CLIENT_SEND_LIMIT_BYTES);
            agent = new OrderAgent(ctx, poller, fence, queue, counters);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(poller, queue, fence, counters);
            throw ex;
        }
        this.fence = fence;
        this.queue = queue;
        if (ctx.idleStrategy() instanceof SocketIdleStrategy)
        {
            ((SocketIdleStrategy)ctx.idleStrategy()).attach(poller);
        }
        runner = new AgentRunner(ctx.idleStrategy(), this::onAgentError, counters.errors, agent);
        AgentRunner.startOnThread(runner);
        objectName = ctx.registerMBean() ?
            MBeans.register("OrderService", "server-" + ctx.serverId(), control) : null;
    }

    /**
     * An exception out of the agent's duty cycle (counted in {@code order-errors} by the runner): logged at most once a
     * second, so a failure that repeats on every cycle does not flood the log.
     */
    private void onAgentError(final Throwable error)
    {
        if (agentErrorLog.onEvent(System.nanoTime()) > 0)
        {
            LOG.error("order server {}: the order agent's duty cycle failed (logged at most once a second, counted " +
                "in order-errors)", ctx.serverId(), error);
        }
    }

    /**
     * Conclude the Context and start the service.
     *
     * @param ctx settings; the service owns it from now on.
     * @return the running service.
     */
    public static OrderService launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, OrderService::new);
    }

    /**
     * @return the settings.
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * @return the management view the MBean gives (readable from any thread).
     */
    public OrderServiceMXBean control()
    {
        return control;
    }

    /**
     * @return true while the agent's thread runs its duty cycle (false once it ended, on close or on a fatal error).
     */
    public boolean isRunning()
    {
        return !runner.isClosed() && null != runner.thread() && runner.thread().isAlive();
    }

    /**
     * @return where this server stands: STARTING, CATCHING_UP or SERVING.
     */
    public String state()
    {
        return agent.state().name();
    }

    /**
     * @return one line per partition: id, role, epoch, last, acked, drained, gaps, failovers (read from another
     * thread: a recent, not an atomic, view).
     */
    public String[] partitions()
    {
        final Partition[] partitions = agent.partitions();
        final String[] lines = new String[partitions.length];
        for (int i = 0; i < partitions.length; i++)
        {
            final Partition p = partitions[i];
            lines[i] = "partition=" + p.id + " role=" + p.role + " epoch=" + p.epoch + " last=" + p.last +
                " acked=" + p.acked + " backupAcked=" + p.backupAcked + " drained=" + p.drained +
                " queueDepth=" + (p.acked - p.drained) + " gaps=" + p.gaps + " failovers=" + p.failovers +
                " replicationRttUs=" + p.lastRoundTripNs / 1000 + " maxReplicationRttUs=" + p.maxRoundTripNs / 1000;
        }
        return lines;
    }

    /**
     * Step down (an operation for maintenance): hand every partition this server is primary of to the peer once it
     * is a synchronous backup, and take none back while stepping down; {@code false} ends it and rebalancing gives
     * the home partitions back.
     *
     * @param isSteppingDown true to step down.
     */
    public void stepDown(final boolean isSteppingDown)
    {
        agent.stepDown(isSteppingDown);
    }

    /**
     * The operator's override for a peer the fence cannot prove dead (its host does not answer): promote every
     * partition the peer is primary of (or, while this server is still starting, serve every partition alone), as
     * if the peer were certainly dead. Only once the peer is known to be dead — powered off, its process gone — or
     * its store is lost for good: a peer that is in fact alive and cut off discards its store when it hears this
     * server again (it held, never acknowledged, what it could not replicate), but the orders it acknowledged
     * alone, if it was serving alone, are lost. Logged as an error and counted ({@code order-forced-takeovers}).
     *
     * @param reason the operator's reason (logged).
     * @return what was done.
     */
    public String takeOverPeerPartitions(final String reason)
    {
        return agent.takeOverPeerPartitions(reason, 5_000_000_000L);
    }

    /**
     * Fault injection for tests: lose the next messages of one kind this server sends its peer.
     *
     * @param templateId SBE template id (ReplicateOrder, CatchUpComplete, ...).
     * @param count      how many; 0 stops.
     */
    void losePeerMessages(final int templateId, final int count)
    {
        agent.peerLink().loseOutgoing(templateId, count);
    }

    /**
     * @return this server's standing in its pair as persisted in its queue directory (SOLE, PAIRED, UNPROVEN).
     */
    public String standing()
    {
        return queue.standing().name();
    }

    /**
     * @return every counter of this service, for an exporter or a tool.
     */
    public CountersReader countersReader()
    {
        return ctx.countersManager();
    }

    /**
     * @return the counters (for tests).
     */
    OrderCounters counters()
    {
        return counters;
    }

    /**
     * Fault injection for drills and tests: cut (or restore) the replication link to the peer while both processes
     * and the fence stay up — the split-brain case.
     *
     * @param isSevered true to drop every peer message both ways.
     */
    public void severPeerLink(final boolean isSevered)
    {
        agent.severPeerLink(isSevered);
    }

    /**
     * @return where this server takes order clients (the port bound, also when 0 was configured).
     */
    public InetSocketAddress address()
    {
        return agent.address();
    }

    /**
     * @return the port the fence listens on.
     */
    public int fencePort()
    {
        return fence.port();
    }

    @Override
    public void close()
    {
        MBeans.unregister(objectName);
        CloseHelper.quietCloseAll(runner, queue, fence, counters, ctx);
    }

    private final class Control implements OrderServiceMXBean
    {
        @Override
        public String getState()
        {
            return state();
        }

        @Override
        public String[] getPartitions()
        {
            return partitions();
        }

        @Override
        public boolean isReplicationLinkUp()
        {
            return agent.isLinkUp();
        }

        @Override
        public long getOrdersAcked()
        {
            return counters.ordersAcked.get();
        }

        @Override
        public long getGaps()
        {
            return counters.gaps.get();
        }

        @Override
        public long getFailovers()
        {
            return counters.failovers.get();
        }

        @Override
        public void stepDown(final boolean isSteppingDown)
        {
            OrderService.this.stepDown(isSteppingDown);
        }

        @Override
        public boolean isSteppingDown()
        {
            return agent.isSteppingDown();
        }

        @Override
        public String getFenceState()
        {
            return agent.fenceState();
        }

        @Override
        public boolean isPeerDeclaredDead()
        {
            return agent.isPeerDeclaredDead();
        }

        @Override
        public String getStanding()
        {
            return standing();
        }

        @Override
        public long[] getAckLatencyUs()
        {
            return counters.ackLatency.percentilesUs();
        }

        @Override
        public long getMalformed()
        {
            return counters.malformed.get();
        }

        @Override
        public long getForcedTakeovers()
        {
            return counters.forcedTakeovers.get();
        }

        @Override
        public String takeOverPeerPartitions(final String reason)
        {
            return OrderService.this.takeOverPeerPartitions(reason);
        }
    }

    /**
     * Settings of an order service; defaults from {@link OrderServiceConfiguration}.
     */
    public static final class Context extends BaseContext<Context>
    {
        /** Room in the in-memory counters: the service makes 22. */
        private static final int COUNTERS_CAPACITY = 32;

        private int serverId = OrderServiceConfiguration.serverId();
        private int partitions = OrderServiceConfiguration.partitions();
        private String address = OrderServiceConfiguration.string(OrderServiceConfiguration.ADDRESS_PROP_NAME);
        private boolean tlsEnabled = OrderServiceConfiguration.tlsEnabled();
        private TlsSettings tls;
        private Supplier<SSLEngine> serverEngines;
        private String peerAddress = OrderServiceConfiguration.string(
            OrderServiceConfiguration.PEER_ADDRESS_PROP_NAME);
        private String peerRemoteAddress = OrderServiceConfiguration.string(
            OrderServiceConfiguration.PEER_REMOTE_ADDRESS_PROP_NAME);
        private String fenceAddress = OrderServiceConfiguration.string(
            OrderServiceConfiguration.FENCE_ADDRESS_PROP_NAME);
        private String peerFenceAddress = OrderServiceConfiguration.string(
            OrderServiceConfiguration.PEER_FENCE_ADDRESS_PROP_NAME);
        private long heartbeatIntervalNs = OrderServiceConfiguration.heartbeatIntervalNs();
        private long peerTimeoutNs = OrderServiceConfiguration.peerTimeoutNs();
        private long startupPeerWaitNs = OrderServiceConfiguration.startupPeerWaitNs();
        private long fenceTimeoutNs = OrderServiceConfiguration.fenceTimeoutNs();
        private long fenceConnectTimeoutNs = OrderServiceConfiguration.fenceConnectTimeoutNs();
        private boolean startupForceAlone = OrderServiceConfiguration.startupForceAlone();
        private boolean sinkFsync = OrderServiceConfiguration.sinkFsync();
        private String queueDir = OrderServiceConfiguration.string(OrderServiceConfiguration.QUEUE_DIR_PROP_NAME);
        private int maxOrderBytes = OrderServiceConfiguration.maxOrderBytes();
        private long expectedOrders = OrderServiceConfiguration.expectedOrders();
        private String preProcessorName = OrderServiceConfiguration.preProcessor();
        private String postProcessorName = OrderServiceConfiguration.string(
            OrderServiceConfiguration.POST_PROCESSOR_PROP_NAME);
        private String sinkSpec = OrderServiceConfiguration.sink();
        private boolean rebalance = OrderServiceConfiguration.rebalance();
        private boolean backupAnswers = OrderServiceConfiguration.backupAnswers();
        private String idleStrategySpec = OrderServiceConfiguration.idleStrategy();
        private int catchUpBatch = OrderServiceConfiguration.catchUpBatch();
        private int catchUpWindowBytes = OrderServiceConfiguration.catchUpWindowBytes();
        private int addressMaxHandshakes = OrderServiceConfiguration.addressMaxHandshakes();
        private int addressAcceptRate = OrderServiceConfiguration.addressAcceptRate();
        private long handshakeTimeoutNs = OrderServiceConfiguration.handshakeTimeoutNs();
        private boolean registerMBean = true;
        private CountersManager countersManager;
        private OrderPreProcessor preProcessor;
        private OrderPostProcessor postProcessor;
        private OrderSink sink;
        private IdleStrategy idleStrategy;
        private Path queueDirectory;

        @Override
        protected void concludeContext()
        {
            if (tlsEnabled)
            {
                // key material is read now: a wrong path or password stops the server before it listens
                final TlsSettings settings = null == tls ? TlsSettings.fromConfiguration() : tls;
                final SSLContext sslContext = settings.jdkContext(true);
                serverEngines = () -> settings.newServerEngine(sslContext);
            }
            requireRange(OrderServiceConfiguration.SERVER_ID_PROP_NAME, serverId, 0, 1);
            requireRange(OrderServiceConfiguration.PARTITIONS_PROP_NAME, partitions, 1, OrderQueue.MAX_PARTITIONS);
            requireRange(OrderServiceConfiguration.MAX_ORDER_BYTES_PROP_NAME, maxOrderBytes,
                OrderServiceConfiguration.MAX_ORDER_BYTES_MIN, OrderServiceConfiguration.MAX_ORDER_BYTES_MAX);
            if (expectedOrders < 1 || expectedOrders > OrderServiceConfiguration.EXPECTED_ORDERS_MAX)
            {
                throw new IllegalArgumentException(OrderServiceConfiguration.EXPECTED_ORDERS_PROP_NAME +
                    " must be 1 to " + OrderServiceConfiguration.EXPECTED_ORDERS_MAX + ": " + expectedOrders);
            }
            requirePositive(OrderServiceConfiguration.HEARTBEAT_INTERVAL_PROP_NAME, heartbeatIntervalNs);
            requireRange(OrderServiceConfiguration.CATCH_UP_BATCH_PROP_NAME, catchUpBatch, 1,
                OrderServiceConfiguration.CATCH_UP_BATCH_MAX);
            requireRange(OrderServiceConfiguration.CATCH_UP_WINDOW_PROP_NAME, catchUpWindowBytes,
                OrderServiceConfiguration.MAX_MESSAGE_BYTES, OrderServiceConfiguration.PEER_SEND_LIMIT_BYTES / 2);
            requirePositive(OrderServiceConfiguration.HANDSHAKE_TIMEOUT_PROP_NAME, handshakeTimeoutNs);
            requireRange(OrderServiceConfiguration.ADDRESS_MAX_HANDSHAKES_PROP_NAME, addressMaxHandshakes, 1,
                OrderServiceConfiguration.ADDRESS_BUDGET_MAX);
            requireRange(OrderServiceConfiguration.ADDRESS_ACCEPT_RATE_PROP_NAME, addressAcceptRate, 1,
                OrderServiceConfiguration.ADDRESS_BUDGET_MAX);
            requirePositive(OrderServiceConfiguration.FENCE_TIMEOUT_PROP_NAME, fenceTimeoutNs);
            requirePositive(OrderServiceConfiguration.FENCE_CONNECT_TIMEOUT_PROP_NAME, fenceConnectTimeoutNs);
            if (peerTimeoutNs < 3 * heartbeatIntervalNs)
            {
                throw new IllegalArgumentException(OrderServiceConfiguration.PEER_TIMEOUT_PROP_NAME +
                    " must be at least three heartbeat intervals");
            }
            final int peerId = 1 - serverId;
            address = orDefault(address, "localhost:" + (40501 + 10 * serverId));
            peerAddress = orDefault(peerAddress, "localhost:" + (40502 + 10 * serverId));
            peerRemoteAddress = orDefault(peerRemoteAddress, "localhost:" + (40502 + 10 * peerId));
            toAddress(address); // malformed addresses fail here, not in the agent
            toAddress(peerAddress);
            toAddress(peerRemoteAddress);
            fenceAddress = orDefault(fenceAddress, "localhost:" + (40503 + 10 * serverId));
            peerFenceAddress = orDefault(peerFenceAddress, "localhost:" + (40503 + 10 * peerId));
            queueDirectory = Paths.get(orDefault(queueDir, "mdhub-orders-" + serverId));
            idleStrategy = IdleStrategies.parse(idleStrategySpec);
            if (null == preProcessor)
            {
                preProcessor = instantiate(preProcessorName, OrderPreProcessor.class);
            }
            if (null == postProcessor)
            {
                postProcessor = postProcessorName.isEmpty() ? OrderPostProcessor.NONE :
                    instantiate(postProcessorName, OrderPostProcessor.class);
            }
            if (null == sink)
            {
                sink = OrderSinks.create(sinkSpec, sinkFsync);
            }
            if (null == countersManager)
            {
                countersManager = new CountersManager(
                    new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS_CAPACITY * CountersManager.METADATA_LENGTH)),
                    new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS_CAPACITY * CountersManager.COUNTER_LENGTH)));
            }
        }

        private static String orDefault(final String value, final String fallback)
        {
            return null == value || value.isEmpty() ? fallback : value;
        }

        static <T> T instantiate(final String className, final Class<T> type)
        {
            try
            {
                return type.cast(Class.forName(className).getConstructor().newInstance());
            }
            catch (final ReflectiveOperationException | ClassCastException ex)
            {
                throw new IllegalArgumentException("cannot make a " + type.getSimpleName() + " of " + className, ex);
            }
        }

        static InetSocketAddress toAddress(final String hostPort)
        {
            final int colon = hostPort.lastIndexOf(':');
            if (colon <= 0)
            {
                throw new IllegalArgumentException("expected host:port, got " + hostPort);
            }
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        }

        /**
         * @param serverId 0 or 1.
         * @return this.
         */
        public Context serverId(final int serverId)
        {
            checkNotConcluded();
            this.serverId = serverId;
            return this;
        }

        /**
         * @return this server's id.
         */
        public int serverId()
        {
            return serverId;
        }

        /**
         * @param partitions partitions of the pair.
         * @return this.
         */
        public Context partitions(final int partitions)
        {
            checkNotConcluded();
            this.partitions = partitions;
            return this;
        }

        /**
         * @return partitions.
         */
        public int partitions()
        {
            return partitions;
        }

        /**
         * @param address host:port this server takes order clients on (port 0: any free one, see
         *                {@link OrderService#address()}).
         * @return this.
         */
        public Context address(final String address)
        {
            checkNotConcluded();
            this.address = address;
            return this;
        }

        /**
         * @return where this server takes order clients.
         */
        public InetSocketAddress address()
        {
            return toAddress(address);
        }

        /**
         * @param peerAddress host:port this server takes its peer's connection on.
         * @return this.
         */
        public Context peerAddress(final String peerAddress)
        {
            checkNotConcluded();
            this.peerAddress = peerAddress;
            return this;
        }

        /**
         * @return where this server takes its peer's connection.
         */
        public InetSocketAddress peerAddress()
        {
            return toAddress(peerAddress);
        }

        /**
         * @param peerRemoteAddress host:port of the peer's peer address (where this server connects and sends).
         * @return this.
         */
        public Context peerRemoteAddress(final String peerRemoteAddress)
        {
            checkNotConcluded();
            this.peerRemoteAddress = peerRemoteAddress;
            return this;
        }

        /**
         * @return the peer's peer address.
         */
        public InetSocketAddress peerRemoteAddress()
        {
            return toAddress(peerRemoteAddress);
        }

        /**
         * @param catchUpBatch       orders of a catch-up sent per duty cycle, after live replication.
         * @param catchUpWindowBytes bytes a catch-up may leave waiting to be written to the peer.
         * @return this.
         */
        public Context catchUp(final int catchUpBatch, final int catchUpWindowBytes)
        {
            checkNotConcluded();
            this.catchUpBatch = catchUpBatch;
            this.catchUpWindowBytes = catchUpWindowBytes;
            return this;
        }

        int catchUpBatch()
        {
            return catchUpBatch;
        }

        int catchUpWindowBytes()
        {
            return catchUpWindowBytes;
        }

        /**
         * @param maxHandshakes    connections of one remote address open on a port without a first valid message.
         * @param acceptsPerSecond new connections one remote address may open a second on a port.
         * @return this.
         */
        public Context addressBudget(final int maxHandshakes, final int acceptsPerSecond)
        {
            checkNotConcluded();
            this.addressMaxHandshakes = maxHandshakes;
            this.addressAcceptRate = acceptsPerSecond;
            return this;
        }

        /**
         * @param handshakeTimeoutNs how long a client connection may stay open without a hello (its TLS handshake
         *                           included) before it is closed.
         * @return this.
         */
        public Context handshakeTimeoutNs(final long handshakeTimeoutNs)
        {
            checkNotConcluded();
            this.handshakeTimeoutNs = handshakeTimeoutNs;
            return this;
        }

        long handshakeTimeoutNs()
        {
            return handshakeTimeoutNs;
        }

        /**
         * @param tlsEnabled whether the client order port speaks TLS.
         * @return this.
         */
        public Context tlsEnabled(final boolean tlsEnabled)
        {
            checkNotConcluded();
            this.tlsEnabled = tlsEnabled;
            return this;
        }

        /**
         * @param tls TLS settings of the client order port; when null, conclude reads the {@code mdhub.tls.*} keys.
         * @return this.
         */
        public Context tls(final TlsSettings tls)
        {
            checkNotConcluded();
            this.tls = tls;
            return this;
        }

        Supplier<SSLEngine> serverEngines()
        {
            return serverEngines;
        }

        int addressMaxHandshakes()
        {
            return addressMaxHandshakes;
        }

        int addressAcceptRate()
        {
            return addressAcceptRate;
        }

        /**
         * @return how many bytes of replication may wait to be written to the peer.
         */
        int peerSendLimitBytes()
        {
            return OrderServiceConfiguration.PEER_SEND_LIMIT_BYTES;
        }

        /**
         * @param fenceAddress host:port this server's fence listens on.
         * @param peerFenceAddress host:port of the peer's fence.
         * @return this.
         */
        public Context fence(final String fenceAddress, final String peerFenceAddress)
        {
            checkNotConcluded();
            this.fenceAddress = fenceAddress;
            this.peerFenceAddress = peerFenceAddress;
            return this;
        }

        InetSocketAddress fenceAddress()
        {
            return toAddress(fenceAddress);
        }

        InetSocketAddress peerFenceAddress()
        {
            return toAddress(peerFenceAddress);
        }

        /**
         * @param heartbeatIntervalNs heartbeat interval.
         * @param peerTimeoutNs       silence after which the link is lost.
         * @return this.
         */
        public Context timing(final long heartbeatIntervalNs, final long peerTimeoutNs)
        {
            checkNotConcluded();
            this.heartbeatIntervalNs = heartbeatIntervalNs;
            this.peerTimeoutNs = peerTimeoutNs;
            return this;
        }

        long heartbeatIntervalNs()
        {
            return heartbeatIntervalNs;
        }

        long peerTimeoutNs()
        {
            return peerTimeoutNs;
        }

        /**
         * @param startupPeerWaitNs how long to wait for a peer that is not running before serving alone; negative
         *                          waits forever.
         * @return this.
         */
        public Context startupPeerWaitNs(final long startupPeerWaitNs)
        {
            checkNotConcluded();
            this.startupPeerWaitNs = startupPeerWaitNs;
            return this;
        }

        long startupPeerWaitNs()
        {
            return startupPeerWaitNs;
        }

        /**
         * @param fenceTimeoutNs        silence on a fence connection after which it is lost and reconnected.
         * @param fenceConnectTimeoutNs how long a fence connect may go unanswered before the peer is UNKNOWN.
         * @return this.
         */
        public Context fenceTiming(final long fenceTimeoutNs, final long fenceConnectTimeoutNs)
        {
            checkNotConcluded();
            this.fenceTimeoutNs = fenceTimeoutNs;
            this.fenceConnectTimeoutNs = fenceConnectTimeoutNs;
            return this;
        }

        long fenceTimeoutNs()
        {
            return fenceTimeoutNs;
        }

        long fenceConnectTimeoutNs()
        {
            return fenceConnectTimeoutNs;
        }

        /**
         * @param startupForceAlone serve alone at start once the peer is not running, even without proof that this
         *                          store holds every acknowledged order (an operator override).
         * @return this.
         */
        public Context startupForceAlone(final boolean startupForceAlone)
        {
            checkNotConcluded();
            this.startupForceAlone = startupForceAlone;
            return this;
        }

        boolean startupForceAlone()
        {
            return startupForceAlone;
        }

        /**
         * @param sinkFsync force the file sink and the drained positions to disk at every sink flush.
         * @return this.
         */
        public Context sinkFsync(final boolean sinkFsync)
        {
            checkNotConcluded();
            this.sinkFsync = sinkFsync;
            return this;
        }

        boolean sinkFsync()
        {
            return sinkFsync;
        }

        /**
         * @param queueDir directory of the write-behind queue.
         * @return this.
         */
        public Context queueDir(final String queueDir)
        {
            checkNotConcluded();
            this.queueDir = queueDir;
            return this;
        }

        Path queueDirectory()
        {
            return queueDirectory;
        }

        int maxOrderBytes()
        {
            return maxOrderBytes;
        }

        /**
         * @param expectedOrders orders the in-memory store is sized for at start.
         * @return this.
         */
        public Context expectedOrders(final long expectedOrders)
        {
            checkNotConcluded();
            this.expectedOrders = expectedOrders;
            return this;
        }

        long expectedOrders()
        {
            return expectedOrders;
        }

        /**
         * @param preProcessor the pre-processing callback (instead of the configured class).
         * @return this.
         */
        public Context preProcessor(final OrderPreProcessor preProcessor)
        {
            checkNotConcluded();
            this.preProcessor = preProcessor;
            return this;
        }

        OrderPreProcessor preProcessor()
        {
            return preProcessor;
        }

        /**
         * @param postProcessor the post-processing callback (instead of the configured class).
         * @return this.
         */
        public Context postProcessor(final OrderPostProcessor postProcessor)
        {
            checkNotConcluded();
            this.postProcessor = postProcessor;
            return this;
        }

        OrderPostProcessor postProcessor()
        {
            return postProcessor;
        }

        /**
         * @param sink the downstream sink (instead of the configured one); closed with the service.
         * @return this.
         */
        public Context sink(final OrderSink sink)
        {
            checkNotConcluded();
            this.sink = sink;
            return this;
        }

        OrderSink sink()
        {
            return sink;
        }

        /**
         * @param rebalance hand partitions back to their home server.
         * @return this.
         */
        public Context rebalance(final boolean rebalance)
        {
            checkNotConcluded();
            this.rebalance = rebalance;
            return this;
        }

        boolean rebalance()
        {
            return rebalance;
        }

        /**
         * @param backupAnswers as primary, have the backup answer each client once it has stored the order (one
         *                      hop fewer); false: answer from here when the backup's acknowledgement arrives.
         * @return this.
         */
        public Context backupAnswers(final boolean backupAnswers)
        {
            checkNotConcluded();
            this.backupAnswers = backupAnswers;
            return this;
        }

        boolean backupAnswers()
        {
            return backupAnswers;
        }

        /**
         * @param idleStrategySpec idle strategy of the agent thread (see IdleStrategies).
         * @return this.
         */
        public Context idleStrategy(final String idleStrategySpec)
        {
            checkNotConcluded();
            this.idleStrategySpec = idleStrategySpec;
            return this;
        }

        IdleStrategy idleStrategy()
        {
            return idleStrategy;
        }

        /**
         * @param countersManager where the service's counters go (default: an in-memory one of its own).
         * @return this.
         */
        public Context countersManager(final CountersManager countersManager)
        {
            checkNotConcluded();
            this.countersManager = countersManager;
            return this;
        }

        /**
         * @return where the service's counters are.
         */
        public CountersManager countersManager()
        {
            return countersManager;
        }

        /**
         * @param registerMBean register the JMX MBean.
         * @return this.
         */
        public Context registerMBean(final boolean registerMBean)
        {
            checkNotConcluded();
            this.registerMBean = registerMBean;
            return this;
        }

        boolean registerMBean()
        {
            return registerMBean;
        }

        @Override
        public void close()
        {
            CloseHelper.quietClose(sink);
        }
    }
}
