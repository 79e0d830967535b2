package io.mdhub.backbone;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.mdhub.common.test.InterruptAfter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(10)
class BackboneContextTest
{
    private static BackboneNode.Context context()
    {
        return new BackboneNode.Context().aeronDirectoryName("/tmp/never-launched").spinCores(0);
    }

    @Test
    void defaultsFitASmallHost()
    {
        final BackboneNode.Context ctx = new BackboneNode.Context();
        assertEquals("SHARED", ctx.threadingMode());
        assertEquals("backoff:0,0,1000,10000000", ctx.idleStrategy(), "no spins or yields, parks up to 10 ms");
        assertEquals(16 * 1024 * 1024, ctx.termBufferLength());
        assertEquals(16 * 1024 * 1024, ctx.ipcTermBufferLength());
        assertEquals(10_000, ctx.driverTimeoutMs());
        assertFalse(ctx.dirDeleteOnStart());
    }

    @Test
    void mapsSettingsOntoMediaDriverContext()
    {
        final BackboneNode.Context ctx = context()
            .threadingMode("shared-network")
            .conductorIdleStrategy("sleep-ms:2")
            .sharedNetworkIdleStrategy("backoff")
            .termBufferLength(128 * 1024)
            .ipcTermBufferLength(256 * 1024)
            .termBufferSparseFile(false)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .driverTimeoutMs(5_000)
            .printConfiguration(true)
            .conclude();

        final MediaDriver.Context driverCtx = ctx.mediaDriverContext();
        assertEquals("/tmp/never-launched", driverCtx.aeronDirectoryName());
        assertEquals(ThreadingMode.SHARED_NETWORK, driverCtx.threadingMode());
        assertInstanceOf(SleepingMillisIdleStrategy.class, driverCtx.conductorIdleStrategy());
        assertInstanceOf(BackoffIdleStrategy.class, driverCtx.sharedNetworkIdleStrategy());
        assertEquals(128 * 1024, driverCtx.publicationTermBufferLength());
        assertEquals(256 * 1024, driverCtx.ipcTermBufferLength());
        assertFalse(driverCtx.termBufferSparseFile());
        assertTrue(driverCtx.dirDeleteOnStart());
        assertTrue(driverCtx.dirDeleteOnShutdown());
        assertEquals(5_000, driverCtx.driverTimeoutMs());
        assertTrue(driverCtx.printConfigurationOnStart());
    }

    @Test
    void rejectsBadThreadingModes()
    {
        assertThrows(IllegalArgumentException.class, context().threadingMode("INVOKER")::conclude);
        assertThrows(IllegalArgumentException.class, context().threadingMode("bogus")::conclude);
        assertThrows(IllegalArgumentException.class, context().threadingMode("")::conclude);
    }

    @Test
    void rejectsBadTermLengths()
    {
        assertThrows(IllegalArgumentException.class, context().termBufferLength(100_000)::conclude);
        assertThrows(IllegalArgumentException.class, context().termBufferLength(32 * 1024)::conclude);
        assertThrows(IllegalArgumentException.class, context().ipcTermBufferLength(3 * 1024 * 1024)::conclude);
        assertThrows(IllegalArgumentException.class, context().ipcTermBufferLength(-1)::conclude);
    }

    @Test
    void rejectsOtherBadSettings()
    {
        assertThrows(IllegalArgumentException.class, context().driverTimeoutMs(0)::conclude);
        assertThrows(IllegalArgumentException.class, context().aeronDirectoryName(" ")::conclude);
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, context().idleStrategy("bogus")::conclude);
        assertTrue(ex.getMessage().startsWith(BackboneConfiguration.IDLE_STRATEGY_PROP_NAME), ex.getMessage());
    }

    @Test
    void spinBudgetCountsOnlyThreadsOfTheChosenMode()
    {
        // SHARED uses only the shared strategy: a spinning sender setting is irrelevant.
        context().threadingMode("SHARED").senderIdleStrategy("spin").conclude();

        assertThrows(IllegalArgumentException.class, context().threadingMode("SHARED").idleStrategy("yield")::conclude);
        assertThrows(IllegalArgumentException.class,
            context().threadingMode("DEDICATED").senderIdleStrategy("spin")::conclude);

        final BackboneNode.Context oneSpinner = context()
            .threadingMode("DEDICATED")
            .senderIdleStrategy("spin")
            .spinCores(1)
            .conclude();
        assertInstanceOf(BusySpinIdleStrategy.class, oneSpinner.mediaDriverContext().senderIdleStrategy());

        assertThrows(IllegalArgumentException.class, context()
            .threadingMode("DEDICATED")
            .senderIdleStrategy("spin")
            .receiverIdleStrategy("noop")
            .spinCores(1)::conclude);
    }

    @Test
    void concludesOnceAndClonesUnconcluded()
    {
        final BackboneNode.Context ctx = context().termBufferLength(64 * 1024).conclude();
        assertThrows(IllegalStateException.class, ctx::conclude);
        assertThrows(IllegalStateException.class, () -> ctx.termBufferLength(128 * 1024));

        final BackboneNode.Context copy = ctx.clone();
        assertFalse(copy.isConcluded());
        assertThrows(IllegalStateException.class, copy::mediaDriverContext);
        assertEquals(64 * 1024, copy.termBufferLength());
        copy.conclude();
        assertNotSame(ctx.mediaDriverContext(), copy.mediaDriverContext());
    }

    @Test
    void readsDefaultsFromSystemPropertiesStrictly()
    {
        System.setProperty(BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME, "1m");
        System.setProperty(BackboneConfiguration.THREADING_MODE_PROP_NAME, "DEDICATED");
        try
        {
            final BackboneNode.Context ctx = new BackboneNode.Context();
            assertEquals(1024 * 1024, ctx.termBufferLength());
            assertEquals("DEDICATED", ctx.threadingMode());

            System.setProperty(BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME, "lots");
            assertThrows(IllegalArgumentException.class, BackboneNode.Context::new);
        }
        finally
        {
            System.clearProperty(BackboneConfiguration.TERM_BUFFER_LENGTH_PROP_NAME);
            System.clearProperty(BackboneConfiguration.THREADING_MODE_PROP_NAME);
        }
    }

    @Test
    void printsEveryKey()
    {
        final String printed = context().toString();
        assertTrue(printed.contains("mdhub.backbone.aeron.dir=/tmp/never-launched"), printed);
        assertTrue(printed.contains("mdhub.spin.cores=0"), printed);
    }
}
