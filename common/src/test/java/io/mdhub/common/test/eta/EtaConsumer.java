package io.mdhub.common.test.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import com.refinitiv.eta.codec.Array;
import com.refinitiv.eta.codec.ArrayEntry;
import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CloseMsg;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.ElementEntry;
import com.refinitiv.eta.codec.ElementList;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.GenericMsg;
import com.refinitiv.eta.codec.Int;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.PostMsg;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.UInt;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.Dictionary;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.ElementNames;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.rdm.ViewTypes;
import com.refinitiv.eta.transport.ConnectOptions;
import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.TransportFactory;
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

/**
 * A real ETA 3.9.1.0 consumer for tests, built only from ETA's transport ({@link EtaChannel}), codec and valueadd
 * RDM helpers, so it checks MDHub's servers independently of MDHub's own RWF code. It logs in, asks for the source
 * directory and dictionaries, opens MarketPrice items streaming or as snapshots, singly or as a batch, closes them,
 * and decodes what arrives into {@link EtaMessage}s with field types from a data dictionary: MDHub's shipped one
 * until {@link #dictionary(DataDictionary)} installs another (for example one downloaded with
 * {@link #downloadDictionary(int, int, int)}).
 * <p>
 * Driven by the test thread; every wait ends at the test's {@code @InterruptAfter} deadline, or at the deadline
 * given. Requires {@code @ExtendWith(EtaTransportExtension.class)}.
 */
public final class EtaConsumer implements AutoCloseable
{
    /** The login stream. */
    public static final int LOGIN_STREAM = 1;

    private final EtaChannel channel;
    private DataDictionary dictionary = EtaDictionaries.bundled();

    private EtaConsumer(final EtaChannel channel)
    {
        this.channel = channel;
    }

    /**
     * Connect to a server on 127.0.0.1 (the login is up to the caller).
     *
     * @param port server port.
     * @return the connected consumer.
     */
    public static EtaConsumer connect(final int port)
    {
        return connect("127.0.0.1", port);
    }

    /**
     * Connect (the login is up to the caller).
     *
     * @param host server address.
     * @param port server port.
     * @return the connected consumer.
     */
    public static EtaConsumer connect(final String host, final int port)
    {
        return new EtaConsumer(EtaChannel.connect(host, port, EtaChannel.DEFAULT_PING_TIMEOUT_SECONDS,
            "mdhub-eta-consumer"));
    }

    /**
     * Connect with changed connect options (another connection type, e.g. ETA's WebSocket transport), the login is
     * up to the caller.
     *
     * @param host       server address.
     * @param port       server port.
     * @param customizer last changes to ETA's connect options.
     * @return the connected consumer.
     */
    public static EtaConsumer connect(
        final String host, final int port, final Consumer<ConnectOptions> customizer)
    {
        final EtaChannel channel = EtaChannel.connectAsync(host, port, EtaChannel.DEFAULT_PING_TIMEOUT_SECONDS,
            Codec.protocolType(), "mdhub-eta-consumer", customizer);
        channel.awaitActive();
        return new EtaConsumer(channel);
    }

    /**
     * A consumer on a channel connected by the caller (already active; with a {@link EtaChannel.Wire} when it does
     * not carry RWF).
     *
     * @param channel the channel.
     * @return the consumer.
     */
    public static EtaConsumer on(final EtaChannel channel)
    {
        return new EtaConsumer(channel);
    }

    /**
     * Connect over TLS (ETA's ENCRYPTED connection type), the login is up to the caller.
     *
     * @param host     server host, as its certificate names it.
     * @param port     server port.
     * @param keystore ETA's keystore (trusted server certificate; the client key for mutual TLS).
     * @param password its password.
     * @return the connected consumer.
     */
    public static EtaConsumer connectEncrypted(
        final String host, final int port, final String keystore, final String password)
    {
        return new EtaConsumer(EtaChannel.connectEncrypted(host, port, keystore, password, "mdhub-eta-consumer"));
    }

