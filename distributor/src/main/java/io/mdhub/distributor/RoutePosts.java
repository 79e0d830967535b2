package io.mdhub.distributor;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKey;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.PostMsg;
import com.refinitiv.eta.rdm.InstrumentNameTypes;

import io.mdhub.common.rwf.eta.EtaBufferView;

/**
 * Consumers' posts forwarded to mounted interactive providers, as an ADH forwards posts to its interactive providers.
 * A post goes ON-STREAM on the route stream that has its item open, else OFF-STREAM on the login stream of any route
 * up for the service, with a msgKey naming the provider's serviceId and the item. Either way the consumer's PostMsg is
 * re-encoded by ETA with a distributor-unique postId and the ACK flag (so the provider always answers); its payload,
 * seqNum, partNum, permData, postUserInfo and postUserRights pass unchanged.
 * <p>
 * Each forwarded post waits in a table (postId to poster) until the provider's AckMsg comes back; then, or after the
 * timeout (NO_RESPONSE), or when its route is lost (SOURCE_DOWN), it ends in one
 * {@link DistributorListener#onPostAck}. The table is bounded; beyond the limit posts are refused NO_RESOURCES. The
 * waiting posts are also a list in forwarding order, which is deadline order (one timeout for all), so one timer
 * task on the event loop, armed only while posts wait, is enough. Entries are pooled: steady state allocates nothing
 * but the timer task once per expiry round. Event loop only.
 */
final class RoutePosts
{
    /** Most posts waiting for provider answers at once. */
    static final int MAX_OUTSTANDING_DEFAULT = 65_536;

    private static final Logger LOG = LoggerFactory.getLogger(RoutePosts.class);
    private static final int KEY_HEADROOM = 64;
    private static final String NO_ROUTE = "no mounted connection of the service is up";
    private static final String LOST = "provider connection lost";

    private final boolean isLoadBalancing;
    private final long timeoutNs;
    private final int maxOutstanding;
    private final String timeoutText;
    private final Int2ObjectHashMap<Pending> byPostId = new Int2ObjectHashMap<>();
    private final EtaBufferView nameView = new EtaBufferView();
    private final ExpandableDirectByteBuffer copy = new ExpandableDirectByteBuffer(1024);
    private final Runnable expiry = this::expire;
    private DistributorCore core;
    private Pending oldest;
    private Pending newest;
    private Pending free;
    private ScheduledFuture<?> timer;
    private int nextPostId;
    private String refusal;
    private RouteSession forwardedOn;

    private static final class Pending
    {
        int postId;
        long watcher;
        long postRequestId;
        int serviceId;
        long consumerPostId;
        long deadlineNs;
        RouteSession link;
        Pending previous;
        Pending next;
    }

    /**
     * @param isLoadBalancing how an off-stream post picks among the routes up (as new items do).
     * @param timeoutNs       how long a forwarded post waits for the provider's answer.
     * @param maxOutstanding  most posts waiting at once.
     */
    RoutePosts(final boolean isLoadBalancing, final long timeoutNs, final int maxOutstanding)
    {
        this.isLoadBalancing = isLoadBalancing;
        this.timeoutNs = timeoutNs;
        this.maxOutstanding = maxOutstanding;
        this.timeoutText = "no answer from the provider within " + formatDuration(timeoutNs);
    }

    void attach(final DistributorCore core)
    {
        this.core = core;
    }

