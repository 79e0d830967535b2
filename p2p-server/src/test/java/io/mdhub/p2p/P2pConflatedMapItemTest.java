package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.cache.EtaMaps;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ItemSourceFactory;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.channel.EventLoop;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The conflate policy on a Map item (an order book): a consumer that was behind gets the book's latest entries as an
 * unsolicited refresh that clears its copy, not an update, which could not remove the orders that went away.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class P2pConflatedMapItemTest
{
    private static final int SERVICE_ID = 1;
    private static final String BOOK = "BOOK.L";
    private static final int LIVE_ORDERS = 5;
    private static final int UPDATES = 20_000;
    private static final int STREAM = 5;
    private static final String FILLER = "x".repeat(400);

    private final StubBookSource source = new StubBookSource();
    private P2pServer server;
    private EtaConsumer consumer;

    @AfterEach
    void tearDown()
    {
        if (null != consumer)
        {
            consumer.close();
        }
        if (null != server)
        {
            server.close();
        }
    }

    @Test
    void aConsumerBehindOnABookGetsItsLatestEntriesAsAnUnsolicitedRefresh()
    {
        server = P2pServer.launch(new P2pServer.Context().port(0).componentName("p2p-book").itemSourceFactory(source)
            .registerMBean(false)
            .slowConsumerPolicy(SlowConsumerPolicy.CONFLATE)
            .guaranteedOutputBytes(64 * 1024)
            .conflateTimeoutNs(TimeUnit.SECONDS.toNanos(60)));
        final P2pCounters counters = server.context().counters();
        consumer = EtaConsumer.connect(server.port());
        consumer.login("book-reader");
        consumer.requestItem(STREAM, DomainTypes.MARKET_BY_ORDER, SERVICE_ID, BOOK, true);
        final Map<String, Long> book = new TreeMap<>();
        apply(consumer.awaitMessage(STREAM), book);
        assertTrue(book.isEmpty());

        // it stops reading while orders come and go: each update adds one and deletes the oldest of six
        for (int i = 1; i <= UPDATES; i++)
        {
            source.publish(i);
            if (0 == i % 100)
            {
                final long sent = i;
                MdTests.await("the worker keeping up", () -> sent - source.delivered < 1_000);
            }
        }
        MdTests.await("every update delivered", () -> UPDATES == source.delivered);
        assertTrue(counters.updatesConflated().get() > 0, "updates were held back");

        // it reads again: the stream ends with the book's live orders exactly, never a deleted one
        int refreshes = 0;
        while (!book.equals(expectedBook()))
        {
            final EtaMessage message = consumer.awaitMessage(STREAM);
            if (MsgClasses.REFRESH == message.msgClass())
            {
                refreshes++;
                assertFalse(message.isSolicited(), message::toString);
                assertTrue(0 != (message.flags() & RefreshMsgFlags.CLEAR_CACHE), message::toString);
            }
            else
            {
                assertEquals(MsgClasses.UPDATE, message.msgClass(), message::toString);
            }
            apply(message, book);
        }
        assertEquals(1, refreshes, "one refresh for the missed updates");
        assertEquals(0, counters.disconnects(DisconnectReason.SLOW_CONSUMER).get());
    }

    private static Map<String, Long> expectedBook()
    {
        final Map<String, Long> book = new TreeMap<>();
        for (int i = UPDATES - LIVE_ORDERS + 1; i <= UPDATES; i++)
        {
            book.put(key(i), (long)i);
        }
        return book;
    }

    private static String key(final int order)
    {
        return "O" + order;
    }

    /**
     * Apply a refresh (clearing first) or an update to the consumer's copy of the book: key to the order's BID.
     */
    private static void apply(final EtaMessage message, final Map<String, Long> book)
    {
        if (MsgClasses.REFRESH == message.msgClass())
        {
            book.clear();
        }
        for (final EtaMaps.Entry entry : EtaMaps.decodePayload(message.bytes()).entries)
        {
            if (MapEntryActions.DELETE == entry.action)
            {
                assertTrue(null != book.remove(entry.key), () -> "a delete of an order it has: " + entry.key);
            }
            else
            {
                book.put(entry.key, Long.parseLong(entry.key.substring(1)));
            }
        }
    }

    /**
     * One MarketByOrder item served on each worker's event loop; the test thread publishes order n (add O(n),
     * delete O(n - 6)).
     */
    private static final class StubBookSource implements ItemSourceFactory
    {
        volatile int delivered;
        private volatile Worker worker;

        void publish(final int order)
        {
            final EtaMaps map = new EtaMaps().begin()
                .add(key(order), new EtaFieldLists().begin(1, 0).real(FieldIds.BID, order, 12)
                    .ascii(FieldIds.DSPLY_NAME, FILLER).end());
            if (order > LIVE_ORDERS)
            {
                map.delete(key(order - LIVE_ORDERS));
            }
            final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
            update.msgClass(MsgClasses.UPDATE);
            update.domainType(DomainTypes.MARKET_BY_ORDER);
            update.streamId(-2);
            update.containerType(DataTypes.MAP);
            final UnsafeBuffer message = encode(update, map.end());
            final Worker target = worker;
            target.eventLoop.execute(() -> target.deliver(message));
        }

        @Override
        public ItemSource newItemSource(final int workerIndex, final EventLoop eventLoop,
            final ItemSourceListener listener)
        {
            final Worker source = new Worker(eventLoop, listener);
            worker = source;
            return source;
        }

        private static UnsafeBuffer encode(final Msg msg, final byte[] payload)
        {
            final Buffer body = CodecFactory.createBuffer();
            body.data(ByteBuffer.wrap(payload));
            msg.encodedDataBody(body);
            final ByteBuffer out = ByteBuffer.allocate(payload.length + 256);
            final Buffer buffer = CodecFactory.createBuffer();
            buffer.data(out);
            final EncodeIterator it = CodecFactory.createEncodeIterator();
            it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
            assertEquals(CodecReturnCodes.SUCCESS, msg.encode(it));
            final byte[] bytes = new byte[out.position()];
            out.get(0, bytes);
            return new UnsafeBuffer(bytes);
        }

        private final class Worker implements ItemSource
        {
            private final EventLoop eventLoop;
            private final ItemSourceListener listener;
            private int itemId = -1;

            Worker(final EventLoop eventLoop, final ItemSourceListener listener)
            {
                this.eventLoop = eventLoop;
                this.listener = listener;
            }

            @Override
            @SuppressWarnings("checkstyle:ParameterNumber")
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
                this.itemId = itemId;
                eventLoop.execute(this::answer);
            }

            @Override
            public void refresh(final int itemId)
            {
                eventLoop.execute(this::answer);
            }

            private void answer()
            {
                final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
                refresh.msgClass(MsgClasses.REFRESH);
                refresh.domainType(DomainTypes.MARKET_BY_ORDER);
                refresh.streamId(-2);
                refresh.containerType(DataTypes.MAP);
                refresh.flags(RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.REFRESH_COMPLETE |
                    RefreshMsgFlags.CLEAR_CACHE);
                refresh.msgKey().applyHasServiceId();
                refresh.msgKey().serviceId(SERVICE_ID);
                refresh.msgKey().applyHasName();
                refresh.msgKey().name().data(ByteBuffer.wrap(BOOK.getBytes(StandardCharsets.US_ASCII)));
                refresh.state().streamState(StreamStates.OPEN);
                refresh.state().dataState(DataStates.OK);
                final UnsafeBuffer message = encode(refresh, new EtaMaps().begin().end()); // empty until published
                listener.onRefresh(itemId, true, message, 0, message.capacity());
            }

            void deliver(final UnsafeBuffer message)
            {
                listener.onUpdate(itemId, message, 0, message.capacity());
                delivered++;
            }

            @Override
            public void close(final int itemId)
            {
                this.itemId = -1;
            }

            @Override
            public List<ServiceInfo> services()
            {
                return List.of(new ServiceInfo(SERVICE_ID, "BOOKS", true, true, DomainTypes.MARKET_BY_ORDER));
            }

            @Override
            public void close()
            {
            }
        }
    }
}
