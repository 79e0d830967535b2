package io.mdhub.distributor;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.rwf.RwfMsgFlags;

/**
 * The items of sink-driven services (interactive providers mounted by routes): they exist only while some p2p-server
 * item source wants them. A backbone request for a new item opens a stream to the provider and waits for its refresh;
 * a request for an open item is answered from the cache when the service caches, otherwise by a fresh refresh the
 * provider sends for a reissue (the published latency configuration). When the last watcher closes, or its p2p-server
 * is gone, the stream closes upstream and the item leaves the cache. When a mounted connection is lost its items turn
 * Open/Suspect and move to another connection of the service (hot standby or load balancing), or wait until one is
 * back; the provider's new refreshes then recover them with no action from consumers.
 * <p>
 * Consumers' posts to these services are forwarded to the providers by {@link RoutePosts}.
 * <p>
 * Everything here runs on the distributor's event loop. Requests made on behalf of the backbone are written to the
 * connections at once and flushed by {@link #flush()} at the end of the backbone duty cycle, one flush per connection.
 */
public final class SinkDrivenItems
{
    /** The item is open, cached and complete: answer the request from the cache ({@link #answerItem()}). */
    public static final int ANSWER_FROM_CACHE = 0;
    /** The request waits for the provider's refresh. */
    public static final int FORWARDED = 1;
    /** The name is known under another domain. */
    public static final int REFUSED_NOT_FOUND = 2;
    /** The service's item limit is reached. */
    public static final int REFUSED_FULL = 3;
    /** No mounted connection of the service is up. */
    public static final int REFUSED_NO_PROVIDER = 4;
    /** {@link #post} result: the post is on its way to the provider, whose ACK or NAK comes back later. */
    public static final int POST_FORWARDED = 0;

    private static final Logger LOG = LoggerFactory.getLogger(SinkDrivenItems.class);

    private final boolean isLoadBalancing;
    private final boolean isCaching;
    private final List<CachedItem> orphans = new ArrayList<>();
    private final List<RouteSession> dirty = new ArrayList<>();
    private final LongArrayList scratchWatchers = new LongArrayList();
    private final RoutePosts posts;
    private DistributorCore core;
    private CachedItem answerItem;
    private AtomicCounter opened;
    private AtomicCounter closed;
    private AtomicCounter reissued;

    /**
     * @param isLoadBalancing spread new items over the mounted connections of a service (else hot standby: the first
     *                        connection up takes them all, the others wait).
     * @param isCaching       keep images of sink-driven items and answer new requests for open items from them.
     */
    SinkDrivenItems(final boolean isLoadBalancing, final boolean isCaching)
    {
        this(isLoadBalancing, isCaching, DistributorConfiguration.ROUTE_POST_TIMEOUT_DEFAULT_NS);
    }

    /**
     * @param isLoadBalancing spread new items over the mounted connections of a service (else hot standby).
     * @param isCaching       keep images of sink-driven items.
     * @param postTimeoutNs   how long a post forwarded to a provider waits for its answer before it is refused
     *                        NO_RESPONSE.
     */
    SinkDrivenItems(final boolean isLoadBalancing, final boolean isCaching, final long postTimeoutNs)
    {
        this.isLoadBalancing = isLoadBalancing;
        this.isCaching = isCaching;
        this.posts = new RoutePosts(isLoadBalancing, postTimeoutNs, RoutePosts.MAX_OUTSTANDING_DEFAULT);
    }

    void attach(final DistributorCore core)
    {
        this.core = core;
        posts.attach(core);
        this.opened = core.counters.sinkItemsOpened();
        this.closed = core.counters.sinkItemsClosed();
        this.reissued = core.counters.sinkReissues();
    }

    /**
     * @return true when sink-driven services keep images.
     */
    boolean isCaching()
    {
        return isCaching;
    }

    /**
     * @param consumerId  the p2p-server.
     * @param sourceIndex its item source (fan-out worker).
     * @return the key of one interest holder.
     */
    public static long watcher(final int consumerId, final int sourceIndex)
    {
        return ((long)consumerId << 8) | (sourceIndex & 0xFF);
    }

