package io.mdhub.benchmarks.orders;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.agrona.DirectBuffer;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.ClientNetworkConfig;
import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.mdhub.orderprobe.probe.OrderFailedException;
import io.mdhub.orderprobe.probe.OrderTarget;
import io.mdhub.orderprobe.probe.OrderTargets;

/**
 * The order probe's {@code hazelcast} target: orders into the {@value HazelcastMember#MAP} map of a Hazelcast
 * cluster ({@link HazelcastMember}) with {@code map.set(key, fixBytes)}, which returns once the entry's owner and
 * its synchronous backup hold it; the key is {@code "clientId/orderId"}, the value a copy of the FIX bytes.
 * <p>
 * <b>One client per probe, shared by its publishers</b>: a Hazelcast client is thread safe and heavy (its own
 * threads, a connection to every member, the cluster's partition table), so an application makes one per JVM and
 * lets its threads share it; that is what this target does. Each publisher's session only keeps its client id. The
 * client uses the default (all-members) routing, so a {@code set} goes straight to the member that owns the key.
 * <p>
 * Options: {@code members=HOST:PORT,...} (required), {@code cluster} (default
 * {@value HazelcastMember#CLUSTER_NAME_DEFAULT}), {@code timeout.ms} (invocation timeout, default 10,000). Cloud
 * discovery and auto-detection are off: the client talks to the listed members only.
 */
public final class HazelcastTarget implements OrderTarget
{
    /** The name the probe's {@code --target} selects it by. */
    public static final String NAME = "hazelcast";
    /** Option: the members' addresses. */
    public static final String MEMBERS = "members";
    /** Option: the cluster's name. */
    public static final String CLUSTER = "cluster";
    /** Option: how long an operation may take. */
    public static final String TIMEOUT_MS = "timeout.ms";
    private static final int TIMEOUT_MS_DEFAULT = 10_000;

    private final int members;
    private final HazelcastInstance client;
    private final IMap<String, byte[]> orders;

    /**
     * Connect the client; returns once it is connected to the cluster.
     *
     * @param clusterName the cluster's name.
     * @param members     the members' addresses, {@code HOST:PORT}.
     * @param timeoutMs   how long an operation may take.
     */
    public HazelcastTarget(final String clusterName, final List<String> members, final int timeoutMs)
    {
        this.members = members.size();
        this.client = HazelcastClient.newHazelcastClient(clientConfig(clusterName, members, timeoutMs));
        this.orders = client.getMap(HazelcastMember.MAP);
    }

    /**
     * @param clusterName the cluster's name.
     * @param members     the members' addresses.
     * @param timeoutMs   how long an operation may take.
     * @return the client's configuration: the listed members only, nothing discovered.
     */
    static ClientConfig clientConfig(final String clusterName, final List<String> members, final int timeoutMs)
    {
        final ClientConfig config = new ClientConfig().setClusterName(clusterName);
        config.setProperty("hazelcast.client.invocation.timeout.seconds", Integer.toString(
            Math.max(1, timeoutMs / 1000)));
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.client.shutdownhook.enabled", "false"); // the probe closes the target
        final ClientNetworkConfig network = config.getNetworkConfig();
        network.getCloudConfig().setEnabled(false);
        network.getAutoDetectionConfig().setEnabled(false);
        network.setAddresses(new ArrayList<>(members));
        return config;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Session connect(final int publisher, final long clientId)
    {
        return new MapSession(clientId + "/");
    }

    @Override
    public void close()
    {
        client.shutdown();
    }

    private final class MapSession implements Session
    {
        private final String keyPrefix;

        MapSession(final String keyPrefix)
        {
            this.keyPrefix = keyPrefix;
        }

        @Override
        public boolean isReady()
        {
            return client.getCluster().getMembers().size() >= members;
        }

        @Override
        public int poll()
        {
            return 0;
        }

        @Override
        public void submit(final long orderId, final DirectBuffer fix, final int offset, final int length)
        {
            final byte[] value = new byte[length];
            fix.getBytes(offset, value, 0, length);
            try
            {
                orders.set(keyPrefix + orderId, value);
            }
            catch (final HazelcastException ex)
            {
                throw new OrderFailedException("order " + keyPrefix + orderId + " not stored: " + ex, ex);
            }
        }

        @Override
        public void close()
        {
            // the client is the target's
        }
    }

    /**
     * Makes the target from the probe's options.
     */
    public static final class Factory implements OrderTarget.Factory
    {
        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public OrderTarget create(final Map<String, String> options)
        {
            final String members = OrderTargets.required(options, NAME, MEMBERS, "HOST:PORT,...");
            return new HazelcastTarget(options.getOrDefault(CLUSTER, HazelcastMember.CLUSTER_NAME_DEFAULT),
                List.of(members.split(",")), OrderTargets.intOption(options, TIMEOUT_MS, TIMEOUT_MS_DEFAULT));
        }
    }
}
