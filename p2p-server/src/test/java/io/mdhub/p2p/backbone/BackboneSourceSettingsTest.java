package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's tick and longest idle delay are held within a second: its cycle runs its Aeron client's conductor, and
 * the client lives only while that runs well within its liveness timeout. A misspelt way to wake is refused.
 */
@Timeout(10)
class BackboneSourceSettingsTest
{
    @Test
    void aTickOfUpToASecondIsTaken()
    {
        assertEquals(1000, new BackboneItemSourceFactory.Settings().wake("doorbell", 1000).wakeTickMs());
        assertEquals(1, new BackboneItemSourceFactory.Settings().wake("timer", 1).wakeTickMs());
    }

    @Test
    void aTickBeyondASecondOrBelowAMillisecondIsRefused()
    {
        assertThrows(IllegalArgumentException.class,
            () -> new BackboneItemSourceFactory.Settings().wake("doorbell", 1001));
        assertThrows(IllegalArgumentException.class,
            () -> new BackboneItemSourceFactory.Settings().wake("doorbell", 0));
    }

    @Test
    void anIdleDelayBeyondASecondIsRefused()
    {
        final BackboneItemSourceFactory.Settings settings =
            new BackboneItemSourceFactory.Settings().idle(10_000, 2_000_000_000L);
        assertThrows(IllegalArgumentException.class, settings::check);
    }

    @Test
    void aMisspeltWayToWakeIsRefused()
    {
        assertThrows(IllegalArgumentException.class,
            () -> new BackboneItemSourceFactory.Settings().wake("doorbel", 100));
    }
}
