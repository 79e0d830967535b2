package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.Array;
import com.refinitiv.eta.codec.ArrayEntry;
import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CloseMsg;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.FieldEntry;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.Real;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.State;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.ElementNames;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.transport.Channel;
import com.refinitiv.eta.transport.ChannelState;
import com.refinitiv.eta.transport.ConnectOptions;
import com.refinitiv.eta.transport.ConnectionTypes;
import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.InProgInfo;
import com.refinitiv.eta.transport.ReadArgs;
import com.refinitiv.eta.transport.Transport;
import com.refinitiv.eta.transport.TransportBuffer;
import com.refinitiv.eta.transport.TransportFactory;
import com.refinitiv.eta.transport.TransportReturnCodes;
import com.refinitiv.eta.transport.WriteArgs;
import com.refinitiv.eta.valueadd.domainrep.rdm.MsgBase;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;
import io.mdhub.common.test.MdTests;

/**
 * A real ETA 3.9.1.0 consumer for tests: ETA transport (non-blocking socket channel, driven by the test thread and
 * pinging like ETA's PingHandler), requests built with ETA's codec and etaValueAdd RDM helpers, and answers decoded
 * with ETA into {@link Received} records. Every wait is bounded by the test's interrupt deadline.
 */
final class TestEtaConsumer implements AutoCloseable
{
    private final Channel channel;
    private final ArrayDeque<byte[]> received = new ArrayDeque<>();
    private final Error error = TransportFactory.createError();
    private final ReadArgs readArgs = TransportFactory.createReadArgs();
    private final WriteArgs writeArgs = TransportFactory.createWriteArgs();
    private long lastWriteNs = System.nanoTime();
    private boolean isClosed;
    long messagesReceived;

    private TestEtaConsumer(final Channel channel)
    {
        this.channel = channel;
    }

    static TestEtaConsumer connect(final int port)
    {
        final ConnectOptions options = TransportFactory.createConnectOptions();
        options.connectionType(ConnectionTypes.SOCKET);
        options.unifiedNetworkInfo().address("127.0.0.1");
        options.unifiedNetworkInfo().serviceName(Integer.toString(port));
        options.majorVersion(Codec.majorVersion());
        options.minorVersion(Codec.minorVersion());
        options.protocolType(Codec.protocolType());
        options.blocking(false);
        options.pingTimeout(30);
        options.componentVersion("TestEtaConsumer");
        final Error error = TransportFactory.createError();
        final Channel channel = Transport.connect(options, error);
        assertTrue(null != channel, () -> "Transport.connect: " + error.text());
        final TestEtaConsumer consumer = new TestEtaConsumer(channel);
        final InProgInfo inProg = TransportFactory.createInProgInfo();
        int ret;
        while (TransportReturnCodes.CHAN_INIT_IN_PROGRESS == (ret = channel.init(inProg, error)))
        {
            MdTests.idle(() -> "ETA channel to become ACTIVE");
        }
        final int result = ret;
        assertEquals(TransportReturnCodes.SUCCESS, result, () -> "init: " + error.text());
        assertEquals(ChannelState.ACTIVE, channel.state());
        return consumer;
    }

    // ------------------------------------------------------------------ requests

    LoginRefresh login(final String user)
    {
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(1);
        request.userName().data(user);
        write(request);
        final Received answer = awaitMessage();
        assertEquals(MsgClasses.REFRESH, answer.msgClass, () -> "login answer " + answer);
        final LoginRefresh refresh = (LoginRefresh)LoginMsgFactory.createMsg();
        refresh.rdmMsgType(LoginMsgType.REFRESH);
        final DecodeIterator it = answer.iterator();
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        assertEquals(CodecReturnCodes.SUCCESS, refresh.decode(it, msg));
        return refresh;
    }

    void loginAsProvider(final String user)
    {
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(1);
        request.userName().data(user);
        request.applyHasRole();
        request.role(com.refinitiv.eta.rdm.Login.RoleTypes.PROV);
        write(request);
    }

    void requestDirectory(final int streamId, final long filter, final boolean streaming, final int serviceId)
    {
        final DirectoryRequest request = (DirectoryRequest)DirectoryMsgFactory.createMsg();
        request.rdmMsgType(DirectoryMsgType.REQUEST);
        request.streamId(streamId);
        request.filter(filter);
        if (streaming)
        {
            request.applyStreaming();
        }
        if (serviceId >= 0)
        {
            request.applyHasServiceId();
            request.serviceId(serviceId);
        }
        write(request);
    }