    /**
     * A backbone ItemRequest for a sink-driven service.
     *
     * @return {@link #ANSWER_FROM_CACHE}, {@link #FORWARDED} or a refusal code.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public int request(
        final long watcher,
        final long requestId,
        final DistributedService service,
        final int domainType,
        final boolean isStreaming,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final FieldView view)
    {
        final ItemCache cache = service.cache();
        final int handle = cache.handle(domainType, name, nameOffset, nameLength);
        if (ItemCache.NO_HANDLE != handle)
        {
            final CachedItem item = cache.item(handle);
            if (null == item.interest)
            {
                return REFUSED_NOT_FOUND;
            }
            if (isStreaming)
            {
                item.interest.watchers.add(watcher);
                item.interest.view(watcher, view);
            }
            if (widensView(item, isStreaming ? item.interest.wanted() : FieldView.union(item.interest.wanted(), view)))
            {
                item.interest.waitingRequests.addLong(requestId); // the reissue's refresh carries the new fields
                return FORWARDED;
            }
            if (service.isCaching() && item.hasOwner() && item.isRefreshComplete() && item.isImaged() &&
                item.interest.waitingRequests.isEmpty())
            {
                answerItem = item;
                return ANSWER_FROM_CACHE;
            }
            item.interest.waitingRequests.addLong(requestId);
            if (item.hasOwner() && item.isRefreshComplete() && !item.interest.isRefreshAsked)
            {
                reissue(item);
            }
            return FORWARDED; // the refresh on its way (or the one a reconnect brings) answers it
        }
        if (cache.isFull())
        {
            return REFUSED_FULL;
        }
        final ProviderLink link = service.pickLink(isLoadBalancing);
        if (null == link)
        {
            return REFUSED_NO_PROVIDER;
        }
        final CachedItem item = cache.add(core.directory.nextItemHandle(), service, name, nameOffset, nameLength,
            domainType);
        service.itemAdded();
        item.interest = new SinkInterest();
        if (isStreaming)
        {
            item.interest.watchers.add(watcher);
            item.interest.view(watcher, view);
        }
        item.interest.upstreamView = view;
        item.interest.waitingRequests.addLong(requestId);
        open((RouteSession)link, item);
        return FORWARDED;
    }

    /**
     * The provider was asked for a view that lacks fields some watcher now wants: ask it again, now, for the union
     * of the watchers' views (or every field), as an ADS widens its request upstream. A narrower union is not asked
     * for (the wider stream serves every view).
     *
     * @return true if a reissue went out (its refresh answers the waiting requests).
     */
    private boolean widensView(final CachedItem item, final FieldView wanted)
    {
        final FieldView asked = item.interest.upstreamView;
        if (null == asked || asked.covers(wanted))
        {
            return false;
        }
        item.interest.upstreamView = wanted;
        if (item.hasOwner())
        {
            final RouteSession link = (RouteSession)item.owner;
            if (link.reissue(item))
            {
                item.interest.isRefreshAsked = true;
                reissued.increment();
                markDirty(link);
            }
        }
        return true; // an item without a connection now is opened with the new view when one is up
    }

    /**
     * A consumer's post, from the backbone, to an item of a mounted provider's service: forwarded on the route stream
     * that has the item open, else off-stream on a route up for the service ({@link RoutePosts}). The provider's
     * ACK or NAK, or the lack of one, ends in {@link DistributorListener#onPostAck} later.
     *
     * @return {@link #POST_FORWARDED}, or an RWF NakCode with {@link #postRefusal()} saying why.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public int post(
        final long watcher,
        final long postRequestId,
        final DistributedService service,
        final int domainType,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        final int result = posts.post(watcher, postRequestId, service, domainType, buffer, nameOffset, nameLength,
            rwfOffset, rwfLength);
        if (POST_FORWARDED == result)
        {
            markDirty(posts.forwardedOn());
        }
        return result;
    }

    /**
     * @return why the last {@link #post} was refused.
     */
    public String postRefusal()
    {
        return posts.refusal();
    }

