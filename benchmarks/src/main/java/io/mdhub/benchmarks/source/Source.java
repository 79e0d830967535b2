package io.mdhub.benchmarks.source;

import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.LangUtil;

import io.mdhub.common.config.BaseContext;
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
        ctx.conclude();
        try
        {
            return new Source(ctx);
        }
        catch (final Throwable ex)
        {
            CloseHelper.quietClose(ctx);
            LangUtil.rethrowUnchecked(ex);
            return null; // not reached
        }
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
    public static final class Context extends BaseContext<Context>
    {
        private String host = "127.0.0.1";
        private int port = 14003;
        private String serviceName = "NI_PUB";
        private int serviceId = 1;
        private ItemUniverse items;
        private int itemCount = 100_000;
        private long rate = 1000;
        private int timestampEvery = 10;
        private int maxBurst = 10_000;
        private String userName = "mdhub-source";
        private long connectTimeoutMs = 10_000;

        @Override
        protected void concludeContext()
        {
            requireRange("port", port, 1, 65535);
            requireRange("serviceId", serviceId, 0, 65535);
            requireRange("rate", rate, 0, Integer.MAX_VALUE);
            requirePositive("timestampEvery", timestampEvery);
            requirePositive("maxBurst", maxBurst);
            requirePositive("connectTimeoutMs", connectTimeoutMs);
            if (null == items)
            {
                items = ItemUniverse.generated((int)requirePositive("itemCount", itemCount));
            }
        }

        /**
         * @param host distributor host.
         * @return this.
         */
        public Context host(final String host)
        {
            checkNotConcluded();
            this.host = host;
            return this;
        }

        /**
         * @return distributor host.
         */
        public String host()
        {
            return host;
        }

        /**
         * @param port the distributor's provider port.
         * @return this.
         */
        public Context port(final int port)
        {
            checkNotConcluded();
            this.port = port;
            return this;
        }

        /**
         * @return the distributor's provider port.
         */
        public int port()
        {
            return port;
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
         * @param items the universe (overrides itemCount).
         * @return this.
         */
        public Context items(final ItemUniverse items)
        {
            checkNotConcluded();
            this.items = items;
            return this;
        }

        /**
         * @return the universe (after conclude).
         */
        public ItemUniverse items()
        {
            return items;
        }

        /**
         * @param itemCount size of a generated universe.
         * @return this.
         */
        public Context itemCount(final int itemCount)
        {
            checkNotConcluded();
            this.itemCount = itemCount;
            return this;
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

        /**
         * @param userName login user name.
         * @return this.
         */
        public Context userName(final String userName)
        {
            checkNotConcluded();
            this.userName = userName;
            return this;
        }

        /**
         * @return login user name.
         */
        public String userName()
        {
            return userName;
        }

        /**
         * @param connectTimeoutMs how long to wait for the connection.
         * @return this.
         */
        public Context connectTimeoutMs(final long connectTimeoutMs)
        {
            checkNotConcluded();
            this.connectTimeoutMs = connectTimeoutMs;
            return this;
        }

        /**
         * @return how long to wait for the connection.
         */
        public long connectTimeoutMs()
        {
            return connectTimeoutMs;
        }
    }
}