    /**
     * Forward a consumer's post (see {@link SinkDrivenItems#post}).
     *
     * @return {@link SinkDrivenItems#POST_FORWARDED} ({@link #forwardedOn()} then names the connection to flush), or
     * an RWF NakCode with {@link #refusal()} saying why.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    int post(
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
        forwardedOn = null;
        if (byPostId.size() >= maxOutstanding)
        {
            return refuse(NakCodes.NO_RESOURCES, "too many posts wait for provider answers (limit " + maxOutstanding +
                ")");
        }
        final CachedItem openItem = openOnRoute(service, domainType, buffer, nameOffset, nameLength);
        final boolean isOnStream = null != openItem;
        final RouteSession link = isOnStream ? (RouteSession)openItem.owner :
            (RouteSession)service.pickLink(isLoadBalancing);
        final int streamId = isOnStream ? openItem.providerStreamId : RouteSession.LOGIN_STREAM;
        final int providerServiceId = null == link ? -1 : link.providerServiceId(service);
        if (providerServiceId < 0)
        {
            return refuse(NakCodes.SOURCE_DOWN, NO_ROUTE);
        }
        final DirectBuffer bytes = etaReadable(buffer, nameOffset, nameLength, rwfOffset, rwfLength);
        final int nameAt = bytes == buffer ? nameOffset : 0;
        final int rwfAt = bytes == buffer ? rwfOffset : nameLength;
        if (CodecReturnCodes.SUCCESS != core.reader.read(bytes, rwfAt, rwfLength) ||
            MsgClasses.POST != core.reader.msg().msgClass())
        {
            return refuse(NakCodes.INVALID_CONTENT, "not a well-formed PostMsg");
        }
        final PostMsg post = (PostMsg)core.reader.msg();
        final long consumerPostId = post.checkHasPostId() ? post.postId() : -1;
        final int postId = nextPostId();
        post.streamId(streamId);
        post.domainType(domainType);
        post.applyHasPostId();
        post.postId(postId & 0xFFFF_FFFFL);
        post.applyAck();
        if (isOnStream)
        {
            if (post.checkHasMsgKey() && post.msgKey().checkHasServiceId())
            {
                post.msgKey().serviceId(providerServiceId);
            }
        }
        else
        {
            offStreamKey(post, providerServiceId, bytes, nameAt, nameLength);
        }
        final int result = link.writePost(post, rwfLength + nameLength + KEY_HEADROOM);
        if (CodecReturnCodes.SUCCESS != result)
        {
            return refuse(NakCodes.INVALID_CONTENT, "the post could not be re-encoded: " +
                CodecReturnCodes.toString(result));
        }
        add(postId, watcher, postRequestId, service.id(), consumerPostId, link);
        forwardedOn = link;
        return SinkDrivenItems.POST_FORWARDED;
    }

    /**
     * @return the buffer itself when ETA can read it (backed by a ByteBuffer or an array), else a copy of the name
     * (at 0) and the PostMsg (after it).
     */
    private DirectBuffer etaReadable(
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        if (null != buffer.byteBuffer() || null != buffer.byteArray())
        {
            return buffer;
        }
        copy.checkLimit(nameLength + rwfLength);
        copy.putBytes(0, buffer, nameOffset, nameLength);
        copy.putBytes(nameLength, buffer, rwfOffset, rwfLength);
        return copy;
    }

    /**
     * @return the item when a route up has its stream open, else null.
     */
    private static CachedItem openOnRoute(
        final DistributedService service,
        final int domainType,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        final ItemCache cache = service.cache();
        final int handle = cache.handle(domainType, buffer, nameOffset, nameLength);
        final CachedItem item = ItemCache.NO_HANDLE == handle ? null : cache.item(handle);
        return null != item && item.owner instanceof RouteSession && item.owner.isLoggedIn &&
            !item.owner.isClosing && item.owner.providerServiceId(service) >= 0 ? item : null;
    }

    private void offStreamKey(
        final PostMsg post,
        final int providerServiceId,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        if (!post.checkHasMsgKey())
        {
            post.applyHasMsgKey();
            post.msgKey().clear();
        }
        final MsgKey key = post.msgKey();
        if (!key.checkHasNameType())
        {
            key.applyHasNameType();
            key.nameType(InstrumentNameTypes.RIC);
        }
        key.flags(key.flags() | MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME);
        key.serviceId(providerServiceId);
        key.name(nameView.wrap(buffer, nameOffset, nameLength));
    }

    private int nextPostId()
    {
        do
        {
            nextPostId++;
        }
        while (0 == nextPostId || byPostId.containsKey(nextPostId));
        return nextPostId;
    }

    private void add(
        final int postId,
        final long watcher,
        final long postRequestId,
        final int serviceId,
        final long consumerPostId,
        final RouteSession link)
    {
        Pending pending = free;
        if (null == pending)
        {
            pending = new Pending();
        }
        else
        {
            free = pending.next;
        }
        pending.postId = postId;
        pending.watcher = watcher;
        pending.postRequestId = postRequestId;
        pending.serviceId = serviceId;
        pending.consumerPostId = consumerPostId;
        pending.deadlineNs = System.nanoTime() + timeoutNs;
        pending.link = link;
        pending.previous = newest;
        pending.next = null;
        if (null == newest)
        {
            oldest = pending;
        }
        else
        {
            newest.next = pending;
        }
        newest = pending;
        byPostId.put(postId, pending);
        if (null == timer)
        {
            arm(link, timeoutNs);
        }
    }

