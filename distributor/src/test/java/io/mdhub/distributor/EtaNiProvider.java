package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.rdm.UpdateEventTypes;
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
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

import io.mdhub.common.test.MdTests;

/**
 * A real ETA 3.9.1.0 non-interactive provider built from ETA's transport, codec and valueadd RDM classes, driven by
 * the test thread (non-blocking, bounded waits through the test deadline). It records every message it encodes, so
 * tests can compare what the distributor passes on with what the provider sent.
 */
final class EtaNiProvider implements AutoCloseable
{
    static final int DIRECTORY_STREAM = -1;

    final Channel channel;
    final ArrayDeque<byte[]> received = new ArrayDeque<>();
    byte[] lastSent;
    private final Error error = TransportFactory.createError();
    private final ReadArgs readArgs = TransportFactory.createReadArgs();
    private final WriteArgs writeArgs = TransportFactory.createWriteArgs();
    private final EncodeIterator encoder = CodecFactory.createEncodeIterator();
    private boolean isClosed;

    private EtaNiProvider(final Channel channel)
    {
        this.channel = channel;
    }

    static EtaNiProvider connect(final int port)
    {
        final ConnectOptions options = TransportFactory.createConnectOptions();
        options.connectionType(ConnectionTypes.SOCKET);
        options.unifiedNetworkInfo().address("127.0.0.1");
        options.unifiedNetworkInfo().serviceName(Integer.toString(port));
        options.majorVersion(Codec.majorVersion());
        options.minorVersion(Codec.minorVersion());
        options.protocolType(Codec.protocolType());
        options.blocking(false);
        options.pingTimeout(60);
        options.componentVersion("EtaNiProvider");
        final Error error = TransportFactory.createError();
        final Channel channel = Transport.connect(options, error);
        assertTrue(null != channel, () -> "Transport.connect: " + error.text());
        final EtaNiProvider provider = new EtaNiProvider(channel);
        final InProgInfo inProg = TransportFactory.createInProgInfo();
        int ret;
        while (TransportReturnCodes.CHAN_INIT_IN_PROGRESS == (ret = channel.init(inProg, provider.error)))
        {
            MdTests.idle(() -> "ETA NIP channel to become ACTIVE");
        }
        assertEquals(TransportReturnCodes.SUCCESS, ret, () -> "init: " + provider.error.text());
        assertEquals(ChannelState.ACTIVE, channel.state());
        return provider;
    }

    /**
     * Send a LoginRequest as ETA's NIProvider does (Role = provider), or as a consumer when asProvider is false.
     */
    void sendLogin(final String user, final boolean asProvider)
    {
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(1);
        request.userName().data(user);
        if (asProvider)
        {
            request.applyHasRole();
            request.role(Login.RoleTypes.PROV);
        }
        send((it) -> request.encode(it));
    }

    /**
     * Log in as a provider and expect the distributor's LoginRefresh Open/Ok.
     */
    void login(final String user)
    {
        sendLogin(user, true);
        final Msg msg = decode(awaitMessage());
        assertEquals(MsgClasses.REFRESH, msg.msgClass());
        assertEquals(DomainTypes.LOGIN, msg.domainType());
        assertEquals(StreamStates.OPEN, ((RefreshMsg)msg).state().streamState());
        assertEquals(DataStates.OK, ((RefreshMsg)msg).state().dataState());
    }

    /**
     * Publish a directory refresh on stream -1 with one service (INFO + STATE up), as ETA's NIProvider does.
     */
    void publishDirectory(final int serviceId, final String serviceName)
    {
        send((it) -> directoryRefresh(serviceId, serviceName).encode(it));
    }

