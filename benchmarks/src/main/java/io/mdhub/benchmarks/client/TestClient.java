package io.mdhub.benchmarks.client;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;

import io.mdhub.benchmarks.tools.RsslToolContext;
import io.mdhub.common.config.ComponentLaunch;
import io.mdhub.common.ripc.RipcClient;
import io.mdhub.common.ripc.RipcTransport;
import io.mdhub.p2p.websocket.WebSocketListener;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;

/**
 * The test client (RMDSTestClient's role): N mounts (connections) to p2p-servers, mount k watching a window of
 * {@code fraction} of the universe starting at item {@code k * size / N} (wrapping), so with fraction 0.5 every mount
 * watches a different half and the server's output is about N/2 times its input (the Producer 50/50 shape).
 * <p>
 * <b>Server list and failover</b>, as RMDS applications did: mount k starts on server {@code k mod n} of the list.
 * When its connection ends it moves to the next server of the list (round robin, every server tried in turn, a
 * short wait between rounds, for as long as the client runs), logs in again and re-opens every item it watches; its
 * items count as Open/Suspect from the loss until their new refreshes (the recovery the totals report). With one
 * server and failover off, a lost connection is a failure, as before.
 * <p>
 * <b>JSON mounts</b>: {@code jsonMounts} of the mounts, spread evenly among the others, speak the WebSocket API's
 * JSON to the server's WebSocket port instead of RSSL ({@link JsonConsumerMount}), with the same checks; they do not
 * fail over.
 */
public final class TestClient implements AutoCloseable
{
    private static final long RETRY_ROUND_WAIT_MS = 200;

    private final Context ctx;
    private final RipcClient client;
    private final List<InetSocketAddress> servers = new ArrayList<>();
    private final List<MountStats> mounts = new ArrayList<>();
    private final List<Mount> connections = new ArrayList<>();
    private final Histogram latencyScratch = new Histogram(3);
    private final ScheduledExecutorService failovers;
    private final Object connectLock = new Object();
    private volatile Mount connecting;
    private volatile boolean isClosed;

    /**
     * One mount: its counters, its items, the server it is on, its current connection.
     */
    private final class Mount
    {
        final MountStats stats;
        final MountItems items;
        final boolean isJson;
        int serverIndex;
        volatile Channel channel;

        Mount(final MountStats stats, final MountItems items, final boolean isJson, final int serverIndex)
        {
            this.stats = stats;
            this.items = items;
            this.isJson = isJson;
            this.serverIndex = serverIndex;
        }
    }