    void requestDictionary(final int streamId, final int serviceId, final String name)
    {
        final DictionaryRequest request = (DictionaryRequest)DictionaryMsgFactory.createMsg();
        request.rdmMsgType(DictionaryMsgType.REQUEST);
        request.streamId(streamId);
        request.serviceId(serviceId);
        request.dictionaryName().data(name);
        request.verbosity(com.refinitiv.eta.rdm.Dictionary.VerbosityValues.NORMAL);
        write(request);
    }

    void requestItem(final int streamId, final int serviceId, final String name, final boolean streaming)
    {
        final RequestMsg request = itemRequest(streamId, serviceId, streaming);
        request.msgKey().applyHasName();
        request.msgKey().name().data(name);
        request.msgKey().applyHasNameType();
        request.msgKey().nameType(InstrumentNameTypes.RIC);
        writeMsg(request, null);
    }

    void requestBatch(final int streamId, final int serviceId, final boolean streaming, final String... names)
    {
        final RequestMsg request = itemRequest(streamId, serviceId, streaming);
        request.applyHasBatch();
        request.containerType(DataTypes.ELEMENT_LIST);
        writeMsg(request, (it) ->
        {
            final ElementList list = CodecFactory.createElementList();
            list.applyHasStandardData();
            check(list.encodeInit(it, null, 0));
            final ElementEntry entry = CodecFactory.createElementEntry();
            entry.name(ElementNames.BATCH_ITEM_LIST);
            entry.dataType(DataTypes.ARRAY);
            check(entry.encodeInit(it, 0));
            final Array array = CodecFactory.createArray();
            array.primitiveType(DataTypes.ASCII_STRING);
            array.itemLength(0);
            check(array.encodeInit(it));
            final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
            for (final String name : names)
            {
                final Buffer value = CodecFactory.createBuffer();
                value.data(name);
                check(arrayEntry.encode(it, value));
            }
            check(array.encodeComplete(it, true));
            check(entry.encodeComplete(it, true));
            check(list.encodeComplete(it, true));
        });
    }

    void closeItem(final int streamId)
    {
        final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
        close.msgClass(MsgClasses.CLOSE);
        close.domainType(DomainTypes.MARKET_PRICE);
        close.streamId(streamId);
        close.containerType(DataTypes.NO_DATA);
        writeMsg(close, null);
    }

    void closeBatch(final int streamId, final int... streamIds)
    {
        final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
        close.msgClass(MsgClasses.CLOSE);
        close.domainType(DomainTypes.MARKET_PRICE);
        close.streamId(streamId);
        close.containerType(DataTypes.ELEMENT_LIST);
        writeMsg(close, (it) ->
        {
            final ElementList list = CodecFactory.createElementList();
            list.applyHasStandardData();
            check(list.encodeInit(it, null, 0));
            final ElementEntry entry = CodecFactory.createElementEntry();
            entry.name(ElementNames.BATCH_STREAMID_LIST);
            entry.dataType(DataTypes.ARRAY);
            check(entry.encodeInit(it, 0));
            final Array array = CodecFactory.createArray();
            array.primitiveType(DataTypes.INT);
            array.itemLength(0);
            check(array.encodeInit(it));
            final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
            for (final int id : streamIds)
            {
                final Int value = CodecFactory.createInt();
                value.value(id);
                check(arrayEntry.encode(it, value));
            }
            check(array.encodeComplete(it, true));
            check(entry.encodeComplete(it, true));
            check(list.encodeComplete(it, true));
        });
    }

    /**
     * Write raw RWF bytes (for bad-input tests).
     */
    void writeRaw(final byte[] message)
    {
        final TransportBuffer buffer = channel.getBuffer(message.length, false, error);
        assertTrue(null != buffer, () -> "getBuffer: " + error.text());
        buffer.data().put(message);
        writeBuffer(buffer);
    }

