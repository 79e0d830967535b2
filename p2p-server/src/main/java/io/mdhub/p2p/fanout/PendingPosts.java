package io.mdhub.p2p.fanout;

import java.util.ArrayList;

import org.agrona.collections.Long2ObjectHashMap;

/**
 * The posts of one worker's consumers that asked for an ACK and wait for their outcome from upstream, by the id the
 * worker gave them. Bounded: a worker keeps at most {@link #MAX_PENDING} (beyond, a post is refused at once), so a
 * consumer that posts faster than its provider answers cannot grow the worker's memory. Worker thread only.
 */
final class PendingPosts
{
    /** Most posts one worker keeps waiting for their outcome. */
    static final int MAX_PENDING = 16_384;

    private final Long2ObjectHashMap<Post> byId = new Long2ObjectHashMap<>();
    private final ArrayList<Post> expired = new ArrayList<>();
    private long nextId;

    /**
     * @return an id for a post that asks for no ACK (nothing is kept for it).
     */
    long nextId()
    {
        return ++nextId & 0xFFFF_FFFFL;
    }

    /**
     * @return the new post's id, or -1 when {@link #MAX_PENDING} posts already wait.
     */
    long add(
        final ConsumerSession session,
        final int streamId,
        final int domainType,
        final long postId,
        final boolean hasSeqNum,
        final long seqNum,
        final long deadlineNs)
    {
        if (byId.size() >= MAX_PENDING)
        {
            return -1;
        }
        final long id = nextId();
        byId.put(id, new Post(id, session, streamId, domainType, postId, hasSeqNum, seqNum, deadlineNs));
        return id;
    }

    Post remove(final long id)
    {
        return byId.remove(id);
    }

    int size()
    {
        return byId.size();
    }

    /**
     * @return the posts whose deadline has passed, removed (the list is reused: read it before the next call).
     */
    ArrayList<Post> expire(final long nowNs)
    {
        expired.clear();
        if (!byId.isEmpty())
        {
            for (final Post post : byId.values())
            {
                if (nowNs - post.deadlineNs >= 0)
                {
                    expired.add(post);
                }
            }
            for (int i = 0, size = expired.size(); i < size; i++)
            {
                byId.remove(expired.get(i).id);
            }
        }
        return expired;
    }

    /**
     * Forget the posts of a closed connection: nobody is left to tell.
     */
    void forget(final ConsumerSession session)
    {
        if (!byId.isEmpty())
        {
            byId.values().removeIf((post) -> post.session == session);
        }
    }

    /**
     * One post waiting for its outcome: where its ACK goes and what it echoes.
     */
    static final class Post
    {
        final long id;
        final ConsumerSession session;
        final int streamId;
        final int domainType;
        final long postId;
        final boolean hasSeqNum;
        final long seqNum;
        final long deadlineNs;

        Post(
            final long id,
            final ConsumerSession session,
            final int streamId,
            final int domainType,
            final long postId,
            final boolean hasSeqNum,
            final long seqNum,
            final long deadlineNs)
        {
            this.id = id;
            this.session = session;
            this.streamId = streamId;
            this.domainType = domainType;
            this.postId = postId;
            this.hasSeqNum = hasSeqNum;
            this.seqNum = seqNum;
            this.deadlineNs = deadlineNs;
        }
    }
}
