package io.mdhub.p2p.backbone;

import java.util.ArrayList;
import java.util.List;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.mdhub.backbone.protocol.ControlPublisher;
import io.mdhub.backbone.protocol.MarketDataAdapter;
import io.mdhub.backbone.protocol.MarketDataListener;
import io.mdhub.backbone.protocol.ServiceSequenceTracker;
import io.mdhub.common.concurrent.EventLoopDutyCycle;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.channel.EventLoop;

/**
 * One fan-out worker's {@link ItemSource} on the Aeron backbone. Item interest goes out on the control stream as
 * ItemRequests whose ids are unique to this p2p-server and worker; images come back as ItemRefreshes echoing them and
 * name the item's handle, by which later updates and statuses arrive. Everything — polling the data stream, the
 * heartbeat, distributor liveness — runs on the worker's event loop in an {@link EventLoopDutyCycle}, so the
 * listener is only ever called on that thread and never from inside {@code open/refresh/close}.
 * <p>
 * <b>Loss and recovery.</b> A sequence gap on a service, or an announcement whose lastSequence is ahead of what was
 * seen, turns every open item of the service Open/Suspect and re-requests its image; the answer reaches every
 * watcher as an unsolicited refresh. A distributor that misses {@code missedAnnouncements} intervals takes its
 * services down (items Open/Suspect); when it announces again — or restarts with a new epoch, which invalidates its
 * handles — the items are re-requested.
 */
public final class BackboneItemSource implements ItemSource, MarketDataListener
{
    private static final int FRAGMENT_LIMIT = 256;
    private static final long HOUSEKEEPING_INTERVAL_NS = 10_000_000L;
    private static final long REQUEST_CHECK_INTERVAL_NS = 250_000_000L;

    /**
     * An item request unanswered for this long is sent again (its answer may have been published while this
     * p2p-server's image of the data stream was not connected, or have gone to a distributor that died).
     */
    private static final long REQUEST_TIMEOUT_NS = 1_000_000_000L;
    /**
     * Queued item requests (recoveries, and requests that met back-pressure) sent per 10 ms housekeeping cycle:
     * at most 25,600 a second, so a recovery of a whole service cannot flood the distributor.
     */
    private static final int REQUESTS_PER_CYCLE = 256;

    private final ItemSourceListener listener;
    private final Subscription data;
    private final Publication controlPublication;
    private final ControlPublisher control;
    private final MarketDataAdapter adapter;
    private final AtomicCounter gaps;
    private final AtomicCounter recoveries;
    private final List<AutoCloseable> owned;
    private final ServiceSequenceTracker sequences = new ServiceSequenceTracker();
    private final long requestIdBase;
    private final long announceIntervalNs;
    private final int missedAnnouncements;
    private final long epoch = System.currentTimeMillis();
    private final Int2ObjectHashMap<OpenItem> items = new Int2ObjectHashMap<>();
    private final Long2LongHashMap itemByHandle = new Long2LongHashMap(-1);
    private final Long2LongHashMap itemByRequest = new Long2LongHashMap(-1);
    private final Int2ObjectHashMap<ServiceInfo> services = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<DistributorState> distributors = new Int2ObjectHashMap<>();
    private final IntArrayList queued = new IntArrayList();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final MarketPriceEncoder statusEncoder = new MarketPriceEncoder();
    private final ExpandableArrayBuffer statusBuffer = new ExpandableArrayBuffer(512);
    private final EventLoopDutyCycle dutyCycle;
    private int nextRequest = java.util.concurrent.ThreadLocalRandom.current().nextInt(); // ids differ per start
    private long nextHousekeepingNs;
    private long nextAnnounceNs;
    private long nextRequestCheckNs;

