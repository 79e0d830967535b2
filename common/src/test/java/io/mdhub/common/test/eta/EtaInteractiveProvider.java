package io.mdhub.common.test.eta;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.GenericMsg;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKey;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.PostMsg;
import com.refinitiv.eta.codec.PostMsgFlags;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;
import com.refinitiv.eta.transport.AcceptOptions;
import com.refinitiv.eta.transport.BindOptions;
import com.refinitiv.eta.transport.Channel;
import com.refinitiv.eta.transport.ChannelState;
import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.Server;
import com.refinitiv.eta.transport.Transport;
import com.refinitiv.eta.transport.TransportFactory;
import com.refinitiv.eta.transport.TransportReturnCodes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.MdTests;

/**
 * A real ETA 3.9.1.0 interactive provider for tests, as ETA's Provider example works but answering any item: an ETA
 * server ({@code Transport.bind}) on 127.0.0.1 whose own thread accepts consumer connections, answers the login, a
 * directory with one MarketPrice service, and every MarketPrice request (new stream or reissue) with a solicited
 * refresh; it tracks the open streams, forgets closed ones, and sends updates when the test asks. Payloads are
 * FieldLists with BID (22) and the per-item update counter {@link FieldIds#MDH_UPDSEQ}, which starts at 0 in the
 * first refresh and continues across reissues. Names listed with {@link #refuse(String)} are answered
 * Closed/NotFound instead. Its login refresh announces SupportOMMPost=1: every PostMsg received (on- or off-stream) is
 * kept decoded for the test ({@link #awaitPost()}) and, when it asks for an ACK, answered automatically with an ACK
 * (or the NAK set with {@link #answerPosts(int, String)}), or not at all ({@link #answerPostsNever()}) and then by
 * the test ({@link #answer(ReceivedPost, int, String)}). Everything ETA is done on the provider's thread; the test
 * talks to it through thread-safe counters and a command queue.
 * <p>
 * Requires ETA's transport to be initialised ({@code @ExtendWith(EtaTransportExtension.class)}).
 */
public final class EtaInteractiveProvider implements AutoCloseable
{
    private static final int PING_TIMEOUT_SECONDS = 30;
    private static final long IDLE_NS = TimeUnit.MICROSECONDS.toNanos(200);

    private final int serviceId;
    private final String serviceName;
    private final Server server;
    private final Thread thread;
    private final List<Consumer> consumers = new ArrayList<>();
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> closes = new ConcurrentHashMap<>();
    private final Map<String, Long> updateCounters = new ConcurrentHashMap<>();
    private final Map<String, Boolean> refused = new ConcurrentHashMap<>();
    private final Map<String, Integer> refreshParts = new ConcurrentHashMap<>();
    private final AtomicInteger openStreams = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();
    private final LinkedBlockingQueue<ReceivedPost> posts = new LinkedBlockingQueue<>();
    private final AtomicInteger postsReceived = new AtomicInteger();
    private final Map<String, AtomicInteger> privateRequests = new ConcurrentHashMap<>();
    private final Map<String, List<String>> requestedViews = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<EtaMessage> generics = new LinkedBlockingQueue<>();
    private volatile int autoNakCode = NakCodes.NONE;
    private volatile String autoText = "";
    private volatile boolean isRunning = true;
    private volatile Throwable failure;

    private static final class Consumer
    {
        final EtaChannel channel;
        final Map<Integer, String> streams = new ConcurrentHashMap<>();
        final java.util.Set<Integer> privateStreams = ConcurrentHashMap.newKeySet();
        boolean isActive;

        Consumer(final EtaChannel channel)
        {
            this.channel = channel;
        }
    }

    /**
     * A PostMsg the provider received, decoded (ETA) on its thread. Optional members are -1 (or null) when absent.
     */
    public static final class ReceivedPost
    {
        private final Consumer consumer;
        private final int streamId;
        private final int domainType;
        private final int flags;
        private final long postId;
        private final String keyName;
        private final int keyServiceId;
        private final long seqNum;
        private final int partNum;
        private final long postUserAddress;
        private final long postUserId;
        private final int postUserRights;
        private final byte[] permData;
        private final byte[] payload;

