package io.mdhub.p2p.entitlement;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads a usage log written by {@link ChronicleUsageLog}, record by record, read-only (a running server may go on
 * appending). Anything that is not a usage log — a missing or empty directory, another queue's excerpts, damaged
 * files — ends in a {@link UsageLogException} that says which directory and excerpt, never in a bare stack trace.
 */
public final class UsageLogReader implements AutoCloseable
{
    private final Path directory;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private long read;

    private UsageLogReader(final Path directory, final SingleChronicleQueue queue)
    {
        this.directory = directory;
        this.queue = queue;
        this.tailer = queue.createTailer();
    }

    /**
     * Open a usage directory for reading.
     *
     * @param directory the directory {@code mdhub.p2p.usage.dir} named.
     * @return a reader at the first record.
     * @throws UsageLogException if the directory is missing or holds no readable queue.
     */
    public static UsageLogReader open(final Path directory)
    {
        if (!Files.isDirectory(directory))
        {
            throw new UsageLogException(directory + ": no such directory");
        }
        try (Stream<Path> files = Files.list(directory))
        {
            if (files.noneMatch((file) -> file.getFileName().toString().endsWith(".cq4")))
            {
                throw new UsageLogException(directory + ": not a usage log (no Chronicle Queue .cq4 files in it)");
            }
        }
        catch (final IOException ex)
        {
            throw new UsageLogException(directory + ": cannot list the directory: " + ex, ex);
        }
        try
        {
            return new UsageLogReader(directory, SingleChronicleQueueBuilder.binary(directory).readOnly(true).build());
        }
        catch (final RuntimeException ex)
        {
            throw new UsageLogException(directory + ": not a readable usage log: " + ex, ex);
        }
    }

    /**
     * Skip to the first day file that can hold records at or after a time (records earlier on that day are still
     * read: the caller filters by time).
     *
     * @param timeMs milliseconds since the epoch.
     */
    public void skipToDayOf(final long timeMs)
    {
        final int cycle = (int)Math.floorDiv(timeMs, (long)queue.rollCycle().lengthInMillis());
        final int last = queue.lastCycle();
        for (int candidate = Math.max(cycle, queue.firstCycle()); candidate <= last; candidate++)
        {
            if (tailer.moveToCycle(candidate))
            {
                return;
            }
        }
        tailer.toEnd();
    }

    /**
     * Read the next record.
     *
     * @param record filled in (its event null for an event this version does not know: skip it).
     * @return false at the end of the log.
     * @throws UsageLogException for an excerpt that is not a usage record or cannot be decoded.
     */
    public boolean next(final UsageRecord record)
    {
        try (DocumentContext context = tailer.readingDocument())
        {
            if (!context.isPresent())
            {
                return false;
            }
            final long index = context.index();
            final int version;
            try
            {
                version = UsageWire.read(context.wire().bytes(), record);
            }
            catch (final RuntimeException ex)
            {
                throw new UsageLogException(notUsage(index) + ": " + ex, ex);
            }
            if (version < 1)
            {
                throw new UsageLogException(notUsage(index) + " (no usage magic and version at its start)");
            }
            read++;
            return true;
        }
        catch (final UsageLogException ex)
        {
            throw ex;
        }
        catch (final RuntimeException ex)
        {
            throw new UsageLogException(directory + ": cannot read the queue after " + read + " records: " + ex, ex);
        }
    }

    private String notUsage(final long index)
    {
        return directory + ": excerpt " + Long.toHexString(index) + " (after " + read +
            " records) is not a usage record; is this another queue's directory?";
    }

    /**
     * @return records read so far.
     */
    public long recordsRead()
    {
        return read;
    }

    @Override
    public void close()
    {
        tailer.close();
        queue.close();
    }
}
