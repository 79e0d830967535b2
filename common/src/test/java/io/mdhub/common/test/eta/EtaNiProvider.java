package io.mdhub.common.test.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.FilterEntryActions;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.Qos;
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
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

/**
 * A real ETA 3.9.1.0 non-interactive provider for tests, built only from ETA's transport ({@link EtaChannel}), codec
 * and valueadd RDM helpers, as ETA's NIProvider example works: a provider-role login, a directory refresh on stream
 * -1, unsolicited MarketPrice refreshes and updates on provider-chosen negative streams, a Closed status to drop an
 * item, item groups (group ids in refreshes; group statuses and merges in directory updates). It records the bytes of
 * the last message it sent ({@link #lastSent()}), so tests can compare what a server passes on with what the provider
 * sent. Payloads are encoded FieldLists (see {@code EtaFieldLists}, ETA's encoder).
 * <p>
 * Driven by the test thread; every wait ends at the test's {@code @InterruptAfter} deadline. Requires
 * {@code @ExtendWith(EtaTransportExtension.class)}.
 */
public final class EtaNiProvider implements AutoCloseable
{
    /** Stream of the provider's directory. */
    public static final int DIRECTORY_STREAM = -1;

    private static final int PING_TIMEOUT_SECONDS = 60;

    private final EtaChannel channel;
    private byte[] lastSent;

    private EtaNiProvider(final EtaChannel channel)
    {
        this.channel = channel;
    }

    /**
     * Connect to a server on 127.0.0.1 (the login is up to the caller).
     *
     * @param port server port.
     * @return the connected provider.
     */
    public static EtaNiProvider connect(final int port)
    {
        return connect("127.0.0.1", port);
    }

    /**
     * Connect (the login is up to the caller).
     *
     * @param host server address.
     * @param port server port.
     * @return the connected provider.
     */
    public static EtaNiProvider connect(final String host, final int port)
    {
        return new EtaNiProvider(EtaChannel.connect(host, port, PING_TIMEOUT_SECONDS, "mdhub-eta-niprovider"));
    }

    /**
     * Connect over TLS (ETA's ENCRYPTED connection type); the login is up to the caller.
     *
     * @param host     server host, as its certificate names it.
     * @param port     server port.
     * @param keystore ETA's keystore (trusted server certificate; the client key for mutual TLS).
     * @param password its password.
     * @return the connected provider.
     */
    public static EtaNiProvider connectEncrypted(
        final String host, final int port, final String keystore, final String password)
    {
        return new EtaNiProvider(EtaChannel.connectEncrypted(host, port, keystore, password, "mdhub-eta-niprovider"));
    }

    /**
     * @return the transport channel.
     */
    public EtaChannel channel()
    {
        return channel;
    }

    /**
     * @return the RWF bytes of the last message sent.
     */
    public byte[] lastSent()
    {
        return lastSent.clone();
    }

