package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeBlocksTest
{
    private static final int CHUNK = 16 * 1024 * 1024;
    private static final Path SMAPS = Path.of("/proc/self/smaps");

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
    void mappedBlocksAreAdvisedHugePagesAndGetThemWhenTheKernelHasThem() throws IOException
    {
        assumeTrue(NativeBlocks.isMapped(), "blocks come from malloc here");
        assumeTrue(Files.isReadable(SMAPS), "no " + SMAPS + " here");
        final long fallbacksBefore = vmstat("thp_fault_fallback");
        final UnsafeBuffer block = NativeBlocks.allocatePrepared(CHUNK);
        try
        {
            final List<String> mapping = mappingOf(block.addressOffset());
            final String flags = field(mapping, "VmFlags:");
            assertTrue(flags.contains(" hg"), "advised MADV_HUGEPAGE: " + flags);
            assumeTrue(NativeBlocks.isHugePaged(), "transparent huge pages are off here");
            assumeTrue(vmstat("thp_fault_fallback") == fallbacksBefore, "the kernel had no free huge page");
            final long hugeKiB = Long.parseLong(field(mapping, "AnonHugePages:").replaceAll("[^0-9]", ""));
            // at least the block: a neighbouring mapping advised alike may have merged into the same one
            assertTrue(hugeKiB >= CHUNK / 1024, "the whole block in huge pages: " + hugeKiB + " KiB");
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

    /** The lines of the mapping in {@code /proc/self/smaps} that holds an address, from its range line on. */
    private static List<String> mappingOf(final long address) throws IOException
    {
        final List<String> lines = Files.readAllLines(SMAPS);
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            final int dash = line.indexOf('-');
            final int space = line.indexOf(' ');
            if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+"))
            {
                final long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                final long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                if (address >= start && address < end)
                {
                    int next = i + 1;
                    while (next < lines.size() && !lines.get(next).matches("^[0-9a-f]+-[0-9a-f]+ .*"))
                    {
                        next++;
                    }
                    return lines.subList(i, next);
                }
            }
        }
        throw new AssertionError("no mapping holds " + Long.toHexString(address));
    }

    private static String field(final List<String> mapping, final String name)
    {
        for (final String line : mapping)
        {
            if (line.startsWith(name))
            {
                return line.substring(name.length());
            }
        }
        throw new AssertionError("no " + name + " in " + mapping.get(0));
    }

    private static long vmstat(final String name) throws IOException
    {
        for (final String line : Files.readAllLines(Path.of("/proc/vmstat")))
        {
            if (line.startsWith(name + " "))
            {
                return Long.parseLong(line.substring(name.length() + 1).trim());
            }
        }
        return 0;
    }
}
