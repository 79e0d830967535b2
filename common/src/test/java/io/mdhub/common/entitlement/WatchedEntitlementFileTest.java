package io.mdhub.common.entitlement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(20)
class WatchedEntitlementFileTest
{
    @TempDir
    Path dir;

    @Test
    void aSavedChangeIsAppliedAndAnInvalidOneKeepsThePreviousVersion() throws Exception
    {
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
        final AtomicCounter reloads = counters.newCounter("reloads");
        final AtomicCounter failures = counters.newCounter("failures");
        final Path file = dir.resolve("entitlements");
        Files.writeString(file, "user alice\n  service FEED *\n");
        try (WatchedEntitlementFile source = WatchedEntitlementFile.open(file, reloads, failures))
        {
            final Semaphore changes = new Semaphore(0);
            source.onChange(changes::release);
            assertNotNull(source.current().user("alice"));
            final long first = source.current().version();

            Files.writeString(file, "user bob\n  service FEED *\n");
            assertTrue(changes.tryAcquire(5, TimeUnit.SECONDS), "told of the change");
            assertNull(source.current().user("alice"));
            assertNotNull(source.current().user("bob"));
            assertEquals(first + 1, source.current().version());
            assertEquals(1, reloads.get());

            Files.writeString(file, "user bob\n  servic FEED *\n");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (0 == failures.get() && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            assertEquals(1, failures.get());
            assertNotNull(source.current().user("bob"), "the previous version stays in force");
            assertEquals(0, changes.availablePermits());
        }
    }

    @Test
    void aFileTooLargeOrDeletedKeepsThePreviousVersion() throws Exception
    {
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
        final AtomicCounter failures = counters.newCounter("failures");
        final Path file = dir.resolve("entitlements");
        Files.writeString(file, "user alice\n  service FEED *\n");
        try (WatchedEntitlementFile source = WatchedEntitlementFile.open(file, null, failures))
        {
            // a runaway generator: valid lines past the limit (sparse, so the test writes little)
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
            {
                raf.setLength(EntitlementFile.MAX_FILE_BYTES + 1L);
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (0 == failures.get() && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            assertEquals(1, failures.get());
            assertNotNull(source.current().user("alice"), "the previous version stays in force");

            Files.delete(file);
            assertFalse(source.reload(), "a deleted file changes nothing");
            assertNotNull(source.current().user("alice"));
        }
    }

    @Test
    void anInvalidFileStopsTheStart() throws Exception
    {
        final Path file = dir.resolve("entitlements");
        Files.writeString(file, "user\n");
        assertTrue(assertThrows(EntitlementFileException.class, () -> WatchedEntitlementFile.open(file, null, null))
            .getMessage().contains(":1: expected 'user NAME'"));
        assertThrows(EntitlementFileException.class,
            () -> WatchedEntitlementFile.open(dir.resolve("missing"), null, null));
    }
}