    /**
     * Publish a directory update changing one service's state (ETA's DirectoryUpdate).
     */
    void publishServiceState(final int serviceId, final int serviceState, final int acceptingRequests)
    {
        final com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate update =
            (com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate)DirectoryMsgFactory.createMsg();
        update.rdmMsgType(DirectoryMsgType.UPDATE);
        update.streamId(DIRECTORY_STREAM);
        final Service service = DirectoryMsgFactory.createService();
        service.serviceId(serviceId);
        service.action(MapEntryActions.UPDATE);
        service.applyHasState();
        service.state().action(com.refinitiv.eta.codec.FilterEntryActions.SET);
        service.state().serviceState(serviceState);
        service.state().applyHasAcceptingRequests();
        service.state().acceptingRequests(acceptingRequests);
        update.serviceList().add(service);
        send((it) -> update.encode(it));
    }

    static DirectoryRefresh directoryRefresh(final int serviceId, final String serviceName)
    {
        final DirectoryRefresh refresh = (DirectoryRefresh)DirectoryMsgFactory.createMsg();
        refresh.rdmMsgType(DirectoryMsgType.REFRESH);
        refresh.streamId(DIRECTORY_STREAM);
        refresh.filter(Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        refresh.applyClearCache();
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        final Service service = DirectoryMsgFactory.createService();
        service.serviceId(serviceId);
        service.action(MapEntryActions.ADD);
        service.applyHasInfo();
        service.info().serviceName().data(serviceName);
        service.info().capabilitiesList(List.of((long)DomainTypes.MARKET_PRICE));
        service.info().applyHasQos();
        service.info().qosList().add(realtime());
        service.applyHasState();
        service.state().serviceState(1);
        service.state().applyHasAcceptingRequests();
        service.state().acceptingRequests(1);
        refresh.serviceList().add(service);
        return refresh;
    }

    /**
     * @return the bytes ETA encodes for a message, without sending them.
     */
    static byte[] encode(final Encoder encoderFunction)
    {
        final ByteBuffer data = ByteBuffer.allocate(4096);
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(data);
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        assertEquals(CodecReturnCodes.SUCCESS, encoderFunction.encode(it), "ETA encode");
        final byte[] out = new byte[data.position()];
        data.flip();
        data.get(out);
        return out;
    }

    private static com.refinitiv.eta.codec.Qos realtime()
    {
        final com.refinitiv.eta.codec.Qos qos = CodecFactory.createQos();
        qos.timeliness(QosTimeliness.REALTIME);
        qos.rate(QosRates.TICK_BY_TICK);
        return qos;
    }

    /**
     * Publish an unsolicited MarketPrice refresh (Open/Ok, realtime QoS, key serviceId + name + RIC).
     *
     * @param flags extra RefreshMsgFlags: CLEAR_CACHE and REFRESH_COMPLETE for a single-part refresh.
     */
    void refresh(final int streamId, final int serviceId, final String name, final int flags, final byte[] fields)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(streamId);
        refresh.containerType(DataTypes.FIELD_LIST);
        refresh.flags(RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.HAS_QOS | flags);
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        final Buffer text = CodecFactory.createBuffer();
        text.data("Item Refresh Completed");
        refresh.state().text(text);
        refresh.qos().timeliness(QosTimeliness.REALTIME);
        refresh.qos().rate(QosRates.TICK_BY_TICK);
        refresh.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        refresh.msgKey().serviceId(serviceId);
        final Buffer itemName = CodecFactory.createBuffer();
        itemName.data(name);
        refresh.msgKey().name(itemName);
        refresh.msgKey().nameType(InstrumentNameTypes.RIC);
        refresh.encodedDataBody(buffer(fields));
        send((it) -> refresh.encode(it));
    }

    void refresh(final int streamId, final int serviceId, final String name, final byte[] fields)
    {
        refresh(streamId, serviceId, name, RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE, fields);
    }

    void update(final int streamId, final byte[] fields)
    {
        final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(DomainTypes.MARKET_PRICE);
        update.streamId(streamId);
        update.containerType(DataTypes.FIELD_LIST);
        update.updateType(UpdateEventTypes.QUOTE);
        update.encodedDataBody(buffer(fields));
        send((it) -> update.encode(it));
    }

