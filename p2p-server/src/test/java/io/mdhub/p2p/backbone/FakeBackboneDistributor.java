package io.mdhub.p2p.backbone;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;

import io.aeron.Aeron;
import io.aeron.AeronCounters;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.mdhub.backbone.protocol.AnnouncedServices;
import io.mdhub.backbone.protocol.BackbonePublication;
import io.mdhub.backbone.protocol.ControlAdapter;
import io.mdhub.backbone.protocol.ControlListener;
import io.mdhub.backbone.protocol.MarketDataPublisher;
import io.mdhub.backbone.protocol.RefreshFlags;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;
import io.mdhub.common.test.MdTests;

/**
 * Plays one distributor on the backbone for p2p-server tests, on a thread of its own (the only user of its
 * exclusive publication): announces one service, answers item requests from a small table of items (NOT_FOUND for
 * another name, SOURCE_UNKNOWN for another service, as the real distributor does), resends images on a
 * RecoveryRequest, publishes updates on command, and can skip a sequence number, fall silent or ignore requests to
 * exercise recovery. Several may share a stream: each has its own publication (Aeron session), distributor id and
 * sequences, and handles from its own base (two fakes with the same base give colliding handles).
 */
final class FakeBackboneDistributor implements AutoCloseable, ControlListener, AnnouncedServices
{
    static final int DISTRIBUTOR_ID = 7;
    static final int SERVICE_ID = 1;
    static final String SERVICE_NAME = "NI_PUB";
    static final int ANNOUNCE_INTERVAL_MS = 50;
    private static final int HANDLE_BASE = 100;
    private static final int REQUEST_FLAGS = RefreshFlags.SOLICITED | RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE;
    private static final int PUBLISHED_FLAGS = RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE;
    private static final int RECOVERY_FLAGS = RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE | RefreshFlags.RECOVERY;

    final AtomicInteger consumerAnnouncements = new AtomicInteger();
    final Map<Integer, Set<Long>> consumerEpochs = new ConcurrentHashMap<>();
    final AtomicInteger announcements = new AtomicInteger();
    final AtomicInteger recoveryRequests = new AtomicInteger();
    volatile boolean isAnnouncing = true;
    volatile boolean isIgnoringRecoveryRequests;
    /** False: the service is announced down and every request for it is refused for now (ClosedRecover). */
    volatile boolean isServiceUp = true;

    private final int distributorId;
    private final int serviceId;
    private final String serviceName;
    private final int dataStreamId;
    private final ExclusivePublication data;
    private final Subscription control;
    private final MarketDataPublisher publisher;
    private final ControlAdapter adapter;
    private final Map<String, Integer> handles = new LinkedHashMap<>();
    private final Map<String, Long> bids = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final Set<String> ignoreOnce = ConcurrentHashMap.newKeySet();
    private final List<Runnable> heldAnswers = new ArrayList<>();
    private final List<String> closes = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean isHoldingAnswers;
    private final Set<String> ignoreAll = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Runnable> actions = new ConcurrentLinkedQueue<>();
    private final AtomicLong position = new AtomicLong(-1);
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final MarketPriceEncoder encoder = new MarketPriceEncoder();
    private final ExpandableArrayBuffer rwf = new ExpandableArrayBuffer(512);
    private final Thread thread;
    private final long epoch = System.nanoTime();
    private volatile boolean isRunning = true;
    private volatile int itemCount;
    private long sequence;
    private long nextAnnounceNs;

    FakeBackboneDistributor(final Aeron aeron, final String channel, final int dataStream, final int controlStream)
    {
        this(aeron, channel, dataStream, controlStream, DISTRIBUTOR_ID, SERVICE_ID, SERVICE_NAME);
    }

    FakeBackboneDistributor(
        final Aeron aeron,
        final String channel,
        final int dataStream,
        final int controlStream,
        final int distributorId,
        final int serviceId,
        final String serviceName)
    {
        this.distributorId = distributorId;
        this.serviceId = serviceId;
        this.serviceName = serviceName;
        this.dataStreamId = dataStream;
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(new byte[16 * 1024]), new UnsafeBuffer(new byte[4 * 1024]));
        final AtomicCounter scratch = counters.newCounter("fake");
        data = aeron.addExclusivePublication(channel, dataStream);
        control = aeron.addSubscription(channel, controlStream);
        publisher = new MarketDataPublisher(new BackbonePublication(data, 3, scratch));
        adapter = new ControlAdapter(this, scratch);
        thread = new Thread(this::run, "fake-distributor-" + distributorId);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Add an item (a provider published it): later requests get its image.
     */
    FakeBackboneDistributor item(final String name, final long bid)
    {
        actions.add(() ->
        {
            handles.putIfAbsent(name, HANDLE_BASE + handles.size());
            bids.put(name, bid);
            itemCount = handles.size();
        });
        return this;
    }

