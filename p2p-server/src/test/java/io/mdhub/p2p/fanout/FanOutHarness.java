package io.mdhub.p2p.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.Array;
import com.refinitiv.eta.codec.ArrayEntry;
import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CloseMsg;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.UInt;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.Dictionary;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.ElementNames;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.rdm.ViewTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;
import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.entitlement.EntitlementFile;
import io.mdhub.common.entitlement.EntitlementSource;
import io.mdhub.common.entitlement.EntitlementTable;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.entitlement.TokenValidator;
import io.mdhub.common.ripc.RipcChannelSettings;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcCounters;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.ripc.RipcVersion;
import io.mdhub.common.test.eta.EtaChannel;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.p2p.FlushProfile;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.SlowConsumerPolicy;
import io.mdhub.p2p.entitlement.ConsumerEntitlements;
import io.mdhub.p2p.entitlement.RecordingUsageLog;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

/**
 * One fan-out worker without sockets: its event loop is an {@link EmbeddedChannel}'s (timers run when the test
 * advances its clock), each consumer is an {@link EmbeddedChannel} around the worker's {@link ConsumerSession}, the
 * item source is a {@link RecordingItemSource} the test plays the upstream side of, the counters live in memory and
 * the usage records in a {@link RecordingUsageLog}. Requests are encoded with ETA; what a consumer is sent is decoded
 * with ETA ({@link EtaMessage}). Every buffer read is released.
 */
final class FanOutHarness implements AutoCloseable
{
    static final int FEED = 1;
    static final String FEED_NAME = "DIRECT_FEED";
    static final int OTHER = 2;
    static final String OTHER_NAME = "OTHER_FEED";
    static final int LOGIN_STREAM = 1;
    private static final int COUNTERS = 256;

    private final EmbeddedChannel loop = new EmbeddedChannel();
    private final ArrayList<Consumer> consumers = new ArrayList<>();
    final RecordingItemSource source = new RecordingItemSource()
        .service(new ServiceInfo(FEED, FEED_NAME, true, true, DomainTypes.MARKET_PRICE))
        .service(new ServiceInfo(OTHER, OTHER_NAME, true, true, DomainTypes.MARKET_PRICE));
    final P2pCounters counters = newCounters();
    final RecordingUsageLog usage = new RecordingUsageLog();
    final FanOutWorker worker;
    private EntitlementTable table;
    private long nextConnectionId = 1;

    /**
     * A worker with an open entitlement table (everyone may do everything).
     */
    FanOutHarness(final int maxItemsPerConsumer, final int maxItems)
    {
        this(maxItemsPerConsumer, maxItems, EntitlementTable.OPEN);
    }

    /**
     * @param entitlementFile the lines of an entitlement file.
     */
    FanOutHarness(final int maxItemsPerConsumer, final int maxItems, final String entitlementFile)
    {
        this(maxItemsPerConsumer, maxItems, EntitlementFile.parse(entitlementFile.lines().toList(), "test"));
    }

    private FanOutHarness(final int maxItemsPerConsumer, final int maxItems, final EntitlementTable table)
    {
        this.table = table;
        final EntitlementSource entitlements = new EntitlementSource()
        {
            public EntitlementTable current()
            {
                return FanOutHarness.this.table;
            }

            public void onChange(final Runnable listener)
            {
            }

            public void close()
            {
            }
        };
        final WorkerSettings settings = new WorkerSettings("harness", maxItemsPerConsumer, maxItems, 1 << 24,
            TimeUnit.SECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(1), counters,
            DictionaryLoader::loadBundled, new ConsumerEntitlements(entitlements, TokenValidator.FILE,
            LoginThrottle.off(), usage), TimeUnit.SECONDS.toNanos(5), SlowConsumerPolicy.DISCONNECT,
            TimeUnit.SECONDS.toNanos(30));
        worker = new FanOutWorker(0, loop.eventLoop(), settings, source);
        worker.start();
        loop.runPendingTasks();
    }

