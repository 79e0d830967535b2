package io.mdhub.benchmarks.source;

import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;

import io.mdhub.common.config.BaseContext;
import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcServer;

/**
 * A market data source in interactive (sink-driven) mode, as RMDS's "Sink_Driven_Src": an RSSL server that
 * consumers (a distributor's routes, its mirror, an ETA consumer) connect to. It accepts consumer logins, answers
 * source directory requests with one service, answers a MarketPrice request for any item name with a refresh, and
 * then sends updates over each connection's open items at the commanded rate, every one carrying the item's update
 * counter (MDH_UPDSEQ) and every n-th the origin time (MDH_ORGTIM), the same layout as the non-interactive
 * {@link Source}. Items exist only while requested.
 * <p>
 * Threading: the RIPC server's Netty event loop(s) (one by default). Each connection's state is owned by its loop;
 * its updates are paced by a 1 ms task on that loop ({@link UpdatePacer}). The rate applies per connection, so a
 * distributor and its mirror each receive the full rate. A connection that stops reading is not written to while
 * unwritable and is disconnected once its pending output passes {@link Context#maxPendingBytes()} or it stays
 * unwritable for {@link Context#slowConsumerTimeoutMs()}.
 * <pre>{@code
 * try (InteractiveSource source = InteractiveSource.launch(new InteractiveSource.Context().port(0).rate(1000)))
 * {
 *     connectTo(source.port());
 * }
 * }</pre>
 */
public final class InteractiveSource implements AutoCloseable
{
    private final Context ctx;
    private final InteractiveSourceStats stats = new InteractiveSourceStats();
    private final RipcServer server;

    private InteractiveSource(final Context ctx)
    {
        this.ctx = ctx;
        stats.targetRate = ctx.rate();
        server = RipcServer.launch(new RipcServer.Context()
            .bindAddress(ctx.bindAddress())
            .port(ctx.port())
            .componentName(ctx.componentName())
            .eventLoopThreads(ctx.eventLoopThreads())
            .packOutbound(ctx.packOutbound())
            .channelHook((ch) -> ch.pipeline().addLast("sink-session", new SinkSession(ctx, stats))));
    }

