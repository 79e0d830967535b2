package io.mdhub.common.order.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * Validation of {@link OrderClient.Context} (everything conclude checks before it connects) and the address format.
 */
@InterruptAfter(10)
class OrderClientContextTest
{
    @Test
    void serversComeInPairs()
    {
        final IllegalArgumentException odd = assertThrows(IllegalArgumentException.class,
            () -> new OrderClient.Context().servers("localhost:40501").conclude());
        assertTrue(odd.getMessage().contains(OrderClientConfiguration.SERVERS_PROP_NAME), odd.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new OrderClient.Context().servers("").conclude());
        assertThrows(IllegalArgumentException.class,
            () -> new OrderClient.Context().servers("localhost:40501,localhost:0").conclude());
    }

    @Test
    void addressesAreHostAndPort()
    {
        assertEquals(List.of(new OrderServerAddress("server-a", 40501), new OrderServerAddress("::1", 40511)),
            OrderServerAddress.parseList(" server-a:40501 , [::1]:40511"));
        assertEquals("[::1]:40511", new OrderServerAddress("::1", 40511).toString());
        assertThrows(IllegalArgumentException.class, () -> OrderServerAddress.parse("server-a"));
        assertThrows(IllegalArgumentException.class, () -> OrderServerAddress.parse("server-a:"));
        assertThrows(IllegalArgumentException.class, () -> OrderServerAddress.parse("server-a:x1"));
        assertThrows(IllegalArgumentException.class, () -> OrderServerAddress.parse(":3001"));
        assertThrows(IllegalArgumentException.class, () -> OrderServerAddress.parse("server-a:70000"));
    }

    @Test
    void rangesAreChecked()
    {
        assertRejected(valid().window(0), OrderClientConfiguration.WINDOW_PROP_NAME);
        assertRejected(valid().maxOrderLength(65_001), OrderClientConfiguration.MAX_ORDER_LENGTH_PROP_NAME);
        assertRejected(valid().ackTimeoutMs(0), OrderClientConfiguration.ACK_TIMEOUT_MS_PROP_NAME);
        assertRejected(valid().submitTimeoutMs(0), OrderClientConfiguration.SUBMIT_TIMEOUT_MS_PROP_NAME);
        assertRejected(valid().helloIntervalMs(0), OrderClientConfiguration.HELLO_INTERVAL_MS_PROP_NAME);
        assertRejected(valid().sendLimitBytes(1024), OrderClientConfiguration.SEND_LIMIT_BYTES_PROP_NAME);
        assertRejected(valid().clientId(Long.MIN_VALUE), OrderClientConfiguration.CLIENT_ID_PROP_NAME);
        assertRejected(valid().idleStrategy("frobnicate"), OrderClientConfiguration.IDLE_STRATEGY_PROP_NAME);
        assertRejected(valid().servers("localhost:1"), OrderClientConfiguration.SERVERS_PROP_NAME);
        valid().conclude(); // everything valid
    }

    @Test
    void aSpinningWaitNeedsASpinCore()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> valid().idleStrategy("spin").spinCores(0).conclude());
        assertTrue(ex.getMessage().contains("mdhub.spin.cores"), ex.getMessage());
    }

    @Test
    void orderIdsSpreadEvenlyOverPartitions()
    {
        final int[] counts = new int[4];
        for (long orderId = 1; orderId <= 40_000; orderId++)
        {
            counts[OrderClient.partitionOf(orderId, counts.length)]++;
        }
        for (final int count : counts)
        {
            assertTrue(count > 9_000 && count < 11_000, () -> java.util.Arrays.toString(counts));
        }
        assertEquals(OrderClient.partitionOf(-5L, 3), (int)Long.remainderUnsigned(OrderClient.mix(-5L), 3));
    }

    private static void assertRejected(final OrderClient.Context ctx, final String key)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, ctx::conclude);
        assertTrue(ex.getMessage().contains(key), () -> "expected " + key + " in: " + ex.getMessage());
    }

    private static OrderClient.Context valid()
    {
        return new OrderClient.Context().servers("localhost:40501,localhost:40511");
    }
}
