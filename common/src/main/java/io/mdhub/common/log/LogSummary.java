package io.mdhub.common.log;

import org.slf4j.Logger;

/**
 * Keeps one kind of log line (a disconnect reason, say) from flooding the log: of each key, the first
 * {@link #LINES_PER_INTERVAL} events of a 10 s interval get a line of their own and the rest are only counted; one
 * summary line (how many more, the last one's detail) follows with the key's next event after the interval, or at
 * {@link #flush()}. Counters elsewhere still count every event. Thread safe; events are rare by nature (disconnects),
 * so a lock is cheap here.
 */
public final class LogSummary
{
    /** Events of one key logged line by line per interval. */
    public static final int LINES_PER_INTERVAL = 3;
    private static final long INTERVAL_NS = 10_000_000_000L;

    private final Logger log;
    private final String component;
    private final String what;
    private final long[] intervalStartNs;
    private final int[] linesLogged;
    private final long[] suppressed;
    private final String[] lastLabel;
    private final String[] lastDetail;
    private final boolean[] isWarn;

    /**
     * @param log       where the summaries go.
     * @param component the component named at the start of each summary.
     * @param what      what is summarised, plural ("disconnects").
     * @param keys      keys run from 0 to keys - 1.
     */
    public LogSummary(final Logger log, final String component, final String what, final int keys)
    {
        this.log = log;
        this.component = component;
        this.what = what;
        this.intervalStartNs = new long[keys];
        this.linesLogged = new int[keys];
        this.suppressed = new long[keys];
        this.lastLabel = new String[keys];
        this.lastDetail = new String[keys];
        this.isWarn = new boolean[keys];
    }

    /**
     * @param key    the event's kind.
     * @param label  its name in a summary.
     * @param warn   summarise at WARN (else INFO).
     * @param detail the event's detail, for the summary of suppressed ones.
     * @return true if the caller logs this event itself; false when it is only counted for the summary.
     */
    public synchronized boolean admit(final int key, final String label, final boolean warn, final String detail)
    {
        final long nowNs = System.nanoTime();
        if (0 == linesLogged[key] || nowNs - intervalStartNs[key] >= INTERVAL_NS)
        {
            summarise(key);
            intervalStartNs[key] = nowNs;
            linesLogged[key] = 0;
        }
        if (linesLogged[key] < LINES_PER_INTERVAL)
        {
            linesLogged[key]++;
            return true;
        }
        suppressed[key]++;
        lastLabel[key] = label;
        lastDetail[key] = detail;
        isWarn[key] = warn;
        return false;
    }

    /**
     * Log the summaries still pending (e.g. at close).
     */
    public synchronized void flush()
    {
        for (int key = 0; key < suppressed.length; key++)
        {
            summarise(key);
        }
    }

    private void summarise(final int key)
    {
        if (0 == suppressed[key])
        {
            return;
        }
        final String format = "{}: {} more {} reason={} within 10 s of the last logged one; the last: {}";
        if (isWarn[key])
        {
            log.warn(format, component, suppressed[key], what, lastLabel[key], lastDetail[key]);
        }
        else
        {
            log.info(format, component, suppressed[key], what, lastLabel[key], lastDetail[key]);
        }
        suppressed[key] = 0;
        lastDetail[key] = null;
    }
}
