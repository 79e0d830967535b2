package io.mdhub.p2p.fanout;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StreamStates;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.RejectReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two answers every part of a worker gives a consumer's stream it will not serve: a reject (a Closed/Suspect
 * status with a state code and a text, counted by reason) and an ignore (nothing sent, counted, logged once per
 * connection). Worker thread only.
 */
final class StreamReplies
{
    private static final Logger LOG = LoggerFactory.getLogger(StreamReplies.class);

    private final P2pCounters counters;
    private final ItemMessages messages;
    private final WorkerCounts counts;

    StreamReplies(final P2pCounters counters, final ItemMessages messages, final WorkerCounts counts)
    {
        this.counters = counters;
        this.messages = messages;
        this.counts = counts;
    }

    /**
     * Close a stream with Closed/Suspect, counted under its reason.
     */
    void reject(
        final ConsumerSession session,
        final int domainType,
        final int streamId,
        final RejectReason reason,
        final int code,
        final String text)
    {
        counters.rejected(reason).increment();
        LOG.debug("connection {} stream {} rejected: {}: {}", session.connectionId, streamId, reason.label(), text);
        session.write(messages.status(
            session.alloc(), domainType, streamId, StreamStates.CLOSED, DataStates.SUSPECT, code, text));
        counts.statusOut++;
    }

    /**
     * A message the server does not act on: counted every time, logged the first time on a connection (a consumer
     * that posts or sends generic messages in a loop must not flood the log). Nothing is answered: the stream, if
     * any, stays as it was.
     *
     * @param message the ignored message, wrapped.
     */
    void ignore(final ConsumerSession session, final RwfMsgFlyweight message, final String why)
    {
        counters.messagesIgnored().increment();
        if (!session.hasIgnoredMessage)
        {
            session.hasIgnoredMessage = true;
            LOG.warn("connection {}: ignored message class {} domain {} stream {} {}; further ones are only counted " +
                "(p2p-messages-ignored): {}", session.connectionId, message.msgClass(), message.domainType(),
                message.streamId(), why, session.describe());
        }
    }
}
