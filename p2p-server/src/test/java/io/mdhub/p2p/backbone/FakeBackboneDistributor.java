package io.mdhub.p2p.backbone;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;

import io.aeron.Aeron;
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

/**
 * Plays one distributor on the backbone for p2p-server tests, on a thread of its own (the only user of its
 * exclusive publication): announces one service, answers item requests from a small table of items, publishes
 * updates on command, and can skip a sequence number or fall silent to exercise recovery.
 */
final class FakeBackboneDistributor implements AutoCloseable, ControlListener, AnnouncedServices
{
    static final int SERVICE_ID = 1;
    static final String SERVICE_NAME = "NI_PUB";

    final AtomicInteger consumerAnnouncements = new AtomicInteger();
    final AtomicInteger announcements = new AtomicInteger();
    volatile boolean isAnnouncing = true;

    private final ExclusivePublication data;
    private final Subscription control;
    private final MarketDataPublisher publisher;
    private final ControlAdapter adapter;
    private final Map<String, Integer> handles = new HashMap<>();
    private final Map<String, Long> bids = new HashMap<>();
    private final java.util.Set<String> ignoreOnce = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Runnable> actions = new ConcurrentLinkedQueue<>();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final MarketPriceEncoder encoder = new MarketPriceEncoder();
    private final ExpandableArrayBuffer rwf = new ExpandableArrayBuffer(512);
    private final Thread thread;
    private final long epoch = System.nanoTime();
    private volatile boolean isRunning = true;
    private long sequence;
    private long nextAnnounceNs;

    FakeBackboneDistributor(final Aeron aeron, final String channel, final int dataStream, final int controlStream)
    {
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(new byte[16 * 1024]), new UnsafeBuffer(new byte[4 * 1024]));
        final AtomicCounter scratch = counters.newCounter("fake");
        data = aeron.addExclusivePublication(channel, dataStream);
        control = aeron.addSubscription(channel, controlStream);
        publisher = new MarketDataPublisher(new BackbonePublication(data, 3, scratch));
        adapter = new ControlAdapter(this, scratch);
        thread = new Thread(this::run, "fake-distributor");
        thread.setDaemon(true);
        thread.start();
    }

    FakeBackboneDistributor item(final String name, final long bid)
    {
        actions.add(() ->
        {
            handles.put(name, handles.size() + 100);
            bids.put(name, bid);
        });
        return this;
    }

    void update(final String name, final long bid)
    {
        actions.add(() ->
        {
            bids.put(name, bid);
            encoder.beginUpdate(writer.begin(rwf, 0, rwf.capacity()), 0, UpdateEventTypes.QUOTE)
                .real(FieldIds.BID, bid, RealHints.EXPONENT_2);
            check(encoder.complete());
            publisher.update(SERVICE_ID, handles.get(name), ++sequence, System.nanoTime(), rwf, 0,
                writer.encodedLength());
        });
    }

    void ignoreNextRequestFor(final String name)
    {
        ignoreOnce.add(name);
    }

    void skipSequence()
    {
        actions.add(() -> ++sequence);
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
                nextAnnounceNs = now + 50_000_000L;
                if (publisher.announce(7, epoch, 50, now, this) > 0)
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
        consumerAnnouncements.incrementAndGet();
    }

    @Override
    public boolean onItemRequest(
        final int consumerId,
        final long requestId,
        final int serviceId,
        final int domainType,
        final boolean isStreaming,
        final DirectBuffer buffer,
        final int nameOffset,
        final int nameLength)
    {
        final String name = buffer.getStringWithoutLengthAscii(nameOffset, nameLength);
        if (ignoreOnce.remove(name))
        {
            return true; // as if the answer had been lost
        }
        final Integer handle = handles.get(name);
        final long now = System.nanoTime();
        if (null == handle)
        {
            check(encoder.encodeStatus(writer.begin(rwf, 0, rwf.capacity()), 0, StreamStates.CLOSED,
                DataStates.SUSPECT, StateCodes.NOT_FOUND, "item not found"));
            return publisher.status(serviceId, -1, ++sequence, now, requestId, StreamStates.CLOSED,
                DataStates.SUSPECT, rwf, 0, writer.encodedLength()) > 0;
        }
        final UnsafeBuffer nameBytes = new UnsafeBuffer(name.getBytes(StandardCharsets.US_ASCII));
        encoder.beginRefresh(writer.begin(rwf, 0, rwf.capacity()), 0, SERVICE_ID, nameBytes, 0, nameLength,
            StreamStates.OPEN, DataStates.OK, false, 1)
            .real(FieldIds.BID, bids.get(name), RealHints.EXPONENT_2);
        check(encoder.complete());
        return publisher.refresh(serviceId, handle, ++sequence, now, requestId, DomainTypes.MARKET_PRICE,
            RefreshFlags.SOLICITED | RefreshFlags.COMPLETE | RefreshFlags.CLEAR_CACHE, nameBytes, 0, nameLength,
            rwf, 0, writer.encodedLength()) > 0;
    }

    @Override
    public void onItemClose(final int consumerId, final int serviceId, final int itemHandle)
    {
    }

    @Override
    public boolean onRecoveryRequest(
        final int consumerId, final int serviceId, final int itemHandle, final long lastSequence)
    {
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
        return SERVICE_ID;
    }

    @Override
    public String name(final int index)
    {
        return SERVICE_NAME;
    }

    @Override
    public boolean isUp(final int index)
    {
        return true;
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
        return handles.size();
    }

    @Override
    public long capabilities(final int index)
    {
        return 1L << DomainTypes.MARKET_PRICE;
    }

    @Override
    public void close() throws InterruptedException
    {
        isRunning = false;
        thread.join(5_000);
        control.close();
        data.close();
    }

    private static void check(final int result)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            throw new IllegalStateException("encoding failed: " + result);
        }
    }
}