    private TestClient(final Context ctx)
    {
        this.ctx = ctx;
        for (final String server : ctx.servers().split(","))
        {
            final String entry = server.trim();
            final int colon = entry.lastIndexOf(':');
            servers.add(new InetSocketAddress(entry.substring(0, colon), Integer.parseInt(entry.substring(colon + 1))));
        }
        failovers = ctx.failover() ? Executors.newSingleThreadScheduledExecutor((runnable) ->
        {
            final Thread thread = new Thread(runnable, "mdhub-client-failover");
            thread.setDaemon(true);
            return thread;
        }) : null;
        final int size = ctx.items().size();
        final int window = Math.max(1, (int)Math.round(ctx.fraction() * size));
        client = RipcClient.launch(new RipcClient.Context()
            .host(servers.get(0).getHostString())
            .port(servers.get(0).getPort())
            .componentName("mdhub-client")
            .eventLoopThreads(ctx.eventLoopThreads())
            // connections are made one at a time (connectLock), so the hook builds the handler of that mount
            .channelHook((ch) -> ch.pipeline().addLast("mount", newHandler(connecting))));
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
            // the JSON mounts spread evenly among the RSSL ones, so both kinds watch every part of the universe
            final boolean isJson = (long)k * ctx.jsonMounts() % ctx.mounts() < ctx.jsonMounts();
            final Mount mount = new Mount(stats, new MountItems(indexes), isJson, k % servers.size());
            connections.add(mount);
            if (!connect(mount, servers.size()))
            {
                throw new IllegalStateException("cannot connect mount " + k + " to any of " + ctx.servers());
            }
        }
    }

    private ConsumerMount newHandler(final Mount mount)
    {
        return new ConsumerMount(ctx, mount.stats, mount.items, null == failovers ? null : () -> lost(mount));
    }

    /**
     * Try servers from the mount's current one on, at most {@code attempts} of them.
     *
     * @return true once connected.
     */
    private boolean connect(final Mount mount, final int attempts)
    {
        if (mount.isJson)
        {
            return connectWebSocket(mount);
        }
        synchronized (connectLock)
        {
            for (int i = 0; i < attempts && !isClosed; i++)
            {
                final InetSocketAddress server = servers.get(mount.serverIndex);
                connecting = mount;
                final Future<Channel> connected = client.connect(server);
                if (connected.awaitUninterruptibly(ctx.connectTimeoutMs(), TimeUnit.MILLISECONDS) &&
                    connected.isSuccess())
                {
                    mount.channel = connected.getNow();
                    return true;
                }
                mount.serverIndex = (mount.serverIndex + 1) % servers.size();
            }
            return false;
        }
    }

    /**
     * A JSON mount: a WebSocket to the first server's WebSocket API port, the pipeline of
     * {@link JsonConsumerMount#initPipeline}; the upgrade and login then run on the connection's event loop.
     */
    private boolean connectWebSocket(final Mount mount)
    {
        final String host = servers.get(0).getHostString();
        final URI uri = URI.create("ws://" + host + ":" + ctx.webSocketPort() + WebSocketListener.PATH);
        final EventLoopGroup group = client.context().eventLoopGroup();
        final ChannelFuture connected = new Bootstrap()
            .group(group)
            .channel(RipcTransport.channelClass(group))
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel channel)
                {
                    JsonConsumerMount.initPipeline(channel.pipeline(), uri,
                        new JsonConsumerMount(ctx, mount.stats, mount.items));
                }
            })
            .connect(host, ctx.webSocketPort());
        if (connected.awaitUninterruptibly(ctx.connectTimeoutMs(), TimeUnit.MILLISECONDS) && connected.isSuccess())
        {
            mount.channel = connected.channel();
            return true;
        }
        return false;
    }

    private void lost(final Mount mount)
    {
        if (isClosed)
        {
            return;
        }
        MountStats.increment(mount.stats.failovers);
        failovers.execute(() -> failover(mount));
    }

    private void failover(final Mount mount)
    {
        if (isClosed)
        {
            return;
        }
        synchronized (connectLock)
        {
            mount.serverIndex = (mount.serverIndex + 1) % servers.size(); // the next server first
        }
        if (!connect(mount, servers.size()))
        {
            failovers.schedule(() -> failover(mount), RETRY_ROUND_WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Connect every mount and start opening items.
     *
     * @param ctx settings, concluded here.
     * @return the running client.
     */
    public static TestClient launch(final Context ctx)
    {
        return ComponentLaunch.launch(ctx, TestClient::new);
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
        for (final Mount mount : connections)
        {
            final MountStats stats = mount.stats;
            totals.jsonUpdates += mount.isJson ? stats.updates() : 0;
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
            totals.failovers += stats.failovers();
            totals.skippedSilently += stats.skippedSilently();
            totals.readyMounts += stats.isReady() ? 1 : 0;
            if (null != stats.failure() && null == totals.failure)
            {
                totals.failure = stats.failure();
            }
        }
        return totals;
    }

    /**
     * What faults did since the last call (reporting thread only): the first Suspect since then is taken, so each
     * is reported once.
     *
     * @return skipped and closed so far, the first Suspect since the last call, the end of the last Suspect episode.
     */
    public ClientFaultLine faults()
    {
        long skipped = 0;
        long closed = 0;
        long suspectFromMs = 0;
        long allOkMs = 0;
        long suspect = 0;
        for (final MountStats stats : mounts)
        {
            skipped += stats.skippedSilently();
            closed += stats.itemsClosed();
            suspect += stats.itemsSuspect();
            final long fromMs = stats.suspectFromMs.getAndSet(0);
            if (0 != fromMs && (0 == suspectFromMs || fromMs < suspectFromMs))
            {
                suspectFromMs = fromMs;
            }
            allOkMs = Math.max(allOkMs, stats.allOkMs.get());
        }
        return new ClientFaultLine(skipped, closed, suspectFromMs, 0 == suspect ? allOkMs : 0);
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
        isClosed = true;
        if (null != failovers)
        {
            failovers.shutdownNow();
        }
        for (final Mount mount : connections)
        {
            final Channel channel = mount.channel;
            if (null != channel)
            {
                channel.close().awaitUninterruptibly(ctx.connectTimeoutMs());
            }
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
        /** Updates received by the JSON mounts (among {@link #updates}). */
        public long jsonUpdates;
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
        /** Connections lost and moved to the next server. */
        public long failovers;
        /** Updates missing while their item was not Suspect. */
        public long skippedSilently;
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
        private String servers;
        private boolean failover;
        private int jsonMounts;
        private int webSocketPort = -1;

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
            if (null == servers || servers.isBlank())
            {
                servers = host() + ":" + port();
            }
            for (final String server : servers.split(","))
            {
                final String entry = server.trim();
                final int colon = entry.lastIndexOf(':');
                if (colon <= 0 || !entry.substring(colon + 1).matches("\\d{1,5}"))
                {
                    throw new IllegalArgumentException("servers: expected host:port, got '" + entry + "'");
                }
            }
            if (servers.contains(","))
            {
                failover = true; // a list means failing over along it
            }
            if (jsonMounts < 0 || jsonMounts > mounts)
            {
                throw new IllegalArgumentException("jsonMounts must be in [0, mounts]: " + jsonMounts);
            }
            if (jsonMounts > 0 && (webSocketPort <= 0 || failover))
            {
                throw new IllegalArgumentException(
                    "JSON mounts need the one server's WebSocket port (and no failover): " + webSocketPort);
            }
        }

        /**
         * @param servers p2p-servers, {@code host:port,host:port...}; a list of more than one turns failover on.
         * @return this.
         */
        public Context servers(final String servers)
        {
            checkNotConcluded();
            this.servers = servers;
            return this;
        }

        /**
         * @return the p2p-servers (after conclude: host:port when none was given).
         */
        public String servers()
        {
            return servers;
        }

        /**
         * @param failover move a mount whose connection ends to the next server instead of failing.
         * @return this.
         */
        public Context failover(final boolean failover)
        {
            checkNotConcluded();
            this.failover = failover;
            return this;
        }

        /**
         * @return true when mounts fail over along the server list.
         */
        public boolean failover()
        {
            return failover;
        }

        /**
         * @param jsonMounts how many of the mounts speak the WebSocket API's JSON instead of RSSL.
         * @return this.
         */
        public Context jsonMounts(final int jsonMounts)
        {
            checkNotConcluded();
            this.jsonMounts = jsonMounts;
            return this;
        }

        /**
         * @return how many of the mounts speak JSON over a WebSocket.
         */
        public int jsonMounts()
        {
            return jsonMounts;
        }

        /**
         * @param webSocketPort the server's WebSocket API port, for the JSON mounts.
         * @return this.
         */
        public Context webSocketPort(final int webSocketPort)
        {
            checkNotConcluded();
            this.webSocketPort = webSocketPort;
            return this;
        }

        /**
         * @return the server's WebSocket API port (-1: none given).
         */
        public int webSocketPort()
        {
            return webSocketPort;
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