        private ReceivedPost(final Consumer consumer, final PostMsg post)
        {
            this.consumer = consumer;
            streamId = post.streamId();
            domainType = post.domainType();
            flags = post.flags();
            postId = post.checkHasPostId() ? post.postId() : -1;
            final MsgKey key = post.checkHasMsgKey() ? post.msgKey() : null;
            keyName = null != key && key.checkHasName() ? key.name().toString() : null;
            keyServiceId = null != key && key.checkHasServiceId() ? key.serviceId() : -1;
            seqNum = post.checkHasSeqNum() ? post.seqNum() : -1;
            partNum = post.checkHasPartNum() ? post.partNum() : -1;
            postUserAddress = post.postUserInfo().userAddr();
            postUserId = post.postUserInfo().userId();
            postUserRights = post.checkHasPostUserRights() ? post.postUserRights() : -1;
            permData = post.checkHasPermData() ? bytes(post.permData()) : null;
            payload = DataTypes.MSG == post.containerType() ? bytes(post.encodedDataBody()) : null;
        }

        /**
         * @return the stream it came on (the login stream for an off-stream post).
         */
        public int streamId()
        {
            return streamId;
        }

        /**
         * @return its domain.
         */
        public int domainType()
        {
            return domainType;
        }

        /**
         * @return its PostMsgFlags.
         */
        public int flags()
        {
            return flags;
        }

        /**
         * @return true when the poster asked for an AckMsg.
         */
        public boolean isAckRequested()
        {
            return 0 != (flags & PostMsgFlags.ACK);
        }

        /**
         * @return its postId, or -1.
         */
        public long postId()
        {
            return postId;
        }

        /**
         * @return the msgKey's name, or null.
         */
        public String keyName()
        {
            return keyName;
        }

        /**
         * @return the msgKey's serviceId, or -1.
         */
        public int keyServiceId()
        {
            return keyServiceId;
        }

        /**
         * @return its seqNum, or -1.
         */
        public long seqNum()
        {
            return seqNum;
        }

        /**
         * @return its partNum, or -1.
         */
        public int partNum()
        {
            return partNum;
        }

        /**
         * @return the postUserInfo address.
         */
        public long postUserAddress()
        {
            return postUserAddress;
        }

        /**
         * @return the postUserInfo user id.
         */
        public long postUserId()
        {
            return postUserId;
        }

        /**
         * @return its postUserRights, or -1.
         */
        public int postUserRights()
        {
            return postUserRights;
        }

        /**
         * @return its permData, or null.
         */
        public byte[] permData()
        {
            return null == permData ? null : permData.clone();
        }

        /**
         * @return the nested message (UpdateMsg, RefreshMsg...) decoded, or null when the post carries none.
         */
        public EtaMessage message()
        {
            return null == payload ? null : EtaMessage.decode(payload);
        }

        @Override
        public String toString()
        {
            return "Post(stream=" + streamId + " domain=" + domainType + " postId=" + postId + " flags=0x" +
                Integer.toHexString(flags) + " key=" + keyName + "/" + keyServiceId + " seqNum=" + seqNum +
                " partNum=" + partNum + ")";
        }

        private static byte[] bytes(final Buffer buffer)
        {
            final byte[] out = new byte[buffer.length()];
            for (int i = 0; i < out.length; i++)
            {
                out[i] = buffer.data().get(buffer.position() + i);
            }
            return out;
        }
    }