    /**
     * A provider publishes a new item: it is added and its first refresh broadcast (requestId 0), as the distributor
     * passes a non-interactive provider's refresh on.
     */
    void publish(final String name, final long bid)
    {
        item(name, bid);
        actions.add(() -> image(name, handles.get(name), 0, PUBLISHED_FLAGS));
    }

    void update(final String name, final long bid)
    {
        actions.add(() ->
        {
            bids.put(name, bid);
            encoder.beginUpdate(writer.begin(rwf, 0, rwf.capacity()), 0, UpdateEventTypes.QUOTE)
                .real(FieldIds.BID, bid, RealHints.EXPONENT_2);
            check(encoder.complete());
            publisher.update(serviceId, handles.get(name), ++sequence, System.nanoTime(), rwf, 0,
                writer.encodedLength());
        });
    }

    void ignoreNextRequestFor(final String name)
    {
        ignoreOnce.add(name);
    }

    /**
     * Leave every ItemRequest for the item unanswered (as if each answer were lost) until called with false.
     *
     * @param name   an item name.
     * @param ignore true to ignore its requests, false to answer them again.
     */
    void ignoreRequestsFor(final String name, final boolean ignore)
    {
        if (ignore)
        {
            ignoreAll.add(name);
        }
        else
        {
            ignoreAll.remove(name);
        }
    }

    /**
     * Publish an image of the item as a service recovery pass does (RECOVERY, requestId 0), whoever asked for it.
     *
     * @param name an item name.
     */
    void recoveryImage(final String name)
    {
        actions.add(() -> image(name, handles.get(name), 0, RECOVERY_FLAGS));
    }

    void skipSequence()
    {
        actions.add(() -> ++sequence);
    }

    /**
     * @param name an item name.
     * @return ItemRequests received for it.
     */
    int requests(final String name)
    {
        final AtomicInteger count = requests.get(name);
        return null == count ? 0 : count.get();
    }

