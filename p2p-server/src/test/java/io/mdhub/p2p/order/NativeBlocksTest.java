package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeBlocksTest
{
    private static final int CHUNK = 16 * 1024 * 1024;

    @Test
    void aPreparedBlockIsZerosAndHoldsWhatIsWrittenToItsLastByte()
    {
        final UnsafeBuffer block = NativeBlocks.allocatePrepared(CHUNK);
        try
        {
            assertEquals(CHUNK, block.capacity());
            for (int offset = 0; offset < CHUNK; offset += 4093)
            {
                assertEquals(0, block.getByte(offset), "byte " + offset);
            }
            block.putLong(0, 0x0102_0304_0506_0708L);
            block.putLong(CHUNK - 8, -1L);
            assertEquals(0x0102_0304_0506_0708L, block.getLong(0));
            assertEquals(-1L, block.getLong(CHUNK - 8));
        }
        finally
        {
            NativeBlocks.free(block);
        }
    }

    @Test
    void aBlockPreparedInUnalignedSlicesIsZerosThroughout()
    {
        final int bytes = 3 * 4096 + 100;
        final UnsafeBuffer block = NativeBlocks.allocate(bytes);
        try
        {
            for (int offset = 0; offset < bytes; offset += 1000)
            {
                NativeBlocks.prepare(block, offset, Math.min(1000, bytes - offset));
            }
            for (int offset = 0; offset < bytes; offset++)
            {
                assertEquals(0, block.getByte(offset), "byte " + offset);
            }
        }
        finally
        {
            NativeBlocks.free(block);
        }
    }

    @Test
    void mappedBlocksStartOnAHugePageBoundary()
    {
        assumeTrue(NativeBlocks.isMapped(), "blocks come from malloc here");
        for (int i = 0; i < 3; i++)
        {
            final UnsafeBuffer block = NativeBlocks.allocate(CHUNK);
            assertEquals(0, block.addressOffset() % NativeBlocks.HUGE_PAGE, "aligned to 2 MiB");
            NativeBlocks.free(block);
        }
    }

    @Test
    void mappedBlocksAreInHugePagesWhenTheKernelAllowsThem() throws IOException
    {
        assumeTrue(NativeBlocks.isMapped(), "blocks come from malloc here");
        final Path setting = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        assumeTrue(Files.isReadable(setting) && !Files.readString(setting).contains("[never]"), "THP off here");
        final long before = anonHugeKiB();
        final UnsafeBuffer block = NativeBlocks.allocatePrepared(CHUNK);
        try
        {
            final long gained = anonHugeKiB() - before;
            // the kernel may fall back to 4 KiB pages when it has no free huge page; on a healthy host most are huge
            assertTrue(gained >= CHUNK / 1024 / 2, "huge pages gained: " + gained + " KiB");
        }
        finally
        {
            NativeBlocks.free(block);
        }
    }

    @Test
    void refusesAnEmptyBlock()
    {
        assertThrows(IllegalArgumentException.class, () -> NativeBlocks.allocate(0));
    }

    private static long anonHugeKiB() throws IOException
    {
        for (final String line : Files.readAllLines(Path.of("/proc/self/smaps_rollup")))
        {
            if (line.startsWith("AnonHugePages:"))
            {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }
}