    private EtaInteractiveProvider(final int serviceId, final String serviceName, final int port)
    {
        this.serviceId = serviceId;
        this.serviceName = serviceName;
        final BindOptions options = TransportFactory.createBindOptions();
        // ETA reports port 0 back for an ephemeral bind: pick a free port first
        options.serviceName(Integer.toString(0 == port ? MdTests.unusedPort() : port));
        options.interfaceName("127.0.0.1");
        options.majorVersion(Codec.majorVersion());
        options.minorVersion(Codec.minorVersion());
        options.protocolType(Codec.protocolType());
        options.serverBlocking(false);
        options.channelsBlocking(false);
        options.pingTimeout(PING_TIMEOUT_SECONDS);
        options.minPingTimeout(1);
        final Error error = TransportFactory.createError();
        server = Transport.bind(options, error);
        if (null == server)
        {
            throw new IllegalStateException("Transport.bind: " + error.text());
        }
        thread = new Thread(this::run, "eta-interactive-provider");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Bind on an ephemeral port of 127.0.0.1 and start answering.
     *
     * @param serviceId   the service's id in the directory.
     * @param serviceName the service's name.
     * @return the running provider.
     */
    public static EtaInteractiveProvider start(final int serviceId, final String serviceName)
    {
        return new EtaInteractiveProvider(serviceId, serviceName, 0);
    }

    /**
     * Bind on a given port of 127.0.0.1 (a provider restarting where it was) and start answering.
     *
     * @param serviceId   the service's id in the directory.
     * @param serviceName the service's name.
     * @param port        the port.
     * @return the running provider.
     */
    public static EtaInteractiveProvider start(final int serviceId, final String serviceName, final int port)
    {
        return new EtaInteractiveProvider(serviceId, serviceName, port);
    }

    /**
     * @return the port the provider listens on.
     */
    public int port()
    {
        return server.portNumber();
    }

    /**
     * @param name an item name.
     * @return requests (new streams and reissues) received for it.
     */
    public int requests(final String name)
    {
        final AtomicInteger count = requests.get(name);
        return null == count ? 0 : count.get();
    }

    /**
     * @param name an item name.
     * @return CloseMsgs received for it.
     */
    public int closes(final String name)
    {
        final AtomicInteger count = closes.get(name);
        return null == count ? 0 : count.get();
    }

    /**
     * @return item streams open now, over every connection.
     */
    public int openStreams()
    {
        return openStreams.get();
    }

    /**
     * @return consumer connections accepted so far.
     */
    public int connections()
    {
        return connections.get();
    }

    /**
     * @param name an item name to answer Closed/NotFound from now on.
     */
    public void refuse(final String name)
    {
        refused.put(name, Boolean.TRUE);
    }

    /**
     * @param name  an item to answer with a multi-part refresh from now on.
     * @param parts how many parts: the first clears the cache and carries BID and the counter, each further one adds
     *              ASK (its value the part's number), the last is complete.
     */
    public void refreshInParts(final String name, final int parts)
    {
        refreshParts.put(name, parts);
    }

    /**
     * Send one update to every open stream of the item (on the provider's thread, soon).
     *
     * @param name the item.
     */
    public void update(final String name)
    {
        commands.add(() -> sendUpdate(name));
    }

    /**
     * @param name an item.
     * @return the value of the item's update counter in its last message (-1 before any).
     */
    public long lastCounter(final String name)
    {
        return updateCounters.getOrDefault(name, -1L);
    }

    /**
     * Answer every post that asks for an ACK with this from now on (the default is a plain ACK).
     *
     * @param nakCode 0 ({@link NakCodes#NONE}) for an ACK, else the NakCode of a NAK.
     * @param text    the AckMsg's text (empty for none).
     */
    public void answerPosts(final int nakCode, final String text)
    {
        autoText = text;
        autoNakCode = nakCode;
    }

    /**
     * Answer no post from now on (the test answers with {@link #answer(ReceivedPost, int, String)}, or not at all).
     */
    public void answerPostsNever()
    {
        autoNakCode = -1;
    }

    /**
     * Answer one post received (on the provider's thread, soon), on the connection and stream it came on.
     *
     * @param post    the post.
     * @param nakCode 0 for an ACK, else the NakCode of a NAK.
     * @param text    the AckMsg's text (empty for none).
     */
    public void answer(final ReceivedPost post, final int nakCode, final String text)
    {
        commands.add(() -> sendAck(post, nakCode, text));
    }

    /**
     * @return the next post received, waiting for it (up to the test's deadline).
     */
    public ReceivedPost awaitPost()
    {
        ReceivedPost post;
        while (null == (post = posts.poll()))
        {
            MdTests.idle(() -> "a post at the interactive provider");
        }
        return post;
    }

    /**
     * @param timeoutMs how long to wait.
     * @return the next post received within the time, or null.
     */
    public ReceivedPost pollPost(final long timeoutMs)
    {
        try
        {
            return posts.poll(timeoutMs, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for a post", ex);
        }
    }

    /**
     * @return PostMsgs received so far, over every connection.
     */
    /**
     * @param name an item.
     * @return the view of each request (and reissue) received for it, in order: "all" for a request without a
     * view, else its field ids as {@code Arrays.toString} of the sorted ids.
     */
    public List<String> requestedViews(final String name)
    {
        return List.copyOf(requestedViews.getOrDefault(name, List.of()));
    }

    private static String viewOf(final EtaMessage request)
    {
        if (0 == (request.flags() & RequestMsgFlags.HAS_VIEW))
        {
            return "all";
        }
        final com.refinitiv.eta.codec.DecodeIterator it = request.iterator();
        final Msg msg = CodecFactory.createMsg();
        msg.decode(it);
        final io.mdhub.common.rwf.eta.ViewRequestDecoder decoder = new io.mdhub.common.rwf.eta.ViewRequestDecoder();
        return decoder.decode(it) ? java.util.Arrays.toString(decoder.view().fieldIds()) : "bad: " + decoder.error();
    }

    /**
     * @param name an item.
     * @return private-stream requests received for it.
     */
    public int privateRequests(final String name)
    {
        final AtomicInteger count = privateRequests.get(name);
        return null == count ? 0 : count.get();
    }

    /**
     * @return the next GenericMsg a consumer sent on an item stream (fails after 10 s).
     */
    public EtaMessage awaitGeneric()
    {
        try
        {
            final EtaMessage message = generics.poll(10, java.util.concurrent.TimeUnit.SECONDS);
            if (null == message)
            {
                throw new AssertionError("no generic message within 10 s");
            }
            return message;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for a generic message", ex);
        }
    }

    /**
     * Send a GenericMsg with a FieldList payload on every stream open for the item.
     *
     * @param name   the item.
     * @param fields the payload.
     */
    public void generic(final String name, final byte[] fields)
    {
        commands.add(() ->
        {
            for (final Consumer consumer : consumers)
            {
                for (final Map.Entry<Integer, String> stream : consumer.streams.entrySet())
                {
                    if (stream.getValue().equals(name))
                    {
                        final GenericMsg generic = (GenericMsg)CodecFactory.createMsg();
                        generic.msgClass(MsgClasses.GENERIC);
                        generic.domainType(DomainTypes.MARKET_PRICE);
                        generic.streamId(stream.getKey());
                        generic.containerType(DataTypes.FIELD_LIST);
                        generic.applyMessageComplete();
                        generic.encodedDataBody(buffer(fields));
                        consumer.channel.write(generic::encode);
                    }
                }
            }
        });
    }

    /**
     * @return posts received so far.
     */
    public int postsReceived()
    {
        return postsReceived.get();
    }

    /**
     * @throws IllegalStateException if the provider's thread failed.
     */
    public void checkHealthy()
    {
        if (null != failure)
        {
            throw new IllegalStateException("the ETA interactive provider failed", failure);
        }
    }

    private void run()
    {
        final AcceptOptions acceptOptions = TransportFactory.createAcceptOptions();
        final Error error = TransportFactory.createError();
        try
        {
            while (isRunning)
            {
                final Channel accepted = server.accept(acceptOptions, error);
                if (null != accepted)
                {
                    consumers.add(new Consumer(new EtaChannel(accepted)));
                    connections.incrementAndGet();
                }
                for (int i = consumers.size() - 1; i >= 0; i--)
                {
                    serviceConsumer(consumers.get(i), i);
                }
                Runnable command;
                while (null != (command = commands.poll()))
                {
                    command.run();
                }
                LockSupport.parkNanos(IDLE_NS);
            }
        }
        catch (final Throwable ex)
        {
            failure = ex;
            System.err.println("EtaInteractiveProvider failed: " + ex); // the test sees it via checkHealthy too
            ex.printStackTrace();
        }
        finally
        {
            consumers.forEach((consumer) -> consumer.channel.close());
            server.close(error);
        }
    }

    private void serviceConsumer(final Consumer consumer, final int index)
    {
        if (!consumer.isActive)
        {
            final int ret = consumer.channel.init();
            if (TransportReturnCodes.CHAN_INIT_IN_PROGRESS == ret)
            {
                return;
            }
            if (TransportReturnCodes.SUCCESS != ret || ChannelState.ACTIVE != consumer.channel.channel().state())
            {
                dropConsumer(consumer, index);
                return;
            }
            consumer.isActive = true;
        }
        if (!consumer.channel.service())
        {
            dropConsumer(consumer, index);
            return;
        }
        byte[] bytes;
        while (null != (bytes = consumer.channel.poll()))
        {
            onMessage(consumer, EtaMessage.decode(bytes));
        }
    }

    private void dropConsumer(final Consumer consumer, final int index)
    {
        openStreams.addAndGet(-consumer.streams.size());
        consumer.streams.clear();
        consumer.channel.close();
        consumers.remove(index);
    }

    private void onMessage(final Consumer consumer, final EtaMessage message)
    {
        final int domain = message.domainType();
        final int msgClass = message.msgClass();
        if (MsgClasses.POST == msgClass)
        {
            onPost(consumer, message.msg());
        }
        else if (MsgClasses.GENERIC == msgClass)
        {
            generics.add(message);
        }
        else if (DomainTypes.LOGIN == domain && MsgClasses.REQUEST == msgClass)
        {
            final LoginRefresh refresh = (LoginRefresh)LoginMsgFactory.createMsg();
            refresh.rdmMsgType(LoginMsgType.REFRESH);
            refresh.streamId(message.streamId());
            refresh.applySolicited();
            refresh.applyHasUserName();
            refresh.userName().data("mdhub-test");
            refresh.state().streamState(StreamStates.OPEN);
            refresh.state().dataState(DataStates.OK);
            refresh.state().code(StateCodes.NONE);
            refresh.applyHasFeatures();
            refresh.features().applyHasSupportPost();
            refresh.features().supportOMMPost(1);
            consumer.channel.write(refresh::encode);
        }
        else if (DomainTypes.SOURCE == domain && MsgClasses.REQUEST == msgClass)
        {
            final DirectoryRefresh refresh = EtaNiProvider.directoryRefresh(serviceId, serviceName);
            refresh.streamId(message.streamId());
            refresh.applySolicited();
            consumer.channel.write(refresh::encode);
        }
        else if (DomainTypes.MARKET_PRICE == domain && MsgClasses.REQUEST == msgClass)
        {
            final String name = message.keyName();
            final int streamId = message.streamId();
            requests.computeIfAbsent(name, (k) -> new AtomicInteger()).incrementAndGet();
            if (refused.containsKey(name))
            {
                sendStatus(consumer, streamId, StreamStates.CLOSED, StateCodes.NOT_FOUND, "no such item");
                return;
            }
            if (null == consumer.streams.put(streamId, name))
            {
                openStreams.incrementAndGet();
            }
            requestedViews.computeIfAbsent(name, (k) -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(viewOf(message));
            if (0 != (message.flags() & RequestMsgFlags.PRIVATE_STREAM))
            {
                consumer.privateStreams.add(streamId);
                privateRequests.computeIfAbsent(name, (k) -> new AtomicInteger()).incrementAndGet();
            }
            sendRefresh(consumer, streamId, name);
        }
        else if (MsgClasses.CLOSE == msgClass)
        {
            final String name = consumer.streams.remove(message.streamId());
            consumer.privateStreams.remove(message.streamId());
            if (null != name)
            {
                openStreams.decrementAndGet();
                closes.computeIfAbsent(name, (k) -> new AtomicInteger()).incrementAndGet();
            }
        }
    }

    private void onPost(final Consumer consumer, final Msg msg)
    {
        final ReceivedPost post = new ReceivedPost(consumer, (PostMsg)msg);
        postsReceived.incrementAndGet();
        posts.add(post);
        final int nakCode = autoNakCode;
        if (nakCode >= 0 && post.isAckRequested())
        {
            sendAck(post, nakCode, autoText);
        }
    }

    private void sendAck(final ReceivedPost post, final int nakCode, final String text)
    {
        if (!consumers.contains(post.consumer))
        {
            return; // its connection is gone
        }
        final AckMsg ack = (AckMsg)CodecFactory.createMsg();
        ack.msgClass(MsgClasses.ACK);
        ack.domainType(post.domainType);
        ack.streamId(post.streamId);
        ack.containerType(DataTypes.NO_DATA);
        ack.ackId(Math.max(0, post.postId));
        if (post.seqNum >= 0)
        {
            ack.applyHasSeqNum();
            ack.seqNum(post.seqNum);
        }
        if (NakCodes.NONE != nakCode)
        {
            ack.applyHasNakCode();
            ack.nakCode(nakCode);
        }
        if (!text.isEmpty())
        {
            ack.applyHasText();
            ack.text(buffer(text.getBytes(StandardCharsets.US_ASCII)));
        }
        post.consumer.channel.write(ack::encode);
    }

    private void sendRefresh(final Consumer consumer, final int streamId, final String name)
    {
        final int parts = refreshParts.getOrDefault(name, 1);
        updateCounters.putIfAbsent(name, 0L);
        for (int part = 1; part <= parts; part++)
        {
            final byte[] body = 1 == part ? fields(name, updateCounters.get(name)) :
                new EtaFieldLists().begin(0, 0).real(FieldIds.ASK, part, 12).end();
            sendRefreshPart(consumer, streamId, name, (1 == part ? RefreshMsgFlags.CLEAR_CACHE : 0) |
                (parts == part ? RefreshMsgFlags.REFRESH_COMPLETE : 0), body);
        }
    }

    private void sendRefreshPart(
        final Consumer consumer, final int streamId, final String name, final int partFlags, final byte[] body)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(streamId);
        refresh.containerType(DataTypes.FIELD_LIST);
        refresh.flags(RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.HAS_QOS | RefreshMsgFlags.SOLICITED | partFlags |
            (consumer.privateStreams.contains(streamId) ? RefreshMsgFlags.PRIVATE_STREAM : 0));
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        refresh.qos().timeliness(QosTimeliness.REALTIME);
        refresh.qos().rate(QosRates.TICK_BY_TICK);
        refresh.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        refresh.msgKey().serviceId(serviceId);
        refresh.msgKey().name(buffer(name.getBytes(StandardCharsets.US_ASCII)));
        refresh.msgKey().nameType(InstrumentNameTypes.RIC);
        refresh.encodedDataBody(buffer(body));
        consumer.channel.write(refresh::encode);
    }

    private void sendUpdate(final String name)
    {
        final long counter = updateCounters.getOrDefault(name, 0L) + 1;
        updateCounters.put(name, counter);
        final byte[] fields = fields(name, counter);
        for (final Consumer consumer : consumers)
        {
            for (final Map.Entry<Integer, String> stream : consumer.streams.entrySet())
            {
                if (stream.getValue().equals(name))
                {
                    final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
                    update.msgClass(MsgClasses.UPDATE);
                    update.domainType(DomainTypes.MARKET_PRICE);
                    update.streamId(stream.getKey());
                    update.containerType(DataTypes.FIELD_LIST);
                    update.updateType(UpdateEventTypes.QUOTE);
                    update.encodedDataBody(buffer(fields));
                    consumer.channel.write(update::encode);
                }
            }
        }
    }

    private void sendStatus(
        final Consumer consumer, final int streamId, final int streamState, final int code, final String text)
    {
        final StatusMsg status = (StatusMsg)CodecFactory.createMsg();
        status.msgClass(MsgClasses.STATUS);
        status.domainType(DomainTypes.MARKET_PRICE);
        status.streamId(streamId);
        status.containerType(DataTypes.NO_DATA);
        status.flags(StatusMsgFlags.HAS_STATE);
        status.state().streamState(streamState);
        status.state().dataState(DataStates.SUSPECT);
        status.state().code(code);
        status.state().text(buffer(text.getBytes(StandardCharsets.US_ASCII)));
        consumer.channel.write(status::encode);
    }

    private static byte[] fields(final String name, final long counter)
    {
        return new EtaFieldLists()
            .begin(0, 0)
            .real(FieldIds.BID, 10_000 + (counter % 1000), 12)
            .uint(FieldIds.MDH_UPDSEQ, counter)
            .end();
    }

    private static Buffer buffer(final byte[] bytes)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(bytes));
        return buffer;
    }

    /**
     * Stop the thread, close every connection and the server.
     */
    @Override
    public void close()
    {
        isRunning = false;
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
