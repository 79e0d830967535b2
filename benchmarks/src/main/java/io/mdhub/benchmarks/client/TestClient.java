package io.mdhub.benchmarks.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.LangUtil;

import io.mdhub.benchmarks.tools.RsslToolContext;
import io.mdhub.common.ripc.RipcClient;
import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;

/**
 * The test client (RMDSTestClient's role): N mounts (connections) to a p2p-server, mount k watching a window of
 * {@code fraction} of the universe starting at item {@code k * size / N} (wrapping), so with fraction 0.5 every mount
 * watches a different half and the server's output is about N/2 times its input (the Producer 50/50 shape).
 */
public final class TestClient implements AutoCloseable
{
    private final Context ctx;
    private final RipcClient client;
    private final List<MountStats> mounts = new ArrayList<>();
    private final List<Channel> channels = new ArrayList<>();
    private final Histogram latencyScratch = new Histogram(3);
    private volatile MountStats pendingStats;
    private volatile int[] pendingIndexes;

    private TestClient(final Context ctx)
    {
        this.ctx = ctx;
        final int size = ctx.items().size();
        final int window = Math.max(1, (int)Math.round(ctx.fraction() * size));
        client = RipcClient.launch(new RipcClient.Context()
            .host(ctx.host())
            .port(ctx.port())
            .componentName("mdhub-client")
            .eventLoopThreads(ctx.eventLoopThreads())
            // mounts connect one at a time, so the hook builds the handler of the mount being connected
            .channelHook((ch) -> ch.pipeline().addLast("mount", new ConsumerMount(ctx, pendingStats, pendingIndexes))));
        for (int k = 0; k < ctx.mounts(); k++)
        {
            final int[] indexes = new int[window];
            final int start = (int)((long)k * size / ctx.mounts());
            for (int i = 0; i < window; i++)
            {
                indexes[i] = (start + i) % size;
            }
            final MountStats stats = new MountStats();
            mounts.add(stats);
            pendingStats = stats;
            pendingIndexes = indexes;
            channels.add(connect());
        }
    }

    private Channel connect()
    {
        final Future<Channel> connected = client.connect(ctx.host(), ctx.port());
        if (!connected.awaitUninterruptibly(ctx.connectTimeoutMs(), TimeUnit.MILLISECONDS) || !connected.isSuccess())
        {
            throw new IllegalStateException("cannot connect to the p2p-server at " + ctx.host() + ":" + ctx.port() +
                (null != connected.cause() ? ": " + connected.cause() : " (timeout)"), connected.cause());
        }
        return connected.getNow();
    }

    /**
     * Connect every mount and start opening items.
     *
     * @param ctx settings, concluded here.
     * @return the running client.
     */
    public static TestClient launch(final Context ctx)
    {
        ctx.conclude();
        try
        {
            return new TestClient(ctx);
        }
        catch (final Throwable ex)
        {
            CloseHelper.quietClose(ctx);
            LangUtil.rethrowUnchecked(ex);
            return null; // not reached
        }
    }

    /**
     * @return per-mount counts.
     */
    public List<MountStats> mounts()
    {
        return mounts;
    }

    /**
     * @return totals over every mount.
     */
    public Totals totals()
    {
        final Totals totals = new Totals();
        for (final MountStats stats : mounts)
        {
            totals.refreshes += stats.refreshes();
            totals.updates += stats.updates();
            totals.statuses += stats.statuses();
            totals.itemsOpen += stats.itemsOpen();
            totals.itemsClosed += stats.itemsClosed();
            totals.lostUpdates += stats.lostUpdates();
            totals.outOfOrder += stats.outOfOrder();
            totals.malformed += stats.malformed();
            totals.itemsSuspect += stats.itemsSuspect();
            totals.recoveries += stats.recoveries();
            totals.maxRecoveryNs = Math.max(totals.maxRecoveryNs, stats.maxRecoveryNs());
            totals.readyMounts += stats.isReady() ? 1 : 0;
            if (null != stats.failure() && null == totals.failure)
            {
                totals.failure = stats.failure();
            }
        }
        return totals;
    }

