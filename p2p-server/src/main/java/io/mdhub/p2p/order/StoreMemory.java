package io.mdhub.p2p.order;

import java.util.ArrayList;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The native memory of a server's order store: records, identity index nodes and sequence positions are cut, in
 * the order they are needed, from one stream of chunks that a {@link ChunkSupply} prepares off the order path. So
 * whatever an order writes sits at the head of that stream, beside what the orders before it wrote, and the store
 * holds about what its orders need: one chunk being filled and one spare, not a structure sized for every order a
 * server might ever hold. Nothing is freed piece by piece; {@link #clear()} gives back everything at once.
 * Single-threaded (the order agent).
 */
final class StoreMemory implements AutoCloseable
{
    private final ChunkSupply supply;
    private final int chunkSize;
    private final ArrayList<UnsafeBuffer> chunks = new ArrayList<>();
    private long next;
    private long end;

    /**
     * @param supply where chunks come from (not closed with the memory).
     */
    StoreMemory(final ChunkSupply supply)
    {
        this.supply = supply;
        this.chunkSize = supply.chunkSize();
    }

    /**
     * @param bytes at most {@link #maxAllocation()}.
     * @return the address of {@code bytes} of memory, 8-byte aligned, contents undefined.
     */
    long allocate(final int bytes)
    {
        if (bytes <= 0 || bytes > chunkSize)
        {
            throw new IllegalArgumentException("allocation of " + bytes + " B from chunks of " + chunkSize + " B");
        }
        final long size = (bytes + 7) & ~7L;
        if (next + size > end)
        {
            final UnsafeBuffer chunk = supply.take();
            chunks.add(chunk);
            startAt(chunk);
        }
        final long address = next;
        next += size;
        return address;
    }

    /**
     * @return the largest allocation: a chunk.
     */
    int maxAllocation()
    {
        return chunkSize;
    }

    /**
     * @return chunks held.
     */
    int chunks()
    {
        return chunks.size();
    }

    /**
     * Give back everything allocated: every chunk but the first is freed, and allocation starts again at its
     * beginning. Whatever pointed into the memory must be forgotten first.
     */
    void clear()
    {
        for (int i = chunks.size() - 1; i > 0; i--)
        {
            supply.free(chunks.remove(i));
        }
        if (!chunks.isEmpty())
        {
            startAt(chunks.get(0));
        }
    }

    private void startAt(final UnsafeBuffer chunk)
    {
        next = chunk.addressOffset();
        end = next + chunk.capacity();
    }

    @Override
    public void close()
    {
        for (final UnsafeBuffer chunk : chunks)
        {
            supply.free(chunk);
        }
        chunks.clear();
        next = 0;
        end = 0;
    }
}
