package io.mdhub.benchmarks.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.mdhub.benchmarks.bench.BenchProcess;
import io.mdhub.benchmarks.bench.BenchProcesses;
import io.mdhub.common.net.LocalPorts;
import io.mdhub.distributor.DistributorConfiguration;
import io.mdhub.p2p.P2pConfiguration;

/**
 * The market data path a chaos run breaks, each component its own JVM from its fat jar as a user starts them: the
 * backbone daemon, a distributor and a p2p-server on it, the source publishing into the distributor as a
 * non-interactive provider, and the test client on the p2p-server checking every update, with failover on (a lost
 * connection is retried on the same server and its items re-opened). Their management HTTP ports are off, so a run
 * does not take the default ports of servers running beside it. Every start logs into its own file.
 */
final class MdPath
{
    static final String BACKBONE = "backbone";
    static final String DISTRIBUTOR = "distributor";
    static final String P2P = "p2p";
    static final String SOURCE = "source";
    static final String CLIENT = "client";
    private static final long READY_SECONDS = 120;

    private final BenchProcesses processes;
    private final int items;
    private final long rate;
    private final int mounts;
    private final String aeronDir;
    private final int providerPort = LocalPorts.unused();
    private final int consumerPort = LocalPorts.unused();
    private final Map<String, BenchProcess> running = new HashMap<>();
    private final Map<String, Integer> starts = new HashMap<>();

    MdPath(final BenchProcesses processes, final int items, final long rate, final int mounts)
    {
        this.processes = processes;
        this.items = items;
        this.rate = rate;
        this.mounts = mounts;
        this.aeronDir = processes.memoryDir("aeron").toString();
    }

    /**
     * Start every component in order, each awaited until it says it is ready.
     */
    void start()
    {
        start(BACKBONE);
        start(DISTRIBUTOR);
        start(P2P);
        start(SOURCE);
        start(CLIENT);
    }

    BenchProcess get(final String component)
    {
        return running.get(component);
    }

    /**
     * Start one component and wait until it is ready (the client: until it printed its first line).
     *
     * @param component {@link #BACKBONE}, {@link #DISTRIBUTOR}, {@link #P2P}, {@link #SOURCE} or {@link #CLIENT}.
     * @return the process.
     */
    BenchProcess start(final String component)
    {
        final BenchProcess process;
        switch (component)
        {
            case BACKBONE:
                process = OrderPair.startBackbone(processes, () -> nextName(component), aeronDir);
                break;
            case DISTRIBUTOR:
                process = startOnBackbone(component, BenchProcesses.DISTRIBUTOR_JAR,
                    DistributorConfiguration.HTTP_PORT_PROP_NAME, providerPort, "mdhub-distributor ready");
                break;
            case P2P:
                process = startOnBackbone(component, BenchProcesses.P2P_JAR, P2pConfiguration.HTTP_PORT_PROP_NAME,
                    consumerPort, "mdhub-p2p ready");
                break;
            case SOURCE:
                process = processes.start(nextName(component), BenchProcesses.BENCH_JAR, List.of(), "source",
                    "--port", Integer.toString(providerPort), "--items", Integer.toString(items),
                    "--rate", Long.toString(rate));
                process.awaitLine("source: refreshes " + items + ",", READY_SECONDS);
                break;
            case CLIENT:
                process = processes.start(nextName(component), BenchProcesses.BENCH_JAR, List.of(), "client",
                    "--port", Integer.toString(consumerPort), "--items", Integer.toString(items),
                    "--mounts", Integer.toString(mounts), "--failover", "--duration", "0");
                process.awaitLine("client: refreshes/s", READY_SECONDS);
                break;
            default:
                throw new IllegalArgumentException(component);
        }
        running.put(component, process);
        return process;
    }

    /**
     * A server on the backbone (distributor, p2p-server) with its management HTTP port off, awaited until ready.
     */
    private BenchProcess startOnBackbone(
        final String component, final String jar, final String httpPortProperty, final int port, final String ready)
    {
        final BenchProcess process = processes.start(nextName(component), jar,
            List.of("-D" + httpPortProperty + "=-1"), "--aeron-dir", aeronDir, "--port", Integer.toString(port));
        process.awaitLine(ready, READY_SECONDS);
        return process;
    }

    private String nextName(final String component)
    {
        return component + "-" + starts.merge(component, 1, Integer::sum);
    }

    /**
     * @return the components that are not running, in start order.
     */
    List<String> dead()
    {
        final List<String> dead = new ArrayList<>();
        for (final String component : List.of(BACKBONE, DISTRIBUTOR, P2P, SOURCE, CLIENT))
        {
            final BenchProcess process = running.get(component);
            if (null == process || !process.isAlive())
            {
                dead.add(component);
            }
        }
        return dead;
    }

    /**
     * Stop every component, the client first.
     */
    void stopAll()
    {
        for (final String component : List.of(CLIENT, SOURCE, P2P, DISTRIBUTOR, BACKBONE))
        {
            final BenchProcess process = running.remove(component);
            if (null != process)
            {
                process.close();
            }
        }
    }
}
