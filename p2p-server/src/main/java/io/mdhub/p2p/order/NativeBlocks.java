package io.mdhub.p2p.order;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.UnsafeAccess;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.openhft.posix.MAdviseFlag;
import net.openhft.posix.PosixAPI;

/**
 * Blocks of native memory for the order store, in transparent huge pages where the kernel offers them. A block is an
 * anonymous private mapping aligned to {@value #HUGE_PAGE} bytes and advised {@code MADV_HUGEPAGE}, so with THP in
 * {@code always} or {@code madvise} mode each 2 MiB of it is one page fault instead of 512. On a virtual machine a
 * 4 KiB fault on memory the guest has not used lately costs tens of microseconds; a 16 MiB block faulted in 4 KiB
 * pages took ~70 ms of a CPU on this project's test hosts and 2-45 ms in huge pages, and the store's pages then cost
 * the order thread fewer TLB misses. With THP {@code never} the same mapping is simply faulted in 4 KiB pages.
 * <p>
 * Where no mapping can be made (not Linux, no POSIX binding), blocks come from {@code malloc} and are zeroed by
 * {@link #prepare}: either way a block reads as zeros once prepared. Any thread; the blocks are the caller's.
 */
final class NativeBlocks
{
    /** Size and alignment of a transparent huge page on x86-64 and arm64 (4 KiB base pages). */
    static final int HUGE_PAGE = 2 * 1024 * 1024;
    private static final int PAGE = 4096;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final Logger LOG = LoggerFactory.getLogger(NativeBlocks.class);
    private static final PosixAPI POSIX = mappingApi();
    private static final boolean IS_THP_ON = isThpOn();

    private NativeBlocks()
    {
    }

    /**
     * @return true when blocks are anonymous mappings advised to use huge pages (false: {@code malloc}).
     */
    static boolean isMapped()
    {
        return null != POSIX;
    }

    /**
     * @return true when blocks are mapped and the kernel's transparent huge pages are not switched off, so a block is
     * faulted in 2 MiB at a time (the kernel may still fall back to 4 KiB pages when it has no huge page free).
     */
    static boolean isHugePaged()
    {
        return null != POSIX && IS_THP_ON;
    }

    /**
     * Reserve a block. Its pages are not yet in memory: {@link #prepare} them, off the order path where it matters.
     *
     * @param bytes size of the block.
     * @return the block, the caller's to {@link #free(UnsafeBuffer)}.
     * @throws OutOfMemoryError when the memory cannot be had.
     */
    static UnsafeBuffer allocate(final int bytes)
    {
        if (bytes <= 0 || bytes > Integer.MAX_VALUE - HUGE_PAGE)
        {
            throw new IllegalArgumentException("block of " + bytes + " B");
        }
        if (null == POSIX)
        {
            return new UnsafeBuffer(UnsafeAccess.UNSAFE.allocateMemory(bytes), bytes);
        }
        final long span = (long)bytes + HUGE_PAGE;
        final long mapped = map(POSIX, span);
        if (!isMapping(mapped))
        {
            throw new OutOfMemoryError("cannot map a block of " + bytes + " B: " + POSIX.lastErrorStr());
        }
        // trim the mapping to an aligned block: whole huge pages, and nothing mapped beyond what free() unmaps
        final long start = (mapped + HUGE_PAGE - 1) & -HUGE_PAGE;
        final long end = start + pageAligned(bytes);
        if (start > mapped)
        {
            POSIX.munmap(mapped, start - mapped);
        }
        if (mapped + span > end)
        {
            POSIX.munmap(end, mapped + span - end);
        }
        POSIX.madvise(start, end - start, MAdviseFlag.MADV_HUGEPAGE); // advice only: 4 KiB pages if refused
        return new UnsafeBuffer(start, bytes);
    }

    /**
     * Bring part of a new block into memory as zeros: each page of a mapped block is written once (the kernel faults
     * it in zeroed at that first write, a huge page at a time where it can), a {@code malloc}ed one is zeroed. For
     * blocks not yet written to: a mapped block's pages that were are left as they are.
     *
     * @param block  from {@link #allocate(int)}.
     * @param offset first byte.
     * @param length bytes from it.
     */
    static void prepare(final UnsafeBuffer block, final int offset, final int length)
    {
        if (length <= 0)
        {
            return;
        }
        if (null == POSIX)
        {
            block.setMemory(offset, length, (byte)0);
            return;
        }
        final int end = offset + length;
        for (int page = offset & -PAGE; page < end; page += PAGE)
        {
            block.putByte(Math.max(page, offset), (byte)0);
        }
    }

    /**
     * A block prepared whole on the calling thread.
     *
     * @param bytes size of the block.
     * @return the block, zeros throughout, the caller's to {@link #free(UnsafeBuffer)}.
     */
    static UnsafeBuffer allocatePrepared(final int bytes)
    {
        final UnsafeBuffer block = allocate(bytes);
        prepare(block, 0, bytes);
        return block;
    }

    /**
     * Release a block from {@link #allocate(int)}.
     *
     * @param block the block; not to be used again.
     */
    static void free(final UnsafeBuffer block)
    {
        if (null == POSIX)
        {
            UnsafeAccess.UNSAFE.freeMemory(block.addressOffset());
        }
        else
        {
            POSIX.munmap(block.addressOffset(), pageAligned(block.capacity()));
        }
    }

    private static long pageAligned(final int bytes)
    {
        return ((long)bytes + PAGE - 1) & -PAGE;
    }

    /**
     * @return the address of a new anonymous private mapping, or an answer {@link #isMapping} refuses.
     */
    private static long map(final PosixAPI posix, final long bytes)
    {
        try
        {
            return posix.mmap(0, bytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0);
        }
        catch (final RuntimeException ex)
        {
            return -1; // MAP_FAILED, with an errno the binding knows
        }
    }

    /** Whether mmap's answer is a mapping: not MAP_FAILED, not null (a binding without mmap), page-aligned. */
    private static boolean isMapping(final long address)
    {
        return 0 != address && -1 != address && 0 == (address & (PAGE - 1));
    }

    /**
     * @return the POSIX binding when it can map and unmap memory here, else null (blocks from malloc). Linux only:
     * the flag values are Linux's.
     */
    private static PosixAPI mappingApi()
    {
        if (!System.getProperty("os.name", "").startsWith("Linux"))
        {
            return null;
        }
        try
        {
            final PosixAPI posix = PosixAPI.posix();
            final long probe = map(posix, PAGE);
            if (!isMapping(probe))
            {
                LOG.info("order store memory from malloc in 4 KiB pages: mmap answered {}", probe);
                return null;
            }
            posix.munmap(probe, PAGE);
            return posix;
        }
        catch (final RuntimeException | LinkageError ex)
        {
            LOG.info("order store memory from malloc in 4 KiB pages: no memory mapping here ({})", ex.toString());
            return null;
        }
    }

    /**
     * @return false when the kernel says transparent huge pages are {@code [never]} (also for 2 MiB pages on
     * kernels with per-size settings); true otherwise, including when it does not say.
     */
    private static boolean isThpOn()
    {
        for (final String setting : new String[]{
            "/sys/kernel/mm/transparent_hugepage/enabled",
            "/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled"})
        {
            try
            {
                final Path file = Path.of(setting);
                if (Files.isReadable(file) && Files.readString(file).contains("[never]"))
                {
                    return false;
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                // unreadable: assume the kernel's default (on)
            }
        }
        return true;
    }
}
