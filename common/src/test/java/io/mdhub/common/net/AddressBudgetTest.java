package io.mdhub.common.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * One address's budget: new connections at a bounded rate that refills with time, a bounded number in their
 * handshake at once that frees as handshakes end, other addresses untouched, and each refusal naming its key.
 */
@InterruptAfter(10)
class AddressBudgetTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final String HANDSHAKES_KEY = "mdhub.test.address.max.handshakes";
    private static final String RATE_KEY = "mdhub.test.address.accept.rate";

    @Test
    void newConnectionsAreAdmittedAtTheRateAndTheBucketRefills() throws Exception
    {
        final AddressBudget budget = new AddressBudget(1_000, 10, HANDSHAKES_KEY, RATE_KEY);
        final InetAddress flooder = InetAddress.getByName("127.0.0.2");
        final InetAddress other = InetAddress.getByName("127.0.0.3");
        long now = 1_000 * SECOND;
        for (int i = 0; i < 10; i++)
        {
            assertNull(budget.admit(flooder, now), "within the burst: " + i);
            budget.handshakeEnded(flooder);
        }
        final String refused = budget.admit(flooder, now);
        assertTrue(refused.contains("more than 10 new connections a second from 127.0.0.2"), refused);
        assertTrue(refused.contains("(" + RATE_KEY + ")"), refused);
        assertNull(budget.admit(other, now), "another address has its own budget");

        now += SECOND / 2;
        for (int i = 0; i < 5; i++)
        {
            assertNull(budget.admit(flooder, now), "half a second refills half the bucket: " + i);
            budget.handshakeEnded(flooder);
        }
        assertTrue(null != budget.admit(flooder, now));
    }

    @Test
    void connectionsInTheirHandshakeAreBoundedAndFreeTheirSlotWhenItEnds() throws Exception
    {
        final AddressBudget budget = new AddressBudget(3, 1_000, HANDSHAKES_KEY, RATE_KEY);
        final InetAddress address = InetAddress.getByName("127.0.0.2");
        final long now = 5 * SECOND;
        for (int i = 0; i < 3; i++)
        {
            assertNull(budget.admit(address, now));
        }
        final String refused = budget.admit(address, now);
        assertTrue(refused.contains("more than 3 connections from 127.0.0.2 in their handshake at once"), refused);
        assertTrue(refused.contains("(" + HANDSHAKES_KEY + ")"), refused);
        budget.handshakeEnded(address);
        assertNull(budget.admit(address, now), "a handshake that ended frees its slot");
        assertEquals(1, budget.addresses());
    }
}
