package io.mdhub.benchmarks.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.IoUtil;

import io.mdhub.benchmarks.bench.BenchProcess;
import io.mdhub.benchmarks.bench.BenchProcesses;
import io.mdhub.common.net.LocalPorts;
import io.mdhub.p2p.order.OrderServiceConfiguration;

/**
 * The active/active order pair a chaos run breaks: servers 0 and 1 ({@code mdhub-p2p.jar}, order service on), each
 * with its ports on loopback, its queue in memory and its management HTTP port, optionally joined to a backbone
 * daemon of their own (market data on) so that the daemon can be killed under them. Every start of a server logs
 * into its own file ({@code order-server-<id>-<n>.log}). The pair is whole when both servers answer their health
 * check {@code order-pair} with SERVING, standing PAIRED and the replication link up.
 */
final class OrderPair
{
    /** Logged by a restarted server as it starts taking its peer's store (its catch-up begins). */
    static final String CATCH_UP_BEGINS = "taking every order from server";
    /** Logged by a server once its catch-up ended. */
    static final String CAUGHT_UP = "caught up; backup of every partition";
    /** Logged by a server given its home partitions back. */
    static final String HANDED_OVER = "(handed over";
    /** What a backbone daemon says when the directory's driver heartbeat is still recent. */
    static final String ACTIVE_DRIVER = "active driver detected";
    private static final String LOOPBACK = "127.0.0.1";
    private static final long READY_SECONDS = 120;
    private static final Pattern ORDER_PAIR = Pattern.compile(
        "\"name\"\\s*:\\s*\"order-pair\"[^}]*?\"detail\"\\s*:\\s*\"([^\"]*)\"");

    private final BenchProcesses processes;
    private final List<String> serverJvmOpts;
    private final int partitions;
    private final boolean onBackbone;
    private final int[] ingress = new int[2];
    private final int[] peer = new int[2];
    private final int[] fence = new int[2];
    private final int[] http = new int[2];
    private final int[] rssl = new int[2];
    private final Path[] queues = new Path[2];
    private final BenchProcess[] servers = new BenchProcess[2];
    private final int[] starts = new int[2];
    private final HttpClient httpClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final Path aeronDir;
    private BenchProcess backbone;
    private int backboneStarts;

    OrderPair(
        final BenchProcesses processes,
        final List<String> serverJvmOpts,
        final int partitions,
        final boolean onBackbone)
    {
        this.processes = processes;
        this.serverJvmOpts = serverJvmOpts;
        this.partitions = partitions;
        this.onBackbone = onBackbone;
        for (int id = 0; id < 2; id++)
        {
            ingress[id] = LocalPorts.unused();
            peer[id] = LocalPorts.unused();
            fence[id] = LocalPorts.unused();
            http[id] = LocalPorts.unused();
            rssl[id] = LocalPorts.unused();
            queues[id] = processes.memoryDir("queue-" + id);
        }
        aeronDir = processes.memoryDir("aeron");
    }

    /**
     * Start the backbone (if the pair uses one) and both servers, and wait until the pair is whole.
     *
     * @param boundSeconds how long the pair may take.
     * @return true when whole in time.
     */
    boolean start(final long boundSeconds)
    {
        if (onBackbone)
        {
            startBackbone();
        }
        startServer(0);
        startServer(1);
        awaitReady(0);
        awaitReady(1);
        return awaitWhole(System.nanoTime() + boundSeconds * 1_000_000_000L, new ArrayList<>(), false,
            new TreeSet<>());
    }

    boolean isOnBackbone()
    {
        return onBackbone;
    }

    /**
     * @return the order ports as the order client's server list.
     */
    String ingress()
    {
        return LOOPBACK + ":" + ingress[0] + "," + LOOPBACK + ":" + ingress[1];
    }

    Path queue(final int id)
    {
        return queues[id];
    }

    BenchProcess server(final int id)
    {
        return servers[id];
    }

    BenchProcess backbone()
    {
        return backbone;
    }

    void startBackbone()
    {
        backbone = startBackbone(processes, () -> "backbone-" + ++backboneStarts, aeronDir.toString());
    }

    /**
     * Start a backbone daemon on a directory as a supervisor restarts one: while the directory still shows the
     * killed driver's heartbeat (the daemon refuses with "active driver detected" until it is older than the
     * driver timeout), start it again every half second, each try its own log.
     *
     * @return the daemon, ready.
     */
    static BenchProcess startBackbone(
        final BenchProcesses processes, final java.util.function.Supplier<String> names, final String aeronDir)
    {
        final long deadlineNs = System.nanoTime() + READY_SECONDS * 1_000_000_000L;
        while (true)
        {
            final BenchProcess backbone = processes.start(names.get(), BenchProcesses.BACKBONE_JAR,
                List.of("-Dmdhub.backbone.http.port=-1"), "--aeron-dir", aeronDir);
            try
            {
                backbone.awaitLine("mdhub-backbone ready", READY_SECONDS);
                return backbone;
            }
            catch (final IllegalStateException ex)
            {
                if (!backbone.output().contains(ACTIVE_DRIVER) || System.nanoTime() - deadlineNs > 0)
                {
                    throw ex;
                }
                sleepMs(500);
            }
        }
    }