    BackboneItemSource(
        final int workerIndex,
        final EventLoop eventLoop,
        final ItemSourceListener listener,
        final BackboneItemSourceFactory.Settings settings,
        final Wiring wiring)
    {
        this.listener = listener;
        this.data = wiring.data;
        this.controlPublication = wiring.controlPublication;
        this.control = wiring.control;
        this.adapter = new MarketDataAdapter(this, wiring.malformed);
        this.gaps = wiring.gaps;
        this.recoveries = wiring.recoveries;
        this.owned = wiring.owned;
        this.requestIdBase = ((long)(settings.consumerId() & 0x7F_FFFF) << 40) | ((long)(workerIndex & 0xFF) << 32);
        this.announceIntervalNs = settings.announceIntervalMs() * 1_000_000L;
        this.missedAnnouncements = settings.missedAnnouncements();
        this.dutyCycle = new EventLoopDutyCycle(eventLoop, this::doWork, settings.idleMinNs(), settings.idleMaxNs());
        dutyCycle.start();
    }

    @Override
    public void open(
        final int itemId,
        final int domainType,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final boolean streaming)
    {
        OpenItem item = items.get(itemId);
        if (null == item)
        {
            final byte[] copy = new byte[nameLength];
            name.getBytes(nameOffset, copy);
            item = new OpenItem(itemId, domainType, serviceId, new UnsafeBuffer(copy));
            items.put(itemId, item);
        }
        item.isStreaming = streaming;
        request(item, false);
    }

    @Override
    public void refresh(final int itemId)
    {
        final OpenItem item = items.get(itemId);
        if (null != item && item.handle >= 0)
        {
            request(item, false);
        }
        // no handle yet: the answer to the first request is on its way and serves this watcher too
    }

    @Override
    public void close(final int itemId)
    {
        final OpenItem item = items.remove(itemId);
        if (null == item)
        {
            return;
        }
        forget(item);
        if (item.handle >= 0)
        {
            control.closeItem(item.serviceId, item.handle);
        }
    }

    @Override
    public List<ServiceInfo> services()
    {
        return new ArrayList<>(services.values());
    }

    @Override
    public void close()
    {
        dutyCycle.close();
        for (int i = owned.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(owned.get(i));
        }
    }

    private int doWork(final long nowNs)
    {
        int work = adapter.poll(data, FRAGMENT_LIMIT);
        if (nowNs >= nextHousekeepingNs)
        {
            nextHousekeepingNs = nowNs + HOUSEKEEPING_INTERVAL_NS;
            if (nowNs >= nextRequestCheckNs)
            {
                nextRequestCheckNs = nowNs + REQUEST_CHECK_INTERVAL_NS;
                work += resendUnanswered(nowNs);
            }
            work += sendQueued();
            work += checkDistributors(nowNs);
            if (nowNs >= nextAnnounceNs && controlPublication.isConnected())
            {
                nextAnnounceNs = nowNs + announceIntervalNs;
                control.announce(epoch, (int)(announceIntervalNs / 1_000_000L), nowNs);
            }
        }
        return work;
    }

    // ---- data stream -------------------------------------------------------------------------------------------

    @Override
    public void onAnnouncement(
        final int distributorId, final long epoch, final int intervalMs, final long timestampNs, final int count)
    {
        DistributorState distributor = distributors.get(distributorId);
        if (null == distributor)
        {
            distributor = new DistributorState();
            distributors.put(distributorId, distributor);
        }
        else if (distributor.epoch != epoch)
        {
            restart(distributorId); // its handles and sequences mean nothing any more
        }
        distributor.epoch = epoch;
        distributor.intervalNs = Math.max(1, intervalMs) * 1_000_000L;
        distributor.lastSeenNs = System.nanoTime();
        distributor.isAlive = true;
    }