    /**
     * A provider's AckMsg, decoded in {@link DistributorCore#reader}.
     */
    void onPostAck(final RouteSession link)
    {
        posts.onAck(link);
    }

    /**
     * A mounted connection was lost: the posts it had not answered are refused.
     */
    void routeLost(final RouteSession link)
    {
        posts.onRouteLost(link);
    }

    /**
     * @return forwarded posts waiting for their provider's answer.
     */
    int postsOutstanding()
    {
        return posts.outstanding();
    }

    /**
     * A backbone request for a private stream: always a stream of its own to a mounted provider of the service,
     * requested with the private-stream flag and found by handle only.
     *
     * @return {@link #FORWARDED} or a refusal code ({@link #REFUSED_FULL}, {@link #REFUSED_NO_PROVIDER}).
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public int requestPrivate(
        final long watcher,
        final long requestId,
        final DistributedService service,
        final int domainType,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final FieldView view)
    {
        final ItemCache cache = service.cache();
        if (cache.isFull())
        {
            return REFUSED_FULL;
        }
        final ProviderLink link = service.pickLink(isLoadBalancing);
        if (null == link)
        {
            return REFUSED_NO_PROVIDER;
        }
        final CachedItem item = cache.addUnnamed(core.directory.nextItemHandle(), service, name, nameOffset,
            nameLength, domainType);
        service.itemAdded();
        item.interest = new SinkInterest();
        item.interest.isPrivate = true;
        item.interest.watchers.add(watcher);
        item.interest.view(watcher, view);
        item.interest.upstreamView = view;
        item.interest.waitingRequests.addLong(requestId);
        open((RouteSession)link, item);
        return FORWARDED;
    }

    /**
     * @return true if the handle is a private stream's (a reissue asks its provider, never the cache).
     */
    public boolean isPrivate(final DistributedService service, final int itemHandle)
    {
        final CachedItem item = service.cache().item(itemHandle);
        return null != item && null != item.interest && item.interest.isPrivate;
    }

    /**
     * A consumer's GenericMsg for an item: onto the item's stream to the provider that publishes it (a mounted
     * provider's connection is flushed with the backbone cycle's other writes, a pushing provider's at once).
     *
     * @return true if written.
     */
    public boolean generic(final CachedItem item, final DirectBuffer buffer, final int offset, final int length)
    {
        if (!item.hasOwner() || !item.owner.writeGeneric(item, buffer, offset, length))
        {
            return false;
        }
        if (item.owner instanceof RouteSession)
        {
            markDirty((RouteSession)item.owner);
        }
        else
        {
            item.owner.flushIfNeeded();
        }
        return true;
    }

    /**
     * @return the item of the last {@link #ANSWER_FROM_CACHE}.
     */
    public CachedItem answerItem()
    {
        return answerItem;
    }

    /**
     * A backbone ItemClose: the watcher drops the item; the last one closes it upstream.
     */
    public void close(final long watcher, final DistributedService service, final int itemHandle)
    {
        final CachedItem item = service.cache().item(itemHandle);
        if (null != item && null != item.interest && item.interest.watchers.remove(watcher))
        {
            item.interest.views.remove(watcher);
            closeIfUnwanted(item);
        }
    }

    /**
     * A p2p-server expired or restarted: its interest is gone.
     */
    public void consumerGone(final int consumerId)
    {
        final List<DistributedService> services = core.directory.services();
        final List<CachedItem> unwanted = new ArrayList<>();
        for (int i = 0; i < services.size(); i++)
        {
            final DistributedService service = services.get(i);
            if (!service.isSinkDriven())
            {
                continue;
            }
            service.cache().forEach((item) ->
            {
                if (null != item.interest && removeConsumer(item.interest, consumerId) && item.interest.isEmpty())
                {
                    unwanted.add(item);
                }
            });
        }
        unwanted.forEach(this::closeIfUnwanted);
        if (!unwanted.isEmpty())
        {
            LOG.info("{}: p2p-server {} gone: {} sink-driven items closed upstream", core.component, consumerId,
                unwanted.size());
        }
    }