    /**
     * @return a server's counters in memory.
     */
    static P2pCounters newCounters()
    {
        return new P2pCounters(new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS * CountersManager.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS * CountersManager.COUNTER_LENGTH))), "harness");
    }

    /**
     * Replace the entitlements (as a changed file does) and tell the worker.
     */
    void entitlements(final String entitlementFile)
    {
        table = EntitlementFile.parse(entitlementFile.lines().toList(), "test");
        worker.onEntitlementsChanged();
    }

    Consumer connect()
    {
        final Consumer consumer = new Consumer(
            new EmbeddedChannel(worker.newSession(nextConnectionId++, FlushProfile.LATENCY)));
        consumers.add(consumer);
        return consumer;
    }

    /**
     * A consumer whose connection ends in the servers' RIPC encoder (packing on), as a socket's does: what it is sent
     * leaves as RIPC frames (read them with {@link Consumer#drain}).
     */
    Consumer connectFramed()
    {
        final CountersManager countersManager = new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS * CountersManager.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS * CountersManager.COUNTER_LENGTH)));
        final RipcChannelSettings settings = new RipcChannelSettings("harness",
            new RipcCounters(countersManager, "harness"), RipcConfiguration.HANDSHAKE_TIMEOUT_DEFAULT_NS,
            RipcConfiguration.PARTIAL_FRAME_TIMEOUT_DEFAULT_NS, RipcConfiguration.MAX_REASSEMBLED_MSG_SIZE_DEFAULT,
            RipcConfiguration.MAX_REASSEMBLY_BYTES_DEFAULT, true);
        final RipcSession session = new RipcSession(RipcVersion.RIPC14, RipcConfiguration.MAX_USER_MSG_SIZE_DEFAULT,
            60, 0, 14, 1, "harness", "", "", 0);
        final Consumer consumer = new Consumer(new EmbeddedChannel(new RipcFrameEncoder(session, settings),
            worker.newSession(nextConnectionId++, FlushProfile.LATENCY)));
        consumers.add(consumer);
        return consumer;
    }

    /**
     * Run the worker's due timers after moving its clock on.
     */
    void advance(final long nanos)
    {
        loop.advanceTimeBy(nanos, TimeUnit.NANOSECONDS);
        loop.runScheduledPendingTasks();
        loop.runPendingTasks();
    }

    /**
     * The source sends an item's refresh: complete, streaming, Open/Ok, a FieldList with BID (22) and ASK (25).
     */
    void refresh(final int itemId, final boolean isSolicited, final int streamState)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(itemId);
        refresh.containerType(DataTypes.NO_DATA);
        refresh.flags(RefreshMsgFlags.REFRESH_COMPLETE | (isSolicited ? RefreshMsgFlags.SOLICITED : 0));
        refresh.state().streamState(streamState);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        final byte[] bytes = EtaChannel.encode(refresh::encode);
        source.listener().onRefresh(itemId, isSolicited, new UnsafeBuffer(bytes), 0, bytes.length);
    }

    @Override
    public void close()
    {
        for (final Consumer consumer : consumers)
        {
            consumer.close();
        }
        worker.close();
        loop.finishAndReleaseAll();
    }

    // ---------------------------------------------------------------- encoders

    /**
     * @return a MarketPrice update as a source sends it (stream 0, no payload).
     */
    static byte[] update()
    {
        final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(DomainTypes.MARKET_PRICE);
        update.streamId(0);
        update.containerType(DataTypes.NO_DATA);
        return EtaChannel.encode(update::encode);
    }

    static byte[] login(final String user, final boolean asProvider)
    {
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(LOGIN_STREAM);
        request.userName().data(user);
        if (asProvider)
        {
            request.applyHasRole();
            request.role(Login.RoleTypes.PROV);
        }
        return EtaChannel.encode(request::encode);
    }

    static byte[] close(final int domainType, final int streamId)
    {
        final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
        close.msgClass(MsgClasses.CLOSE);
        close.domainType(domainType);
        close.streamId(streamId);
        close.containerType(DataTypes.NO_DATA);
        return EtaChannel.encode(close::encode);
    }

    /**
     * A CloseMsg on one stream whose ElementList names more ({@code :StreamIdList}).
     */
    static byte[] batchClose(final int streamId, final int... streamIds)
    {
        final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
        close.msgClass(MsgClasses.CLOSE);
        close.domainType(DomainTypes.MARKET_PRICE);
        close.streamId(streamId);
        close.containerType(DataTypes.ELEMENT_LIST);
        return EtaChannel.encode((it) ->
        {
            final int ret = close.encodeInit(it, 0);
            return ret < CodecReturnCodes.SUCCESS ? ret :
                encodeList(it, close::encodeComplete, ElementNames.BATCH_STREAMID_LIST, DataTypes.INT, streamIds);
        });
    }

    static byte[] directory(final int streamId, final long filter, final boolean isStreaming, final int serviceId)
    {
        final DirectoryRequest request = (DirectoryRequest)DirectoryMsgFactory.createMsg();
        request.rdmMsgType(DirectoryMsgType.REQUEST);
        request.streamId(streamId);
        request.filter(filter);
        if (isStreaming)
        {
            request.applyStreaming();
        }
        if (serviceId >= 0)
        {
            request.applyHasServiceId();
            request.serviceId(serviceId);
        }
        return EtaChannel.encode(request::encode);
    }

    static byte[] dictionary(final int streamId, final String name)
    {
        final DictionaryRequest request = (DictionaryRequest)DictionaryMsgFactory.createMsg();
        request.rdmMsgType(DictionaryMsgType.REQUEST);
        request.streamId(streamId);
        request.serviceId(FEED);
        request.dictionaryName().data(name);
        request.verbosity(Dictionary.VerbosityValues.NORMAL);
        return EtaChannel.encode(request::encode);
    }

    /**
     * A MarketPrice request for a name on a service, with {@link RequestMsgFlags} added to STREAMING (or not).
     */
    static byte[] item(
        final int streamId, final int serviceId, final String name, final boolean isStreaming, final int flags)
    {
        final RequestMsg request = request(streamId, serviceId, isStreaming, flags);
        request.msgKey().applyHasName();
        request.msgKey().name().data(name);
        return EtaChannel.encode(request::encode);
    }

    /**
     * A MarketPrice request (or reissue) with a field-id view.
     */
    static byte[] view(final int streamId, final String name, final int flags, final int... fieldIds)
    {
        final RequestMsg request = request(streamId, FEED, true, flags | RequestMsgFlags.HAS_VIEW);
        request.msgKey().applyHasName();
        request.msgKey().name().data(name);
        request.containerType(DataTypes.ELEMENT_LIST);
        return EtaChannel.encode((it) ->
        {
            final int ret = request.encodeInit(it, 0);
            if (ret < CodecReturnCodes.SUCCESS)
            {
                return ret;
            }
            final ElementList list = CodecFactory.createElementList();
            list.applyHasStandardData();
            check(list.encodeInit(it, null, 0));
            final ElementEntry viewType = CodecFactory.createElementEntry();
            viewType.name(ElementNames.VIEW_TYPE);
            viewType.dataType(DataTypes.UINT);
            final UInt type = CodecFactory.createUInt();
            type.value(ViewTypes.FIELD_ID_LIST);
            check(viewType.encode(it, type));
            encodeArray(it, ElementNames.VIEW_DATA, DataTypes.INT, fieldIds);
            check(list.encodeComplete(it, true));
            return request.encodeComplete(it, true);
        });
    }

    /**
     * A batch request: the items get streams batchStreamId + 1, + 2, ... in list order.
     */
    static byte[] batch(final int batchStreamId, final String... names)
    {
        final RequestMsg request = request(batchStreamId, FEED, true, RequestMsgFlags.HAS_BATCH);
        request.containerType(DataTypes.ELEMENT_LIST);
        return EtaChannel.encode((it) ->
        {
            final int ret = request.encodeInit(it, 0);
            return ret < CodecReturnCodes.SUCCESS ? ret :
                encodeList(it, request::encodeComplete, ElementNames.BATCH_ITEM_LIST, DataTypes.ASCII_STRING, names);
        });
    }

    private static RequestMsg request(
        final int streamId, final int serviceId, final boolean isStreaming, final int flags)
    {
        final RequestMsg request = (RequestMsg)CodecFactory.createMsg();
        request.msgClass(MsgClasses.REQUEST);
        request.domainType(DomainTypes.MARKET_PRICE);
        request.streamId(streamId);
        request.containerType(DataTypes.NO_DATA);
        request.flags(RequestMsgFlags.HAS_QOS | RequestMsgFlags.HAS_PRIORITY | flags |
            (isStreaming ? RequestMsgFlags.STREAMING : 0));
        request.priority().priorityClass(1);
        request.priority().count(1);
        request.qos().timeliness(QosTimeliness.REALTIME);
        request.qos().rate(QosRates.TICK_BY_TICK);
        request.msgKey().applyHasServiceId();
        request.msgKey().serviceId(serviceId);
        request.msgKey().applyHasNameType();
        request.msgKey().nameType(InstrumentNameTypes.RIC);
        return request;
    }

    /**
     * The completion of a message whose payload is an ElementList.
     */
    @FunctionalInterface
    private interface Completion
    {
        int complete(EncodeIterator it, boolean isSuccess);
    }

    private static int encodeList(
        final EncodeIterator it, final Completion completion, final Buffer name, final int type, final Object values)
    {
        final ElementList list = CodecFactory.createElementList();
        list.applyHasStandardData();
        check(list.encodeInit(it, null, 0));
        encodeArray(it, name, type, values);
        check(list.encodeComplete(it, true));
        return completion.complete(it, true);
    }

    private static void encodeArray(final EncodeIterator it, final Buffer name, final int type, final Object values)
    {
        final ElementEntry entry = CodecFactory.createElementEntry();
        entry.name(name);
        entry.dataType(DataTypes.ARRAY);
        check(entry.encodeInit(it, 0));
        final Array array = CodecFactory.createArray();
        array.primitiveType(type);
        array.itemLength(0);
        check(array.encodeInit(it));
        final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
        if (values instanceof int[])
        {
            for (final int value : (int[])values)
            {
                final Int intValue = CodecFactory.createInt();
                intValue.value(value);
                check(arrayEntry.encode(it, intValue));
            }
        }
        else
        {
            for (final String value : (String[])values)
            {
                final Buffer text = CodecFactory.createBuffer();
                text.data(value);
                check(arrayEntry.encode(it, text));
            }
        }
        check(array.encodeComplete(it, true));
        check(entry.encodeComplete(it, true));
    }

    private static void check(final int result)
    {
        assertTrue(result >= CodecReturnCodes.SUCCESS, () -> "ETA encode: " + CodecReturnCodes.toString(result));
    }

    /**
     * One consumer connection of the worker.
     */
    final class Consumer
    {
        final EmbeddedChannel channel;

        private Consumer(final EmbeddedChannel channel)
        {
            this.channel = channel;
        }

        /**
         * Hand the worker one message (then the read's end, which flushes what it answered).
         */
        Consumer send(final byte[] rwf)
        {
            channel.writeInbound(Unpooled.wrappedBuffer(rwf));
            return this;
        }

        /**
         * Log in and read the answer.
         *
         * @return the answer (a refresh when accepted).
         */
        EtaMessage login(final String user)
        {
            send(FanOutHarness.login(user, false));
            final List<EtaMessage> answers = read();
            assertTrue(1 == answers.size(), () -> "one login answer: " + answers);
            return answers.get(0);
        }

        /**
         * @return every message written and flushed to this consumer since the last call, decoded.
         */
        List<EtaMessage> read()
        {
            final List<EtaMessage> messages = new ArrayList<>();
            for (Object out = channel.readOutbound(); null != out; out = channel.readOutbound())
            {
                final ByteBuf buffer = (ByteBuf)out;
                try
                {
                    final byte[] bytes = new byte[buffer.readableBytes()];
                    buffer.getBytes(buffer.readerIndex(), bytes);
                    messages.add(EtaMessage.decode(bytes));
                }
                finally
                {
                    buffer.release();
                }
            }
            return messages;
        }

        /**
         * Take and release what the connection wrote, as a socket would.
         *
         * @return the bytes taken.
         */
        int drain()
        {
            int bytes = 0;
            for (Object out = channel.readOutbound(); null != out; out = channel.readOutbound())
            {
                final ByteBuf buffer = (ByteBuf)out;
                bytes += buffer.readableBytes();
                buffer.release();
            }
            return bytes;
        }

        /**
         * Let the consumer's own timers (a rejected login's linger) run.
         */
        void advance(final long nanos)
        {
            channel.advanceTimeBy(nanos, TimeUnit.NANOSECONDS);
            channel.runScheduledPendingTasks();
            channel.runPendingTasks();
        }

        boolean isOpen()
        {
            channel.runPendingTasks();
            return channel.isOpen();
        }

        void close()
        {
            channel.finishAndReleaseAll();
        }
    }

    /**
     * @return the state code of a Closed status (the test fails on any other message).
     */
    static int closedCode(final EtaMessage message)
    {
        assertEquals(MsgClasses.STATUS, message.msgClass(), message::toString);
        assertEquals(StreamStates.CLOSED, message.streamState(), message::toString);
        return message.code();
    }
}