    @Override
    public void onServiceAnnounced(
        final int distributorId,
        final int serviceId,
        final boolean isUp,
        final boolean isAcceptingRequests,
        final long lastSequence,
        final int itemCount,
        final long capabilities,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        final DistributorState distributor = distributors.get(distributorId);
        if (null != distributor && !distributor.services.containsInt(serviceId))
        {
            distributor.services.addInt(serviceId);
        }

        final ServiceInfo known = services.get(serviceId);
        final boolean wasUp = null != known && known.isUp();
        if (null == known || known.isUp() != isUp || known.isAcceptingRequests() != isAcceptingRequests ||
            !sameName(known.name(), buffer, nameOffset, nameLength))
        {
            final ServiceInfo info = new ServiceInfo(serviceId, buffer.getStringWithoutLengthAscii(nameOffset,
                nameLength), isUp, isAcceptingRequests, domains(capabilities));
            services.put(serviceId, info);
            listener.onServiceChanged(info);
        }

        if (!wasUp && isUp && null != known)
        {
            recoverService(serviceId, false, null);
        }
        else if (sequences.missingBefore(serviceId, lastSequence) > 0)
        {
            gaps.increment();
            sequences.onMessage(serviceId, lastSequence);
            recoverService(serviceId, true, "tail loss on the backbone");
        }
    }

    @Override
    public boolean onItemRefresh(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final long requestId,
        final int domainType,
        final int flags,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int rwfOffset,
        final int rwfLength)
    {
        if (!inSequence(serviceId, sequence))
        {
            return true;
        }

        if (0 != requestId)
        {
            final long itemId = itemByRequest.remove(requestId);
            if (itemByRequest.missingValue() == itemId)
            {
                return true; // another p2p-server's answer, or a superseded request
            }
            final OpenItem item = items.get((int)itemId);
            if (null == item)
            {
                return true; // closed while the request was out
            }
            if (item.serviceId != serviceId || item.domainType != domainType ||
                !sameBytes(item.name, buffer, nameOffset, nameLength))
            {
                itemByRequest.put(requestId, itemId); // another server's answer under a colliding id: not ours
                return true;
            }
            if (item.requestId == requestId)
            {
                item.requestId = 0; // answered: nothing outstanding for this item any more
            }
            bindHandle(item, itemHandle);
            final boolean isRecovery = item.isRecovering;
            item.isRecovering = false;
            listener.onRefresh(item.itemId, !isRecovery, buffer, rwfOffset, rwfLength);
            if (!item.isStreaming)
            {
                items.remove(item.itemId);
                forget(item);
            }
            return true;
        }

        final long itemId = itemByHandle.get(handleKey(serviceId, itemHandle));
        if (itemByHandle.missingValue() != itemId)
        {
            // the provider resynchronised (or a recovery for another p2p-server): every watcher takes the new image
            listener.onRefresh((int)itemId, false, buffer, rwfOffset, rwfLength);
        }
        return true;
    }

    @Override
    public boolean onItemUpdate(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
        if (inSequence(serviceId, sequence))
        {
            final long itemId = itemByHandle.get(handleKey(serviceId, itemHandle));
            if (itemByHandle.missingValue() != itemId)
            {
                listener.onUpdate((int)itemId, buffer, rwfOffset, rwfLength);
            }
        }
        return true;
    }

    @Override
    public boolean onItemStatus(
        final int serviceId,
        final int itemHandle,
        final long sequence,
        final long originTimestampNs,
        final long requestId,
        final int streamState,
        final int dataState,
        final DirectBuffer buffer,
        final int rwfOffset,
        final int rwfLength)
    {
        if (!inSequence(serviceId, sequence))
        {
            return true;
        }
        final long itemId = itemHandle < 0 ?
            itemByRequest.remove(requestId) : itemByHandle.get(handleKey(serviceId, itemHandle));
        if (-1 == itemId) // the missing value of both maps
        {
            return true;
        }
        final OpenItem item = items.get((int)itemId);
        listener.onStatus((int)itemId, buffer, rwfOffset, rwfLength);
        if (null != item && streamState != StreamStates.OPEN)
        {
            items.remove(item.itemId);
            forget(item);
        }
        return true;
    }

    // ---- recovery ----------------------------------------------------------------------------------------------

