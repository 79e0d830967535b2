package io.mdhub.p2p.entitlement;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.log.LogSummary;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The usage log as a Chronicle Queue in its own directory: one excerpt per record, every field of the
 * {@link UsageRecord} in a small binary layout that starts with a format version ({@link UsageWire}), so a later
 * version can add fields and still read these records. Daily files ({@link RollCycles#FAST_DAILY}, rolled at
 * midnight UTC): old days are the operator's to archive or delete.
 * <p>
 * Appends come from every fan-out worker thread. Chronicle appenders are single-threaded, so each thread gets its own
 * on its first append (a thread-local; all of them are closed with the log). An append writes into the memory-mapped
 * file and allocates nothing of its own: the text fields are written from the record's strings, the event by its
 * code. It does not wait for the disk. The rare slow append is Chronicle mapping its next chunk of the file, or
 * creating the next day's file.
 * <p>
 * Opening the log appends a {@link UsageEvent#LOG_OPENED} record, closing it a {@link UsageEvent#LOG_CLOSED} one:
 * the report ends the streams and logins still open at either (after a crash there is no close record, and the
 * next open tells the report that the previous process is gone). One directory belongs to one server.
 * <p>
 * An append that fails (disk full, a file that cannot be mapped) is counted and logged (summarised), never thrown
 * at the worker.
 */
public final class ChronicleUsageLog implements UsageLog
{
    /**
     * Format version written in every record ({@link UsageWire#VERSION}).
     */
    public static final int VERSION = UsageWire.VERSION;

    private static final Logger LOG = LoggerFactory.getLogger(ChronicleUsageLog.class);

    private final Path directory;
    private final ChronicleQueue queue;
    private final AtomicCounter appended;
    private final AtomicCounter failed;
    private final LogSummary failures;
    private final List<ExcerptAppender> appenders = new ArrayList<>();
    private final ThreadLocal<ExcerptAppender> threadAppender = ThreadLocal.withInitial(this::newAppender);
    private final EpochClock clock;
    private volatile boolean isClosed;

    /**
     * Open (or create) the log in a directory and record its opening.
     *
     * @param directory where the queue's files go; created if missing.
     * @param appended  counts records appended (may be null).
     * @param failed    counts appends that failed (may be null).
     * @throws UncheckedIOException if the directory cannot be created.
     */
    public ChronicleUsageLog(final Path directory, final AtomicCounter appended, final AtomicCounter failed)
    {
        this(directory, appended, failed, SystemEpochClock.INSTANCE);
    }

    /**
     * Open (or create) the log in a directory and record its opening.
     *
     * @param directory where the queue's files go; created if missing.
     * @param appended  counts records appended (may be null).
     * @param failed    counts appends that failed (may be null).
     * @param clock     the time of the log's own opening and closing records.
     * @throws UncheckedIOException if the directory cannot be created.
     */
    public ChronicleUsageLog(
        final Path directory, final AtomicCounter appended, final AtomicCounter failed, final EpochClock clock)
    {
        this.directory = directory;
        this.clock = clock;
        this.appended = appended;
        this.failed = failed;
        this.failures = new LogSummary(LOG, "usage log " + directory, "failed appends", 1);
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the usage directory " + directory, ex);
        }
        queue = ChronicleQueue.singleBuilder(directory).rollCycle(RollCycles.FAST_DAILY).build();
        appendMarker(UsageEvent.LOG_OPENED);
    }

    /**
     * Open (or create) the log without counters.
     *
     * @param directory where the queue's files go; created if missing.
     */
    public ChronicleUsageLog(final Path directory)
    {
        this(directory, null, null);
    }

    /**
     * @return the directory of the queue's files.
     */
    public Path directory()
    {
        return directory;
    }

    private ExcerptAppender newAppender()
    {
        final ExcerptAppender appender = queue.createAppender();
        synchronized (appenders)
        {
            appenders.add(appender);
        }
        return appender;
    }

    @Override
    public void append(final UsageRecord record)
    {
        if (isClosed)
        {
            return;
        }
        try
        {
            try (DocumentContext context = threadAppender.get().writingDocument())
            {
                UsageWire.write(context.wire().bytes(), record);
            }
            if (null != appended)
            {
                appended.increment(); // from every worker thread: an atomic add, not the single writer's ordered one
            }
        }
        catch (final RuntimeException ex)
        {
            onFailure(ex);
        }
    }

    private void onFailure(final RuntimeException ex)
    {
        if (null != failed)
        {
            failed.increment();
        }
        if (failures.admit(0, "append failed", true, ex.toString()))
        {
            LOG.warn("usage log {}: a record could not be appended (counted in p2p-usage-failures)", directory, ex);
        }
    }

    private void appendMarker(final UsageEvent event)
    {
        final UsageRecord marker = new UsageRecord();
        marker.event = event;
        marker.timeMs = clock.time();
        marker.reason = "pid " + ProcessHandle.current().pid();
        append(marker);
    }

    /**
     * Record the close, then release every appender and the queue's files. Call once the workers stopped appending;
     * appends after it are dropped.
     */
    @Override
    public void close()
    {
        if (isClosed)
        {
            return;
        }
        appendMarker(UsageEvent.LOG_CLOSED);
        isClosed = true;
        failures.flush();
        synchronized (appenders)
        {
            for (final ExcerptAppender appender : appenders)
            {
                closeQuietly(appender);
            }
            appenders.clear();
        }
        queue.close();
    }

    private static void closeQuietly(final ExcerptAppender appender)
    {
        try
        {
            appender.close();
        }
        catch (final RuntimeException ex)
        {
            LOG.debug("closing a usage appender", ex);
        }
    }
}
