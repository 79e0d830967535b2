package io.mdhub.backbone;

import java.io.File;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.Aeron;
import io.aeron.driver.exceptions.ActiveDriverException;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(20)
class BackboneNodeTest
{
    private static BackboneNode.Context context(final Path dir)
    {
        return new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(64 * 1024)
            .ipcTermBufferLength(64 * 1024)
            .spinCores(0);
    }

    @Test
    void embeddedNodeCarriesIpcAndUdpAndReleasesEverythingOnClose(@TempDir final Path dir)
    {
        final String aeronDir;
        try (BackboneNode node = BackboneNode.launch(context(dir).dirDeleteOnShutdown(true)))
        {
            aeronDir = node.aeronDirectoryName();
            assertTrue(new File(aeronDir, "cnc.dat").exists());
            try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)))
            {
                PubSubRoundTrip.check(aeron, "aeron:ipc", 1001, 100);
                PubSubRoundTrip.check(aeron, "aeron:udp?endpoint=127.0.0.1:" + MdTests.unusedPort(), 1002, 100);
            }
            assertTrue(node.countersReader().maxCounterId() > 0, "driver counters readable");
        }
        assertFalse(new File(aeronDir).exists(), "directory deleted on shutdown");
    }

    @Test
    void secondDriverOnALiveDirectoryIsRefusedAndARestartSucceeds(@TempDir final Path dir)
    {
        try (BackboneNode first = BackboneNode.launch(context(dir)))
        {
            assertEquals(context(dir).aeronDirectoryName(), first.aeronDirectoryName());
            assertThrows(ActiveDriverException.class, () -> BackboneNode.launch(context(dir)));
        }
        // The closed driver left its directory behind (default): a new driver takes it over.
        try (BackboneNode again = BackboneNode.launch(context(dir).dirDeleteOnShutdown(true)))
        {
            assertTrue(new File(again.aeronDirectoryName(), "cnc.dat").exists());
        }
    }
}