    private boolean removeConsumer(final SinkInterest interest, final int consumerId)
    {
        scratchWatchers.clear();
        final org.agrona.collections.LongHashSet.LongIterator it = interest.watchers.iterator();
        while (it.hasNext())
        {
            final long watcher = it.nextValue();
            if ((watcher >> 8) == consumerId)
            {
                scratchWatchers.addLong(watcher);
            }
        }
        for (int i = 0; i < scratchWatchers.size(); i++)
        {
            interest.watchers.remove(scratchWatchers.getLong(i));
            interest.views.remove(scratchWatchers.getLong(i));
        }
        return !scratchWatchers.isEmpty();
    }

    /**
     * A RecoveryRequest for one item of a service that does not cache, or one step of a whole-service recovery:
     * ask the provider for a fresh refresh (it is broadcast to every watcher when it comes).
     *
     * @return true when asked (or already asked).
     */
    public boolean recover(final DistributedService service, final int itemHandle)
    {
        final CachedItem item = service.cache().item(itemHandle);
        return null != item && recover(item);
    }

    /**
     * {@link #recover(DistributedService, int)} for an item already found.
     *
     * @return true when asked (or already asked).
     */
    public boolean recover(final CachedItem item)
    {
        if (null == item.interest || !item.hasOwner())
        {
            return false;
        }
        if (!item.interest.isRefreshAsked)
        {
            reissue(item);
        }
        return true;
    }

    /**
     * The provider's refresh (or one part of it) for a sink-driven item. With requests waiting it answers each of them
     * with the provider's own message; without, or when the item has moved to another connection since its watchers'
     * image came ({@link SinkInterest#isMoved}: the new stream's updates follow on from this refresh), it is also
     * broadcast as it is. Once complete, the refresh asked for has come (the next request asks for a new one; without
     * this a request after a recovery would wait for a refresh already gone by, for ever), the watchers hold this
     * connection's image, and an item nobody watches any more (snapshots only) is closed.
     */
    void onRefresh(
        final CachedItem item,
        final int refreshFlags,
        final long connectionId,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        final SinkInterest interest = item.interest;
        final DistributedService service = item.service();
        final LongArrayList waiting = interest.waitingRequests;
        if (waiting.isEmpty() || interest.isMoved)
        {
            core.listener.onItemRefresh(service.id(), item.handle(), item.domainType(), refreshFlags, connectionId,
                item.nameBuffer(), rwf, rwfOffset, rwfLength);
        }
        for (int i = 0; i < waiting.size(); i++)
        {
            core.listener.onItemAnswer(service.id(), item.handle(), item.domainType(), refreshFlags,
                waiting.getLong(i), connectionId, item.nameBuffer(), rwf, rwfOffset, rwfLength);
        }
        if (0 != (refreshFlags & RwfMsgFlags.Refresh.REFRESH_COMPLETE))
        {
            waiting.clear();
            interest.isRefreshAsked = false;
            interest.isMoved = false;
            closeIfUnwanted(item);
        }
    }

    /**
     * The provider closed an item with requests waiting: refuse each of them with its status.
     */
    void onClosed(
        final CachedItem item,
        final int streamState,
        final int dataState,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        // the provider's own refusal is final: on the backbone a ClosedRecover/NotFound means "not published yet"
        // (a non-interactive item p2p-servers wait for), so it travels as Closed; the consumers get its own status
        final int backboneState = StreamStates.CLOSED_RECOVER == streamState &&
            StateCodes.NOT_FOUND == item.stateCode() ? StreamStates.CLOSED : streamState;
        final LongArrayList waiting = item.interest.waitingRequests;
        for (int i = 0; i < waiting.size(); i++)
        {
            core.listener.onRequestRefused(item.service().id(), waiting.getLong(i), item.domainType(), backboneState,
                dataState, rwf, rwfOffset, rwfLength);
        }
        waiting.clear();
        item.interest.watchers.clear();
    }

    /**
     * A mounted connection was lost with this item on it (already marked stale): move it when another is up.
     */
    void orphaned(final CachedItem item)
    {
        item.interest.isRefreshAsked = false;
        item.interest.isMoved = true;
        orphans.add(item);
    }

