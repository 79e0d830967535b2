package io.mdhub.benchmarks.orders;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.ShutdownSignalBarrier;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mdhub-bench.jar hazelcast-member}: one embedded Hazelcast member of the cluster {@code bench orders
 * --configurations hazelcast} measures beside the MDHub order pair, as a user would set up a replicated order cache
 * with it: an {@link IMap} {@value #MAP} with one synchronous backup (a {@code set} returns once the backup has
 * the entry too) and no asynchronous one, two members on one host. Only loopback, and nothing leaves the host: the
 * members join by TCP/IP on 127.0.0.1 with explicit ports (no multicast, no auto-detection, no cloud discovery),
 * listen on 127.0.0.1 only, and phone-home is off ({@link #config}; the bench also sets
 * {@code HZ_PHONE_HOME_ENABLED=false} in the members' environment).
 * <p>
 * A line {@code clear} on its standard input empties the map, so a long sweep fits the heap: the bench sends it
 * between runs. Runs until SIGTERM or SIGINT.
 */
@Command(
    name = "hazelcast-member",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "One embedded Hazelcast member holding the orders map (backup count 1, synchronous), joined by " +
        "TCP/IP on loopback, phone-home off; for bench orders.")
public final class HazelcastMember implements Callable<Integer>
{
    /** Printed once the cluster has every member: what the bench waits for. */
    public static final String READY = "hazelcast member ready";
    /** Printed after a {@code clear} command, with the number of entries there were. */
    public static final String CLEARED = "orders cleared";
    /** The map the orders go into. */
    public static final String MAP = "orders";
    /** The cluster name unless told otherwise. */
    public static final String CLUSTER_NAME_DEFAULT = "mdhub-bench-orders";
    /** The one address the members and the client use. */
    static final String LOOPBACK = "127.0.0.1";
    private static final long MEMBERS_POLL_NS = TimeUnit.MILLISECONDS.toNanos(100);

    @Option(names = "--port", required = true, paramLabel = "N", description = "This member's port on 127.0.0.1.")
    int port;

    @Option(names = "--members", required = true, split = ",", paramLabel = "PORT,...",
        description = "The ports of every member of the cluster on 127.0.0.1, this one's among them.")
    List<Integer> members;

    @Option(names = "--cluster-name", paramLabel = "NAME", description = "Default ${DEFAULT-VALUE}.")
    String clusterName = CLUSTER_NAME_DEFAULT;

    @Option(names = "--join-timeout", paramLabel = "S",
        description = "How long the other members may take to join (default ${DEFAULT-VALUE}).")
    long joinTimeoutSeconds = 120;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * The member's configuration: the orders map with one synchronous backup, TCP/IP join on loopback, every kind of
     * discovery and reporting that reaches outside the host off.
     *
     * @param clusterName the cluster's name.
     * @param port        this member's port.
     * @param members     every member's port.
     * @return the configuration.
     */
    public static Config config(final String clusterName, final int port, final List<Integer> members)
    {
        final Config config = new Config().setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false"); // the command shuts the member down itself
        config.getJetConfig().setEnabled(false);
        final NetworkConfig network = config.getNetworkConfig();
        network.setPort(port).setPortAutoIncrement(false).setPublicAddress(LOOPBACK + ":" + port);
        network.getInterfaces().setEnabled(true).addInterface(LOOPBACK);
        final JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (final int member : members)
        {
            join.getTcpIpConfig().addMember(LOOPBACK + ":" + member);
        }
        config.addMapConfig(new MapConfig(MAP).setBackupCount(1).setAsyncBackupCount(0));
        return config;
    }

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        final HazelcastInstance member = Hazelcast.newHazelcastInstance(config(clusterName, port, members));
        try
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(joinTimeoutSeconds);
            while (member.getCluster().getMembers().size() < members.size())
            {
                if (System.nanoTime() - deadlineNs >= 0)
                {
                    throw new IllegalStateException("only " + member.getCluster().getMembers().size() + " of " +
                        members.size() + " members joined within " + joinTimeoutSeconds + " s");
                }
                LockSupport.parkNanos(MEMBERS_POLL_NS);
            }
            final IMap<String, byte[]> orders = member.getMap(MAP);
            final Thread commands = new Thread(() -> readCommands(orders, out), "hazelcast-member-commands");
            commands.setDaemon(true);
            commands.start();
            out.printf("%s: port %d, %d members%n", READY, port, member.getCluster().getMembers().size());
            out.flush();
            barrier.await();
            out.printf("hazelcast member: %d entries in %s at the end%n", orders.size(), MAP);
            out.flush();
        }
        finally
        {
            member.shutdown();
        }
        return 0;
    }

    private static void readCommands(final IMap<String, byte[]> orders, final PrintWriter out)
    {
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try
        {
            String line;
            while (null != (line = in.readLine()))
            {
                final String[] words = line.strip().split("\\s+");
                if ("clear".equals(words[0]))
                {
                    final int entries = orders.size();
                    orders.clear();
                    synchronized (out)
                    {
                        out.printf("%s %s: %d entries%n", CLEARED, words.length > 1 ? words[1] : "", entries);
                        out.flush();
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            System.err.println("hazelcast member: standard input failed: " + ex);
        }
    }
}
