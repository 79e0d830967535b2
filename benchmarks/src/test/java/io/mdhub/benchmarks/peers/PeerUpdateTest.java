package io.mdhub.benchmarks.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class PeerUpdateTest
{
    @Test
    void anUpdateCarriesItsSequenceItemAndOriginAndIsAsLongAsMdhubsLevelOneUpdate()
    {
        final byte[] bytes = new byte[PeerUpdate.LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        PeerUpdate.encode(buffer, 123_456_789L, 99_999, 42L);

        assertEquals(74, bytes.length);
        assertEquals(123_456_789L, PeerUpdate.sequence(buffer));
        assertEquals(99_999, PeerUpdate.item(buffer));
        assertEquals(42L, PeerUpdate.originNs(buffer));
        final byte[] next = new byte[PeerUpdate.LENGTH];
        PeerUpdate.encode(new UnsafeBuffer(next), 123_456_790L, 99_999, 0);
        assertEquals(0, PeerUpdate.originNs(new UnsafeBuffer(next)));
        assertNotEquals(bytes[40], next[40], "the filler changes from update to update");
    }

    @Test
    void theSequenceCheckCountsSkippedUpdatesAsLostAndRepeatsAsOutOfOrder()
    {
        final SequenceCheck check = new SequenceCheck();

        check.onUpdate(5); // the subscriber may start after the publisher: the first sequence seen is the base
        check.onUpdate(6);
        check.onUpdate(9);
        check.onUpdate(9);
        check.onUpdate(10);

        assertEquals(5, check.received());
        assertEquals(2, check.lost());
        assertEquals(1, check.outOfOrder());
    }

    @Test
    void peersAreNamedAsOptionsTakeThem()
    {
        assertEquals(PeerSystem.REDIS, PeerSystem.of("redis"));
        assertEquals(PeerSystem.NATS, PeerSystem.of(" NATS"));
        assertEquals(2, PeerSystem.of("relay2").relays());
        assertEquals(PeerSystem.MDHUB_ETA, PeerSystem.of("mdhub-eta"));
        assertTrue(PeerSystem.MDHUB_ETA.isMdhub());
        assertEquals("unknown peer 'kafka': redis, nats, mdhub-eta, relay or relay2",
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> PeerSystem.of("kafka")).getMessage());
        assertEquals("MD000042.X", PeerItems.names(43)[42]);
    }
}
