package io.mdhub.p2p.order;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The write-behind HA queue of one server: every order record it stored, as primary or as backup, appended to a
 * Chronicle Queue in its own directory, one excerpt per record (the encoded OrderRecord, raw bytes). The files are
 * what survives a restart: a starting server rebuilds its Orders region by {@link #replay}. The drainer reads it
 * with its own tailer. Single-threaded (the order agent); the queue's memory-mapped files are shared with the OS
 * page cache, not the Java heap.
 */
final class OrderQueue implements AutoCloseable
{
    /**
     * Receives records during a replay.
     */
    @FunctionalInterface
    interface RecordHandler
    {
        /**
         * @param record buffer holding one record (valid during the call only).
         * @param length record length from offset 0.
         */
        void onRecord(DirectBuffer record, int length);
    }

    private final Path directory;
    private final ExpandableDirectByteBuffer readBuffer = new ExpandableDirectByteBuffer(1024);
    private ChronicleQueue queue;
    private ExcerptAppender appender;
    private long appended;

    OrderQueue(final Path directory)
    {
        this.directory = directory;
        open();
    }

    private void open()
    {
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        queue = ChronicleQueue.singleBuilder(directory).build();
        appender = queue.createAppender();
    }

    /**
     * Append one record (synchronously into the memory-mapped file).
     *
     * @return the excerpt index.
     */
    long append(final DirectBuffer record, final int offset, final int length)
    {
        try (DocumentContext context = appender.writingDocument())
        {
            final Bytes<?> bytes = context.wire().bytes();
            final byte[] array = record.byteArray();
            if (null != array)
            {
                bytes.write(array, (int)(record.addressOffset() - org.agrona.BufferUtil.ARRAY_BASE_OFFSET) + offset,
                    length);
            }
            else
            {
                bytes.unsafeWrite(record.addressOffset() + offset, length);
            }
        }
        appended++;
        return appender.lastIndexAppended();
    }

    /**
     * A tailer from the start of the queue, for a drainer.
     */
    ExcerptTailer newTailer()
    {
        return queue.createTailer();
    }

    /**
     * Read the next excerpt of a tailer into a buffer.
     *
     * @return its length, or -1 if the tailer is at the end.
     */
    static int read(final ExcerptTailer tailer, final ExpandableDirectByteBuffer target)
    {
        try (DocumentContext context = tailer.readingDocument())
        {
            if (!context.isPresent())
            {
                return -1;
            }
            final Bytes<?> bytes = context.wire().bytes();
            final int length = (int)bytes.readRemaining();
            target.checkLimit(length);
            bytes.unsafeRead(target.addressOffset(), length);
            return length;
        }
    }

    /**
     * Read every record from the start.
     *
     * @return records read.
     */
    long replay(final RecordHandler handler)
    {
        long count = 0;
        final ExcerptTailer tailer = queue.createTailer();
        int length;
        while ((length = read(tailer, readBuffer)) >= 0)
        {
            handler.onRecord(readBuffer, length);
            count++;
        }
        tailer.close();
        return count;
    }

    /**
     * Start again with an empty queue: the current files are moved aside (kept for inspection, never read again)
     * before a full state transfer from the peer.
     *
     * @return where the old files went.
     */
    Path discard()
    {
        queue.close();
        final Path aside = directory.resolveSibling(directory.getFileName() + ".discarded-" +
            System.currentTimeMillis());
        try
        {
            if (Files.exists(directory))
            {
                Files.move(directory, aside);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        appended = 0;
        open();
        return aside;
    }

    /**
     * @return records appended since open.
     */
    long appended()
    {
        return appended;
    }

    /**
     * @return the queue directory.
     */
    Path directory()
    {
        return directory;
    }

    @Override
    public void close()
    {
        queue.close();
    }
}
