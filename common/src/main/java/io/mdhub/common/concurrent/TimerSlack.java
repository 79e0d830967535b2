package io.mdhub.common.concurrent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's timer slack: how much later than asked Linux may end its timed sleeps, so that nearby
 * timers expire together. A thread starts with its creator's slack, 50 µs by default, so a {@code parkNanos} of
 * 1 µs returns after ~95 µs on our VMs and ~11 µs with a slack of 1 ns. A thread that sleeps until a deadline (a
 * probe's order schedule, say) is late by the slack unless it lowers it for itself; real-time threads have none.
 * <p>
 * A thread may always change its own slack: {@code /proc/<tid>/timerslack_ns} (Linux 4.6 on), found through the
 * {@code /proc/thread-self} link ({@code <pid>/task/<tid>}, whose directory has no such file). Elsewhere the calls
 * below report that nothing was done.
 */
public final class TimerSlack
{
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    private static final Path PROC = Path.of("/proc");

    private TimerSlack()
    {
    }

    /**
     * Set the calling thread's timer slack.
     *
     * @param slackNs the slack, at least 1 (the kernel reads 0 as "back to the process default").
     * @return true if set, false where the system has no per-thread slack to set.
     * @throws IllegalArgumentException if the slack is below 1.
     */
    public static boolean setForCurrentThread(final long slackNs)
    {
        if (slackNs < 1)
        {
            throw new IllegalArgumentException("timer slack must be at least 1 ns: " + slackNs);
        }
        try
        {
            Files.writeString(ofThisThread(), Long.toString(slackNs), StandardCharsets.US_ASCII);
            return true;
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            return false;
        }
    }

    /**
     * @return the calling thread's timer slack in ns, or -1 where the system does not say.
     */
    public static long ofCurrentThread()
    {
        try
        {
            return Long.parseLong(Files.readString(ofThisThread(), StandardCharsets.US_ASCII).trim());
        }
        catch (final IOException | NumberFormatException | UnsupportedOperationException | SecurityException ex)
        {
            return -1;
        }
    }

    private static Path ofThisThread() throws IOException
    {
        return PROC.resolve(Files.readSymbolicLink(THREAD_SELF).getFileName()).resolve("timerslack_ns");
    }
}
