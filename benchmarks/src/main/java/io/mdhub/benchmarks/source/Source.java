package io.mdhub.benchmarks.source;

import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;

import io.mdhub.benchmarks.tools.RsslToolContext;
import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.ripc.RipcClient;
import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;

/**
 * A market data source in non-interactive provider mode: connects to a distributor over RSSL, publishes every item
 * of its universe as a refresh, then updates at a commanded rate that can change while it runs
 * ({@link #rate(long)}). Runs on one Netty event loop of its own. Used by {@code bin/mdhub source}, the demo and
 * the system tests.
 */
public final class Source implements AutoCloseable
{
    private final Context ctx;
    private final SourceStats stats = new SourceStats();
    private final RipcClient client;
    private final NiProviderSession session;
    private final Channel channel;

    private Source(final Context ctx)
    {
        this.ctx = ctx;
        stats.targetRate = ctx.rate();
        session = new NiProviderSession(ctx, stats);
        client = RipcClient.launch(new RipcClient.Context()
            .host(ctx.host())
            .port(ctx.port())
            .componentName("mdhub-source")
            .eventLoopThreads(1)
            .channelHook((ch) -> ch.pipeline().addLast("source", session)));
        final Future<Channel> connected = client.connect();
        if (!connected.awaitUninterruptibly(ctx.connectTimeoutMs(), TimeUnit.MILLISECONDS))
        {
            throw new IllegalStateException("no connection to the distributor at " + ctx.host() + ":" + ctx.port() +
                " within " + ctx.connectTimeoutMs() + " ms");
        }
        if (!connected.isSuccess())
        {
            throw new IllegalStateException("cannot connect to the distributor at " + ctx.host() + ":" + ctx.port() +
                ": " + connected.cause(), connected.cause());
        }
        channel = connected.getNow();
    }

    /**
     * Connect and start publishing.
     *
     * @param ctx settings, concluded here.
     * @return the running source.
     */
    public static Source launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, Source::new);
    }

    /**
     * Change the update rate.
     *
     * @param ratePerSecond updates per second over the whole universe, 0 to pause.
     */
    public void rate(final long ratePerSecond)
    {
        if (ratePerSecond < 0)
        {
            throw new IllegalArgumentException("rate must not be negative: " + ratePerSecond);
        }
        channel.eventLoop().execute(() -> session.rate(ratePerSecond));
    }

    /**
     * @return live counts.
     */
    public SourceStats stats()
    {
        return stats;
    }

    /**
     * @return true while the connection is open.
     */
    public boolean isActive()
    {
        return channel.isActive();
    }

    /**
     * @return the settings.
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * Disconnect and release the event loop.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(client, ctx);
    }

    /**
     * Settings of a {@link Source}.
     */
    public static final class Context extends RsslToolContext<Context>
    {
        private String serviceName = "NI_PUB";
        private int serviceId = 1;
        private long rate = 1000;
        private int timestampEvery = 10;
        private int maxBurst = UpdatePacer.MAX_BURST_DEFAULT;
        private String lock;

        /**
         * Defaults: port 14003, user mdhub-source.
         */
        public Context()
        {
            super(14003, "mdhub-source");
        }

        @Override
        protected void concludeContext()
        {
            super.concludeContext();
            requireRange("serviceId", serviceId, 0, 65535);
            requireRange("rate", rate, 0, Integer.MAX_VALUE);
            requirePositive("timestampEvery", timestampEvery);
            requirePositive("maxBurst", maxBurst);
        }





        /**
         * @param lock the items' lock, sent as the PermData of every refresh ({@code "62"}, {@code "62,144"}), or
         *             null for none.
         * @return this.
         */
        public Context lock(final String lock)
        {
            checkNotConcluded();
            this.lock = lock;
            return this;
        }

        /**
         * @return the items' lock, or null.
         */
        public String lock()
        {
            return lock;
        }

        /**
         * @param serviceName service published.
         * @return this.
         */
        public Context serviceName(final String serviceName)
        {
            checkNotConcluded();
            this.serviceName = serviceName;
            return this;
        }

        /**
         * @return service published.
         */
        public String serviceName()
        {
            return serviceName;
        }

        /**
         * @param serviceId the provider's id for the service.
         * @return this.
         */
        public Context serviceId(final int serviceId)
        {
            checkNotConcluded();
            this.serviceId = serviceId;
            return this;
        }

        /**
         * @return the provider's id for the service.
         */
        public int serviceId()
        {
            return serviceId;
        }




        /**
         * @param rate initial updates per second.
         * @return this.
         */
        public Context rate(final long rate)
        {
            checkNotConcluded();
            this.rate = rate;
            return this;
        }

        /**
         * @return initial updates per second.
         */
        public long rate()
        {
            return rate;
        }

        /**
         * @param timestampEvery every n-th update carries an origin timestamp.
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
         * @param maxBurst most updates sent in one 1 ms tick when catching up.
         * @return this.
         */
        public Context maxBurst(final int maxBurst)
        {
            checkNotConcluded();
            this.maxBurst = maxBurst;
            return this;
        }

        /**
         * @return most updates sent in one 1 ms tick when catching up.
         */
        public int maxBurst()
        {
            return maxBurst;
        }




    }
}
