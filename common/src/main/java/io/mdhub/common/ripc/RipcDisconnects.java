package io.mdhub.common.ripc;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.log.LogSummary;

/**
 * The single place where a RIPC connection is ended for a reason: the first reason recorded on a channel wins, is
 * counted once, logged (remote address, reason, detail) and the channel is closed. Later calls for the same channel
 * (e.g. the close event that follows) do nothing. So that a flood of connections cannot flood the log, the lines of
 * each reason go through a {@link LogSummary} (a few a 10 s interval, then one summary line; flushed when the
 * listener closes, {@link #flushSummaries()}); every disconnect is counted either way.
 */
public final class RipcDisconnects
{
    /**
     * Channel attribute holding the reason the connection ended, set once.
     */
    public static final AttributeKey<RipcDisconnectReason> REASON = AttributeKey.valueOf("mdhub.ripc.disconnect");

    private static final Logger LOG = LoggerFactory.getLogger(RipcDisconnects.class);

    private final String component;
    private final RipcCounters counters;
    private final LogSummary summary;

    /**
     * @param component component name for the log line.
     * @param counters  where disconnects are counted.
     */
    public RipcDisconnects(final String component, final RipcCounters counters)
    {
        this.component = component;
        this.counters = counters;
        this.summary = new LogSummary(LOG, component, "disconnects", RipcDisconnectReason.count());
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
        if (!summary.admit(reason.code(), reason.label(), reason.isFault(),
            "remote=" + channel.remoteAddress() + " " + detail))
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
     * Log the summaries still pending (the listener is closing).
     */
    public void flushSummaries()
    {
        summary.flush();
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