    /**
     * Start a server (not waiting for it).
     */
    BenchProcess startServer(final int id)
    {
        final int mate = 1 - id;
        final List<String> opts = new ArrayList<>(serverJvmOpts);
        opts.addAll(List.of(
            "-Dmdhub.order.enabled=true",
            "-Dmdhub.p2p.market.data.enabled=" + onBackbone,
            "-Dmdhub.order.server.id=" + id,
            "-Dmdhub.order.partitions=" + partitions,
            "-Dmdhub.order.address=" + LOOPBACK + ":" + ingress[id],
            "-Dmdhub.order.peer.address=" + LOOPBACK + ":" + peer[id],
            "-Dmdhub.order.peer.remote.address=" + LOOPBACK + ":" + peer[mate],
            "-Dmdhub.order.fence.address=localhost:" + fence[id],
            "-Dmdhub.order.peer.fence.address=localhost:" + fence[mate],
            "-Dmdhub.order.queue.dir=" + queues[id],
            "-Dmdhub.p2p.http.port=" + http[id],
            "-Dmdhub.p2p.component.name=order-server-" + id));
        final List<String> args = new ArrayList<>();
        if (onBackbone)
        {
            opts.add("-Dmdhub.p2p.backbone.consumer.id=" + (id + 1));
            args.addAll(List.of("--aeron-dir", aeronDir.toString(), "--port", Integer.toString(rssl[id])));
        }
        servers[id] = processes.start("order-server-" + id + "-" + ++starts[id], BenchProcesses.P2P_JAR, opts,
            args.toArray(new String[0]));
        return servers[id];
    }

    void awaitReady(final int id)
    {
        servers[id].awaitLine("mdhub-p2p ready", READY_SECONDS);
    }

    /**
     * Wait until the pair is whole: both servers alive and SERVING, PAIRED, their replication link up, and, when a
     * server was restarted, its home partitions handed back to one of them. A server found dead meanwhile is said
     * in {@code problems} and, with {@code restartDead}, started again (after the backbone, when that is dead too).
     *
     * @param deadlineNs   {@link System#nanoTime()} to give up at.
     * @param problems     where unexpected deaths are said.
     * @param restartDead  start again what died.
     * @param restarted    the servers restarted in this round (one of them must have had partitions handed over);
     *                     those started again here are added.
     * @return true when whole before the deadline.
     */
    boolean awaitWhole(
        final long deadlineNs, final List<String> problems, final boolean restartDead, final Set<Integer> restarted)
    {
        while (System.nanoTime() - deadlineNs < 0)
        {
            if (restartDead && onBackbone && !backbone.isAlive())
            {
                problems.add("the backbone daemon exited (status " + backbone.exitValue() + ")");
                startBackbone();
            }
            boolean isWhole = true;
            for (int id = 0; id < 2; id++)
            {
                if (!servers[id].isAlive())
                {
                    isWhole = false;
                    if (restartDead)
                    {
                        problems.add("server " + id + " exited (status " + servers[id].exitValue() + ")");
                        startServer(id);
                        restarted.add(id);
                    }
                    continue;
                }
                final String detail = orderPairHealth(id);
                isWhole &= null != detail && detail.startsWith("SERVING") && detail.contains("standing PAIRED") &&
                    detail.contains("replication link up");
            }
            if (isWhole && handedOver(restarted))
            {
                return true;
            }
            sleepMs(100);
        }
        return false;
    }

    /**
     * @return true when no server was restarted, or one that was has had partitions handed over since it started.
     */
    private boolean handedOver(final Set<Integer> restarted)
    {
        for (final int id : restarted)
        {
            if (servers[id].output().contains(HANDED_OVER))
            {
                return true;
            }
        }
        return restarted.isEmpty();
    }

    /**
     * @return the detail of the server's {@code order-pair} health check, or null when it does not answer.
     */
    String orderPairHealth(final int id)
    {
        try
        {
            final HttpResponse<String> response = httpClient.send(HttpRequest.newBuilder(
                URI.create("http://" + LOOPBACK + ":" + http[id] + "/health/ready"))
                .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            final Matcher matcher = ORDER_PAIR.matcher(response.body());
            return matcher.find() ? matcher.group(1) : null;
        }
        catch (final IOException ex)
        {
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Delete the queues restarted servers moved aside ({@code <queue>.discarded-<time>}): in memory, a copy of every
     * order of the pair per restart would fill it in a long run.
     *
     * @return how many were deleted.
     */
    int deleteDiscardedQueues() throws IOException
    {
        int deleted = 0;
        for (int id = 0; id < 2; id++)
        {
            try (DirectoryStream<Path> discarded = Files.newDirectoryStream(queues[id].getParent(),
                queues[id].getFileName() + ".discarded-*"))
            {
                for (final Path path : discarded)
                {
                    IoUtil.delete(path.toFile(), true);
                    deleted++;
                }
            }
        }
        return deleted;
    }

    /**
     * @param orders orders the pair will hold by the end of the run.
     * @return the JVM option that sizes the servers' position tables for them.
     */
    static String expectedOrders(final long orders)
    {
        final long sized = Math.min(OrderServiceConfiguration.EXPECTED_ORDERS_MAX,
            Math.max(OrderServiceConfiguration.EXPECTED_ORDERS_DEFAULT, orders + orders / 10));
        return "-D" + OrderServiceConfiguration.EXPECTED_ORDERS_PROP_NAME + "=" + sized;
    }

    static void sleepMs(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