    /**
     * Open the orphaned items that are still wanted on a connection of their service that is up (a standby, a
     * balancing peer, or the same provider back). Called when a connection is lost and when a mounted connection
     * announces a service.
     */
    void rehome()
    {
        int moved = 0;
        for (int i = orphans.size() - 1; i >= 0; i--)
        {
            final CachedItem item = orphans.get(i);
            final DistributedService service = item.service();
            if (service.cache().item(item.handle()) != item || item.interest.isEmpty())
            {
                orphans.remove(i);
                if (service.cache().item(item.handle()) == item)
                {
                    remove(item);
                }
                continue;
            }
            if (item.hasOwner())
            {
                orphans.remove(i);
                continue;
            }
            if (item.interest.isPrivate)
            {
                orphans.remove(i);
                closePrivate(item, "private stream lost with its provider connection: open it again");
                continue;
            }
            final ProviderLink link = service.pickLink(isLoadBalancing);
            if (null != link)
            {
                orphans.remove(i);
                open((RouteSession)link, item);
                moved++;
            }
        }
        if (moved > 0)
        {
            LOG.info("{}: {} sink-driven items requested again on the routes up ({} still wait)", core.component,
                moved, orphans.size());
            flush();
        }
    }

    /**
     * Flush what was written to mounted connections outside their own read bursts.
     */
    public void flush()
    {
        for (int i = 0; i < dirty.size(); i++)
        {
            dirty.get(i).flushIfNeeded();
        }
        dirty.clear();
    }

    /**
     * @return sink-driven items waiting for a mounted connection to come up.
     */
    int orphanCount()
    {
        return orphans.size();
    }

    private void open(final RouteSession link, final CachedItem item)
    {
        if (link.open(item))
        {
            opened.increment();
            markDirty(link);
        }
        else
        {
            orphans.add(item); // the connection is failing: the next one up takes it
        }
    }

    private void reissue(final CachedItem item)
    {
        final RouteSession link = (RouteSession)item.owner;
        if (link.reissue(item))
        {
            item.interest.isRefreshAsked = true;
            reissued.increment();
            markDirty(link);
        }
    }

    private void closeIfUnwanted(final CachedItem item)
    {
        if (!item.interest.isEmpty() || item.service().cache().item(item.handle()) != item)
        {
            return;
        }
        if (item.owner instanceof RouteSession)
        {
            final RouteSession link = (RouteSession)item.owner;
            link.close(item);
            markDirty(link);
        }
        remove(item);
    }

    /**
     * A private stream cannot move to another connection (its provider state is that connection's): it closes
     * ClosedRecover, for its consumer to open it again.
     */
    private void closePrivate(final CachedItem item, final String text)
    {
        final int capacity = 256 + text.length();
        final int result = core.statusEncoder.encode(core.writer.begin(core.scratch, 0, capacity), item.domainType(),
            0, StreamStates.CLOSED_RECOVER, DataStates.SUSPECT, StateCodes.NONE, text);
        if (CodecReturnCodes.SUCCESS == result)
        {
            core.listener.onItemStatus(item.service().id(), item.handle(), StreamStates.CLOSED_RECOVER,
                DataStates.SUSPECT, StateCodes.NONE, core.scratch, 0, core.writer.encodedLength());
        }
        item.interest.watchers.clear();
        item.interest.waitingRequests.clear();
        remove(item);
        core.listener.onItemDropped(item.service().id(), item.handle(), item.domainType());
    }

    private void remove(final CachedItem item)
    {
        final DistributedService service = item.service();
        service.cache().remove(item);
        service.itemRemoved();
        closed.increment();
    }

    private void markDirty(final RouteSession link)
    {
        if (!dirty.contains(link))
        {
            dirty.add(link);
        }
    }

    /**
     * @param streamState a stream state.
     * @return true when it ends the stream.
     */
    static boolean isClosed(final int streamState)
    {
        return StreamStates.CLOSED == streamState || StreamStates.CLOSED_RECOVER == streamState ||
            StreamStates.REDIRECTED == streamState || StreamStates.NON_STREAMING == streamState;
    }
}
