package io.mdhub.p2p.order;

import java.net.InetSocketAddress;

import javax.management.ObjectName;

import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.config.ComponentLaunch;
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
     * Settings of an order service; defaults from {@link OrderServiceConfiguration}. The settings themselves are in
     * {@link OrderServiceSettings}.
     */
    public static final class Context extends OrderServiceSettings<Context>
    {
    }
}
