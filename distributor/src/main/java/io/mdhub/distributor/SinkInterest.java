package io.mdhub.distributor;

import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;

import io.mdhub.common.rwf.FieldView;

/**
 * Who wants a sink-driven item: the p2p-server item sources watching it (by {@link SinkDrivenItems#watcher}), and
 * the backbone requests waiting for the provider's next refresh (their requestIds, oldest first). The item stays open
 * upstream while either is not empty. Owned by the distributor's event loop.
 */
final class SinkInterest
{
    final LongHashSet watchers = new LongHashSet();
    final LongArrayList waitingRequests = new LongArrayList();
    /** A request on the open stream (a reissue) asked the provider for a refresh that has not come yet. */
    boolean isRefreshAsked;
    /**
     * The item moved to another connection (its own was lost): its watchers hold the lost connection's image, and
     * the new connection's updates follow on from its own first refresh, so that refresh goes to every watcher, not
     * only as the answers to the requests waiting for it.
     */
    boolean isMoved;
    /**
     * A private stream: one watcher's own stream to the provider, found by handle only (never by name, so never
     * shared), asked again by a reissue, and closed ClosedRecover when its connection is lost.
     */
    boolean isPrivate;
    /** The views of the watchers that have one; a watcher not here wants every field. */
    final Long2ObjectHashMap<FieldView> views = new Long2ObjectHashMap<>();
    /** The view the provider was last asked for: null = every field (no view). */
    FieldView upstreamView;

    /**
     * @return the fields the watchers want together: null (every field) when one of them has no view.
     */
    FieldView wanted()
    {
        if (watchers.size() > views.size() || views.isEmpty())
        {
            return null;
        }
        FieldView union = null;
        for (final FieldView view : views.values())
        {
            union = null == union ? view : union.union(view);
        }
        return union;
    }

    /**
     * @param watcher a watcher.
     * @param view    its view, null for every field.
     */
    void view(final long watcher, final FieldView view)
    {
        if (null == view)
        {
            views.remove(watcher);
        }
        else
        {
            views.put(watcher, view);
        }
    }

    boolean isEmpty()
    {
        return watchers.isEmpty() && waitingRequests.isEmpty();
    }
}