    /**
     * Conclude the settings and start listening.
     *
     * @param ctx settings, concluded here.
     * @return the listening source.
     */
    public static InteractiveSource launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, InteractiveSource::new);
    }

    /**
     * @return the port actually listened on (useful with port 0).
     */
    public int port()
    {
        return server.port();
    }

    /**
     * Change the update rate of every connection, open now or later; each connection picks it up at its next tick.
     *
     * @param ratePerSecond updates per second per connection, 0 to pause.
     */
    public void rate(final long ratePerSecond)
    {
        if (ratePerSecond < 0)
        {
            throw new IllegalArgumentException("rate must not be negative: " + ratePerSecond);
        }
        stats.targetRate = ratePerSecond;
    }

    /**
     * @return live counts.
     */
    public InteractiveSourceStats stats()
    {
        return stats;
    }

    /**
     * @return the settings.
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * @return the RSSL server (its counters and open channels).
     */
    public RipcServer server()
    {
        return server;
    }

    /**
     * Stop listening, close every connection and release the event loop.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(server, ctx);
    }

    /**
     * Settings of an {@link InteractiveSource}.
     */
    public static final class Context extends BaseContext<Context>
    {
        /**
         * Default listening port, the port RMDS routes mounted their publishers on.
         */
        public static final int PORT_DEFAULT = 14002;

        /**
         * Default service name.
         */
        public static final String SERVICE_NAME_DEFAULT = "MDH_SINK";

        /**
         * Shortest pacing period.
         */
        public static final long MIN_TICK_NS = TimeUnit.MICROSECONDS.toNanos(100);

        /**
         * Longest pacing period.
         */
        public static final long MAX_TICK_NS = TimeUnit.SECONDS.toNanos(1);

        private String bindAddress = "127.0.0.1";
        private int port = PORT_DEFAULT;
        private String componentName = "mdhub-source";
        private String serviceName = SERVICE_NAME_DEFAULT;
        private int serviceId = 1;
        private long rate = 1000;
        private int timestampEvery = 10;
        private int maxBurst = UpdatePacer.MAX_BURST_DEFAULT;
        private int eventLoopThreads = 1;
        private boolean packOutbound = RipcConfiguration.packOutbound();
        private long tickNs = TimeUnit.MILLISECONDS.toNanos(1);
        private long maxPendingBytes = 64L << 20;
        private long slowConsumerTimeoutMs = 10_000;

        @Override
        protected void concludeContext()
        {
            requireRange("port", port, 0, 65535);
            requireRange("serviceId", serviceId, 0, 65535);
            requireRange("rate", rate, 0, Integer.MAX_VALUE);
            requirePositive("timestampEvery", timestampEvery);
            requirePositive("maxBurst", maxBurst);
            requireRange("eventLoopThreads", eventLoopThreads, 1, 64);
            requireRange("tickNs", tickNs, MIN_TICK_NS, MAX_TICK_NS);
            requirePositive("maxPendingBytes", maxPendingBytes);
            requirePositive("slowConsumerTimeoutMs", slowConsumerTimeoutMs);
            if (null == serviceName || serviceName.isEmpty() || serviceName.length() > 255)
            {
                throw new IllegalArgumentException("serviceName must be 1 to 255 characters: " + serviceName);
            }
        }

        /**
         * @param bindAddress address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).
         * @return this.
         */
        public Context bindAddress(final String bindAddress)
        {
            checkNotConcluded();
            this.bindAddress = bindAddress;
            return this;
        }

        /**
         * @return address to listen on.
         */
        public String bindAddress()
        {
            return bindAddress;
        }

        /**
         * @param port TCP port to listen on, 0 for an ephemeral one (see {@link InteractiveSource#port()}).
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
         * @param componentName name in the RIPC handshake, logs and counter labels.
         * @return this.
         */
        public Context componentName(final String componentName)
        {
            checkNotConcluded();
            this.componentName = componentName;
            return this;
        }

        /**
         * @return name in the RIPC handshake, logs and counter labels.
         */
        public String componentName()
        {
            return componentName;
        }

        /**
         * @param serviceName the one service in the directory.
         * @return this.
         */
        public Context serviceName(final String serviceName)
        {
            checkNotConcluded();
            this.serviceName = serviceName;
            return this;
        }

        /**
         * @return the one service in the directory.
         */
        public String serviceName()
        {
            return serviceName;
        }

        /**
         * @param serviceId the service's id.
         * @return this.
         */
        public Context serviceId(final int serviceId)
        {
            checkNotConcluded();
            this.serviceId = serviceId;
            return this;
        }

        /**
         * @return the service's id.
         */
        public int serviceId()
        {
            return serviceId;
        }

        /**
         * @param rate initial updates per second per connection, spread over its open items.
         * @return this.
         */
        public Context rate(final long rate)
        {
            checkNotConcluded();
            this.rate = rate;
            return this;
        }

        /**
         * @return initial updates per second per connection.
         */
        public long rate()
        {
            return rate;
        }

        /**
         * @param timestampEvery every n-th update of a connection carries an origin timestamp.
         * @return this.
         */
        public Context timestampEvery(final int timestampEvery)
        {
            checkNotConcluded();
            this.timestampEvery = timestampEvery;
            return this;
        }

        /**
         * @return every n-th update carries an origin timestamp.
         */
        public int timestampEvery()
        {
            return timestampEvery;
        }

        /**
         * @param maxBurst most updates one connection sends in one tick when catching up.
         * @return this.
         */
        public Context maxBurst(final int maxBurst)
        {
            checkNotConcluded();
            this.maxBurst = maxBurst;
            return this;
        }

        /**
         * @return most updates sent in one tick when catching up.
         */
        public int maxBurst()
        {
            return maxBurst;
        }

        /**
         * @param eventLoopThreads Netty event loops the connections are spread over.
         * @return this.
         */
        public Context eventLoopThreads(final int eventLoopThreads)
        {
            checkNotConcluded();
            this.eventLoopThreads = eventLoopThreads;
            return this;
        }

        /**
         * @return Netty event loops.
         */
        public int eventLoopThreads()
        {
            return eventLoopThreads;
        }

        /**
         * @param packOutbound pack the messages written between two flushes into RIPC packed frames (default
         *                     {@code mdhub.ripc.pack.outbound}, on); off, every update leaves in a frame of its own.
         * @return this.
         */
        public Context packOutbound(final boolean packOutbound)
        {
            checkNotConcluded();
            this.packOutbound = packOutbound;
            return this;
        }

        /**
         * @return whether outbound messages are packed.
         */
        public boolean packOutbound()
        {
            return packOutbound;
        }

        /**
         * @param tickNs pacing period (100 us to 1 s; default 1 ms).
         * @return this.
         */
        public Context tickNs(final long tickNs)
        {
            checkNotConcluded();
            this.tickNs = tickNs;
            return this;
        }

        /**
         * @return pacing period in nanoseconds.
         */
        public long tickNs()
        {
            return tickNs;
        }

        /**
         * @param maxPendingBytes output a connection may have queued (not yet taken by the socket) before it is
         *                        disconnected as a slow consumer.
         * @return this.
         */
        public Context maxPendingBytes(final long maxPendingBytes)
        {
            checkNotConcluded();
            this.maxPendingBytes = maxPendingBytes;
            return this;
        }

        /**
         * @return the pending-output limit in bytes.
         */
        public long maxPendingBytes()
        {
            return maxPendingBytes;
        }

        /**
         * @param slowConsumerTimeoutMs longest time a connection may stay unwritable before it is disconnected.
         * @return this.
         */
        public Context slowConsumerTimeoutMs(final long slowConsumerTimeoutMs)
        {
            checkNotConcluded();
            this.slowConsumerTimeoutMs = slowConsumerTimeoutMs;
            return this;
        }

        /**
         * @return the unwritable timeout in milliseconds.
         */
        public long slowConsumerTimeoutMs()
        {
            return slowConsumerTimeoutMs;
        }
    }
}