    private boolean inSequence(final int serviceId, final long sequence)
    {
        final long result = sequences.onMessage(serviceId, sequence);
        if (ServiceSequenceTracker.DUPLICATE == result)
        {
            return false;
        }
        if (result > 0)
        {
            gaps.increment();
            recoverService(serviceId, true, "gap on the backbone: recovering");
        }
        return true;
    }

    private void recoverService(final int serviceId, final boolean isSuspect, final String text)
    {
        final ArrayList<OpenItem> affected = new ArrayList<>();
        for (final OpenItem item : items.values())
        {
            if (item.serviceId == serviceId)
            {
                affected.add(item);
            }
        }
        for (int i = 0; i < affected.size(); i++)
        {
            final OpenItem item = affected.get(i);
            if (item.isRecovering && 0 != item.requestId)
            {
                // Its image is still to come, later in the ordered stream than this loss, so it covers the loss too:
                // asking again would only add load (and, under load, more loss: a recovery storm).
                continue;
            }
            if (isSuspect)
            {
                suspect(item, text);
            }
            if (item.handle >= 0 || item.isRecovering)
            {
                recoveries.increment();
                item.isRecovering = true;
                supersede(item);
                enqueue(item); // sent by housekeeping at a bounded rate
            }
        }
    }

    private void restart(final int distributorId)
    {
        final DistributorState distributor = distributors.get(distributorId);
        for (int i = 0; i < distributor.services.size(); i++)
        {
            final int serviceId = distributor.services.getInt(i);
            sequences.reset(serviceId);
            for (final OpenItem item : items.values())
            {
                if (item.serviceId == serviceId)
                {
                    if (item.handle >= 0)
                    {
                        itemByHandle.remove(handleKey(serviceId, item.handle));
                        item.handle = -1;
                    }
                    // requests to the old process will never be answered: ask the new one, whatever the item's state
                    if (0 != item.requestId)
                    {
                        itemByRequest.remove(item.requestId);
                        item.requestId = 0;
                    }
                    item.isRecovering = true;
                }
            }
            recoverService(serviceId, true, "distributor restarted: recovering");
        }
    }

    private int checkDistributors(final long nowNs)
    {
        int work = 0;
        for (final DistributorState distributor : distributors.values())
        {
            if (distributor.isAlive && nowNs - distributor.lastSeenNs > missedAnnouncements * distributor.intervalNs)
            {
                distributor.isAlive = false;
                work++;
                for (int i = 0; i < distributor.services.size(); i++)
                {
                    takeDown(distributor.services.getInt(i));
                }
            }
        }
        return work;
    }

    private void takeDown(final int serviceId)
    {
        final ServiceInfo info = services.get(serviceId);
        if (null != info && info.isUp())
        {
            final ServiceInfo down = info.withState(false);
            services.put(serviceId, down);
            listener.onServiceChanged(down);
            for (final OpenItem item : new ArrayList<>(items.values()))
            {
                if (item.serviceId == serviceId)
                {
                    suspect(item, "distributor lost: service down");
                    item.isRecovering = true;
                }
            }
        }
    }

    private void suspect(final OpenItem item, final String text)
    {
        final int result = statusEncoder.encodeStatus(writer.begin(statusBuffer, 0, statusBuffer.capacity()), 0,
            StreamStates.OPEN, DataStates.SUSPECT, StateCodes.NONE, text);
        if (CodecReturnCodes.SUCCESS == result)
        {
            listener.onStatus(item.itemId, statusBuffer, 0, writer.encodedLength());
        }
    }

    // ---- requests ----------------------------------------------------------------------------------------------

    private void request(final OpenItem item, final boolean isRecovery)
    {
        item.isRecovering |= isRecovery;
        supersede(item);
        if (item.isQueued || !send(item))
        {
            enqueue(item); // no distributor yet, or back-pressure: retried by housekeeping
        }
    }

    private void supersede(final OpenItem item)
    {
        if (item.requestId != 0)
        {
            itemByRequest.remove(item.requestId); // a newer request supersedes it
        }
        item.requestId = requestIdBase | (++nextRequest & 0xFFFF_FFFFL);
        itemByRequest.put(item.requestId, item.itemId);
    }

