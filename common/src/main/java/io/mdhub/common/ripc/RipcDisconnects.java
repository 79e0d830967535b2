package io.mdhub.common.ripc;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single place where a RIPC connection is ended for a reason: the first reason recorded on a channel wins, is
 * counted once, logged (remote address, reason, detail) and the channel is closed. Later calls for the same channel
 * (e.g. the close event that follows) do nothing. So that a flood of connections cannot flood the log, each reason
 * logs its first {@link #LINES_PER_INTERVAL} disconnects of a 10 s interval line by line and only counts the rest,
 * which one summary line reports (how many, the last address and detail) with the reason's next disconnect after the
 * interval, or when the listener closes ({@link #flushSummaries()}); every disconnect is counted either way.
 */
public final class RipcDisconnects
{
    /**
     * Channel attribute holding the reason the connection ended, set once.
     */
    public static final AttributeKey<RipcDisconnectReason> REASON = AttributeKey.valueOf("mdhub.ripc.disconnect");

    private static final Logger LOG = LoggerFactory.getLogger(RipcDisconnects.class);

    /** Disconnects of one reason logged line by line per interval; the rest are summarised. */
    static final int LINES_PER_INTERVAL = 3;
    private static final long SUMMARY_INTERVAL_NS = 10_000_000_000L;

    private final String component;
    private final RipcCounters counters;
    private final long[] intervalStartNs = new long[RipcDisconnectReason.count()];
    private final int[] linesLogged = new int[RipcDisconnectReason.count()];
    private final long[] suppressed = new long[RipcDisconnectReason.count()];
    private final String[] lastSuppressed = new String[RipcDisconnectReason.count()];

    /**
     * @param component component name for the log line.
     * @param counters  where disconnects are counted.
     */
    public RipcDisconnects(final String component, final RipcCounters counters)
    {
        this.component = component;
        this.counters = counters;
    }

    /**
     * Record the reason (if none was recorded yet), count and log it, then close the channel.
     *
     * @param channel the connection.
     * @param reason  why it ends.
     * @param detail  human-readable detail for the log line (built only on this rare path).
     * @return true when this call recorded the reason, false when the channel already had one.
     */
    public boolean disconnect(final Channel channel, final RipcDisconnectReason reason, final String detail)
    {
        return disconnect(channel, reason, detail, null);
    }

    /**
     * Like {@link #disconnect(Channel, RipcDisconnectReason, String)}, logging the stack of an unexpected error.
     *
     * @param channel the connection.
     * @param reason  why it ends.
     * @param detail  detail for the log line.
     * @param cause   the unexpected exception, or null.
     * @return true when this call recorded the reason.
     */
    public boolean disconnect(
        final Channel channel, final RipcDisconnectReason reason, final String detail, final Throwable cause)
    {
        final boolean recorded = record(channel, reason, detail, cause);
        channel.close();
        return recorded;
    }

    /**
     * Record, count and log a reason without closing (used when the channel is already closing).
     *
     * @param channel the connection.
     * @param reason  why it ended.
     * @param detail  detail for the log line.
     * @return true when this call recorded the reason.
     */
    public boolean record(final Channel channel, final RipcDisconnectReason reason, final String detail)
    {
        return record(channel, reason, detail, null);
    }

    private boolean record(
        final Channel channel, final RipcDisconnectReason reason, final String detail, final Throwable cause)
    {
        if (null != channel.attr(REASON).setIfAbsent(reason))
        {
            return false;
        }
        counters.disconnects(reason).increment();
        if (!isLogged(reason, channel, detail))
        {
            return true;
        }
        if (null != cause)
        {
            LOG.warn("{}: disconnect remote={} local={} reason={} {}", component, channel.remoteAddress(),
                channel.localAddress(), reason.label(), detail, cause);
        }
        else if (reason.isFault())
        {
            LOG.warn("{}: disconnect remote={} local={} reason={} {}", component, channel.remoteAddress(),
                channel.localAddress(), reason.label(), detail);
        }
        else
        {
            LOG.info("{}: disconnect remote={} local={} reason={} {}", component, channel.remoteAddress(),
                channel.localAddress(), reason.label(), detail);
        }
        return true;
    }

    /**
     * @return true if this disconnect gets a line of its own; false when it is only counted for the summary.
     */
    private synchronized boolean isLogged(final RipcDisconnectReason reason, final Channel channel, final String detail)
    {
        final int code = reason.code();
        final long nowNs = System.nanoTime();
        if (nowNs - intervalStartNs[code] >= SUMMARY_INTERVAL_NS || 0 == linesLogged[code])
        {
            summarise(reason);
            intervalStartNs[code] = nowNs;
            linesLogged[code] = 0;
        }
        if (linesLogged[code] < LINES_PER_INTERVAL)
        {
            linesLogged[code]++;
            return true;
        }
        suppressed[code]++;
        lastSuppressed[code] = "remote=" + channel.remoteAddress() + " " + detail;
        return false;
    }

    private void summarise(final RipcDisconnectReason reason)
    {
        final int code = reason.code();
        if (0 != suppressed[code])
        {
            final String format = "{}: {} more disconnects reason={} within 10 s of the last logged one (counted " +
                "in ripc-disconnects); the last: {}";
            if (reason.isFault())
            {
                LOG.warn(format, component, suppressed[code], reason.label(), lastSuppressed[code]);
            }
            else
            {
                LOG.info(format, component, suppressed[code], reason.label(), lastSuppressed[code]);
            }
            suppressed[code] = 0;
            lastSuppressed[code] = null;
        }
    }

    /**
     * Log the summaries still pending (the listener is closing).
     */
    public synchronized void flushSummaries()
    {
        for (int code = 0; code < suppressed.length; code++)
        {
            summarise(RipcDisconnectReason.fromCode(code));
        }
    }

    /**
     * @param channel a connection.
     * @return the reason it ended, or null while it is open and no reason was recorded.
     */
    public static RipcDisconnectReason reason(final Channel channel)
    {
        return channel.attr(REASON).get();
    }
}