    void closeItem(final int streamId, final String text)
    {
        final StatusMsg status = (StatusMsg)CodecFactory.createMsg();
        status.msgClass(MsgClasses.STATUS);
        status.domainType(DomainTypes.MARKET_PRICE);
        status.streamId(streamId);
        status.containerType(DataTypes.NO_DATA);
        status.flags(StatusMsgFlags.HAS_STATE);
        status.state().streamState(StreamStates.CLOSED);
        status.state().dataState(DataStates.SUSPECT);
        status.state().code(StateCodes.NONE);
        final Buffer stateText = CodecFactory.createBuffer();
        stateText.data(text);
        status.state().text(stateText);
        send((it) -> status.encode(it));
    }

    private static Buffer buffer(final byte[] bytes)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(bytes));
        return buffer;
    }

    interface Encoder
    {
        int encode(EncodeIterator iterator);
    }

    void send(final Encoder encoderFunction)
    {
        final TransportBuffer buffer = channel.getBuffer(4096, false, error);
        assertTrue(null != buffer, () -> "getBuffer: " + error.text());
        encoder.clear();
        encoder.setBufferAndRWFVersion(buffer, channel.majorVersion(), channel.minorVersion());
        assertEquals(CodecReturnCodes.SUCCESS, encoderFunction.encode(encoder), "ETA encode");
        final byte[] bytes = new byte[buffer.length()];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = buffer.data().get(buffer.dataStartPosition() + i);
        }
        lastSent = bytes;
        write(buffer);
    }

    /**
     * Send raw bytes as one RWF message (for bad-input tests).
     */
    void sendRaw(final byte[] message)
    {
        final TransportBuffer buffer = channel.getBuffer(message.length, false, error);
        assertTrue(null != buffer, () -> "getBuffer: " + error.text());
        buffer.data().put(message);
        lastSent = message.clone();
        write(buffer);
    }

    private void write(final TransportBuffer buffer)
    {
        writeArgs.clear();
        int ret = channel.write(buffer, writeArgs, error);
        while (TransportReturnCodes.WRITE_CALL_AGAIN == ret)
        {
            channel.flush(error);
            writeArgs.clear();
            ret = channel.write(buffer, writeArgs, error);
        }
        final int result = ret;
        assertTrue(result >= 0, () -> "write: " + result + " " + error.text());
        while ((ret = channel.flush(error)) > 0)
        {
            MdTests.idle(() -> "ETA flush");
        }
    }

    /**
     * Read whatever arrived; false once the connection is gone.
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
            if (null != buffer)
            {
                final byte[] bytes = new byte[buffer.length()];
                for (int i = 0; i < bytes.length; i++)
                {
                    bytes[i] = buffer.data().get(buffer.dataStartPosition() + i);
                }
                received.add(bytes);
            }
            final int ret = readArgs.readRetVal();
            if (null == buffer && (TransportReturnCodes.FAILURE == ret || (ret < 0 &&
                TransportReturnCodes.READ_WOULD_BLOCK != ret && TransportReturnCodes.READ_PING != ret &&
                TransportReturnCodes.READ_FD_CHANGE != ret && TransportReturnCodes.READ_IN_PROGRESS != ret)))
            {
                isClosed = true;
                return false;
            }
            if (null == buffer && ret <= 0 && TransportReturnCodes.READ_PING != ret)
            {
                return true;
            }
        }
    }

    byte[] awaitMessage()
    {
        while (received.isEmpty())
        {
            assertTrue(service(), "NIP connection closed while waiting for a message");
            if (received.isEmpty())
            {
                MdTests.idle(() -> "a message from the distributor");
            }
        }
        return received.poll();
    }

    void awaitClosed()
    {
        while (service())
        {
            MdTests.idle(() -> "the distributor to close the NIP connection");
        }
    }

    static Msg decode(final byte[] bytes)
    {
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(decodeIterator(bytes)), "ETA decode");
        return msg;
    }

    static DecodeIterator decodeIterator(final byte[] bytes)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(bytes));
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        return it;
    }

    @Override
    public void close()
    {
        if (ChannelState.INACTIVE != channel.state())
        {
            channel.close(error);
        }
    }
}
