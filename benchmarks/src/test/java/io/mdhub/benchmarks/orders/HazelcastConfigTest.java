package io.mdhub.benchmarks.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import io.mdhub.common.test.InterruptAfter;

/**
 * The Hazelcast reference as configured, without starting it: the orders map with one synchronous backup, members
 * that join by TCP/IP on loopback only and never look or report beyond the host, a client that talks to the listed
 * members only.
 */
@InterruptAfter(10)
class HazelcastConfigTest
{
    @Test
    void theMembersKeepOneSynchronousBackupAndStayOnLoopback()
    {
        final Config config = HazelcastMember.config("test-cluster", 5701, List.of(5701, 5702));

        final MapConfig orders = config.getMapConfig(HazelcastMember.MAP);
        assertEquals(1, orders.getBackupCount());
        assertEquals(0, orders.getAsyncBackupCount());

        final JoinConfig join = config.getNetworkConfig().getJoin();
        assertFalse(join.getMulticastConfig().isEnabled());
        assertFalse(join.getAutoDetectionConfig().isEnabled());
        assertTrue(join.getTcpIpConfig().isEnabled());
        assertEquals(List.of("127.0.0.1:5701", "127.0.0.1:5702"), join.getTcpIpConfig().getMembers());
        assertTrue(config.getNetworkConfig().getInterfaces().isEnabled());
        assertEquals(List.of("127.0.0.1"), List.copyOf(config.getNetworkConfig().getInterfaces().getInterfaces()));
        assertFalse(config.getNetworkConfig().isPortAutoIncrement());
        assertEquals("false", config.getProperty("hazelcast.phone.home.enabled"));
        assertEquals("false", config.getProperty("hazelcast.socket.bind.any"));
        assertFalse(config.getJetConfig().isEnabled());
    }

    @Test
    void theClientTalksToTheListedMembersOnly()
    {
        final ClientConfig config =
            HazelcastTarget.clientConfig("test-cluster", List.of("127.0.0.1:5701", "127.0.0.1:5702"), 10_000);

        assertEquals("test-cluster", config.getClusterName());
        assertEquals(List.of("127.0.0.1:5701", "127.0.0.1:5702"), config.getNetworkConfig().getAddresses());
        assertFalse(config.getNetworkConfig().getCloudConfig().isEnabled());
        assertFalse(config.getNetworkConfig().isAutoDetectionEnabled());
        assertEquals("10", config.getProperty("hazelcast.client.invocation.timeout.seconds"));
    }
}
