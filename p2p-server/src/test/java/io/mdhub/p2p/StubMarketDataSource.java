package io.mdhub.p2p;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.FieldListWriter;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ItemSourceFactory;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.channel.EventLoop;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A market data source for tests: a configurable set of services and MarketPrice items (images of Real fields),
 * serving each fan-out worker through its own {@link ItemSource} on that worker's event loop, as the backbone
 * consumer will. Refreshes, updates and statuses are encoded with ETA ({@link MarketPriceEncoder}) exactly as a
 * non-interactive provider sends them: negative streamIds, refreshes not SOLICITED. Updates carry a per-item
 * sequence so a refresh taken from the image is never followed by an update it already contains.
 * <p>
 * The test thread calls {@link #update}, {@link #serviceDown} and {@link #serviceUp}; they change the image under a
 * lock and queue the messages on every worker's event loop, so each worker sees them in order.
 */
final class StubMarketDataSource implements ItemSourceFactory
{
    private static final int PROVIDER_STREAM_ID = -2;
    private static final int DICTIONARY_ID = 1;
    private static final int HINT = 12; // RealHints.EXPONENT_2

    private final Object lock = new Object();
    private final LinkedHashMap<Integer, ServiceInfo> services = new LinkedHashMap<>();
    private final HashMap<String, StubItem> items = new HashMap<>();
    private final List<StubItemSource> sources = new CopyOnWriteArrayList<>();
    private final StubEncoder sharedEncoder = new StubEncoder();
    private final Map<String, byte[]> locks = new java.util.concurrent.ConcurrentHashMap<>();
    final AtomicInteger opens = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();
    final AtomicInteger refreshRequests = new AtomicInteger();

    StubMarketDataSource service(final int serviceId, final String name)
    {
        synchronized (lock)
        {
            services.put(serviceId, new ServiceInfo(serviceId, name, true, true, DomainTypes.MARKET_PRICE));
        }
        return this;
    }

    /**
     * Add an item with an image: pairs of (fid, mantissa) with hint EXPONENT_2 (prices) for every field.
     */
    StubMarketDataSource item(final int serviceId, final String name, final long... fidMantissaPairs)
    {
        synchronized (lock)
        {
            final StubItem item = new StubItem(serviceId, name);
            for (int i = 0; i < fidMantissaPairs.length; i += 2)
            {
                item.image.put((int)fidMantissaPairs[i], fidMantissaPairs[i + 1]);
            }
            items.put(key(serviceId, name), item);
        }
        return this;
    }

    /**
     * Give an item a lock: its refreshes carry it as PermData (text, e.g. {@code "62,144"}).
     */
    StubMarketDataSource lock(final int serviceId, final String name, final String permData)
    {
        locks.put(key(serviceId, name), permData.getBytes(StandardCharsets.US_ASCII));
        return this;
    }

    /**
     * @return worker sources made and not yet closed.
     */
    int openSources()
    {
        return sources.size();
    }

    Map<Integer, Long> image(final int serviceId, final String name)
    {
        synchronized (lock)
        {
            return new TreeMap<>(items.get(key(serviceId, name)).image);
        }
    }

    /**
     * Change fields of an item and send them as one update to every worker watching it.
     *
     * @param filler bytes of DSPLY_NAME to add (0 for none): makes updates big for slow-consumer tests.
     */
    void update(final int serviceId, final String name, final int filler, final long... fidMantissaPairs)
    {
        synchronized (lock)
        {
            final StubItem item = items.get(key(serviceId, name));
            final long seq = ++item.seq;
            for (int i = 0; i < fidMantissaPairs.length; i += 2)
            {
                item.image.put((int)fidMantissaPairs[i], fidMantissaPairs[i + 1]);
            }
            final UnsafeBuffer message = sharedEncoder.update(filler, fidMantissaPairs);
            final long[] pairs = fidMantissaPairs.clone();
            for (final StubItemSource source : sources)
            {
                source.eventLoop.execute(() -> source.deliverUpdate(item.key, seq, pairs, message));
            }
        }
    }

    /**
     * The item's provider locks it anew in an open, OK StatusMsg's PermData (its later refreshes carry the lock too),
     * sent to every worker watching it.
     */
    void lockByStatus(final int serviceId, final String name, final String permData)
    {
        synchronized (lock)
        {
            final String key = key(serviceId, name);
            final byte[] bytes = permData.getBytes(StandardCharsets.US_ASCII);
            locks.put(key, bytes);
            for (final StubItemSource source : sources)
            {
                source.eventLoop.execute(() -> source.deliverLockStatus(key, bytes));
            }
        }
    }

    void serviceDown(final int serviceId)
    {
        changeService(serviceId, false);
    }

    void serviceUp(final int serviceId)
    {
        changeService(serviceId, true);
    }

    private void changeService(final int serviceId, final boolean isUp)
    {
        synchronized (lock)
        {
            final ServiceInfo info = services.get(serviceId).withState(isUp);
            services.put(serviceId, info);
            for (final StubItemSource source : sources)
            {
                source.eventLoop.execute(() -> source.serviceChanged(info));
            }
        }
    }

    @Override
    public ItemSource newItemSource(final int workerIndex, final EventLoop eventLoop, final ItemSourceListener listener)
    {
        final StubItemSource source = new StubItemSource(eventLoop, listener);
        sources.add(source);
        return source;
    }

    private static String key(final int serviceId, final String name)
    {
        return serviceId + "/" + name;
    }

    private static final class StubItem
    {
        final int serviceId;
        final String name;
        final String key;
        final TreeMap<Integer, Long> image = new TreeMap<>();
        long seq;

        StubItem(final int serviceId, final String name)
        {
            this.serviceId = serviceId;
            this.name = name;
            this.key = key(serviceId, name);
        }
    }

    private static final class OpenItem
    {
        final String key;
        final int serviceId;
        final String name;
        final TreeMap<Integer, Long> image = new TreeMap<>();
        boolean isStreaming;
        long seq = -1;

        OpenItem(final String key, final int serviceId, final String name, final boolean isStreaming)
        {
            this.key = key;
            this.serviceId = serviceId;
            this.name = name;
            this.isStreaming = isStreaming;
        }
    }

    /**
     * Encodes MarketPrice messages as a non-interactive provider would; one per thread that encodes.
     */
    private static final class StubEncoder
    {
        private final EtaMsgWriter writer = new EtaMsgWriter();
        private final MarketPriceEncoder encoder = new MarketPriceEncoder();
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64 * 1024]);

        UnsafeBuffer refresh(
            final int serviceId,
            final String name,
            final Map<Integer, Long> image,
            final int streamState,
            final int dataState)
        {
            final byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
            final FieldListWriter fields = encoder.beginRefresh(writer.begin(buffer, 0, buffer.capacity()),
                PROVIDER_STREAM_ID, serviceId, new UnsafeBuffer(nameBytes), 0, nameBytes.length, streamState,
                dataState, false, DICTIONARY_ID);
            for (final Map.Entry<Integer, Long> field : image.entrySet())
            {
                fields.real(field.getKey(), field.getValue(), HINT);
            }
            check(encoder.complete());
            return copy();
        }

        UnsafeBuffer update(final int filler, final long... fidMantissaPairs)
        {
            final FieldListWriter fields = encoder.beginUpdate(
                writer.begin(buffer, 0, buffer.capacity()), PROVIDER_STREAM_ID, UpdateEventTypes.QUOTE);
            for (int i = 0; i < fidMantissaPairs.length; i += 2)
            {
                fields.real((int)fidMantissaPairs[i], fidMantissaPairs[i + 1], HINT);
            }
            if (filler > 0)
            {
                final UnsafeBuffer text = new UnsafeBuffer(new byte[filler]);
                text.setMemory(0, filler, (byte)'x');
                fields.string(FieldIds.DSPLY_NAME, text, 0, filler);
            }
            check(encoder.complete());
            return copy();
        }

        UnsafeBuffer status(final int streamState, final int dataState, final int code, final String text)
        {
            check(encoder.encodeStatus(writer.begin(buffer, 0, buffer.capacity()), PROVIDER_STREAM_ID,
                streamState, dataState, code, text));
            return copy();
        }

        UnsafeBuffer lockStatus(final byte[] permData)
        {
            final StatusMsg status = (StatusMsg)CodecFactory.createMsg();
            status.msgClass(MsgClasses.STATUS);
            status.domainType(DomainTypes.MARKET_PRICE);
            status.streamId(PROVIDER_STREAM_ID);
            status.containerType(DataTypes.NO_DATA);
            status.flags(StatusMsgFlags.HAS_STATE | StatusMsgFlags.HAS_PERM_DATA);
            status.state().streamState(StreamStates.OPEN);
            status.state().dataState(DataStates.OK);
            status.state().code(StateCodes.NONE);
            final Buffer lockBytes = CodecFactory.createBuffer();
            lockBytes.data(java.nio.ByteBuffer.wrap(permData));
            status.permData(lockBytes);
            check(status.encode(writer.begin(buffer, 0, buffer.capacity())));
            return copy();
        }

        private UnsafeBuffer copy()
        {
            final byte[] bytes = new byte[writer.encodedLength()];
            buffer.getBytes(0, bytes);
            return new UnsafeBuffer(bytes);
        }

        private static void check(final int result)
        {
            if (CodecReturnCodes.SUCCESS != result)
            {
                throw new IllegalStateException("encode failed: " + CodecReturnCodes.toString(result));
            }
        }
    }

    /**
     * One worker's view, touched only on that worker's event loop. Like a per-worker cache it keeps its own image
     * of each open item, moved on by the updates it delivers, so a refresh it answers later is exactly the state
     * the item's existing watchers have seen.
     */
    private final class StubItemSource implements ItemSource
    {
        private final EventLoop eventLoop;
        private final ItemSourceListener listener;
        private final HashMap<Integer, OpenItem> open = new HashMap<>();
        private final StubEncoder encoder = new StubEncoder();

        StubItemSource(final EventLoop eventLoop, final ItemSourceListener listener)
        {
            this.eventLoop = eventLoop;
            this.listener = listener;
        }

        @Override
        @SuppressWarnings("checkstyle:ParameterNumber") // the ItemSource's primitives
        public void open(
            final int itemId,
            final int domainType,
            final int serviceId,
            final DirectBuffer name,
            final int nameOffset,
            final int nameLength,
            final boolean streaming,
            final FieldView view)
        {
            opens.incrementAndGet();
            final String itemName = name.getStringWithoutLengthAscii(nameOffset, nameLength);
            final OpenItem existing = open.get(itemId);
            if (null != existing)
            {
                existing.isStreaming |= streaming;
            }
            else
            {
                open.put(itemId, new OpenItem(key(serviceId, itemName), serviceId, itemName, streaming));
            }
            eventLoop.execute(() -> answer(itemId, domainType));
        }

        @Override
        public void refresh(final int itemId)
        {
            refreshRequests.incrementAndGet();
            eventLoop.execute(() -> answer(itemId, DomainTypes.MARKET_PRICE));
        }

        @Override
        public void close(final int itemId)
        {
            if (null != open.remove(itemId))
            {
                closes.incrementAndGet();
            }
        }

        @Override
        public List<ServiceInfo> services()
        {
            synchronized (lock)
            {
                return new ArrayList<>(services.values());
            }
        }

        @Override
        public void close()
        {
            open.clear();
            sources.remove(this);
        }

        private boolean isUp(final int serviceId)
        {
            synchronized (lock)
            {
                return services.get(serviceId).isUp();
            }
        }

        private void answer(final int itemId, final int domainType)
        {
            final OpenItem openItem = open.get(itemId);
            if (null == openItem)
            {
                return;
            }
            if (openItem.seq < 0)
            {
                synchronized (lock)
                {
                    final StubItem item = items.get(openItem.key);
                    if (null != item && DomainTypes.MARKET_PRICE == domainType)
                    {
                        openItem.image.putAll(item.image);
                        openItem.seq = item.seq;
                    }
                }
            }
            if (openItem.seq < 0)
            {
                open.remove(itemId);
                final UnsafeBuffer status = encoder.status(
                    StreamStates.CLOSED, DataStates.SUSPECT, StateCodes.NOT_FOUND, "Item not found");
                listener.onStatus(itemId, status, 0, status.capacity());
                return;
            }
            encoder.encoder.permData(locks.get(openItem.key));
            final UnsafeBuffer refresh = encoder.refresh(openItem.serviceId, openItem.name, openItem.image,
                openItem.isStreaming ? StreamStates.OPEN : StreamStates.NON_STREAMING,
                isUp(openItem.serviceId) ? DataStates.OK : DataStates.SUSPECT);
            if (!openItem.isStreaming)
            {
                open.remove(itemId);
            }
            listener.onRefresh(itemId, true, refresh, 0, refresh.capacity());
        }

        private void deliverUpdate(final String key, final long updateSeq, final long[] pairs, final DirectBuffer msg)
        {
            for (final Map.Entry<Integer, OpenItem> entry : open.entrySet())
            {
                final OpenItem openItem = entry.getValue();
                if (openItem.key.equals(key) && openItem.seq >= 0 && updateSeq > openItem.seq)
                {
                    openItem.seq = updateSeq;
                    for (int i = 0; i < pairs.length; i += 2)
                    {
                        openItem.image.put((int)pairs[i], pairs[i + 1]);
                    }
                    listener.onUpdate(entry.getKey(), msg, 0, msg.capacity());
                }
            }
        }

        private void deliverLockStatus(final String key, final byte[] permData)
        {
            for (final Map.Entry<Integer, OpenItem> entry : new ArrayList<>(open.entrySet()))
            {
                if (entry.getValue().key.equals(key) && entry.getValue().seq >= 0)
                {
                    final UnsafeBuffer status = encoder.lockStatus(permData);
                    listener.onStatus(entry.getKey(), status, 0, status.capacity());
                }
            }
        }

        private void serviceChanged(final ServiceInfo info)
        {
            listener.onServiceChanged(info);
            for (final Map.Entry<Integer, OpenItem> entry : new ArrayList<>(open.entrySet()))
            {
                final OpenItem openItem = entry.getValue();
                if (openItem.serviceId != info.serviceId() || openItem.seq < 0)
                {
                    continue;
                }
                if (info.isUp())
                {
                    encoder.encoder.permData(locks.get(openItem.key));
                    final UnsafeBuffer refresh = encoder.refresh(
                        openItem.serviceId, openItem.name, openItem.image, StreamStates.OPEN, DataStates.OK);
                    listener.onRefresh(entry.getKey(), false, refresh, 0, refresh.capacity());
                }
                else
                {
                    final UnsafeBuffer status = encoder.status(
                        StreamStates.OPEN, DataStates.SUSPECT, StateCodes.NONE, "Service down");
                    listener.onStatus(entry.getKey(), status, 0, status.capacity());
                }
            }
        }
    }
}