    /**
     * Latency recorded by every mount since the last call, merged (reporting thread only).
     *
     * @return nanoseconds; valid until the next call.
     */
    public Histogram latencyInterval()
    {
        latencyScratch.reset();
        for (final MountStats stats : mounts)
        {
            latencyScratch.add(stats.latencyInterval());
        }
        return latencyScratch;
    }

    /**
     * @return items the client asks for in all (over every mount).
     */
    public long itemsRequested()
    {
        return (long)ctx.mounts() * Math.max(1, Math.round(ctx.fraction() * ctx.items().size()));
    }

    /**
     * Disconnect every mount.
     */
    @Override
    public void close()
    {
        for (final Channel channel : channels)
        {
            channel.close().awaitUninterruptibly(ctx.connectTimeoutMs());
        }
        CloseHelper.closeAll(client, ctx);
    }

    /**
     * Sums over every mount at one moment.
     */
    public static final class Totals
    {
        /** Refreshes received. */
        public long refreshes;
        /** Updates received. */
        public long updates;
        /** Status messages received. */
        public long statuses;
        /** Items with their first refresh. */
        public long itemsOpen;
        /** Items the server closed. */
        public long itemsClosed;
        /** Items Open/Suspect now. */
        public long itemsSuspect;
        /** Suspect items that came back with an Ok refresh. */
        public long recoveries;
        /** Longest Suspect-to-Ok time of an item, nanoseconds. */
        public long maxRecoveryNs;
        /** Updates missing by the per-item counters. */
        public long lostUpdates;
        /** Updates whose counter went backwards. */
        public long outOfOrder;
        /** Messages that could not be parsed. */
        public long malformed;
        /** Mounts that sent all their requests. */
        public int readyMounts;
        /** The first mount failure, or null. */
        public String failure;
    }

    /**
     * Settings of a {@link TestClient}.
     */
    public static final class Context extends RsslToolContext<Context>
    {
        private String serviceName = "NI_PUB";
        private int mounts = 1;
        private double fraction = 1.0;
        private boolean checkSequence = true;
        private int eventLoopThreads = 1;

        /**
         * Defaults: port 14002, user mdhub-client.
         */
        public Context()
        {
            super(14002, "mdhub-client");
        }

        @Override
        protected void concludeContext()
        {
            super.concludeContext();
            requirePositive("mounts", mounts);
            requirePositive("eventLoopThreads", eventLoopThreads);
            if (!(fraction > 0 && fraction <= 1))
            {
                throw new IllegalArgumentException("fraction must be in (0, 1]: " + fraction);
            }
        }





        /**
         * @param serviceName service to open items on.
         * @return this.
         */
        public Context serviceName(final String serviceName)
        {
            checkNotConcluded();
            this.serviceName = serviceName;
            return this;
        }

        /**
         * @return service to open items on.
         */
        public String serviceName()
        {
            return serviceName;
        }




        /**
         * @param mounts connections.
         * @return this.
         */
        public Context mounts(final int mounts)
        {
            checkNotConcluded();
            this.mounts = mounts;
            return this;
        }

        /**
         * @return connections.
         */
        public int mounts()
        {
            return mounts;
        }

        /**
         * @param fraction share of the universe each mount watches, (0, 1].
         * @return this.
         */
        public Context fraction(final double fraction)
        {
            checkNotConcluded();
            this.fraction = fraction;
            return this;
        }

        /**
         * @return share of the universe each mount watches.
         */
        public double fraction()
        {
            return fraction;
        }

        /**
         * @param checkSequence walk update field lists for counters and timestamps (else headers only).
         * @return this.
         */
        public Context checkSequence(final boolean checkSequence)
        {
            checkNotConcluded();
            this.checkSequence = checkSequence;
            return this;
        }

        /**
         * @return whether update field lists are walked.
         */
        public boolean checkSequence()
        {
            return checkSequence;
        }

        /**
         * @param eventLoopThreads threads sharing the mounts.
         * @return this.
         */
        public Context eventLoopThreads(final int eventLoopThreads)
        {
            checkNotConcluded();
            this.eventLoopThreads = eventLoopThreads;
            return this;
        }

        /**
         * @return threads sharing the mounts.
         */
        public int eventLoopThreads()
        {
            return eventLoopThreads;
        }




    }
}
