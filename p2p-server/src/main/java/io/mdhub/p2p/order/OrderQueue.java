package io.mdhub.p2p.order;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

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
 * <p>
 * Two small files live beside the queue's and move aside with it ({@link #discard()}):
 * <ul>
 *     <li>{@value #STANDING_FILE}: the server's {@link Standing} in its pair, one word, replaced atomically and
 *     fsynced (written rarely: on a takeover, a start alone, a peer caught up).</li>
 *     <li>{@value #DRAINED_FILE}: the drained position of every partition (the last sequence the downstream sink
 *     made durable), memory-mapped: {@code [magic:8][partition 0:8][partition 1:8]...} for up to
 *     {@value #MAX_PARTITIONS} partitions, little-endian. It survives a process kill (page cache); with
 *     {@code mdhub.order.sink.fsync} it is forced to disk with every sink flush.</li>
 * </ul>
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

    /**
     * What a server's store proves about the acknowledged orders of its pair.
     */
    enum Standing
    {
        /**
         * No proof (no file: a new or discarded store, or one written before the file existed): the peer may hold
         * acknowledged orders this store lacks.
         */
        UNPROVEN,
        /**
         * The peer caught up from this server (or this server from the peer) and can take over: if this server
         * stopped, the peer may have gone on alone, so this store may lack acknowledged orders.
         */
        PAIRED,
        /**
         * This server acknowledged orders without a synchronous backup (the peer dead, declared dead, starting or
         * catching up) and the peer has not caught up since: every acknowledged order of the pair is here.
         */
        SOLE
    }

    static final String STANDING_FILE = "pair-standing";
    static final String DRAINED_FILE = "drained-positions";
    static final int MAX_PARTITIONS = 1024;
    private static final long DRAINED_MAGIC = 0x4d44_4452_4149_4e31L; // "MDDRAIN1"
    private static final int DRAINED_LENGTH = 8 + 8 * MAX_PARTITIONS;

    private final Path directory;
    private final ExpandableDirectByteBuffer readBuffer = new ExpandableDirectByteBuffer(1024);
    private ChronicleQueue queue;
    private ExcerptAppender appender;
    private long appended;
    private Standing standing;
    private MappedByteBuffer drainedMapping;
    private final UnsafeBuffer drained = new UnsafeBuffer(0, 0);

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
        standing = readStanding();
        mapDrained();
    }

    private Standing readStanding()
    {
        final Path file = directory.resolve(STANDING_FILE);
        try
        {
            if (!Files.exists(file))
            {
                return Standing.UNPROVEN;
            }
            final String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
            final String word = text.isEmpty() ? "" : text.split("\\s+")[0];
            return Standing.valueOf(word);
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            return Standing.UNPROVEN; // unreadable proves nothing
        }
    }

    private void mapDrained()
    {
        final java.io.File file = directory.resolve(DRAINED_FILE).toFile();
        final boolean isNew = !file.exists() || file.length() != DRAINED_LENGTH;
        if (isNew)
        {
            IoUtil.delete(file, true);
            drainedMapping = IoUtil.mapNewFile(file, DRAINED_LENGTH, true);
        }
        else
        {
            drainedMapping = IoUtil.mapExistingFile(file, DRAINED_FILE);
        }
        drained.wrap(drainedMapping);
        if (isNew || DRAINED_MAGIC != drained.getLong(0))
        {
            drained.setMemory(0, DRAINED_LENGTH, (byte)0);
            drained.putLong(0, DRAINED_MAGIC);
        }
    }

    /**
     * @return what this store proves (read when the queue was opened, or last written).
     */
    Standing standing()
    {
        return standing;
    }

    /**
     * Record this server's standing: the file is written beside, fsynced, moved over the old one atomically, and the
     * directory fsynced, so after a crash it is either the old or the new word, never a torn one.
     *
     * @param standing the new standing.
     * @param why      a line kept in the file for people.
     */
    void standing(final Standing standing, final String why)
    {
        if (standing == this.standing)
        {
            return;
        }
        final Path file = directory.resolve(STANDING_FILE);
        final Path temporary = directory.resolve(STANDING_FILE + ".tmp");
        try
        {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING))
            {
                channel.write(java.nio.ByteBuffer.wrap((standing.name() + " " + System.currentTimeMillis() + " " +
                    why.replace('\n', ' ') + "\n").getBytes(StandardCharsets.US_ASCII)));
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ))
            {
                dir.force(true);
            }
            catch (final IOException ignore)
            {
                // some file systems cannot open a directory: the rename is still atomic
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot record standing " + standing + " in " + file, ex);
        }
        this.standing = standing;
    }

    /**
     * @param partition a partition.
     * @return its persisted drained position (0 if never drained or out of range).
     */
    long drained(final int partition)
    {
        return partition >= 0 && partition < MAX_PARTITIONS ? drained.getLong(8 + 8 * partition) : 0;
    }

    /**
     * Persist a partition's drained position (into the mapped file: no system call).
     *
     * @param partition a partition.
     * @param sequence  the last sequence the sink made durable.
     */
    void drained(final int partition, final long sequence)
    {
        if (partition >= 0 && partition < MAX_PARTITIONS)
        {
            drained.putLongOrdered(8 + 8 * partition, sequence);
        }
    }

    /**
     * Force the drained positions to disk (msync), for {@code mdhub.order.sink.fsync}.
     */
    void forceDrained()
    {
        drainedMapping.force();
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
        closeFiles();
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

    private void closeFiles()
    {
        queue.close();
        if (null != drainedMapping)
        {
            IoUtil.unmap(drainedMapping);
            drainedMapping = null;
            drained.wrap(0, 0);
        }
    }

    @Override
    public void close()
    {
        closeFiles();
    }
}