    private int resendUnanswered(final long nowNs)
    {
        int resent = 0;
        for (final OpenItem item : items.values())
        {
            if (0 != item.requestId && !item.isQueued && nowNs - item.requestedAtNs > REQUEST_TIMEOUT_NS)
            {
                recoveries.increment();
                supersede(item);
                enqueue(item);
                resent++;
            }
        }
        return resent;
    }

    private boolean send(final OpenItem item)
    {
        item.requestedAtNs = System.nanoTime();
        return control.requestItem(item.requestId, item.serviceId, item.domainType, item.isStreaming, item.name, 0,
            item.name.capacity()) > 0;
    }

    private void enqueue(final OpenItem item)
    {
        if (!item.isQueued)
        {
            item.isQueued = true;
            queued.addInt(item.itemId);
        }
    }

    private int sendQueued()
    {
        int sent = 0;
        while (!queued.isEmpty() && sent < REQUESTS_PER_CYCLE && controlPublication.isConnected())
        {
            final int itemId = queued.getInt(queued.size() - 1);
            final OpenItem item = items.get(itemId);
            if (null != item && item.isQueued)
            {
                if (!send(item))
                {
                    break; // back-pressure: try again next cycle
                }
                item.isQueued = false;
                sent++;
            }
            queued.removeAt(queued.size() - 1);
        }
        return sent;
    }

    private void bindHandle(final OpenItem item, final int handle)
    {
        if (item.handle >= 0 && item.handle != handle)
        {
            itemByHandle.remove(handleKey(item.serviceId, item.handle));
        }
        item.handle = handle;
        itemByHandle.put(handleKey(item.serviceId, handle), item.itemId);
    }

    private void forget(final OpenItem item)
    {
        if (item.handle >= 0)
        {
            itemByHandle.remove(handleKey(item.serviceId, item.handle));
        }
        if (item.requestId != 0)
        {
            itemByRequest.remove(item.requestId);
        }
    }

    private static long handleKey(final int serviceId, final int handle)
    {
        return ((long)serviceId << 32) | (handle & 0xFFFF_FFFFL);
    }

    private static boolean sameBytes(
        final UnsafeBuffer expected, final DirectBuffer buffer, final int offset, final int length)
    {
        if (expected.capacity() != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (expected.getByte(i) != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean sameName(
        final String name, final DirectBuffer buffer, final int offset, final int length)
    {
        if (name.length() != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (name.charAt(i) != (char)buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    private static int[] domains(final long capabilities)
    {
        final int[] domains = new int[Long.bitCount(capabilities)];
        int i = 0;
        for (int domain = 0; domain < Long.SIZE; domain++)
        {
            if (0 != (capabilities & (1L << domain)))
            {
                domains[i++] = domain;
            }
        }
        return domains;
    }

    private static final class OpenItem
    {
        final int itemId;
        final int domainType;
        final int serviceId;
        final UnsafeBuffer name;
        boolean isStreaming;
        boolean isRecovering;
        boolean isQueued;
        long requestedAtNs;
        int handle = -1;
        long requestId;

        OpenItem(final int itemId, final int domainType, final int serviceId, final UnsafeBuffer name)
        {
            this.itemId = itemId;
            this.domainType = domainType;
            this.serviceId = serviceId;
            this.name = name;
        }
    }

    /**
     * What the factory made for one source: streams, counters, and everything to close with it.
     */
    static final class Wiring
    {
        final List<AutoCloseable> owned = new ArrayList<>();
        Subscription data;
        Publication controlPublication;
        ControlPublisher control;
        AtomicCounter malformed;
        AtomicCounter gaps;
        AtomicCounter recoveries;
    }

    private static final class DistributorState
    {
        final IntArrayList services = new IntArrayList();
        long epoch;
        long intervalNs = 1_000_000_000L;
        long lastSeenNs;
        boolean isAlive;
    }
}
