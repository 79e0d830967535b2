package io.mdhub.backbone;

import java.io.File;
import java.nio.MappedByteBuffer;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import io.aeron.CncFileDescriptor;

/**
 * Tells whether an Aeron directory was left by a driver that is dead, so that a new driver may take it over at once
 * instead of refusing it ("active driver detected") until the dead one's heartbeat is older than the driver timeout:
 * after a kill -9 of the backbone daemon every server waits on that, and a supervisor's restart would otherwise be
 * refused for ten seconds. Both must hold: the process named in the directory's CnC file is not running on this host,
 * and the driver's heartbeat is older than a live driver ever leaves it (it beats about once a second). The second
 * keeps a live driver safe whose process this host cannot see (another PID namespace sharing the directory).
 */
final class DeadDriverDirectory
{
    /** A live driver's heartbeat is never older than this (Aeron's conductor beats about once a second). */
    static final long STALE_HEARTBEAT_MS = 3_000;

    private DeadDriverDirectory()
    {
    }

    /**
     * Waits, a few seconds at most, for the verdict on a directory whose driver process is gone: its heartbeat must
     * go stale first. A restart right after a kill -9 is then ready in about {@link #STALE_HEARTBEAT_MS}, not after
     * the driver timeout, and a directory whose heartbeat keeps beating is left to the driver to refuse.
     *
     * @param directory the Aeron directory.
     * @return the dead driver's PID when the directory was left by a driver that is no longer running, else -1.
     * @throws InterruptedException if interrupted while waiting.
     */
    static long awaitDeadDriver(final File directory) throws InterruptedException
    {
        final long deadlineMs = System.currentTimeMillis() + STALE_HEARTBEAT_MS + 1_000;
        while (true)
        {
            final long nowMs = System.currentTimeMillis();
            final long[] pidAndHeartbeat = read(directory);
            if (null == pidAndHeartbeat || isRunning(pidAndHeartbeat[0]))
            {
                return -1;
            }
            if (isDead(pidAndHeartbeat[0], false, pidAndHeartbeat[1], nowMs))
            {
                return pidAndHeartbeat[0];
            }
            if (nowMs > deadlineMs || pidAndHeartbeat[0] <= 0)
            {
                return -1;
            }
            Thread.sleep(100);
        }
    }

    private static boolean isRunning(final long pid)
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * @return the driver's PID and last heartbeat (ms) from the directory's CnC file, null when there is none to read.
     */
    private static long[] read(final File directory)
    {
        final File cnc = new File(directory, CncFileDescriptor.CNC_FILE);
        if (!cnc.isFile() || cnc.length() < CncFileDescriptor.META_DATA_LENGTH)
        {
            return null;
        }
        MappedByteBuffer mapped = null;
        try
        {
            mapped = IoUtil.mapExistingFile(cnc, "cnc");
            final UnsafeBuffer metaData = CncFileDescriptor.createMetaDataBuffer(mapped);
            if (CncFileDescriptor.CNC_VERSION != metaData.getIntVolatile(CncFileDescriptor.cncVersionOffset(0)))
            {
                return null;
            }
            final long heartbeatMs = new ManyToOneRingBuffer(
                CncFileDescriptor.createToDriverBuffer(mapped, metaData)).consumerHeartbeatTime();
            return new long[]{CncFileDescriptor.pid(metaData), heartbeatMs};
        }
        catch (final RuntimeException ex)
        {
            return null; // unreadable or half-written: leave the decision to the driver
        }
        finally
        {
            IoUtil.unmap(mapped);
        }
    }

    /**
     * @param pid         the driver's PID as its CnC file gives it.
     * @param alive       whether a process with that PID runs on this host.
     * @param heartbeatMs the driver's last heartbeat.
     * @param nowMs       the wall clock.
     * @return true when the driver is certainly gone.
     */
    static boolean isDead(final long pid, final boolean alive, final long heartbeatMs, final long nowMs)
    {
        return pid > 0 && pid != ProcessHandle.current().pid() && !alive && nowMs - heartbeatMs > STALE_HEARTBEAT_MS;
    }
}