    /**
     * Send a LoginRequest on stream 1 as ETA's NIProvider does (Role = provider), or as a consumer.
     *
     * @param user       user name.
     * @param asProvider false to leave the role out (a consumer login).
     */
    public void sendLogin(final String user, final boolean asProvider)
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
        send(request::encode);
    }

    /**
     * Log in as a provider and expect a LoginRefresh Open/Ok.
     *
     * @param user user name.
     */
    public void login(final String user)
    {
        sendLogin(user, true);
        final Msg msg = decode(awaitMessage());
        assertEquals(MsgClasses.REFRESH, msg.msgClass());
        assertEquals(DomainTypes.LOGIN, msg.domainType());
        assertEquals(StreamStates.OPEN, ((RefreshMsg)msg).state().streamState());
        assertEquals(DataStates.OK, ((RefreshMsg)msg).state().dataState());
    }

    /**
     * Publish a directory refresh on stream -1 with one MarketPrice service, INFO and STATE (up, accepting).
     *
     * @param serviceId   the provider's service id.
     * @param serviceName its name.
     */
    public void publishDirectory(final int serviceId, final String serviceName)
    {
        send(directoryRefresh(serviceId, serviceName)::encode);
    }

    /**
     * Publish a directory refresh on stream -1 with one service serving the given domains, INFO and STATE (up,
     * accepting).
     *
     * @param serviceId    the provider's service id.
     * @param serviceName  its name.
     * @param capabilities the RDM domains it publishes (e.g. 6 MarketPrice, 8 MarketByPrice).
     */
    public void publishDirectory(final int serviceId, final String serviceName, final Long... capabilities)
    {
        final DirectoryRefresh refresh = directoryRefresh(serviceId, serviceName);
        refresh.serviceList().get(0).info().capabilitiesList(List.of(capabilities));
        send(refresh::encode);
    }

    /**
     * Publish a directory update changing one service's state.
     *
     * @param serviceId         the service.
     * @param serviceState      1 up, 0 down.
     * @param acceptingRequests 1 or 0.
     */
    public void publishServiceState(final int serviceId, final int serviceState, final int acceptingRequests)
    {
        final DirectoryUpdate update = (DirectoryUpdate)DirectoryMsgFactory.createMsg();
        update.rdmMsgType(DirectoryMsgType.UPDATE);
        update.streamId(DIRECTORY_STREAM);
        final Service service = DirectoryMsgFactory.createService();
        service.serviceId(serviceId);
        service.action(MapEntryActions.UPDATE);
        service.applyHasState();
        service.state().action(FilterEntryActions.SET);
        service.state().serviceState(serviceState);
        service.state().applyHasAcceptingRequests();
        service.state().acceptingRequests(acceptingRequests);
        update.serviceList().add(service);
        send(update::encode);
    }

    /**
     * Publish a directory update with one item group of one service (GROUP filter): a status for every item of the
     * group, a merge of the group into another, or both.
     *
     * @param serviceId   the service.
     * @param group       the group id.
     * @param streamState the group status's stream state, or 0 for no status.
     * @param dataState   its data state.
     * @param text        its text.
     * @param mergedTo    the group the items move to, or null.
     */
    public void publishGroup(
        final int serviceId,
        final byte[] group,
        final int streamState,
        final int dataState,
        final String text,
        final byte[] mergedTo)
    {
        final DirectoryUpdate update = (DirectoryUpdate)DirectoryMsgFactory.createMsg();
        update.rdmMsgType(DirectoryMsgType.UPDATE);
        update.streamId(DIRECTORY_STREAM);
        update.applyHasFilter();
        update.filter(Directory.ServiceFilterFlags.GROUP);
        final Service service = DirectoryMsgFactory.createService();
        service.serviceId(serviceId);
        service.action(MapEntryActions.UPDATE);
        final Service.ServiceGroup serviceGroup = new Service.ServiceGroup();
        serviceGroup.action(FilterEntryActions.SET);
        serviceGroup.group(buffer(group));
        if (0 != streamState)
        {
            serviceGroup.applyHasStatus();
            serviceGroup.status().streamState(streamState);
            serviceGroup.status().dataState(dataState);
            serviceGroup.status().code(StateCodes.NONE);
            final Buffer stateText = CodecFactory.createBuffer();
            stateText.data(text);
            serviceGroup.status().text(stateText);
        }
        if (null != mergedTo)
        {
            serviceGroup.applyHasMergedToGroup();
            serviceGroup.mergedToGroup(buffer(mergedTo));
        }
        service.groupStateList().add(serviceGroup);
        update.serviceList().add(service);
        send(update::encode);
    }

    /**
     * @param serviceId   the service id.
     * @param serviceName its name.
     * @return the directory refresh {@link #publishDirectory(int, String)} sends.
     */
    public static DirectoryRefresh directoryRefresh(final int serviceId, final String serviceName)
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

    private static Qos realtime()
    {
        final Qos qos = CodecFactory.createQos();
        qos.timeliness(QosTimeliness.REALTIME);
        qos.rate(QosRates.TICK_BY_TICK);
        return qos;
    }

    /**
     * Publish an unsolicited MarketPrice refresh: Open/Ok, realtime QoS, key serviceId + name + name type RIC.
     *
     * @param streamId  the provider's (negative) stream.
     * @param serviceId service.
     * @param name      RIC.
     * @param flags     extra RefreshMsgFlags: CLEAR_CACHE and REFRESH_COMPLETE for a single-part refresh.
     * @param fields    an encoded FieldList.
     */
    public void refresh(
        final int streamId, final int serviceId, final String name, final int flags, final byte[] fields)
    {
        refresh(streamId, DomainTypes.MARKET_PRICE, serviceId, name, flags, DataTypes.FIELD_LIST, fields);
    }

    /**
     * Publish an unsolicited refresh of any domain and payload: Open/Ok, realtime QoS, key serviceId + name + name
     * type RIC.
     *
     * @param streamId      the provider's (negative) stream.
     * @param domainType    the item's RDM domain (e.g. 8 MarketByPrice).
     * @param serviceId     service.
     * @param name          RIC.
     * @param flags         extra RefreshMsgFlags: CLEAR_CACHE and REFRESH_COMPLETE for a single-part refresh.
     * @param containerType the payload's container (DataTypes.FIELD_LIST, DataTypes.MAP...).
     * @param payload       the encoded payload.
     */
    public void refresh(
        final int streamId,
        final int domainType,
        final int serviceId,
        final String name,
        final int flags,
        final int containerType,
        final byte[] payload)
    {
        refresh(streamId, domainType, serviceId, name, flags, containerType, payload, null);
    }

    /**
     * Publish an unsolicited refresh of any domain and payload in an item group: Open/Ok, realtime QoS, key serviceId
     * + name + name type RIC.
     *
     * @param streamId      the provider's (negative) stream.
     * @param domainType    the item's RDM domain (e.g. 8 MarketByPrice).
     * @param serviceId     service.
     * @param name          RIC.
     * @param flags         extra RefreshMsgFlags: CLEAR_CACHE and REFRESH_COMPLETE for a single-part refresh.
     * @param containerType the payload's container (DataTypes.FIELD_LIST, DataTypes.MAP...).
     * @param payload       the encoded payload.
     * @param groupId       the item's group id, or null for ETA's default (2 zero bytes).
     */
    public void refresh(
        final int streamId,
        final int domainType,
        final int serviceId,
        final String name,
        final int flags,
        final int containerType,
        final byte[] payload,
        final byte[] groupId)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(domainType);
        refresh.streamId(streamId);
        refresh.containerType(containerType);
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
        if (null != groupId)
        {
            refresh.groupId(buffer(groupId));
        }
        refresh.encodedDataBody(buffer(payload));
        send(refresh::encode);
    }

    /**
     * Publish a single-part unsolicited MarketPrice refresh (CLEAR_CACHE, REFRESH_COMPLETE).
     *
     * @param streamId  the provider's (negative) stream.
     * @param serviceId service.
     * @param name      RIC.
     * @param fields    an encoded FieldList.
     */
    public void refresh(final int streamId, final int serviceId, final String name, final byte[] fields)
    {
        refresh(streamId, serviceId, name, RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE, fields);
    }

    /**
     * Publish a MarketPrice update (QUOTE).
     *
     * @param streamId the item's stream.
     * @param fields   an encoded FieldList.
     */
    public void update(final int streamId, final byte[] fields)
    {
        update(streamId, DomainTypes.MARKET_PRICE, DataTypes.FIELD_LIST, fields);
    }

    /**
     * Publish an update of any domain and payload (QUOTE).
     *
     * @param streamId      the item's stream.
     * @param domainType    the item's RDM domain.
     * @param containerType the payload's container (DataTypes.FIELD_LIST, DataTypes.MAP...).
     * @param fields        the encoded payload.
     */
    public void update(final int streamId, final int domainType, final int containerType, final byte[] fields)
    {
        final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(domainType);
        update.streamId(streamId);
        update.containerType(containerType);
        update.updateType(UpdateEventTypes.QUOTE);
        update.encodedDataBody(buffer(fields));
        send(update::encode);
    }

    /**
     * Drop an item: StatusMsg Closed/Suspect.
     *
     * @param streamId the item's stream.
     * @param text     state text.
     */
    public void closeItem(final int streamId, final String text)
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
        send(status::encode);
    }

    private static Buffer buffer(final byte[] bytes)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(bytes));
        return buffer;
    }

    /**
     * Encode a message with ETA and send it.
     *
     * @param encoder writes the message.
     */
    public void send(final EtaChannel.Encoder encoder)
    {
        lastSent = channel.write(encoder);
    }

    /**
     * Send raw bytes as one RWF message (for bad-input tests).
     *
     * @param message RWF bytes.
     */
    public void sendRaw(final byte[] message)
    {
        channel.write(message);
        lastSent = message.clone();
    }

    /**
     * Read whatever arrived.
     *
     * @return false once the connection is gone.
     */
    public boolean service()
    {
        return channel.service();
    }

    /**
     * @return the next message from the server.
     */
    public byte[] awaitMessage()
    {
        return channel.awaitMessage();
    }

    /**
     * Wait until the server closes the connection.
     */
    public void awaitClosed()
    {
        channel.awaitClosed();
    }

    /**
     * Encode a message with ETA without sending it.
     *
     * @param encoder writes the message.
     * @return its bytes.
     */
    public static byte[] encode(final EtaChannel.Encoder encoder)
    {
        return EtaChannel.encode(encoder);
    }

    /**
     * @param bytes one RWF message.
     * @return ETA's decoded Msg.
     */
    public static Msg decode(final byte[] bytes)
    {
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(decodeIterator(bytes)), "ETA decode");
        return msg;
    }

    /**
     * @param bytes one RWF message.
     * @return an ETA decode iterator on its start.
     */
    public static DecodeIterator decodeIterator(final byte[] bytes)
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
        channel.close();
    }
}
