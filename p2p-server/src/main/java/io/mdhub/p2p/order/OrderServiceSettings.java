package io.mdhub.p2p.order;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.concurrent.IdleStrategies;
import io.mdhub.common.config.BaseContext;
import io.mdhub.common.status.InMemoryCounters;
import io.mdhub.common.tls.TlsSettings;

/**
 * The settings of an {@link OrderService}, behind its public {@link OrderService.Context}: the server's id and
 * partitions, its client, peer and fence addresses, timing, TLS, the write-behind queue, the order processors and the
 * sink. Defaults come from {@link OrderServiceConfiguration}. {@link #conclude()} validates them, fills in the
 * addresses and directories derived from the server id, and builds the TLS engine supplier, processors, sink and
 * (unless one is supplied) an in-memory {@link CountersManager}; {@link #close()} closes the sink. A base class with
 * the concrete type as parameter keeps the fluent setters returning {@code OrderService.Context} while the service's
 * file holds only its logic.
 *
 * @param <T> the concrete Context type.
 */
public abstract class OrderServiceSettings<T extends OrderServiceSettings<T>> extends BaseContext<T>
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
    private InMemoryCounters ownCounters;
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
            final TlsSettings settings = TlsSettings.orConfiguration(tls);
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
            // left to the GC on close (never freed explicitly): a metrics bridge may still read them
            ownCounters = new InMemoryCounters(COUNTERS_CAPACITY);
            countersManager = ownCounters.manager();
        }
    }

    private static String orDefault(final String value, final String fallback)
    {
        return null == value || value.isEmpty() ? fallback : value;
    }

    static <I> I instantiate(final String className, final Class<I> type)
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
    public T serverId(final int serverId)
    {
        checkNotConcluded();
        this.serverId = serverId;
        return self();
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
    public T partitions(final int partitions)
    {
        checkNotConcluded();
        this.partitions = partitions;
        return self();
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
    public T address(final String address)
    {
        checkNotConcluded();
        this.address = address;
        return self();
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
    public T peerAddress(final String peerAddress)
    {
        checkNotConcluded();
        this.peerAddress = peerAddress;
        return self();
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
    public T peerRemoteAddress(final String peerRemoteAddress)
    {
        checkNotConcluded();
        this.peerRemoteAddress = peerRemoteAddress;
        return self();
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
    public T catchUp(final int catchUpBatch, final int catchUpWindowBytes)
    {
        checkNotConcluded();
        this.catchUpBatch = catchUpBatch;
        this.catchUpWindowBytes = catchUpWindowBytes;
        return self();
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
    public T addressBudget(final int maxHandshakes, final int acceptsPerSecond)
    {
        checkNotConcluded();
        this.addressMaxHandshakes = maxHandshakes;
        this.addressAcceptRate = acceptsPerSecond;
        return self();
    }

    /**
     * @param handshakeTimeoutNs how long a client connection may stay open without a hello (its TLS handshake
     *                           included) before it is closed.
     * @return this.
     */
    public T handshakeTimeoutNs(final long handshakeTimeoutNs)
    {
        checkNotConcluded();
        this.handshakeTimeoutNs = handshakeTimeoutNs;
        return self();
    }

    long handshakeTimeoutNs()
    {
        return handshakeTimeoutNs;
    }

    /**
     * @param tlsEnabled whether the client order port speaks TLS.
     * @return this.
     */
    public T tlsEnabled(final boolean tlsEnabled)
    {
        checkNotConcluded();
        this.tlsEnabled = tlsEnabled;
        return self();
    }

    /**
     * @param tls TLS settings of the client order port; when null, conclude reads the {@code mdhub.tls.*} keys.
     * @return this.
     */
    public T tls(final TlsSettings tls)
    {
        checkNotConcluded();
        this.tls = tls;
        return self();
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
    public T fence(final String fenceAddress, final String peerFenceAddress)
    {
        checkNotConcluded();
        this.fenceAddress = fenceAddress;
        this.peerFenceAddress = peerFenceAddress;
        return self();
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
    public T timing(final long heartbeatIntervalNs, final long peerTimeoutNs)
    {
        checkNotConcluded();
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        this.peerTimeoutNs = peerTimeoutNs;
        return self();
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
    public T startupPeerWaitNs(final long startupPeerWaitNs)
    {
        checkNotConcluded();
        this.startupPeerWaitNs = startupPeerWaitNs;
        return self();
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
    public T fenceTiming(final long fenceTimeoutNs, final long fenceConnectTimeoutNs)
    {
        checkNotConcluded();
        this.fenceTimeoutNs = fenceTimeoutNs;
        this.fenceConnectTimeoutNs = fenceConnectTimeoutNs;
        return self();
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
    public T startupForceAlone(final boolean startupForceAlone)
    {
        checkNotConcluded();
        this.startupForceAlone = startupForceAlone;
        return self();
    }

    boolean startupForceAlone()
    {
        return startupForceAlone;
    }

    /**
     * @param sinkFsync force the file sink and the drained positions to disk at every sink flush.
     * @return this.
     */
    public T sinkFsync(final boolean sinkFsync)
    {
        checkNotConcluded();
        this.sinkFsync = sinkFsync;
        return self();
    }

    boolean sinkFsync()
    {
        return sinkFsync;
    }

    /**
     * @param queueDir directory of the write-behind queue.
     * @return this.
     */
    public T queueDir(final String queueDir)
    {
        checkNotConcluded();
        this.queueDir = queueDir;
        return self();
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
    public T expectedOrders(final long expectedOrders)
    {
        checkNotConcluded();
        this.expectedOrders = expectedOrders;
        return self();
    }

    long expectedOrders()
    {
        return expectedOrders;
    }

    /**
     * @param preProcessor the pre-processing callback (instead of the configured class).
     * @return this.
     */
    public T preProcessor(final OrderPreProcessor preProcessor)
    {
        checkNotConcluded();
        this.preProcessor = preProcessor;
        return self();
    }

    OrderPreProcessor preProcessor()
    {
        return preProcessor;
    }

    /**
     * @param postProcessor the post-processing callback (instead of the configured class).
     * @return this.
     */
    public T postProcessor(final OrderPostProcessor postProcessor)
    {
        checkNotConcluded();
        this.postProcessor = postProcessor;
        return self();
    }

    OrderPostProcessor postProcessor()
    {
        return postProcessor;
    }

    /**
     * @param sink the downstream sink (instead of the configured one); closed with the service.
     * @return this.
     */
    public T sink(final OrderSink sink)
    {
        checkNotConcluded();
        this.sink = sink;
        return self();
    }

    OrderSink sink()
    {
        return sink;
    }

    /**
     * @param rebalance hand partitions back to their home server.
     * @return this.
     */
    public T rebalance(final boolean rebalance)
    {
        checkNotConcluded();
        this.rebalance = rebalance;
        return self();
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
    public T backupAnswers(final boolean backupAnswers)
    {
        checkNotConcluded();
        this.backupAnswers = backupAnswers;
        return self();
    }

    boolean backupAnswers()
    {
        return backupAnswers;
    }

    /**
     * @param idleStrategySpec idle strategy of the agent thread (see IdleStrategies).
     * @return this.
     */
    public T idleStrategy(final String idleStrategySpec)
    {
        checkNotConcluded();
        this.idleStrategySpec = idleStrategySpec;
        return self();
    }

    IdleStrategy idleStrategy()
    {
        return idleStrategy;
    }

    /**
     * @param countersManager where the service's counters go (default: an in-memory one of its own).
     * @return this.
     */
    public T countersManager(final CountersManager countersManager)
    {
        checkNotConcluded();
        this.countersManager = countersManager;
        return self();
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
    public T registerMBean(final boolean registerMBean)
    {
        checkNotConcluded();
        this.registerMBean = registerMBean;
        return self();
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

    /**
     * A copy with the same settings that is not concluded and owns none of this Context's resources: the sink, given
     * or made, stays with this Context (it closes it), and the copy makes its own from the sink settings, as it makes
     * its own counters and processors when concluded.
     *
     * @return the copy.
     */
    @Override
    public T clone()
    {
        final T clone = super.clone();
        final OrderServiceSettings<T> copy = clone; // private fields are reached through the class, not through T
        copy.sink = null;
        copy.countersManager = null != ownCounters ? null : countersManager;
        copy.ownCounters = null;
        return clone;
    }
}
