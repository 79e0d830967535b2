package io.mdhub.common.entitlement;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Arrays;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entitlement file, read at start (an invalid file stops the server) and read again whenever it changes: a
 * thread blocks on the kernel's file notifications for its directory (so an editor's write-and-rename is seen too)
 * and, when the file's bytes changed, loads the new table and tells the listeners. A file that turns invalid keeps
 * the table in force, with an error line and a count; the next valid save applies.
 */
public final class WatchedEntitlementFile implements EntitlementSource
{
    /**
     * Quiet time after the last file event before the file is read: a save in several writes is read whole.
     */
    static final long SETTLE_MS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(WatchedEntitlementFile.class);

    private final Path file;
    private final WatchService watcher;
    private final Thread thread;
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final AtomicCounter reloads;
    private final AtomicCounter reloadFailures;
    private volatile EntitlementTable current;
    private byte[] loadedBytes;

    private WatchedEntitlementFile(
        final Path file, final AtomicCounter reloads, final AtomicCounter reloadFailures) throws IOException
    {
        this.file = file.toAbsolutePath();
        this.reloads = reloads;
        this.reloadFailures = reloadFailures;
        // watched before it is read, and parsed from the bytes compared later: no change goes unseen
        this.watcher = FileSystems.getDefault().newWatchService();
        this.file.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE,
            StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
        try
        {
            this.loadedBytes = readBytes();
            this.current = EntitlementFile.parse(loadedBytes, this.file.toString());
        }
        catch (final IOException | RuntimeException ex)
        {
            watcher.close();
            throw ex;
        }
        this.thread = new Thread(this::watch, "mdhub-entitlements");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * @param file           the entitlement file.
     * @param reloads        counts tables loaded after the first (may be null).
     * @param reloadFailures counts changes that did not load (may be null).
     * @return the source, watching.
     * @throws EntitlementFileException if the file cannot be read or is not valid.
     */
    public static WatchedEntitlementFile open(
        final Path file, final AtomicCounter reloads, final AtomicCounter reloadFailures)
    {
        try
        {
            return new WatchedEntitlementFile(file, reloads, reloadFailures);
        }
        catch (final IOException ex)
        {
            throw new EntitlementFileException("cannot watch entitlement file " + file + ": " + ex);
        }
    }

    @Override
    public EntitlementTable current()
    {
        return current;
    }

    @Override
    public void onChange(final Runnable listener)
    {
        listeners.add(listener);
    }

    /**
     * Reads the file again now (the watcher does this on every change).
     *
     * @return true if a new table is in force.
     */
    public synchronized boolean reload()
    {
        final byte[] bytes;
        try
        {
            bytes = readBytes();
        }
        catch (final EntitlementFileException ex)
        {
            if (null != reloadFailures)
            {
                reloadFailures.increment();
            }
            LOG.error("entitlement file changed but cannot be loaded; the previous version stays in force: {}",
                ex.getMessage());
            return false;
        }
        catch (final IOException ex)
        {
            // an editor's rename leaves a moment with no file: the next event reads it
            LOG.debug("entitlement file {} not readable now: {}", file, ex.toString());
            return false;
        }
        if (Arrays.equals(bytes, loadedBytes))
        {
            return false;
        }
        final EntitlementTable table;
        try
        {
            table = EntitlementFile.parse(bytes, file.toString());
        }
        catch (final EntitlementFileException ex)
        {
            if (null != reloadFailures)
            {
                reloadFailures.increment();
            }
            LOG.error("entitlement file changed but is not valid; the previous version stays in force: {}",
                ex.getMessage());
            loadedBytes = bytes;
            return false;
        }
        loadedBytes = bytes;
        current = table.withVersion(current.version() + 1);
        if (null != reloads)
        {
            reloads.increment();
        }
        LOG.info("entitlement file {} reloaded: version {}, {} users", file, current.version(), table.userCount());
        for (final Runnable listener : listeners)
        {
            try
            {
                listener.run();
            }
            catch (final RuntimeException ex)
            {
                LOG.error("entitlement change listener failed", ex);
            }
        }
        return true;
    }

    private byte[] readBytes() throws IOException
    {
        return EntitlementFile.readBytes(file);
    }

    private static boolean drain(final WatchKey key, final Path name)
    {
        boolean isOurs = false;
        for (final WatchEvent<?> event : key.pollEvents())
        {
            isOurs |= StandardWatchEventKinds.OVERFLOW == event.kind() || name.equals(event.context());
        }
        key.reset();
        return isOurs;
    }

    private void watch()
    {
        final Path name = file.getFileName();
        try
        {
            while (true)
            {
                boolean isOurs = drain(watcher.take(), name);
                // an editor's save is several events (truncate, writes, rename): read once they have stopped
                WatchKey more;
                while (isOurs && null != (more = watcher.poll(SETTLE_MS, TimeUnit.MILLISECONDS)))
                {
                    drain(more, name);
                }
                if (isOurs)
                {
                    reload();
                }
            }
        }
        catch (final InterruptedException | ClosedWatchServiceException ex)
        {
            // closed
        }
    }

    @Override
    public void close()
    {
        try
        {
            watcher.close();
        }
        catch (final IOException ex)
        {
            LOG.debug("closing the entitlement file watcher: {}", ex.toString());
        }
        thread.interrupt();
    }
}
