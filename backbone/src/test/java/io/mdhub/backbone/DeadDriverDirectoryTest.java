package io.mdhub.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.IoUtil;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(60)
class DeadDriverDirectoryTest
{
    @Test
    void onlyAProcessThatIsGoneWithAStaleHeartbeatIsDead()
    {
        final long now = 1_000_000;
        assertTrue(DeadDriverDirectory.isDead(4242, false, now - 10_000, now));
        assertFalse(DeadDriverDirectory.isDead(4242, true, now - 10_000, now), "running");
        assertFalse(DeadDriverDirectory.isDead(4242, false, now - 500, now), "beating: a PID this host cannot see");
        assertFalse(DeadDriverDirectory.isDead(0, false, now - 10_000, now), "no PID recorded");
        assertFalse(DeadDriverDirectory.isDead(ProcessHandle.current().pid(), false, now - 10_000, now), "this one");
    }

    @Test
    void aLiveDriversDirectoryIsNotTakenAndAMissingOneIsNothing() throws IOException, InterruptedException
    {
        final Path dir = Files.createTempDirectory(Path.of("/dev/shm"), "mdhub-dead-driver-");
        try
        {
            final Path aeron = dir.resolve("aeron");
            assertEquals(-1, DeadDriverDirectory.awaitDeadDriver(aeron.toFile()));
            try (BackboneNode node = BackboneNode.launch(new BackboneNode.Context().aeronDirectoryName(aeron.toString())
                .dirDeleteOnShutdown(false)))
            {
                final long startNs = System.nanoTime();
                assertEquals(-1, DeadDriverDirectory.awaitDeadDriver(aeron.toFile()),
                    "a running driver of this very process");
                assertTrue(System.nanoTime() - startNs < DeadDriverDirectory.STALE_HEARTBEAT_MS * 1_000_000L,
                    "a running driver's directory is judged at once, not waited on");
            }
        }
        finally
        {
            IoUtil.delete(dir.toFile(), true);
        }
    }
}
