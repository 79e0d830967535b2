package io.mdhub.p2p.order;

/**
 * Rate limit for one kind of log line on one thread: an event that may repeat on every duty cycle (a malformed
 * message, a failing sink or callback, a client that stops reading) is counted by its counter every time and logged
 * at most once per interval, with how many came since the last line.
 */
final class LogInterval
{
    /** Once a second: the order service's interval for every repeated warning. */
    static final long ONE_SECOND_NS = 1_000_000_000L;

    private final long intervalNs;
    private long lastLogNs;
    private long eventsSinceLog;
    private boolean hasLogged;

    LogInterval(final long intervalNs)
    {
        this.intervalNs = intervalNs;
    }

    /**
     * Count one event.
     *
     * @param nowNs {@link System#nanoTime()}.
     * @return 0 if no line is due; else how many events the line stands for (this one included since the last line).
     */
    long onEvent(final long nowNs)
    {
        eventsSinceLog++;
        if (hasLogged && nowNs - lastLogNs <= intervalNs)
        {
            return 0;
        }
        hasLogged = true;
        lastLogNs = nowNs;
        final long events = eventsSinceLog;
        eventsSinceLog = 0;
        return events;
    }
}