    /**
     * A provider's AckMsg on one of a route's streams, decoded in {@link DistributorCore#reader}: the outcome of the
     * post it answers goes to the poster. An answer to no post waiting on this connection is counted as dropped.
     */
    void onAck(final RouteSession link)
    {
        final AckMsg ack = (AckMsg)core.reader.msg();
        final Pending pending = byPostId.get((int)ack.ackId());
        if (null == pending || pending.link != link)
        {
            core.counters.messagesDropped().increment();
            return;
        }
        final int nakCode = ack.checkHasNakCode() ? ack.nakCode() : NakCodes.NONE;
        final String text = ack.checkHasText() ? ack.text().toString() : "";
        if (NakCodes.NONE != nakCode)
        {
            core.counters.postsRefused().increment();
            LOG.debug("{}: post {} (consumer postId {}) of watcher {} NAKed by the provider on {} ({}): {}",
                core.component, pending.postRequestId, pending.consumerPostId, pending.watcher, link.endpoint(),
                nakCode, text);
        }
        complete(pending, nakCode, text);
    }

    /**
     * A route connection was lost: its waiting posts are refused SOURCE_DOWN.
     */
    void onRouteLost(final RouteSession link)
    {
        int lost = 0;
        Pending pending = oldest;
        while (null != pending)
        {
            final Pending next = pending.next;
            if (pending.link == link)
            {
                core.counters.postsRefused().increment();
                complete(pending, NakCodes.SOURCE_DOWN, LOST);
                lost++;
            }
            pending = next;
        }
        if (lost > 0)
        {
            LOG.info("{}: route {} lost with {} posts unanswered: refused SOURCE_DOWN", core.component,
                link.endpoint(), lost);
        }
    }

    private void expire()
    {
        timer = null;
        final long nowNs = System.nanoTime();
        int expired = 0;
        while (null != oldest && oldest.deadlineNs - nowNs <= 0)
        {
            core.counters.postsRefused().increment();
            complete(oldest, NakCodes.NO_RESPONSE, timeoutText);
            expired++;
        }
        if (expired > 0)
        {
            LOG.debug("{}: {} posts unanswered by their providers within {} ns: refused NO_RESPONSE",
                core.component, expired, timeoutNs);
        }
        if (null != oldest)
        {
            arm(oldest.link, oldest.deadlineNs - nowNs);
        }
    }

    private void arm(final RouteSession link, final long delayNs)
    {
        // every connection runs on the distributor's single event loop: any one's executor is that loop
        timer = link.ctx.executor().schedule(expiry, delayNs, TimeUnit.NANOSECONDS);
    }

    private void complete(final Pending pending, final int nakCode, final String text)
    {
        byPostId.remove(pending.postId);
        if (null == pending.previous)
        {
            oldest = pending.next;
        }
        else
        {
            pending.previous.next = pending.next;
        }
        if (null == pending.next)
        {
            newest = pending.previous;
        }
        else
        {
            pending.next.previous = pending.previous;
        }
        final long watcher = pending.watcher;
        final long postRequestId = pending.postRequestId;
        final int serviceId = pending.serviceId;
        pending.link = null;
        pending.previous = null;
        pending.next = free;
        free = pending;
        core.listener.onPostAck((int)(watcher >> 8), (int)(watcher & 0xFF), postRequestId, serviceId, nakCode, text);
    }

    private int refuse(final int nakCode, final String why)
    {
        refusal = why;
        return nakCode;
    }

    /**
     * @return why the last {@link #post} was refused.
     */
    String refusal()
    {
        return refusal;
    }

    /**
     * @return the connection the last {@link #post} was written to (to flush), or null when refused.
     */
    RouteSession forwardedOn()
    {
        return forwardedOn;
    }

    /**
     * @return posts waiting for a provider's answer.
     */
    int outstanding()
    {
        return byPostId.size();
    }

    private static String formatDuration(final long ns)
    {
        final long ms = TimeUnit.NANOSECONDS.toMillis(ns);
        return 0 == ms % 1000 ? (ms / 1000) + " s" : ms + " ms";
    }
}