    private static RequestMsg itemRequest(final int streamId, final int serviceId, final boolean streaming)
    {
        final RequestMsg request = (RequestMsg)CodecFactory.createMsg();
        request.msgClass(MsgClasses.REQUEST);
        request.domainType(DomainTypes.MARKET_PRICE);
        request.streamId(streamId);
        request.containerType(DataTypes.NO_DATA);
        request.flags(RequestMsgFlags.HAS_QOS | RequestMsgFlags.HAS_PRIORITY |
            (streaming ? RequestMsgFlags.STREAMING : 0));
        request.priority().priorityClass(1);
        request.priority().count(1);
        request.qos().timeliness(QosTimeliness.REALTIME);
        request.qos().rate(QosRates.TICK_BY_TICK);
        request.msgKey().applyHasServiceId();
        request.msgKey().serviceId(serviceId);
        return request;
    }

    private static void check(final int result)
    {
        assertTrue(result >= CodecReturnCodes.SUCCESS, () -> "encode: " + CodecReturnCodes.toString(result));
    }

    interface PayloadEncoder
    {
        void encode(EncodeIterator iterator);
    }

    private void writeMsg(final Msg msg, final PayloadEncoder payload)
    {
        final TransportBuffer buffer = channel.getBuffer(4096, false, error);
        assertTrue(null != buffer, () -> "getBuffer: " + error.text());
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, channel.majorVersion(), channel.minorVersion());
        if (null == payload)
        {
            check(msg.encode(it));
        }
        else
        {
            check(msg.encodeInit(it, 0));
            payload.encode(it);
            check(msg.encodeComplete(it, true));
        }
        writeBuffer(buffer);
    }

    private void write(final MsgBase rdmMsg)
    {
        final TransportBuffer buffer = channel.getBuffer(4096, false, error);
        assertTrue(null != buffer, () -> "getBuffer: " + error.text());
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, channel.majorVersion(), channel.minorVersion());
        check(rdmMsg.encode(it));
        writeBuffer(buffer);
    }

    private void writeBuffer(final TransportBuffer buffer)
    {
        writeArgs.clear();
        int ret = channel.write(buffer, writeArgs, error);
        while (TransportReturnCodes.WRITE_CALL_AGAIN == ret)
        {
            flush();
            writeArgs.clear();
            ret = channel.write(buffer, writeArgs, error);
        }
        final int result = ret;
        assertTrue(result >= 0, () -> "write: " + result + " " + error.text());
        flush();
        lastWriteNs = System.nanoTime();
    }

    private void flush()
    {
        int ret;
        while ((ret = channel.flush(error)) > 0)
        {
            MdTests.idle(() -> "ETA flush");
        }
        final int result = ret;
        assertTrue(result >= 0, () -> "flush: " + result + " " + error.text());
    }

    // ------------------------------------------------------------------ reading

    /**
     * Read everything available; ping when due. Returns false once the connection is gone.
     */
    boolean service()
    {
        if (isClosed)
        {
            return false;
        }
        while (true)
        {
            readArgs.clear();
            final TransportBuffer buffer = channel.read(readArgs, error);
            final int ret = readArgs.readRetVal();
            if (null != buffer)
            {
                final byte[] bytes = new byte[buffer.length()];
                final ByteBuffer data = buffer.data();
                for (int i = 0; i < bytes.length; i++)
                {
                    bytes[i] = data.get(buffer.dataStartPosition() + i);
                }
                received.add(bytes);
                messagesReceived++;
            }
            else if (TransportReturnCodes.FAILURE == ret || (ret < 0 && TransportReturnCodes.READ_WOULD_BLOCK != ret &&
                TransportReturnCodes.READ_PING != ret && TransportReturnCodes.READ_FD_CHANGE != ret &&
                TransportReturnCodes.READ_IN_PROGRESS != ret))
            {
                isClosed = true;
                return false;
            }
            if (null == buffer && TransportReturnCodes.READ_PING != ret && ret <= 0)
            {
                break;
            }
        }
        if (System.nanoTime() - lastWriteNs >= TimeUnit.SECONDS.toNanos(channel.pingTimeout()) / 3)
        {
            channel.ping(error);
            lastWriteNs = System.nanoTime();
        }
        return true;
    }

    Received awaitMessage()
    {
        while (received.isEmpty())
        {
            assertTrue(service(), "ETA consumer lost its connection while waiting for a message");
            if (received.isEmpty())
            {
                MdTests.idle(() -> "a message on the ETA consumer");
            }
        }
        return new Received(received.poll());
    }

    /**
     * The first message on a stream, leaving messages of other streams queued in order.
     */
    Received awaitMessage(final int streamId)
    {
        while (true)
        {
            for (final java.util.Iterator<byte[]> it = received.iterator(); it.hasNext(); )
            {
                final byte[] bytes = it.next();
                if (ByteBuffer.wrap(bytes).getInt(4) == streamId)
                {
                    it.remove();
                    return new Received(bytes);
                }
            }
            assertTrue(service(), "ETA consumer lost its connection while waiting for stream " + streamId);
            MdTests.idle(() -> "a message on stream " + streamId);
        }
    }

    /**
     * @return the next message if one arrives while servicing once, else null.
     */
    Received poll()
    {
        service();
        final byte[] bytes = received.poll();
        return null == bytes ? null : new Received(bytes);
    }

    void awaitClosed()
    {
        while (service())
        {
            MdTests.idle(() -> "the ETA channel to be closed by the server");
        }
    }

    @Override
    public void close()
    {
        if (ChannelState.INACTIVE != channel.state())
        {
            channel.close(error);
        }
    }

    /**
     * One message as the consumer saw it, decoded with ETA.
     */
    static final class Received
    {
        final byte[] bytes;
        final int msgClass;
        final int domainType;
        final int streamId;
        final int flags;
        final int streamState;
        final int dataState;
        final int code;
        final String text;
        final int keyServiceId;
        final String keyName;
        final TreeMap<Integer, Long> reals = new TreeMap<>();

        Received(final byte[] bytes)
        {
            this.bytes = bytes;
            final DecodeIterator it = iterator();
            final Msg msg = CodecFactory.createMsg();
            assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it), "ETA decodes the message");
            msgClass = msg.msgClass();
            domainType = msg.domainType();
            streamId = msg.streamId();
            flags = msg.flags();
            State state = null;
            if (msg instanceof RefreshMsg)
            {
                state = ((RefreshMsg)msg).state();
            }
            else if (msg instanceof StatusMsg && ((StatusMsg)msg).checkHasState())
            {
                state = ((StatusMsg)msg).state();
            }
            streamState = null == state ? -1 : state.streamState();
            dataState = null == state ? -1 : state.dataState();
            code = null == state ? -1 : state.code();
            text = null == state ? null : state.text().toString();
            final boolean hasKey = null != msg.msgKey() && (msg instanceof RefreshMsg &&
                ((RefreshMsg)msg).checkHasMsgKey());
            keyServiceId = hasKey && 0 != (msg.msgKey().flags() & MsgKeyFlags.HAS_SERVICE_ID) ?
                msg.msgKey().serviceId() : -1;
            keyName = hasKey && 0 != (msg.msgKey().flags() & MsgKeyFlags.HAS_NAME) ?
                msg.msgKey().name().toString() : null;
            if ((msg instanceof RefreshMsg || msg instanceof UpdateMsg) &&
                DataTypes.FIELD_LIST == msg.containerType() && DomainTypes.MARKET_PRICE == domainType)
            {
                decodeReals(it);
            }
        }

        private void decodeReals(final DecodeIterator it)
        {
            final FieldList list = CodecFactory.createFieldList();
            final FieldEntry entry = CodecFactory.createFieldEntry();
            final Real real = CodecFactory.createReal();
            assertEquals(CodecReturnCodes.SUCCESS, list.decode(it, null));
            int ret;
            while (CodecReturnCodes.END_OF_CONTAINER != (ret = entry.decode(it)))
            {
                assertEquals(CodecReturnCodes.SUCCESS, ret);
                if (io.mdhub.common.dictionary.FieldIds.DSPLY_NAME == entry.fieldId())
                {
                    continue;
                }
                assertEquals(CodecReturnCodes.SUCCESS, real.decode(it), "Real field " + entry.fieldId());
                assertEquals(12, real.hint());
                reals.put(entry.fieldId(), real.toLong());
            }
        }

        DecodeIterator iterator()
        {
            final Buffer buffer = CodecFactory.createBuffer();
            buffer.data(ByteBuffer.wrap(bytes));
            final DecodeIterator it = CodecFactory.createDecodeIterator();
            it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
            return it;
        }

        @Override
        public String toString()
        {
            return "Received{class=" + msgClass + ", domain=" + domainType + ", stream=" + streamId + ", flags=0x" +
                Integer.toHexString(flags) + ", state=" + streamState + "/" + dataState + "/" + code + " '" + text +
                "', key=" + keyServiceId + "/" + keyName + ", reals=" + reals + "}";
        }
    }
}
