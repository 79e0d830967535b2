package io.mdhub.orderprobe.probe;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.mdhub.common.pause.PauseEvent;

/**
 * A known pause injected into a process under test: SIGSTOP at a moment of the measurement, SIGCONT a while later,
 * recorded as a pause of that process (cause {@code SIGSTOP}) so the analyser can be checked against it — and so an
 * operator can check a tracing set-up before trusting it. The window recorded runs from the return of {@code kill
 * -STOP} to the call of {@code kill -CONT}: the process was certainly stopped within it.
 *
 * @param process   the name the pause carries (as the process's own recorder names it, e.g. order-server-1).
 * @param pid       the process to stop.
 * @param atMs      when, in milliseconds after measurement starts.
 * @param stopMs    how long it stays stopped.
 */
public record StopInjection(String process, long pid, long atMs, long stopMs)
{
    /**
     * @param spec {@code process:pid:atSeconds:milliseconds}, e.g. {@code order-server-1:4242:5:50}.
     * @return the injection.
     * @throws IllegalArgumentException naming what is wrong.
     */
    public static StopInjection parse(final String spec)
    {
        final String[] parts = spec.split(":");
        if (4 != parts.length)
        {
            throw new IllegalArgumentException("--inject-stop wants process:pid:atSeconds:milliseconds: " + spec);
        }
        try
        {
            return new StopInjection(parts[0], Long.parseLong(parts[1]),
                Math.round(Double.parseDouble(parts[2]) * 1000), Long.parseLong(parts[3]));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--inject-stop wants process:pid:atSeconds:milliseconds: " + spec, ex);
        }
    }

    /**
     * Stop the process for {@link #stopMs}, on the calling thread, and say when.
     *
     * @return the pause, or null when the signals could not be sent.
     */
    PauseEvent inject()
    {
        if (!signal("STOP"))
        {
            return null;
        }
        final long start = epochNowNs();
        long end = start;
        try
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(stopMs));
            end = epochNowNs();
        }
        finally
        {
            signal("CONT"); // whatever happens to this thread, the process under test is never left stopped
        }
        return new PauseEvent(process, "SIGSTOP", start, end - start);
    }

    private boolean signal(final String signal)
    {
        try
        {
            final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            return kill.waitFor(5, TimeUnit.SECONDS) && 0 == kill.exitValue();
        }
        catch (final IOException ex)
        {
            return false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static long epochNowNs()
    {
        final java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
