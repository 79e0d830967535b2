package io.mdhub.p2p.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.rdm.DomainTypes;
import io.mdhub.common.entitlement.UserRights;
import io.mdhub.common.log.LogSummary;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.DisconnectReason;
import io.mdhub.p2p.FlushProfile;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.RejectReason;
import io.mdhub.p2p.SlowConsumerPolicy;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ItemSourceFactory;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;
import io.mdhub.p2p.source.ServiceNames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoop;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fan-out worker: an event loop that owns a share of the consumer connections, their watchlists, its item table
 * and its OWN {@link ItemSource}. Everything here is touched by the worker's event-loop thread only (single writer,
 * no locks): Netty calls the {@link ConsumerSession}s on it, and the item source calls this listener on it.
 * <p>
 * Item lifecycle: the first request for (domain, service, name) opens the item on the source; later requests for it
 * ask the source for a fresh image ({@link ItemSource#refresh}), which it may answer from a cache. A refresh goes to
 * the watchers waiting for one (solicited) or to all (unsolicited recovery); updates and statuses go to every
 * watcher that has had its refresh, each as a copy with the watcher's streamId written over bytes 4..7. A Closed
 * status ends the item for all its watchers; closing the last watcher closes the item on the source.
 * <p>
 * Views: a request with a field-id view gets refreshes and updates carrying only its fields (an update with none of
 * them is not sent); watchers of one item share its upstream stream whatever their views, and each update is filtered
 * once per distinct view, not per watcher ({@link ViewedMessages}). A reissue with a view changes it, one without
 * removes it (every field again).
 * <p>
 * Writes are flushed per the {@link FlushProfile}: after every source event (latency) or on a timer (throughput).
 * A consumer whose pending output passes the limit, or that stays unwritable too long, is disconnected; the loop
 * never waits for one.
 * <p>
 * This class is the duty cycle: connections, flushes, housekeeping, the routing of each consumer message to the part
 * that owns its domain, and changes of the entitlements. The parts share its thread: {@link AdminRequests} (login,
 * directory, dictionary), {@link ConsumerRequests} (item streams, posts, logoff), {@link ItemFanOut} (the source's
 * events to the watchers, conflation), {@link ItemTable} (items by key and id), {@link WorkerCounts} (counts
 * published before each flush) and {@link StreamReplies} (rejects and ignores).
 */
public final class FanOutWorker implements ItemSourceListener, ServiceNames
{
    private static final Logger LOG = LoggerFactory.getLogger(FanOutWorker.class);
    private static final long CLOSE_TIMEOUT_MS = 5_000;
    private static final long MAX_HOUSEKEEPING_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Output of a dropped consumer above which the worker's allocator cache is trimmed. */
    private static final long TRIM_CACHE_AFTER_BYTES = 1024 * 1024;

    private final int index;
    private final EventLoop eventLoop;
    private final WorkerSettings settings;
    private final P2pCounters counters;
    private final ItemSource source;
    private final AdminRequests admin;
    private final DataDictionary dictionary;
    private final ItemMessages messages = new ItemMessages();
    private final EntitlementChecks entitlements;
    private final ArrayList<ItemWatch> withdrawn = new ArrayList<>();
    private final LogSummary disconnectLog;
    private final ArrayList<ConsumerSession> sessions = new ArrayList<>();
    /** Sessions with unflushed writes that flush at the end of each source burst (latency listeners). */
    private final ArrayList<ConsumerSession> dirtyLatency = new ArrayList<>();
    /** Sessions with unflushed writes that wait for the flush timer (throughput listeners). */
    private final ArrayList<ConsumerSession> dirtyTimed = new ArrayList<>();
    private final DirectoryView directory;
    private final WorkerCounts counts;
    private final ItemTable items;
    private final ConsumerRequests requests;
    private final StreamReplies replies;
    private final ConsumerPosts posts;
    private final ItemFanOut fanOut;
    private final boolean isConflating;
    private boolean isInSourceBatch;
    private ScheduledFuture<?> flushTimer;
    private ScheduledFuture<?> housekeepingTimer;
    private long housekeepingPeriodNs;

    /**
     * @param index         worker index.
     * @param eventLoop     the event loop this worker runs on.
     * @param settings      shared settings.
     * @param sourceFactory makes this worker's item source.
     */
    public FanOutWorker(
        final int index,
        final EventLoop eventLoop,
        final WorkerSettings settings,
        final ItemSourceFactory sourceFactory)
    {
        this.index = index;
        this.eventLoop = eventLoop;
        this.settings = settings;
        this.counters = settings.counters();
        this.isConflating = SlowConsumerPolicy.CONFLATE == settings.slowConsumerPolicy();
        this.directory = new DirectoryView(settings.componentName());
        this.counts = new WorkerCounts(counters, directory);
        this.dictionary = settings.fieldDictionary().get();
        final AdminResponder responder = new AdminResponder(settings.componentName(), dictionary);
        this.source = sourceFactory.newItemSource(index, eventLoop, this);
        this.items = new ItemTable(source, counters, counts, settings.maxItems());
        this.replies = new StreamReplies(counters, messages, counts);
        this.entitlements = new EntitlementChecks(
            settings.entitlements(), settings.componentName() + " worker " + index);
        this.requests = new ConsumerRequests(
            settings, source, items, counts, entitlements, directory, replies, responder, messages);
        this.posts = requests.posts();
        this.admin = new AdminRequests(settings, responder, directory, source, entitlements, replies, requests,
            sessions);
        this.fanOut = new ItemFanOut(settings, source, items, counts, entitlements, directory, replies, messages);
        this.disconnectLog = new LogSummary(LOG, settings.componentName() + " worker " + index, "consumer disconnects",
            DisconnectReason.values().length);
    }

    /**
     * Start the timers (throughput flush, slow-consumer checks).
     */
    public void start()
    {
        eventLoop.execute(this::startTimers);
    }

    private void startTimers()
    {
        housekeepingPeriodNs = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(MAX_HOUSEKEEPING_PERIOD_NS,
            Math.min(settings.slowConsumerTimeoutNs(), settings.loginTimeoutNs()) / 4));
        if (!sessions.isEmpty())
        {
            startHousekeeping();
        }
    }

    /**
     * The slow-consumer and login checks run while there are connections to check: a worker with none has no timer
     * of its own to wake it.
     */
    private void startHousekeeping()
    {
        if (null == housekeepingTimer && housekeepingPeriodNs > 0)
        {
            housekeepingTimer = eventLoop.scheduleAtFixedRate(
                this::housekeeping, housekeepingPeriodNs, housekeepingPeriodNs, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Stop the timers and close the item source, on the worker's thread.
     */
    public void close()
    {
        if (eventLoop.inEventLoop())
        {
            doClose();
            return;
        }
        try
        {
            // a loop in its graceful shutdown still runs tasks; only a terminated one refuses them
            if (!eventLoop.submit(this::doClose).awaitUninterruptibly(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS))
            {
                LOG.warn("worker {}: the event loop did not close the item source within {} ms", index,
                    CLOSE_TIMEOUT_MS);
            }
        }
        catch (final RejectedExecutionException ex)
        {
            // the loop is gone, so no thread owns the worker's state any more: release the source from here
            eventLoop.terminationFuture().awaitUninterruptibly(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (eventLoop.isTerminated())
            {
                doClose();
            }
        }
    }

    private void doClose()
    {
        if (null != flushTimer)
        {
            flushTimer.cancel(false);
        }
        if (null != housekeepingTimer)
        {
            housekeepingTimer.cancel(false);
        }
        source.close();
        disconnectLog.flush();
    }

    /**
     * @return what this worker's source carries and hears now (call on the worker's event loop).
     */
    public WorkerStatus status()
    {
        return new WorkerStatus(index, source.liveUpstreams(), source.services());
    }

    /**
     * @return the event loop of this worker.
     */
    public EventLoop eventLoop()
    {
        return eventLoop;
    }

    /**
     * @param connectionId server-wide id of the new connection.
     * @return the handler to put at the end of that connection's pipeline.
     */
    public ConsumerSession newSession(final long connectionId, final FlushProfile profile)
    {
        return new ConsumerSession(this, connectionId, FlushProfile.LATENCY == profile);
    }

    int maxOutputBytes()
    {
        return settings.maxOutputBytes();
    }

    // ---------------------------------------------------------------- sessions (worker thread)

    void onSessionOpened(final ConsumerSession session)
    {
        sessions.add(session);
        counters.connectionsActive().increment();
        startHousekeeping();
        if (!session.isLatencyProfile && null == flushTimer)
        {
            // the first connection of a throughput listener on this worker: timed writes from now on
            flushTimer = eventLoop.scheduleAtFixedRate(
                this::flushTimed, settings.flushIntervalNs(), settings.flushIntervalNs(), TimeUnit.NANOSECONDS);
        }
    }

    void onSessionClosed(final ConsumerSession session)
    {
        if (!sessions.remove(session))
        {
            return;
        }
        counters.connectionsActive().decrement();
        posts.forget(session);
        requests.logOff(session, "connection closed");
        session.conflated.clear();
        if (session.outputBytesAtClose() >= TRIM_CACHE_AFTER_BYTES)
        {
            trimAllocatorCache(session);
        }
        if (sessions.isEmpty() && null != housekeepingTimer)
        {
            housekeepingTimer.cancel(false);
            housekeepingTimer = null;
        }
    }

    /**
     * The output of a dropped consumer has gone back to the pool by now (Netty releases a closed channel's outbound
     * buffer before it fires channelInactive), but the worker thread's cache keeps up to a few hundred buffers of each
     * size for reuse, and a pool chunk that still holds one is never freed. Trimming the cache after a large drop lets
     * the chunks the consumer's output filled go back to the operating system.
     */
    private static void trimAllocatorCache(final ConsumerSession session)
    {
        if (session.alloc() instanceof PooledByteBufAllocator)
        {
            ((PooledByteBufAllocator)session.alloc()).trimCurrentThreadCache();
        }
    }

    /**
     * Conflate policy: a consumer that was behind is writable again; see {@link ItemFanOut#onCaughtUp}.
     */
    void onCaughtUp(final ConsumerSession session)
    {
        if (fanOut.onCaughtUp(session) && session.isLatencyProfile)
        {
            flushLatency();
        }
    }

    void markDirty(final ConsumerSession session)
    {
        (session.isLatencyProfile ? dirtyLatency : dirtyTimed).add(session);
    }

    void messageWritten()
    {
        counts.messagesOut++;
    }

    void countDisconnect(final DisconnectReason reason)
    {
        counters.disconnects(reason).increment();
    }

    /**
     * @return true if this consumer disconnect gets a log line of its own (a flood of them is summarised).
     */
    boolean isDisconnectLogged(final DisconnectReason reason, final String detail)
    {
        return disconnectLog.admit(reason.code(), reason.label(), true, detail);
    }

    /**
     * A connection's input is consumed: what it caused goes out now for latency listeners; a throughput listener's
     * answers wait for the flush timer like everything else it is sent (RMDS timed writes).
     */
    void onReadComplete()
    {
        flushLatency();
    }

    // counters first: whoever sees a flushed message also sees it counted

    private void flushLatency()
    {
        counts.publish();
        flush(dirtyLatency);
    }

    private void flushTimed()
    {
        counts.publish();
        flush(dirtyTimed);
    }

    private static void flush(final ArrayList<ConsumerSession> dirty)
    {
        for (int i = 0, size = dirty.size(); i < size; i++)
        {
            dirty.get(i).flush();
        }
        dirty.clear();
    }

    private void afterSourceEvent()
    {
        if (!isInSourceBatch)
        {
            flushLatency();
        }
    }

    @Override
    public void onBatchStart()
    {
        isInSourceBatch = true;
    }

    @Override
    public void onBatchEnd()
    {
        isInSourceBatch = false;
        afterSourceEvent();
    }

    private void housekeeping()
    {
        final long nowNs = System.nanoTime();
        if (posts.expire(nowNs) > 0)
        {
            flushLatency();
        }
        // under conflate a consumer that is behind costs no memory, only staleness: it gets the longer timeout
        final long slowTimeoutNs = isConflating ? settings.conflateTimeoutNs() : settings.slowConsumerTimeoutNs();
        for (int i = sessions.size() - 1; i >= 0; i--)
        {
            final ConsumerSession session = sessions.get(i);
            if (session.isClosing)
            {
                continue;
            }
            if (session.isUnwritableLongerThan(nowNs, slowTimeoutNs))
            {
                session.disconnect(DisconnectReason.SLOW_CONSUMER, "unwritable for more than " +
                    TimeUnit.NANOSECONDS.toMillis(slowTimeoutNs) + " ms with " + session.pendingOutputBytes() +
                    " bytes pending" + (isConflating ? " and " + session.conflated.size() + " items conflated" : ""));
            }
            else if (session.pendingOutputBytes() > settings.maxOutputBytes())
            {
                session.disconnect(DisconnectReason.SLOW_CONSUMER, "pending output " +
                    session.pendingOutputBytes() + " bytes above the limit " + settings.maxOutputBytes());
            }
            else if (session.isStalledLongerThan(nowNs, slowTimeoutNs))
            {
                session.disconnect(DisconnectReason.SLOW_CONSUMER, session.pendingOutputBytes() +
                    " bytes of output waited without draining for more than " +
                    TimeUnit.NANOSECONDS.toMillis(slowTimeoutNs) + " ms");
            }
            else if (!session.conflated.isEmpty() && session.isWritable())
            {
                onCaughtUp(session); // the writability event normally does it; this is the safety net
            }
            else if (session.isLoginOverdue(nowNs, settings.loginTimeoutNs()))
            {
                session.disconnect(DisconnectReason.LOGIN_TIMEOUT, "no login request within " +
                    TimeUnit.NANOSECONDS.toMillis(settings.loginTimeoutNs()) + " ms of the handshake or logoff " +
                    "(mdhub.p2p.login.timeout)");
            }
        }
    }

    /**
     * @return one line per connection (called on the worker thread).
     */
    public List<String> describeSessions()
    {
        final ArrayList<String> lines = new ArrayList<>(sessions.size());
        for (final ConsumerSession session : sessions)
        {
            lines.add("worker=" + index + " " + session.describe());
        }
        return lines;
    }

    /**
     * @param connectionId the connection to close (called on the worker thread).
     * @return true if this worker had it.
     */
    public boolean drop(final long connectionId)
    {
        for (final ConsumerSession session : sessions)
        {
            if (session.connectionId == connectionId)
            {
                session.disconnect(DisconnectReason.ADMIN_DROP, "dropped by an operator");
                return true;
            }
        }
        return false;
    }

    @Override
    public int serviceId(final String name)
    {
        directory.ensureLoaded(source);
        return directory.serviceIdByName(name);
    }

    @Override
    public String serviceName(final int serviceId)
    {
        directory.ensureLoaded(source);
        final ServiceInfo info = directory.info(serviceId);
        return null == info ? null : info.name();
    }

    /**
     * @return this worker's field dictionary (its own: an ETA dictionary is used from one thread), for whatever else
     * serves its connections, such as the WebSocket API's JSON converter.
     */
    public DataDictionary dictionary()
    {
        return dictionary;
    }

    @Override
    public int defaultServiceId()
    {
        directory.ensureLoaded(source);
        return directory.lowestServiceId();
    }

    /**
     * @return number of distinct items this worker has open on its source (worker thread).
     */
    public int itemCount()
    {
        return items.size();
    }

    // ---------------------------------------------------------------- consumer messages

    void onConsumerMessage(final ConsumerSession session, final ByteBuf message)
    {
        counts.messagesIn++;
        final RwfMsgFlyweight inbound = requests.wrap(session, message);
        if (null == inbound)
        {
            return; // malformed: its stream was rejected or the connection closed
        }
        final int domainType = inbound.domainType();
        if (DomainTypes.LOGIN == domainType)
        {
            admin.onLoginMessage(session, inbound, message);
        }
        else if (!session.isLoggedIn)
        {
            if (RwfMsgDescriptor.REQUEST == inbound.msgClass())
            {
                replies.reject(session, domainType, inbound.streamId(), RejectReason.LOGIN_REQUIRED,
                    StateCodes.USAGE_ERROR, "Login required");
            }
            else
            {
                replies.ignore(session, inbound, "before the login");
            }
        }
        else if (DomainTypes.SOURCE == domainType)
        {
            admin.onDirectoryMessage(session, inbound, message);
        }
        else if (DomainTypes.DICTIONARY == domainType)
        {
            admin.onDictionaryMessage(session, inbound, message);
        }
        else
        {
            requests.onItemMessage(session, message);
        }
    }

    // ---------------------------------------------------------------- entitlements

    /**
     * The entitlements changed (worker thread): every logged-in consumer is checked again. A user no longer allowed to
     * log in gets its login closed (NotEntitled) and is disconnected; a stream whose item the user may no longer see
     * is closed with NotEntitled; a consumer watching the directory is told of the services it gained or lost.
     */
    public void onEntitlementsChanged()
    {
        final long nowMs = System.currentTimeMillis();
        for (int s = 0, size = sessions.size(); s < size; s++)
        {
            final ConsumerSession session = sessions.get(s);
            if (!session.isLoggedIn || session.isClosing)
            {
                continue;
            }
            final UserRights before = session.rights;
            final String denial = entitlements.recheckLogin(session);
            if (null != denial)
            {
                admin.withdrawLogin(session, denial);
                continue;
            }
            withdrawn.clear();
            for (final ItemWatch watch : session.watches.values())
            {
                if (!watch.isAwaitingRefresh)
                {
                    withdrawn.add(watch);
                }
            }
            for (int w = 0; w < withdrawn.size(); w++)
            {
                final ItemWatch watch = withdrawn.get(w);
                if (!fanOut.isEntitled(watch, watch.index, directory.info(watch.serviceId), nowMs) &&
                    0 == watch.item.watcherCount())
                {
                    items.freeItem(watch.item);
                }
            }
            withdrawn.clear();
            admin.tellDirectoryChanges(session, before);
        }
        afterSourceEvent();
    }

    // ---------------------------------------------------------------- posts

    @Override
    public void onPostAck(
        final long postRequestId, final int nakCode, final DirectBuffer text, final int offset, final int length)
    {
        if (posts.onPostAck(postRequestId, nakCode, text, offset, length))
        {
            afterSourceEvent();
        }
    }

    // ---------------------------------------------------------------- item source callbacks

    @Override
    public void onRefresh(
        final int itemId, final boolean solicited, final DirectBuffer buffer, final int offset, final int length)
    {
        final WatchedItem item = items.item(itemId);
        if (null != item && fanOut.onRefresh(item, solicited, buffer, offset, length))
        {
            afterSourceEvent();
        }
    }

    @Override
    public void onUpdate(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        final WatchedItem item = items.item(itemId);
        if (null != item)
        {
            fanOut.onUpdate(item, buffer, offset, length);
            afterSourceEvent();
        }
    }

    @Override
    public void onStatus(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        final WatchedItem item = items.item(itemId);
        if (null != item)
        {
            fanOut.onStatus(item, buffer, offset, length);
            afterSourceEvent();
        }
    }

    @Override
    public void onGeneric(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        final WatchedItem item = items.item(itemId);
        if (null != item)
        {
            fanOut.onGeneric(item, buffer, offset, length);
            afterSourceEvent();
        }
    }

    @Override
    public void onServiceChanged(final ServiceInfo service)
    {
        if (admin.onServiceChanged(service))
        {
            afterSourceEvent();
        }
    }

    @Override
    public void onServiceRemoved(final int serviceId)
    {
        if (admin.onServiceRemoved(serviceId))
        {
            afterSourceEvent();
        }
    }
}