    /**
     * @return ItemRequests received for any item.
     */
    int requests()
    {
        return requests.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /**
     * Wait until every subscriber of the data stream has read everything this distributor published so far.
     *
     * @param aeron a client of the same driver.
     */
    void awaitConsumed(final Aeron aeron)
    {
        position.set(-1);
        actions.add(() -> position.set(data.position()));
        MdTests.await("the fake distributor's thread", () -> position.get() >= 0);
        final long target = position.get();
        MdTests.await(() -> "subscribers to read session " + data.sessionId() + " up to " + target,
            () -> slowestSubscriber(aeron.countersReader()) >= target);
    }

    private long slowestSubscriber(final CountersReader counters)
    {
        final long[] slowest = {Long.MAX_VALUE};
        counters.forEach((counterId, typeId, key, label) ->
        {
            if (AeronCounters.DRIVER_SUBSCRIBER_POSITION_TYPE_ID == typeId && data.sessionId() == key.getInt(8) &&
                dataStreamId == key.getInt(12))
            {
                slowest[0] = Math.min(slowest[0], counters.getCounterValue(counterId));
            }
        });
        return Long.MAX_VALUE == slowest[0] ? -1 : slowest[0];
    }

    private void run()
    {
        while (isRunning)
        {
            int work = adapter.poll(control, 10);
            for (Runnable action; null != (action = actions.poll()); work++)
            {
                action.run();
            }
            final long now = System.nanoTime();
            if (isAnnouncing && now >= nextAnnounceNs)
            {
                nextAnnounceNs = now + ANNOUNCE_INTERVAL_MS * 1_000_000L;
                if (publisher.announce(distributorId, epoch, ANNOUNCE_INTERVAL_MS, now, this) > 0)
                {
                    announcements.incrementAndGet();
                }
            }
            if (0 == work)
            {
                LockSupport.parkNanos(100_000);
            }
        }
    }

    @Override
    public void onConsumerAnnouncement(
        final int consumerId, final long epoch, final int intervalMs, final long timestampNs)
    {
        consumerEpochs.computeIfAbsent(consumerId, (id) -> ConcurrentHashMap.newKeySet()).add(epoch);
        consumerAnnouncements.incrementAndGet();
    }

    @Override
    @SuppressWarnings("checkstyle:ParameterNumber") // the listener's primitives
    public boolean onItemRequest(
        final int consumerId,
        final int sourceIndex,
        final long requestId,
        final int serviceId,
        final int domainType,
        final boolean isStreaming,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength,
        final int viewOffset,
        final int viewLength)
    {
        final String name = buffer.getStringWithoutLengthAscii(nameOffset, nameLength);
        if (serviceId != this.serviceId)
        {
            return refuse(serviceId, requestId, StateCodes.SOURCE_UNKNOWN, "service not found");
        }
        requests.computeIfAbsent(name, (n) -> new AtomicInteger()).incrementAndGet();
        if (!isServiceUp)
        {
            return refuse(serviceId, requestId, StreamStates.CLOSED_RECOVER, StateCodes.NONE, "no provider up");
        }
        if (ignoreOnce.remove(name) || ignoreAll.contains(name))
        {
            return true; // as if the answer had been lost
        }
        final Integer handle = handles.get(name);
        if (null == handle)
        {
            return refuse(serviceId, requestId, StreamStates.CLOSED_RECOVER, StateCodes.NOT_FOUND, "item not found");
        }
        if (isHoldingAnswers)
        {
            heldAnswers.add(() -> image(name, handle, requestId, REQUEST_FLAGS));
            return true;
        }
        return image(name, handle, requestId, REQUEST_FLAGS);
    }

    /**
     * Keep answers to item requests until {@link #releaseAnswers()} (a slow provider behind the distributor).
     */
    void holdAnswers()
    {
        isHoldingAnswers = true;
    }

    /**
     * Send the held answers, oldest first, and answer at once from now on.
     */
    void releaseAnswers()
    {
        actions.add(() ->
        {
            isHoldingAnswers = false;
            heldAnswers.forEach(Runnable::run);
            heldAnswers.clear();
        });
    }

    /**
     * @return the ItemCloses received, as "handle=H epoch=mine|other|unknown".
     */
    List<String> closes()
    {
        return closes;
    }

    private boolean refuse(final int serviceId, final long requestId, final int code, final String text)
    {
        return refuse(serviceId, requestId, StreamStates.CLOSED, code, text);
    }

    private boolean refuse(
        final int serviceId, final long requestId, final int streamState, final int code, final String text)
    {
        check(encoder.encodeStatus(writer.begin(rwf, 0, rwf.capacity()), 0, streamState,
            DataStates.SUSPECT, code, text));
        return publisher.status(serviceId, -1, ++sequence, System.nanoTime(), requestId, streamState,
            DataStates.SUSPECT, rwf, 0, writer.encodedLength()) > 0;
    }

    private boolean image(final String name, final int handle, final long requestId, final int flags)
    {
        final UnsafeBuffer nameBytes = new UnsafeBuffer(name.getBytes(StandardCharsets.US_ASCII));
        encoder.beginRefresh(writer.begin(rwf, 0, rwf.capacity()), 0, serviceId, nameBytes, 0, nameBytes.capacity(),
            StreamStates.OPEN, DataStates.OK, false, 1)
            .real(FieldIds.BID, bids.get(name), RealHints.EXPONENT_2);
        check(encoder.complete());
        return publisher.refresh(serviceId, handle, ++sequence, System.nanoTime(), requestId,
            DomainTypes.MARKET_PRICE, flags, nameBytes, 0, nameBytes.capacity(), rwf, 0, writer.encodedLength()) > 0;
    }

    @Override
    public void onItemClose(
        final int consumerId, final int sourceIndex, final long distributorEpoch, final int serviceId,
        final int itemHandle)
    {
        closes.add("handle=" + itemHandle + " epoch=" +
            (0 == distributorEpoch ? "unknown" : epoch == distributorEpoch ? "mine" : "other"));
    }

    @Override
    public boolean onRecoveryRequest(
        final int consumerId, final int serviceId, final int itemHandle, final int domainType, final long lastSequence)
    {
        recoveryRequests.incrementAndGet();
        if (isIgnoringRecoveryRequests || serviceId != this.serviceId)
        {
            return true;
        }
        for (final Map.Entry<String, Integer> item : handles.entrySet())
        {
            if (itemHandle < 0 || itemHandle == item.getValue())
            {
                image(item.getKey(), item.getValue(), 0, RECOVERY_FLAGS);
            }
        }
        return true;
    }

    @Override
    public int count()
    {
        return 1;
    }

    @Override
    public int serviceId(final int index)
    {
        return serviceId;
    }

    @Override
    public String name(final int index)
    {
        return serviceName;
    }

    @Override
    public boolean isUp(final int index)
    {
        return isServiceUp;
    }

    @Override
    public boolean isAcceptingRequests(final int index)
    {
        return true;
    }

    @Override
    public long lastSequence(final int index)
    {
        return sequence;
    }

    @Override
    public int itemCount(final int index)
    {
        return itemCount;
    }

    @Override
    public long capabilities(final int index)
    {
        return (1L << DomainTypes.MARKET_PRICE) | (1L << DomainTypes.MARKET_BY_ORDER);
    }

    @Override
    public void close() throws InterruptedException
    {
        if (isRunning)
        {
            isRunning = false;
            thread.join(5_000);
            control.close();
            data.close();
        }
    }

    private static void check(final int result)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            throw new IllegalStateException("encoding failed: " + result);
        }
    }
}
