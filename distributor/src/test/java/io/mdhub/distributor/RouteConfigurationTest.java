package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The route settings: endpoint lists parse or fail naming the bad entry, and a distributor refuses an unknown
 * mirroring mode before it starts anything.
 */
@InterruptAfter(30)
class RouteConfigurationTest
{
    @Test
    void endpointListsParseInOrder()
    {
        final List<RouteEndpoint> endpoints = RouteEndpoint.parse(" hostA:14002, 10.0.0.2:14003 ,[::1]:1", "u", 100);
        assertEquals(3, endpoints.size());
        assertEquals("hostA:14002", endpoints.get(0).toString());
        assertEquals("10.0.0.2:14003", endpoints.get(1).toString());
        assertEquals("[::1]:1", endpoints.get(2).toString());
        assertEquals(2, endpoints.get(2).order(), "the list order is the hot-standby preference");
        assertTrue(RouteEndpoint.parse("", "u", 100).isEmpty());
        assertTrue(RouteEndpoint.parse("  ", "u", 100).isEmpty());
    }

    @Test
    void badEndpointsAreRefusedByName()
    {
        for (final String bad : new String[] {"host", "host:", ":14002", "host:port", "host:0", "host:70000"})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> RouteEndpoint.parse("ok:1," + bad, "u", 100), bad);
            assertTrue(ex.getMessage().contains(DistributorConfiguration.ROUTES_PROP_NAME), ex::getMessage);
        }
    }

    @Test
    void anUnknownMirroringModeStopsTheLaunch()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Distributor.launch(
            new Distributor.Context().providerPort(0).registerMBean(false).routeMirroring("round-robin")));
        assertTrue(ex.getMessage().contains(DistributorConfiguration.ROUTE_MIRRORING_PROP_NAME), ex::getMessage);
    }
}