    /**
     * @return the transport channel.
     */
    public EtaChannel channel()
    {
        return channel;
    }

    /**
     * @param dictionary gives field types to every message decoded from now on.
     * @return this.
     */
    public EtaConsumer dictionary(final DataDictionary dictionary)
    {
        this.dictionary = dictionary;
        return this;
    }

    /**
     * @return the dictionary messages are decoded with.
     */
    public DataDictionary dictionary()
    {
        return dictionary;
    }

    // ------------------------------------------------------------------ login, directory, dictionary

    /**
     * Log in as a consumer (ETA's default LoginRequest on stream 1) and wait for the answer.
     *
     * @param user user name.
     * @return the LoginRefresh (fails the test if the answer is not a refresh).
     */
    public LoginRefresh login(final String user)
    {
        sendLogin(user, false);
        final EtaMessage answer = awaitMessage(LOGIN_STREAM);
        assertEquals(MsgClasses.REFRESH, answer.msgClass(), () -> "login answer " + answer);
        return answer.loginRefresh();
    }

    /**
     * Send a LoginRequest on stream 1 without waiting.
     *
     * @param user       user name.
     * @param asProvider true to ask for the provider role (as a non-interactive provider does).
     */
    public void sendLogin(final String user, final boolean asProvider)
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
        channel.write(request::encode);
    }

    /**
     * Send a LoginRequest on stream 1 without waiting, as ETA's default request changed by the caller (application
     * id, position, a token user name type...).
     *
     * @param user       user name (or token).
     * @param customiser changes the request before it is sent.
     */
    public void sendLogin(final String user, final java.util.function.Consumer<LoginRequest> customiser)
    {
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(LOGIN_STREAM);
        request.userName().data(user);
        customiser.accept(request);
        channel.write(request::encode);
    }

    /**
     * Ask for the source directory of every service, streaming.
     *
     * @param streamId directory stream.
     * @param filter   {@code Directory.ServiceFilterFlags}.
     */
    public void requestDirectory(final int streamId, final long filter)
    {
        requestDirectory(streamId, filter, true, -1);
    }

    /**
     * Ask for the source directory.
     *
     * @param streamId  directory stream.
     * @param filter    {@code Directory.ServiceFilterFlags}.
     * @param streaming false for a snapshot.
     * @param serviceId one service, or -1 for all.
     */
    public void requestDirectory(final int streamId, final long filter, final boolean streaming, final int serviceId)
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
        channel.write(request::encode);
    }

    /**
     * Ask for a dictionary (non-streaming, NORMAL verbosity).
     *
     * @param streamId  dictionary stream.
     * @param serviceId the service that provides it.
     * @param name      "RWFFld" or "RWFEnum".
     */
    public void requestDictionary(final int streamId, final int serviceId, final String name)
    {
        final DictionaryRequest request = (DictionaryRequest)DictionaryMsgFactory.createMsg();
        request.rdmMsgType(DictionaryMsgType.REQUEST);
        request.streamId(streamId);
        request.serviceId(serviceId);
        request.dictionaryName().data(name);
        request.verbosity(Dictionary.VerbosityValues.NORMAL);
        channel.write(request::encode);
    }

    /**
     * Read a dictionary's refresh parts into an ETA dictionary until the part with REFRESH_COMPLETE.
     *
     * @param streamId        the dictionary stream.
     * @param into            the dictionary to load.
     * @param fieldDictionary true for an RWFFld download, false for RWFEnum.
     * @return every part, in order (each a DICTIONARY-domain REFRESH, or the test fails).
     */
    public List<EtaMessage> awaitDictionary(
        final int streamId, final DataDictionary into, final boolean fieldDictionary)
    {
        final List<EtaMessage> parts = new ArrayList<>();
        final Error error = TransportFactory.createError();
        while (true)
        {
            final EtaMessage part = awaitMessage(streamId);
            assertEquals(MsgClasses.REFRESH, part.msgClass(), part::toString);
            assertEquals(DomainTypes.DICTIONARY, part.domainType(), part::toString);
            final DecodeIterator it = part.iterator();
            final Msg msg = CodecFactory.createMsg();
            assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
            final int result = fieldDictionary ?
                into.decodeFieldDictionary(it, Dictionary.VerbosityValues.NORMAL, error) :
                into.decodeEnumTypeDictionary(it, Dictionary.VerbosityValues.NORMAL, error);
            assertEquals(CodecReturnCodes.SUCCESS, result, () -> "ETA loads dictionary part " + parts.size() +
                ": " + error.text());
            parts.add(part);
            if (part.isRefreshComplete())
            {
                return parts;
            }
        }
    }

    /**
     * Download RWFFld and RWFEnum from a service into a new ETA dictionary (it is not installed for decoding).
     *
     * @param serviceId     the service that provides them.
     * @param fieldStreamId stream for RWFFld.
     * @param enumStreamId  stream for RWFEnum.
     * @return the loaded dictionary.
     */
    public DataDictionary downloadDictionary(final int serviceId, final int fieldStreamId, final int enumStreamId)
    {
        final DataDictionary downloaded = CodecFactory.createDataDictionary();
        requestDictionary(fieldStreamId, serviceId, "RWFFld");
        awaitDictionary(fieldStreamId, downloaded, true);
        requestDictionary(enumStreamId, serviceId, "RWFEnum");
        awaitDictionary(enumStreamId, downloaded, false);
        return downloaded;
    }

    // ------------------------------------------------------------------ items

    /**
     * Open a MarketPrice item, streaming.
     *
     * @param streamId  consumer stream.
     * @param serviceId service.
     * @param name      RIC.
     */
    public void requestItem(final int streamId, final int serviceId, final String name)
    {
        requestItem(streamId, serviceId, name, true);
    }

    /**
     * Ask for a MarketPrice snapshot: one NonStreaming refresh, then the stream is gone.
     *
     * @param streamId  consumer stream.
     * @param serviceId service.
     * @param name      RIC.
     */
    public void requestSnapshot(final int streamId, final int serviceId, final String name)
    {
        requestItem(streamId, serviceId, name, false);
    }

    /**
     * Request a MarketPrice item (realtime tick-by-tick QoS, priority 1/1, name type RIC).
     *
     * @param streamId  consumer stream.
     * @param serviceId service.
     * @param name      RIC.
     * @param streaming false for a snapshot.
     */
    public void requestItem(final int streamId, final int serviceId, final String name, final boolean streaming)
    {
        requestItem(streamId, DomainTypes.MARKET_PRICE, serviceId, name, streaming);
    }

    /**
     * Request an item of any domain (realtime tick-by-tick QoS, priority 1/1, name type RIC).
     *
     * @param streamId   consumer stream.
     * @param domainType the item's RDM domain (e.g. 8 MarketByPrice).
     * @param serviceId  service.
     * @param name       RIC.
     * @param streaming  false for a snapshot.
     */
    public void requestItem(
        final int streamId, final int domainType, final int serviceId, final String name, final boolean streaming)
    {
        final RequestMsg request = itemRequest(streamId, serviceId, streaming);
        request.domainType(domainType);
        request.msgKey().applyHasName();
        request.msgKey().name().data(name);
        request.msgKey().applyHasNameType();
        request.msgKey().nameType(InstrumentNameTypes.RIC);
        channel.write(request::encode);
    }

    /**
     * Request several MarketPrice items in one batch: a request with HAS_BATCH whose ElementList carries
     * {@code :ItemList}. The items get streams batchStreamId + 1, + 2, ... in list order; the batch stream itself
     * is answered with a Closed status.
     *
     * @param batchStreamId stream of the batch request.
     * @param serviceId     service.
     * @param streaming     false for snapshots.
     * @param names         RICs.
     */
    public void requestBatch(
        final int batchStreamId, final int serviceId, final boolean streaming, final String... names)
    {
        final RequestMsg request = itemRequest(batchStreamId, serviceId, streaming);
        request.applyHasBatch();
        request.containerType(DataTypes.ELEMENT_LIST);
        channel.write((it) ->
        {
            final int ret = request.encodeInit(it, 0);
            if (ret < CodecReturnCodes.SUCCESS)
            {
                return ret;
            }
            encodeArrayElement(it, ElementNames.BATCH_ITEM_LIST, DataTypes.ASCII_STRING, names);
            return request.encodeComplete(it, true);
        });
    }

    /**
     * Request a MarketPrice item with a field-id view (view type 1), or reissue one with a new view.
     *
     * @param streamId  consumer stream.
     * @param serviceId service.
     * @param name      RIC.
     * @param streaming false for a snapshot.
     * @param fieldIds  the view's field ids.
     */
    public void requestView(
        final int streamId, final int serviceId, final String name, final boolean streaming, final int... fieldIds)
    {
        final RequestMsg request = itemRequest(streamId, serviceId, streaming);
        request.msgKey().applyHasName();
        request.msgKey().name().data(name);
        request.msgKey().applyHasNameType();
        request.msgKey().nameType(InstrumentNameTypes.RIC);
        request.applyHasView();
        request.containerType(DataTypes.ELEMENT_LIST);
        channel.write((it) -> encodeWithPayload(request, it, null, fieldIds));
    }

    /**
     * A batch request with a field-id view for every item of it (streams batchStreamId + 1, + 2, ...).
     *
     * @param batchStreamId stream of the batch request.
     * @param serviceId     service.
     * @param streaming     false for snapshots.
     * @param fieldIds      the view's field ids.
     * @param names         RICs.
     */
    public void requestBatchView(
        final int batchStreamId, final int serviceId, final boolean streaming, final int[] fieldIds,
        final String... names)
    {
        final RequestMsg request = itemRequest(batchStreamId, serviceId, streaming);
        request.applyHasBatch();
        request.applyHasView();
        request.containerType(DataTypes.ELEMENT_LIST);
        channel.write((it) -> encodeWithPayload(request, it, names, fieldIds));
    }

    private static int encodeWithPayload(
        final RequestMsg request, final EncodeIterator it, final String[] names, final int[] fieldIds)
    {
        final int ret = request.encodeInit(it, 0);
        if (ret < CodecReturnCodes.SUCCESS)
        {
            return ret;
        }
        final ElementList list = CodecFactory.createElementList();
        list.applyHasStandardData();
        check(list.encodeInit(it, null, 0));
        if (null != names)
        {
            encodeArrayEntry(it, ElementNames.BATCH_ITEM_LIST, DataTypes.ASCII_STRING, names);
        }
        final ElementEntry viewType = CodecFactory.createElementEntry();
        viewType.name(ElementNames.VIEW_TYPE);
        viewType.dataType(DataTypes.UINT);
        final UInt type = CodecFactory.createUInt();
        type.value(ViewTypes.FIELD_ID_LIST);
        check(viewType.encode(it, type));
        encodeArrayEntry(it, ElementNames.VIEW_DATA, DataTypes.INT,
            java.util.Arrays.stream(fieldIds).boxed().toArray());
        check(list.encodeComplete(it, true));
        return request.encodeComplete(it, true);
    }

    /**
     * Open a private stream on a MarketPrice item.
     *
     * @param streamId  consumer stream.
     * @param serviceId service.
     * @param name      RIC.
     */
    public void requestPrivate(final int streamId, final int serviceId, final String name)
    {
        final RequestMsg request = itemRequest(streamId, serviceId, true);
        request.applyPrivateStream();
        request.msgKey().applyHasName();
        request.msgKey().name().data(name);
        request.msgKey().applyHasNameType();
        request.msgKey().nameType(InstrumentNameTypes.RIC);
        channel.write(request::encode);
    }

    /**
     * Send a GenericMsg on an item stream.
     *
     * @param streamId   the item's stream.
     * @param domainType the GenericMsg's domain.
     * @param fields     its FieldList payload.
     */
    public void generic(final int streamId, final int domainType, final byte[] fields)
    {
        final GenericMsg generic = (GenericMsg)CodecFactory.createMsg();
        generic.msgClass(MsgClasses.GENERIC);
        generic.streamId(streamId);
        generic.domainType(domainType);
        generic.containerType(DataTypes.FIELD_LIST);
        generic.applyMessageComplete();
        generic.encodedDataBody().data(java.nio.ByteBuffer.wrap(fields));
        channel.write(generic::encode);
    }

    /**
     * Post an update to a MarketPrice item: on-stream (name null: the item the stream has open) or off-stream on the
     * login stream (name and serviceId in the msgKey).
     *
     * @param streamId  the item's stream, or the login stream for an off-stream post.
     * @param serviceId the item's service (off-stream only).
     * @param name      the item's name for an off-stream post, or null.
     * @param postId    echoed as the ackId.
     * @param ack       ask for an ACK.
     * @param fields    the posted update's FieldList.
     */
    public void post(
        final int streamId, final int serviceId, final String name, final long postId, final boolean ack,
        final byte[] fields)
    {
        final PostMsg post = (PostMsg)CodecFactory.createMsg();
        post.msgClass(MsgClasses.POST);
        post.streamId(streamId);
        post.domainType(DomainTypes.MARKET_PRICE);
        post.containerType(DataTypes.MSG);
        post.applyPostComplete();
        post.applyHasPostId();
        post.postId(postId);
        if (ack)
        {
            post.applyAck();
        }
        post.postUserInfo().userAddr(0x7F000001L);
        post.postUserInfo().userId(42);
        if (null != name)
        {
            post.applyHasMsgKey();
            post.msgKey().applyHasServiceId();
            post.msgKey().serviceId(serviceId);
            post.msgKey().applyHasName();
            post.msgKey().name().data(name);
            post.msgKey().applyHasNameType();
            post.msgKey().nameType(InstrumentNameTypes.RIC);
        }
        final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
        update.msgClass(MsgClasses.UPDATE);
        update.streamId(streamId);
        update.domainType(DomainTypes.MARKET_PRICE);
        update.containerType(DataTypes.FIELD_LIST);
        update.encodedDataBody().data(java.nio.ByteBuffer.wrap(fields));
        channel.write((it) ->
        {
            final int ret = post.encodeInit(it, 0);
            if (ret < CodecReturnCodes.SUCCESS)
            {
                return ret;
            }
            check(update.encode(it));
            return post.encodeComplete(it, true);
        });
    }

    /**
     * Close one item stream.
     *
     * @param streamId the stream.
     */
    public void closeItem(final int streamId)
    {
        final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
        close.msgClass(MsgClasses.CLOSE);
        close.domainType(DomainTypes.MARKET_PRICE);
        close.streamId(streamId);
        close.containerType(DataTypes.NO_DATA);
        channel.write(close::encode);
    }

    /**
     * Close several item streams with one batch close (a CloseMsg whose ElementList carries {@code :StreamIdList}).
     *
     * @param streamId  stream the close is sent on.
     * @param streamIds streams to close.
     */
    public void closeBatch(final int streamId, final int... streamIds)
    {
        final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
        close.msgClass(MsgClasses.CLOSE);
        close.domainType(DomainTypes.MARKET_PRICE);
        close.streamId(streamId);
        close.containerType(DataTypes.ELEMENT_LIST);
        final Object[] ids = new Object[streamIds.length];
        for (int i = 0; i < ids.length; i++)
        {
            ids[i] = streamIds[i];
        }
        channel.write((it) ->
        {
            final int ret = close.encodeInit(it, 0);
            if (ret < CodecReturnCodes.SUCCESS)
            {
                return ret;
            }
            encodeArrayElement(it, ElementNames.BATCH_STREAMID_LIST, DataTypes.INT, ids);
            return close.encodeComplete(it, true);
        });
    }

    /**
     * Send raw RWF bytes (for bad-input tests).
     *
     * @param message RWF bytes.
     */
    public void writeRaw(final byte[] message)
    {
        channel.write(message);
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

    private static void encodeArrayElement(
        final EncodeIterator it, final Buffer name, final int primitiveType, final Object[] values)
    {
        final ElementList list = CodecFactory.createElementList();
        list.applyHasStandardData();
        check(list.encodeInit(it, null, 0));
        encodeArrayEntry(it, name, primitiveType, values);
        check(list.encodeComplete(it, true));
    }

    private static void encodeArrayEntry(
        final EncodeIterator it, final Buffer name, final int primitiveType, final Object[] values)
    {
        final ElementEntry entry = CodecFactory.createElementEntry();
        entry.name(name);
        entry.dataType(DataTypes.ARRAY);
        check(entry.encodeInit(it, 0));
        final Array array = CodecFactory.createArray();
        array.primitiveType(primitiveType);
        array.itemLength(0);
        check(array.encodeInit(it));
        final ArrayEntry arrayEntry = CodecFactory.createArrayEntry();
        for (final Object value : values)
        {
            if (DataTypes.INT == primitiveType)
            {
                final Int intValue = CodecFactory.createInt();
                intValue.value((int)(Integer)value);
                check(arrayEntry.encode(it, intValue));
            }
            else
            {
                final Buffer text = CodecFactory.createBuffer();
                text.data((String)value);
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

    // ------------------------------------------------------------------ reading

    /**
     * Read what arrived and ping if due.
     *
     * @return false once the connection is gone.
     */
    public boolean service()
    {
        return channel.service();
    }

    /**
     * @return messages received so far.
     */
    public long messagesReceived()
    {
        return channel.messagesReceived();
    }

    /**
     * @return the next message on any stream.
     */
    public EtaMessage awaitMessage()
    {
        return EtaMessage.decode(channel.awaitMessage(), dictionary);
    }

    /**
     * The next message on one stream, leaving messages of other streams queued in order. Waits until the test's
     * deadline.
     *
     * @param streamId the stream.
     * @return the message.
     */
    public EtaMessage awaitMessage(final int streamId)
    {
        final byte[] bytes = channel.awaitMessage("a message on stream " + streamId,
            (m) -> EtaChannel.streamId(m) == streamId, Long.MAX_VALUE);
        return EtaMessage.decode(bytes, dictionary);
    }

    /**
     * The next message on one stream, failing the test if none arrives within the time given.
     *
     * @param streamId the stream.
     * @param within   how long to wait.
     * @return the message.
     */
    public EtaMessage awaitMessage(final int streamId, final Duration within)
    {
        final EtaMessage message = pollMessage(streamId, within);
        if (null == message)
        {
            throw new AssertionError("no message on stream " + streamId + " within " + within);
        }
        return message;
    }

    /**
     * The next message on one stream if one arrives within the time given (to check that nothing comes).
     *
     * @param streamId the stream.
     * @param within   how long to wait.
     * @return the message, or null.
     */
    public EtaMessage pollMessage(final int streamId, final Duration within)
    {
        final byte[] bytes = channel.awaitMessage("a message on stream " + streamId,
            (m) -> EtaChannel.streamId(m) == streamId, System.nanoTime() + within.toNanos());
        return null == bytes ? null : EtaMessage.decode(bytes, dictionary);
    }

    /**
     * @return the next message if one is queued after reading once, else null.
     */
    public EtaMessage poll()
    {
        channel.service();
        final byte[] bytes = channel.poll();
        return null == bytes ? null : EtaMessage.decode(bytes, dictionary);
    }

    /**
     * Wait until the server closes the connection.
     */
    public void awaitClosed()
    {
        channel.awaitClosed();
    }

    @Override
    public void close()
    {
        channel.close();
    }
}
