package io.mdhub.common.pause;

/**
 * One stop-the-world pause of one process: a safepoint, from the start of its synchronisation to its end.
 *
 * @param process      who paused (a component or probe name).
 * @param cause        the VM operation run at the safepoint ({@code G1CollectForAllocation}, {@code Deoptimize} ...).
 * @param startEpochNs when it began, nanoseconds since the epoch (comparable across processes of one host).
 * @param durationNs   how long the process's Java threads were stopped.
 */
public record PauseEvent(String process, String cause, long startEpochNs, long durationNs)
{
    /**
     * @return when it ended, nanoseconds since the epoch.
     */
    public long endEpochNs()
    {
        return startEpochNs + durationNs;
    }

    /**
     * @return true when the cause is a garbage collection.
     */
    public boolean isGc()
    {
        return cause.contains("GC") || cause.contains("Collect") || cause.contains("Gc");
    }

    /**
     * @return {@code process,cause,startEpochNs,durationNs} (the form MXBeans and log files carry).
     */
    public String toLine()
    {
        return process + "," + cause + "," + startEpochNs + "," + durationNs;
    }

    /**
     * @param line what {@link #toLine()} wrote.
     * @return the event.
     * @throws IllegalArgumentException when the line is not one.
     */
    public static PauseEvent fromLine(final String line)
    {
        final String[] cells = line.split(",");
        if (4 != cells.length)
        {
            throw new IllegalArgumentException("not a pause line (process,cause,startEpochNs,durationNs): " + line);
        }
        try
        {
            return new PauseEvent(cells[0], cells[1], Long.parseLong(cells[2]), Long.parseLong(cells[3]));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("not a pause line (process,cause,startEpochNs,durationNs): " + line, ex);
        }
    }
}
