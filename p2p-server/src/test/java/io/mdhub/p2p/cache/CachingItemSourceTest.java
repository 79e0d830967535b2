package io.mdhub.p2p.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;

import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.RwfTestSupport;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.FieldListWriter;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;

/**
 * The cache between a worker and its source, on a real event loop: a new watcher's image is answered from the cache
 * (later, never inside the call) with every update applied, and only a servable image is answered — Suspect,
 * malformed or snapshot items go upstream.
 */
@InterruptAfter(30)
class CachingItemSourceTest
{
    private static final int ITEM = 3;
    private static final int SERVICE_ID = 5;
    private static final String NAME = "TRI.N";

    private final EventLoop eventLoop = new DefaultEventLoop();
    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));
    private final AtomicCounter hits = counters.newCounter("hits");
    private final AtomicCounter misses = counters.newCounter("misses");
    private final RecordingWorker worker = new RecordingWorker();
    private final FakeUpstream upstream = new FakeUpstream();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final MarketPriceEncoder encoder = new MarketPriceEncoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[4096]);
    private ItemSource cache;

    @AfterEach
    void close()
    {
        eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void onLoop(final Runnable action)
    {
        eventLoop.submit(action).syncUninterruptibly();
    }

    private void launch()
    {
        onLoop(() -> cache = CachingItemSource.factory((index, loop, listener) ->
        {
            upstream.listener = listener;
            return upstream;
        }, hits, misses).newItemSource(0, eventLoop, worker));
    }

    private void openStreaming(final boolean streaming)
    {
        final byte[] name = NAME.getBytes(StandardCharsets.US_ASCII);
        onLoop(() -> cache.open(ITEM, DomainTypes.MARKET_PRICE, SERVICE_ID, new UnsafeBuffer(name), 0, name.length,
            streaming, null));
    }

    private UnsafeBuffer refresh(final long bid, final long ask)
    {
        final byte[] name = NAME.getBytes(StandardCharsets.US_ASCII);
        final FieldListWriter fields = encoder.beginRefresh(writer.begin(scratch, 0, scratch.capacity()), -1,
            SERVICE_ID, new UnsafeBuffer(name), 0, name.length, StreamStates.OPEN, DataStates.OK, true, 1);
        fields.real(FieldIds.BID, bid, 12).real(FieldIds.ASK, ask, 12);
        return copy(encoder.complete());
    }

    private UnsafeBuffer update(final long bid)
    {
        encoder.beginUpdate(writer.begin(scratch, 0, scratch.capacity()), -1, UpdateEventTypes.QUOTE)
            .real(FieldIds.BID, bid, 12);
        return copy(encoder.complete());
    }

    private UnsafeBuffer updateAsk(final long ask)
    {
        encoder.beginUpdate(writer.begin(scratch, 0, scratch.capacity()), -1, UpdateEventTypes.QUOTE)
            .real(FieldIds.ASK, ask, 12);
        return copy(encoder.complete());
    }

    private UnsafeBuffer status(final int dataState)
    {
        return copy(encoder.encodeStatus(writer.begin(scratch, 0, scratch.capacity()), -1, StreamStates.OPEN,
            dataState, StateCodes.NONE, "test"));
    }

    private UnsafeBuffer copy(final int result)
    {
        assertEquals(CodecReturnCodes.SUCCESS, result);
        final byte[] bytes = new byte[writer.encodedLength()];
        scratch.getBytes(0, bytes);
        return new UnsafeBuffer(bytes);
    }

    private void fromUpstream(final UnsafeBuffer message, final char kind)
    {
        onLoop(() ->
        {
            switch (kind)
            {
                case 'R' -> upstream.listener.onRefresh(ITEM, true, message, 0, message.capacity());
                case 'U' -> upstream.listener.onUpdate(ITEM, message, 0, message.capacity());
                default -> upstream.listener.onStatus(ITEM, message, 0, message.capacity());
            }
        });
    }

    private byte[] askForImage()
    {
        final int before = worker.refreshes.size();
        onLoop(() ->
        {
            cache.refresh(ITEM);
            assertEquals(before, worker.refreshes.size(), "never answered inside the call");
        });
        onLoop(() -> { }); // the answer task ran before this one
        return worker.refreshes.size() > before ? worker.refreshes.get(worker.refreshes.size() - 1) : null;
    }

    @Test
    void newWatcherGetsTheImageWithEveryUpdateFromTheCache()
    {
        launch();
        openStreaming(true);
        fromUpstream(refresh(100, 101), 'R');
        fromUpstream(update(102), 'U');
        fromUpstream(update(103), 'U');

        final byte[] answer = askForImage();
        assertEquals(0, upstream.refreshes, "nothing went upstream");
        assertEquals(1, hits.get());
        final RefreshMsg refresh = (RefreshMsg)RwfTestSupport.decode(answer);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass());
        assertTrue(refresh.checkSolicited());
        assertTrue(refresh.checkRefreshComplete());
        assertEquals(SERVICE_ID, refresh.msgKey().serviceId());
        assertEquals(NAME, refresh.msgKey().name().toString());
        final Map<Integer, byte[]> fields = EtaFieldLists.decode(RwfTestSupport.bytes(refresh.encodedDataBody()));
        assertEquals(EtaFieldLists.decode(new EtaFieldLists().begin(1, 0).real(FieldIds.BID, 103, 12)
            .real(FieldIds.ASK, 101, 12).end()).keySet(), fields.keySet());
        assertTrue(java.util.Arrays.equals(fields.get(FieldIds.BID), EtaFieldLists.decode(
            new EtaFieldLists().begin(0, 0).real(FieldIds.BID, 103, 12).end()).get(FieldIds.BID)), "latest BID");
    }

    @Test
    void updatesOfABatchAreAppliedAfterItInTheirOrderAroundARefresh()
    {
        launch();
        openStreaming(true);
        fromUpstream(refresh(100, 101), 'R');
        final UnsafeBuffer first = updateAsk(99);
        final UnsafeBuffer replacement = refresh(110, 111);
        final UnsafeBuffer last = update(104);
        onLoop(() ->
        {
            upstream.listener.onBatchStart();
            upstream.listener.onUpdate(ITEM, first, 0, first.capacity());
            upstream.listener.onRefresh(ITEM, false, replacement, 0, replacement.capacity());
            upstream.listener.onUpdate(ITEM, last, 0, last.capacity());
            assertEquals(4, worker.messages, "the worker gets each message as it comes");
            upstream.listener.onBatchEnd();
        });

        final Map<Integer, byte[]> fields = EtaFieldLists.decode(RwfTestSupport.bytes(
            ((RefreshMsg)RwfTestSupport.decode(askForImage())).encodedDataBody()));
        assertTrue(java.util.Arrays.equals(fields.get(FieldIds.BID), EtaFieldLists.decode(
            new EtaFieldLists().begin(0, 0).real(FieldIds.BID, 104, 12).end()).get(FieldIds.BID)),
            "the update after the refresh is applied");
        assertTrue(java.util.Arrays.equals(fields.get(FieldIds.ASK), EtaFieldLists.decode(
            new EtaFieldLists().begin(0, 0).real(FieldIds.ASK, 111, 12).end()).get(FieldIds.ASK)),
            "the update before the refresh is not applied over it");
    }

    @Test
    void suspectImageGoesUpstreamAndOkAgainIsServedLocally()
    {
        launch();
        openStreaming(true);
        fromUpstream(refresh(100, 101), 'R');
        fromUpstream(status(DataStates.SUSPECT), 'S');
        assertEquals(null, askForImage());
        assertEquals(1, upstream.refreshes);
        assertEquals(1, misses.get());

        fromUpstream(refresh(110, 111), 'R'); // recovery
        assertTrue(null != askForImage());
        assertEquals(1, upstream.refreshes);
        assertEquals(1, hits.get());
    }

    @Test
    void malformedUpdateUncachesUntilTheNextRefresh()
    {
        launch();
        openStreaming(true);
        fromUpstream(refresh(100, 101), 'R');
        final UnsafeBuffer good = update(102);
        final UnsafeBuffer truncated = new UnsafeBuffer(new byte[good.capacity() - 3]);
        truncated.putBytes(0, good, 0, truncated.capacity());
        fromUpstream(truncated, 'U');
        assertEquals(2, worker.messages, "the worker still gets every message");
        assertEquals(null, askForImage());
        assertEquals(1, upstream.refreshes);

        fromUpstream(refresh(120, 121), 'R');
        assertTrue(null != askForImage(), "cached again after a good refresh");
    }

    @Test
    void snapshotItemsAreNotCachedAndClosedItemsForgotten()
    {
        launch();
        openStreaming(false);
        fromUpstream(refresh(100, 101), 'R');
        assertEquals(null, askForImage());
        assertEquals(1, upstream.refreshes);

        openStreaming(true); // upgrade
        fromUpstream(refresh(100, 101), 'R');
        assertTrue(null != askForImage());

        onLoop(() -> cache.close(ITEM));
        assertEquals(1, upstream.closes);
        assertEquals(null, askForImage(), "a closed id is not answered from the old image");
        assertFalse(upstream.refreshes < 2);
    }

    /**
     * For a consumer that missed updates (conflate policy): the image as an unsolicited refresh, at once, with every
     * update the worker has had (those of the batch being written too), also while the item is Suspect; nothing for
     * an item without an image.
     */
    @Test
    void writeImageGivesTheLatestImageAtOnceEvenSuspectAndNothingWithoutOne()
    {
        launch();
        openStreaming(true);
        final org.agrona.ExpandableDirectByteBuffer target = new org.agrona.ExpandableDirectByteBuffer(16);
        final int[] length = new int[1];
        onLoop(() -> length[0] = cache.writeImage(ITEM, target));
        assertEquals(ItemSource.NO_IMAGE, length[0], "no refresh yet");

        fromUpstream(refresh(100, 101), 'R');
        final UnsafeBuffer inBatch = update(105);
        onLoop(() ->
        {
            upstream.listener.onBatchStart();
            upstream.listener.onUpdate(ITEM, inBatch, 0, inBatch.capacity());
            length[0] = cache.writeImage(ITEM, target); // as a worker would while it writes the batch
            upstream.listener.onBatchEnd();
        });
        assertTrue(length[0] > 0, "length " + length[0]);
        final byte[] bytes = new byte[length[0]];
        target.getBytes(0, bytes);
        final RefreshMsg refresh = (RefreshMsg)RwfTestSupport.decode(bytes);
        assertFalse(refresh.checkSolicited());
        assertTrue(refresh.checkRefreshComplete());
        final Map<Integer, byte[]> fields = EtaFieldLists.decode(RwfTestSupport.bytes(refresh.encodedDataBody()));
        assertTrue(java.util.Arrays.equals(fields.get(FieldIds.BID), EtaFieldLists.decode(
            new EtaFieldLists().begin(0, 0).real(FieldIds.BID, 105, 12).end()).get(FieldIds.BID)),
            "the update of the batch is in it");
        assertEquals(0, upstream.refreshes, "nothing went upstream");

        fromUpstream(status(DataStates.SUSPECT), 'S');
        onLoop(() -> length[0] = cache.writeImage(ITEM, target));
        assertTrue(length[0] > 0, "a Suspect item still has its latest fields");

        onLoop(() -> cache.close(ITEM));
        onLoop(() -> length[0] = cache.writeImage(ITEM, target));
        assertEquals(ItemSource.NO_IMAGE, length[0], "a closed item has none");
    }

    private static final class RecordingWorker implements ItemSourceListener
    {
        final List<byte[]> refreshes = new ArrayList<>();
        int messages;

        @Override
        public void onRefresh(
            final int itemId, final boolean solicited, final DirectBuffer buffer, final int offset, final int length)
        {
            messages++;
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            refreshes.add(bytes);
        }

        @Override
        public void onUpdate(final int itemId, final DirectBuffer buffer, final int offset, final int length)
        {
            messages++;
        }

        @Override
        public void onStatus(final int itemId, final DirectBuffer buffer, final int offset, final int length)
        {
            messages++;
        }

        @Override
        public void onServiceChanged(final ServiceInfo service)
        {
        }

        @Override
        public void onServiceRemoved(final int serviceId)
        {
        }
    }

    private static final class FakeUpstream implements ItemSource
    {
        ItemSourceListener listener;
        int refreshes;
        int closes;

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
        }

        @Override
        public void refresh(final int itemId)
        {
            refreshes++;
        }

        @Override
        public void close(final int itemId)
        {
            closes++;
        }

        @Override
        public List<ServiceInfo> services()
        {
            return List.of();
        }

        @Override
        public void close()
        {
        }
    }
}
