package io.mdhub.p2p.fanout;

import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.NakCodes;

import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.source.ItemSource;

/**
 * One worker's consumers' posts: a post on an open item stream (on-stream) or on the login stream with the item in
 * its msgKey (off-stream) is checked against the server's entitlements and sent to the worker's item source; one that
 * asked for an ACK waits in {@link PendingPosts} for its outcome from upstream, or for the post timeout, and its
 * poster then gets an AckMsg echoing its postId and seqNum (a NAK with a code and a reason when refused here or
 * upstream). Worker thread only.
 */
final class ConsumerPosts
{
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerPosts.class);

    private final WorkerSettings settings;
    private final PostCheck check;
    private final P2pCounters counters;
    private final ItemSource source;
    private final ItemMessages messages;
    private final PendingPosts pending = new PendingPosts();

    ConsumerPosts(
        final WorkerSettings settings, final ItemSource source, final ItemMessages messages, final PostCheck check)
    {
        this.check = check;
        this.settings = settings;
        this.counters = settings.counters();
        this.source = source;
        this.messages = messages;
    }

    /**
     * @param session the posting connection.
     * @param post    its PostMsg, wrapped.
     * @param bytes   the PostMsg's bytes (from 0).
     * @param length  their length.
     */
    void onPost(final ConsumerSession session, final RwfMsgFlyweight post, final DirectBuffer bytes, final int length)
    {
        final int streamId = post.streamId();
        final int flags = post.flags();
        final boolean wantsAck = 0 != (flags & RwfMsgFlags.Post.ACK);
        final long postId = 0 != (flags & RwfMsgFlags.Post.HAS_POST_ID) ? post.postId() : 0;
        final int domainType = post.domainType();
        final int serviceId;
        final DirectBuffer name;
        final int nameOffset;
        final int nameLength;
        final ItemWatch watch = session.watches.get(streamId);
        if (null != watch)
        {
            serviceId = watch.serviceId;
            name = watch.name;
            nameOffset = 0;
            nameLength = watch.name.capacity();
        }
        else if (streamId == session.loginStreamId && post.hasMsgKey() && post.key().hasServiceId() &&
            post.key().hasName())
        {
            serviceId = post.key().serviceId();
            name = bytes;
            nameOffset = post.key().nameOffset();
            nameLength = post.key().nameLength();
        }
        else
        {
            refuse(session, post, wantsAck, postId, NakCodes.NOT_OPEN, streamId == session.loginStreamId ?
                "an off-stream post names its item by serviceId and name in its msgKey" : "no open item stream");
            return;
        }
        final String denial = check.denial(session, domainType, serviceId, watch, name, nameOffset, nameLength);
        if (null != denial)
        {
            refuse(session, post, wantsAck, postId, NakCodes.ACCESS_DENIED, denial);
            return;
        }
        final long id = wantsAck ? pending.add(session, streamId, domainType, postId, post.hasSeqNum(),
            post.hasSeqNum() ? post.seqNum() : 0, System.nanoTime() + settings.postTimeoutNs()) : pending.nextId();
        if (id < 0)
        {
            refuse(session, post, true, postId, NakCodes.NO_RESOURCES,
                PendingPosts.MAX_PENDING + " posts already wait for their outcome");
            return;
        }
        final int result = source.post(id, null != watch ? watch.item.itemId : -1, serviceId, domainType, name,
            nameOffset, nameLength, bytes, 0, length);
        if (ItemSource.POST_SENT != result)
        {
            pending.remove(id);
            refuse(session, post, wantsAck, postId, result, NakCodes.SOURCE_DOWN == result ?
                "no upstream of the service is up" : NakCodes.SOURCE_UNKNOWN == result ? "unknown service" :
                "the post could not be sent on (" + NakCodes.toString(result) + ")");
            return;
        }
        counters.postsSent().increment();
    }

    private void refuse(
        final ConsumerSession session,
        final RwfMsgFlyweight post,
        final boolean wantsAck,
        final long postId,
        final int nakCode,
        final String why)
    {
        counters.postsRefused().increment();
        LOG.debug("connection {} stream {}: post {} refused: {}", session.connectionId, post.streamId(), postId, why);
        if (wantsAck)
        {
            session.write(messages.ack(session.alloc(), post.domainType(), post.streamId(), postId, nakCode, why,
                post.hasSeqNum(), post.hasSeqNum() ? post.seqNum() : 0));
        }
    }

    /**
     * A post's outcome from upstream.
     *
     * @return true if an AckMsg was written (the worker flushes it).
     */
    boolean onPostAck(
        final long postRequestId, final int nakCode, final DirectBuffer text, final int offset, final int length)
    {
        final PendingPosts.Post post = pending.remove(postRequestId);
        if (null == post)
        {
            return false; // asked for no ACK, timed out already, or its connection is gone
        }
        (NakCodes.NONE == nakCode ? counters.postsAcked() : counters.postsRefused()).increment();
        if (post.session.isClosing)
        {
            return false;
        }
        post.session.write(messages.ack(post.session.alloc(), post.domainType, post.streamId, post.postId, nakCode,
            length > 0 ? text.getStringWithoutLengthAscii(offset, length) : "", post.hasSeqNum, post.seqNum));
        return true;
    }

    /**
     * NAK (NoResponse) the posts whose outcome did not come within the post timeout.
     *
     * @return how many were answered (the worker flushes them).
     */
    int expire(final long nowNs)
    {
        final ArrayList<PendingPosts.Post> expired = pending.expire(nowNs);
        for (int i = 0, size = expired.size(); i < size; i++)
        {
            final PendingPosts.Post post = expired.get(i);
            counters.postsTimedOut().increment();
            if (!post.session.isClosing)
            {
                post.session.write(messages.ack(post.session.alloc(), post.domainType, post.streamId, post.postId,
                    NakCodes.NO_RESPONSE, "no answer from upstream within " +
                    TimeUnit.NANOSECONDS.toMillis(settings.postTimeoutNs()) + " ms", post.hasSeqNum, post.seqNum));
            }
        }
        return expired.size();
    }

    /**
     * Forget the posts of a closed connection.
     */
    void forget(final ConsumerSession session)
    {
        pending.forget(session);
    }

    /**
     * The entitlement check of a post.
     */
    @FunctionalInterface
    interface PostCheck
    {
        /**
         * @return null if the session's user may post to the item, else why not.
         */
        String denial(
            ConsumerSession session, int domainType, int serviceId, ItemWatch watch, DirectBuffer name, int nameOffset,
            int nameLength);
    }
}
