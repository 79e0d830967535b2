package io.mdhub.benchmarks.system;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;

/**
 * An order pair for system tests: servers 0 and 1 from the p2p-server's fat jar, order service on, market data off,
 * each with its own ingress, peer and fence ports on loopback and its queue under the test's directory.
 */
public final class OrderPairLaunch
{
    private OrderPairLaunch()
    {
    }

    /**
     * @param processes  starts and ends the JVMs.
     * @param dir        the test's directory (queues and logs).
     * @param partitions partitions of the pair.
     * @param extra      more JVM options for server 0 or 1.
     * @return the two servers, 0 first (their logs are {@code order-0.log} and {@code order-1.log} in {@code dir}),
     * and their order ports as an order client's server list.
     * @throws IOException when one cannot start.
     */
    public static Pair start(
        final SystemProcesses processes, final Path dir, final int partitions, final IntFunction<List<String>> extra)
        throws IOException
    {
        final int[] ingress = {MdTests.unusedPort(), MdTests.unusedPort()};
        final int[] peer = {MdTests.unusedPort(), MdTests.unusedPort()};
        final int[] fence = {MdTests.unusedPort(), MdTests.unusedPort()};
        final List<Process> servers = new ArrayList<>(2);
        for (int id = 0; id < 2; id++)
        {
            final int other = 1 - id;
            final List<String> options = new ArrayList<>(List.of(
                "-Dmdhub.order.enabled=true",
                "-Dmdhub.p2p.market.data.enabled=false",
                "-Dmdhub.order.server.id=" + id,
                "-Dmdhub.order.partitions=" + partitions,
                "-Dmdhub.order.address=localhost:" + ingress[id],
                "-Dmdhub.order.peer.address=localhost:" + peer[id],
                "-Dmdhub.order.peer.remote.address=localhost:" + peer[other],
                "-Dmdhub.order.fence.address=localhost:" + fence[id],
                "-Dmdhub.order.peer.fence.address=localhost:" + fence[other],
                "-Dmdhub.order.queue.dir=" + dir.resolve("queue-" + id)));
            options.addAll(extra.apply(id));
            servers.add(processes.start(dir.resolve("order-" + id + ".log"), "p2p-server/target/mdhub-p2p.jar",
                options));
        }
        return new Pair(servers, "localhost:" + ingress[0] + ",localhost:" + ingress[1]);
    }

    /**
     * A started pair.
     *
     * @param servers its two processes, server 0 first.
     * @param ingress {@code host:port,host:port} of their order ports.
     */
    public record Pair(List<Process> servers, String ingress)
    {
    }
}
