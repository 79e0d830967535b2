package io.mdhub.benchmarks.source;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.ripc.RipcMessageHandler;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.RwfMsgKeyFlyweight;
import io.mdhub.common.rwf.eta.BatchRequestLists;
import io.mdhub.common.rwf.eta.DictionaryRequestDecoder;
import io.mdhub.common.rwf.eta.DirectoryRequestDecoder;
import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.LoginRequestDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;

/**
 * One consumer connection of an {@link InteractiveSource}: the application handler at the end of its RIPC pipeline
 * and all of its state (login, directory stream, open item streams, update pacing). Everything runs on the
 * connection's event loop. Inbound messages are read with the RWF flyweight; admin and batch payloads with ETA.
 * <p>
 * Bad input never reaches beyond this connection: a message that cannot be parsed but names a stream is answered
 * with a Closed status on that stream; one that cannot even be attributed to a stream, a malformed or provider-role
 * login, or a failure while handling a message closes the connection. Every case is counted and logged (the first
 * few per connection at WARN, then one in a thousand).
 */
final class SinkSession extends RipcMessageHandler
{
    /**
     * How long a refused login's connection stays open so the consumer reads the status before the close.
     */
    static final long REJECT_LINGER_MS = 500;
    private static final Logger LOG = LoggerFactory.getLogger(SinkSession.class);
    private static final int LOGGED_BAD_INPUTS = 10;
    private static final int LOG_EVERY_BAD_INPUT = 1000;
    private static final int DEFAULT_MAX_USER_MSG_SIZE = 6144;
    private static final AtomicLong CONNECTION_IDS = new AtomicLong();
    private static volatile DataDictionary dictionary;

    private final InteractiveSource.Context settings;
    private final InteractiveSourceStats stats;
    private final long connectionId = CONNECTION_IDS.incrementAndGet();
    private final SinkMessages messages;
    private final RwfMsgFlyweight header = new RwfMsgFlyweight();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final EtaMsgReader reader = new EtaMsgReader();
    private final LoginRequestDecoder loginDecoder = new LoginRequestDecoder();
    private final DirectoryRequestDecoder directoryDecoder = new DirectoryRequestDecoder();
    private final DictionaryRequestDecoder dictionaryDecoder = new DictionaryRequestDecoder();
    private final BatchRequestLists batchLists = new BatchRequestLists();
    private final Buffer serviceName = CodecFactory.createBuffer();
    private final Int2ObjectHashMap<SinkStream> streams = new Int2ObjectHashMap<>();
    private final UpdatableStreams updatable = new UpdatableStreams();
    private long updateSequence;
    private UpdatePacer pacer;
    private ScheduledFuture<?> ticker;
    private ChannelHandlerContext ctx;
    private RipcFrameEncoder encoder;
    private RipcSession ripcSession;
    private boolean isActive;
    private boolean isLoggedIn;
    private boolean isClosing;
    private boolean isRefusing;
    private boolean isDirty;
    private int loginStreamId;
    private int directoryStreamId;
    private String userName = "";
    private long badInputs;
    private long unwritableSinceNs;

    SinkSession(final InteractiveSource.Context settings, final InteractiveSourceStats stats)
    {
        this.settings = settings;
        this.stats = stats;
        this.messages = new SinkMessages(settings);
        serviceName.data(settings.serviceName());
    }

    // ---------------------------------------------------------------- channel events

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt)
    {
        if (evt instanceof RipcSession && !isActive)
        {
            ripcSession = (RipcSession)evt;
            isActive = true;
            stats.connections.incrementAndGet();
            stats.connectionsAccepted.incrementAndGet();
            pacer = new UpdatePacer(stats.targetRate, settings.maxBurst(), System.nanoTime());
            ticker = ctx.executor().scheduleAtFixedRate(
                this::tick, settings.tickNs(), settings.tickNs(), TimeUnit.NANOSECONDS);
            LOG.info("connection {} from {} ({}) is active", connectionId, ctx.channel().remoteAddress(),
                ripcSession.remoteComponent());
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        isClosing = true;
        if (isActive)
        {
            isActive = false;
            if (null != ticker)
            {
                ticker.cancel(false);
            }
            // streams first: whoever sees the connection gone must also see its items gone
            dropAllStreams();
            stats.connections.decrementAndGet();
            LOG.info("connection {} ({} user={}) closed", connectionId, ctx.channel().remoteAddress(), userName);
        }
        ctx.fireChannelInactive();
    }

    @Override
    protected boolean isTakingMessages()
    {
        return !isClosing && !isRefusing;
    }

    @Override
    protected void onMessageFailure(final ChannelHandlerContext ctx, final Throwable failure)
    {
        LOG.error("connection {}: failure while handling a message", connectionId, failure);
        disconnect(stats.badPeerDisconnects, "failure while handling a message: " + failure);
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx)
    {
        if (isDirty)
        {
            isDirty = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        unwritableSinceNs = ctx.channel().isWritable() ? 0 : Math.max(1, System.nanoTime());
        ctx.fireChannelWritabilityChanged();
    }

    // ---------------------------------------------------------------- updates

    private void tick()
    {
        if (isClosing)
        {
            return;
        }
        final long nowNs = System.nanoTime();
        if (0 != unwritableSinceNs && nowNs - unwritableSinceNs > settings.slowConsumerTimeoutMs() * 1_000_000L)
        {
            disconnect(stats.slowConsumerDisconnects, "unwritable for more than " + settings.slowConsumerTimeoutMs() +
                " ms with " + pendingOutputBytes() + " bytes pending");
            return;
        }
        final long targetRate = stats.targetRate;
        if (targetRate != pacer.rate())
        {
            pacer.rate(targetRate, nowNs);
        }
        final int due = pacer.due(nowNs);
        if (0 == due)
        {
            return;
        }
        if (0 == updatable.size())
        {
            pacer.sent(due); // nothing open: the time passes unused rather than piling up into a burst
            return;
        }
        sendUpdates(due);
    }

    private void sendUpdates(final int due)
    {
        final ChannelHandlerContext ctx = this.ctx;
        final io.netty.channel.Channel channel = ctx.channel();
        int sent = 0;
        while (sent < due && channel.isWritable())
        {
            final int slot = updatable.nextSlot();
            final int streamId = updatable.streamId(slot);
            final int length = messages.encodeUpdate(streamId, updatable.basePrice(slot),
                updatable.nextUpdateCount(slot), ++updateSequence);
            packOrWrite(ctx, streamId, length);
            sent++;
        }
        if (sent > 0)
        {
            isDirty = false;
            ctx.flush();
            pacer.sent(sent);
            stats.updatesSent.getAndAdd(sent);
        }
        if (sent < due)
        {
            stats.writeBackoffs.incrementAndGet();
        }
    }

    /**
     * The update just encoded goes straight into the RIPC encoder's packed frame, or in a frame of its own on a
     * connection that does not pack (the streamId "patched" in is the one encoded).
     */
    private void packOrWrite(final ChannelHandlerContext ctx, final int streamId, final int length)
    {
        if (null == encoder)
        {
            encoder = ctx.pipeline().get(RipcFrameEncoder.class); // in the pipeline once the session is active
        }
        encoder.writeCopy(messages.lastUpdate(), 0, length, RwfMsgDescriptor.STREAM_ID_OFFSET, streamId);
    }

    // ---------------------------------------------------------------- inbound

    @Override
    protected void onMessage(final ByteBuf message)
    {
        final int length = message.readableBytes();
        wrapView(message, length);
        if (!header.wrap(view, 0, length))
        {
            onMalformed(length);
            return;
        }
        final int domainType = header.domainType();
        if (DomainTypes.LOGIN == domainType)
        {
            onLoginMessage(message);
        }
        else if (!isLoggedIn)
        {
            if (RwfMsgDescriptor.REQUEST == header.msgClass())
            {
                reject(domainType, header.streamId(), StateCodes.USAGE_ERROR, "Login required: log in first");
            }
            else
            {
                stats.ignored.incrementAndGet();
            }
        }
        else if (DomainTypes.SOURCE == domainType)
        {
            onDirectoryMessage(message);
        }
        else if (DomainTypes.DICTIONARY == domainType)
        {
            onDictionaryMessage(message);
        }
        else if (DomainTypes.MARKET_PRICE == domainType)
        {
            onItemMessage(message);
        }
        else if (RwfMsgDescriptor.REQUEST == header.msgClass())
        {
            reject(domainType, header.streamId(), StateCodes.NOT_FOUND, "Domain " + DomainTypes.toString(domainType) +
                " is not provided: this source serves MarketPrice only");
        }
        else
        {
            stats.ignored.incrementAndGet();
        }
    }

    private void wrapView(final ByteBuf message, final int length)
    {
        if (message.hasMemoryAddress())
        {
            view.wrap(message.memoryAddress() + message.readerIndex(), length);
        }
        else if (message.hasArray())
        {
            view.wrap(message.array(), message.arrayOffset() + message.readerIndex(), length);
        }
        else
        {
            view.wrap(message.nioBuffer(message.readerIndex(), length));
        }
    }

    private void onMalformed(final int length)
    {
        stats.malformed.incrementAndGet();
        final String reason = header.errorReason();
        if (length >= RwfMsgDescriptor.STREAM_ID_OFFSET + RwfMsgDescriptor.STREAM_ID_SIZE)
        {
            final int streamId = view.getInt(RwfMsgDescriptor.STREAM_ID_OFFSET, RwfMsgDescriptor.BYTE_ORDER);
            final int domainType = view.getByte(RwfMsgDescriptor.DOMAIN_TYPE_OFFSET) & 0xFF;
            if (DomainTypes.LOGIN != domainType && (!isLoggedIn || streamId != loginStreamId))
            {
                closeStream(streamId, false);
                reject(domainType, streamId, StateCodes.USAGE_ERROR, "Malformed message: " + reason);
                return;
            }
        }
        disconnect(stats.badPeerDisconnects, "malformed message (" + length + " bytes): " + reason);
    }

    // ---------------------------------------------------------------- login

    private void onLoginMessage(final ByteBuf message)
    {
        final int streamId = header.streamId();
        if (RwfMsgDescriptor.CLOSE == header.msgClass())
        {
            if (isLoggedIn && streamId == loginStreamId)
            {
                LOG.info("connection {}: user {} logged out", connectionId, userName);
                isLoggedIn = false;
                dropAllStreams();
            }
            return;
        }
        if (RwfMsgDescriptor.REQUEST != header.msgClass())
        {
            stats.ignored.incrementAndGet();
            return;
        }
        if (CodecReturnCodes.SUCCESS != reader.read(message, message.readerIndex(), message.readableBytes()) ||
            CodecReturnCodes.SUCCESS != loginDecoder.decode(reader))
        {
            stats.malformed.incrementAndGet();
            refuseLogin(streamId, StateCodes.USAGE_ERROR, "Malformed login request", "malformed login request");
            return;
        }
        if (loginDecoder.isProvider())
        {
            refuseLogin(streamId, StateCodes.USAGE_ERROR, "Provider logins are not accepted: " +
                settings.componentName() + " is an interactive provider, log in as a consumer (Role 0)",
                "provider-role login by " + loginDecoder.request().userName());
            return;
        }
        if (isLoggedIn && streamId != loginStreamId)
        {
            reject(DomainTypes.LOGIN, streamId, StateCodes.USAGE_ERROR,
                "Already logged in on stream " + loginStreamId);
            return;
        }
        if (!isLoggedIn)
        {
            stats.logins.incrementAndGet();
            userName = loginDecoder.request().userName().toString();
            LOG.info("connection {}: user {} logged in", connectionId, userName);
        }
        isLoggedIn = true;
        loginStreamId = streamId;
        write(messages.loginAccept(ctx.alloc(), loginDecoder.request()));
    }

    private void refuseLogin(final int streamId, final int code, final String text, final String logDetail)
    {
        stats.loginsRefused.incrementAndGet();
        write(messages.loginReject(ctx.alloc(), streamId, code, text));
        stats.statusSent.incrementAndGet();
        LOG.warn("connection {} ({}): login refused: {}", connectionId, ctx.channel().remoteAddress(), logDetail);
        // an ETA client that reads the status and the connection's end in one read drops the status: linger
        isRefusing = true;
        ctx.flush();
        ctx.executor().schedule(() ->
        {
            isClosing = true;
            ctx.channel().close();
        }, REJECT_LINGER_MS, TimeUnit.MILLISECONDS);
    }

    // ---------------------------------------------------------------- directory and dictionary

    private void onDirectoryMessage(final ByteBuf message)
    {
        final int streamId = header.streamId();
        if (RwfMsgDescriptor.CLOSE == header.msgClass())
        {
            if (streamId == directoryStreamId)
            {
                directoryStreamId = 0;
            }
            return;
        }
        if (RwfMsgDescriptor.REQUEST != header.msgClass())
        {
            stats.ignored.incrementAndGet();
            return;
        }
        if (CodecReturnCodes.SUCCESS != reader.read(message, message.readerIndex(), message.readableBytes()) ||
            CodecReturnCodes.SUCCESS != directoryDecoder.decode(reader))
        {
            stats.malformed.incrementAndGet();
            reject(DomainTypes.SOURCE, streamId, StateCodes.USAGE_ERROR, "Malformed source directory request");
            return;
        }
        final Buffer requestedName = directoryDecoder.serviceName();
        final int requestedId = directoryDecoder.serviceId();
        if ((null != requestedName && !serviceName.equals(requestedName)) ||
            (requestedId >= 0 && requestedId != settings.serviceId()))
        {
            reject(DomainTypes.SOURCE, streamId, StateCodes.SOURCE_UNKNOWN, "Unknown service: this source serves " +
                settings.serviceName() + " (id " + settings.serviceId() + ")");
            return;
        }
        stats.directoryRequests.incrementAndGet();
        write(messages.directoryRefresh(ctx.alloc(), streamId, directoryDecoder.filter()));
        if (directoryDecoder.streaming())
        {
            directoryStreamId = streamId;
        }
        else if (streamId == directoryStreamId)
        {
            directoryStreamId = 0;
        }
    }

    private void onDictionaryMessage(final ByteBuf message)
    {
        if (RwfMsgDescriptor.REQUEST != header.msgClass())
        {
            return; // closes of (non-streaming) dictionary streams need no answer
        }
        final int streamId = header.streamId();
        if (CodecReturnCodes.SUCCESS != reader.read(message, message.readerIndex(), message.readableBytes()) ||
            CodecReturnCodes.SUCCESS != dictionaryDecoder.decode(reader))
        {
            stats.malformed.incrementAndGet();
            reject(DomainTypes.DICTIONARY, streamId, StateCodes.USAGE_ERROR, "Malformed dictionary request");
            return;
        }
        final boolean isField = dictionaryDecoder.isFieldDictionary();
        if (!isField && !dictionaryDecoder.isEnumTypeDictionary())
        {
            reject(DomainTypes.DICTIONARY, streamId, StateCodes.NOT_FOUND, "Dictionary " +
                dictionaryDecoder.request().dictionaryName() + " is not provided: RWFFld and RWFEnum are");
            return;
        }
        messages.beginDictionary(bundledDictionary(), streamId, dictionaryDecoder.request().verbosity(), isField,
            dictionaryDecoder.streaming());
        final int partSize = null != ripcSession ? ripcSession.maxUserMsgSize() : DEFAULT_MAX_USER_MSG_SIZE;
        do
        {
            write(messages.nextDictionaryPart(ctx.alloc(), partSize));
        }
        while (!messages.isLastPart() && !isClosing);
    }

    private static DataDictionary bundledDictionary()
    {
        DataDictionary loaded = dictionary;
        if (null == loaded)
        {
            synchronized (SinkSession.class)
            {
                loaded = dictionary;
                if (null == loaded)
                {
                    loaded = DictionaryLoader.loadBundled();
                    dictionary = loaded;
                }
            }
        }
        return loaded;
    }

    // ---------------------------------------------------------------- items

    private void onItemMessage(final ByteBuf message)
    {
        switch (header.msgClass())
        {
            case RwfMsgDescriptor.REQUEST:
                onItemRequest(message);
                break;
            case RwfMsgDescriptor.CLOSE:
                onItemClose(message);
                break;
            default:
                stats.ignored.incrementAndGet(); // posts, generic messages...: nothing to do
                break;
        }
    }

    private void onItemRequest(final ByteBuf message)
    {
        final int streamId = header.streamId();
        final int flags = header.flags();
        final boolean isStreaming = 0 != (flags & RwfMsgFlags.Request.STREAMING);
        if (0 != (flags & RwfMsgFlags.Request.HAS_BATCH))
        {
            onBatchRequest(message, isStreaming, flags);
            return;
        }
        final SinkStream existing = streams.get(streamId);
        if (null != existing)
        {
            reissue(existing, isStreaming, flags);
            return;
        }
        final RwfMsgKeyFlyweight key = header.key();
        if (!header.hasMsgKey() || !key.hasName() || 0 == key.nameLength())
        {
            reject(DomainTypes.MARKET_PRICE, streamId, StateCodes.USAGE_ERROR,
                "Item request needs a name in its msgKey");
            return;
        }
        if (!checkService(key, streamId))
        {
            return;
        }
        open(streamId, view, key.nameOffset(), key.nameLength(), isStreaming);
    }

    private boolean checkService(final RwfMsgKeyFlyweight key, final int streamId)
    {
        if (!key.hasServiceId())
        {
            reject(DomainTypes.MARKET_PRICE, streamId, StateCodes.USAGE_ERROR,
                "Item request needs a serviceId in its msgKey");
            return false;
        }
        if (key.serviceId() != settings.serviceId())
        {
            reject(DomainTypes.MARKET_PRICE, streamId, StateCodes.SOURCE_UNKNOWN, "Unknown service id " +
                key.serviceId() + ": this source serves " + settings.serviceName() + " (id " + settings.serviceId() +
                ")");
            return false;
        }
        return true;
    }

    private void open(
        final int streamId,
        final org.agrona.DirectBuffer names,
        final int nameOffset,
        final int nameLength,
        final boolean isStreaming)
    {
        stats.requests.incrementAndGet();
        final SinkStream stream = new SinkStream(streamId, names, nameOffset, nameLength);
        if (!isStreaming)
        {
            stats.snapshots.incrementAndGet();
            sendRefresh(stream, false);
            return;
        }
        streams.put(streamId, stream);
        updatable.add(stream);
        stats.openItems.incrementAndGet();
        sendRefresh(stream, true);
    }

    private void reissue(final SinkStream stream, final boolean isStreaming, final int flags)
    {
        stats.requests.incrementAndGet();
        stats.reissues.incrementAndGet();
        if (!isStreaming)
        {
            // a snapshot asked on an open stream: answer it and end the stream
            stats.snapshots.incrementAndGet();
            closeStream(stream.streamId, false);
            sendRefresh(stream, false);
        }
        else if (0 == (flags & RwfMsgFlags.Request.NO_REFRESH))
        {
            sendRefresh(stream, true);
        }
    }

    private void sendRefresh(final SinkStream stream, final boolean isStreaming)
    {
        write(messages.refresh(ctx.alloc(), stream, updatable.updateCount(stream), isStreaming));
        stats.refreshesSent.incrementAndGet();
    }

    private void onBatchRequest(final ByteBuf message, final boolean isStreaming, final int flags)
    {
        final int batchStreamId = header.streamId();
        final RwfMsgKeyFlyweight key = header.key();
        if (!header.hasMsgKey())
        {
            reject(DomainTypes.MARKET_PRICE, batchStreamId, StateCodes.USAGE_ERROR,
                "Batch request needs a serviceId in its msgKey");
            return;
        }
        if (!checkService(key, batchStreamId))
        {
            return;
        }
        final int count;
        if (DataTypes.ELEMENT_LIST != header.containerType() ||
            CodecReturnCodes.SUCCESS != reader.read(message, message.readerIndex(), message.readableBytes()) ||
            (count = batchLists.decodeItemList(reader.iterator())) < 0)
        {
            stats.malformed.incrementAndGet();
            reject(DomainTypes.MARKET_PRICE, batchStreamId, StateCodes.USAGE_ERROR,
                "Batch request without a valid :ItemList");
            return;
        }
        stats.batchRequests.incrementAndGet();
        write(messages.status(ctx.alloc(), DomainTypes.MARKET_PRICE, batchStreamId, StreamStates.CLOSED,
            DataStates.OK, StateCodes.NONE, "Stream closed for batch"));
        stats.statusSent.incrementAndGet();
        for (int i = 0; i < count && !isClosing; i++)
        {
            final int streamId = batchStreamId + 1 + i;
            final SinkStream existing = streams.get(streamId);
            if (null != existing)
            {
                reissue(existing, isStreaming, flags);
            }
            else if (0 == batchLists.nameLength(i))
            {
                reject(DomainTypes.MARKET_PRICE, streamId, StateCodes.USAGE_ERROR, "Empty item name in the batch");
            }
            else
            {
                open(streamId, batchLists.names(), batchLists.nameOffset(i), batchLists.nameLength(i), isStreaming);
            }
        }
    }

    private void onItemClose(final ByteBuf message)
    {
        if (DataTypes.ELEMENT_LIST == header.containerType())
        {
            final IntArrayList ids;
            if (CodecReturnCodes.SUCCESS != reader.read(message, message.readerIndex(), message.readableBytes()) ||
                null == (ids = batchLists.decodeStreamIdList(reader.iterator())))
            {
                stats.malformed.incrementAndGet();
                logBadInput("batch close on stream " + header.streamId() + " without a valid :StreamIdList");
                closeStream(header.streamId(), true);
                return;
            }
            for (int i = 0, size = ids.size(); i < size; i++)
            {
                closeStream(ids.getInt(i), true);
            }
        }
        closeStream(header.streamId(), true);
    }

    private void closeStream(final int streamId, final boolean isConsumerClose)
    {
        final SinkStream stream = streams.remove(streamId);
        if (null != stream)
        {
            updatable.remove(stream);
            stats.openItems.decrementAndGet();
            if (isConsumerClose)
            {
                stats.closes.incrementAndGet();
            }
        }
    }

    private void dropAllStreams()
    {
        final int open = streams.size();
        if (open > 0)
        {
            stats.openItems.addAndGet(-open);
        }
        streams.clear();
        updatable.clear();
        directoryStreamId = 0;
    }

    // ---------------------------------------------------------------- output

    private void reject(final int domainType, final int streamId, final int code, final String text)
    {
        stats.rejected.incrementAndGet();
        stats.statusSent.incrementAndGet();
        if (StateCodes.USAGE_ERROR == code)
        {
            logBadInput("stream " + streamId + " refused: " + text); // the peer's fault: worth a (limited) warning
        }
        else
        {
            LOG.debug("connection {} stream {} refused: {}", connectionId, streamId, text);
        }
        write(messages.status(ctx.alloc(), domainType, streamId, StreamStates.CLOSED, DataStates.SUSPECT, code, text));
    }

    /**
     * Queue a message (flushed at the end of the read); the RIPC encoder owns the buffer. A connection whose pending
     * output passes the limit is disconnected here rather than buffered without bound.
     */
    private void write(final ByteBuf message)
    {
        if (isClosing)
        {
            message.release();
            return;
        }
        if (!ctx.channel().isWritable() && pendingOutputBytes() > settings.maxPendingBytes())
        {
            message.release();
            disconnect(stats.slowConsumerDisconnects, "pending output " + pendingOutputBytes() +
                " bytes above the limit " + settings.maxPendingBytes());
            return;
        }
        ctx.write(message, ctx.voidPromise());
        isDirty = true;
    }

    private long pendingOutputBytes()
    {
        final ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        return null == outbound ? 0 : outbound.totalPendingWriteBytes();
    }

    private void disconnect(final AtomicLong counter, final String detail)
    {
        if (isClosing)
        {
            return;
        }
        isClosing = true;
        counter.incrementAndGet();
        LOG.warn("connection {} ({} user={}) disconnected: {}", connectionId, ctx.channel().remoteAddress(),
            userName, detail);
        ctx.channel().close();
    }

    private void logBadInput(final String detail)
    {
        badInputs++;
        if (badInputs <= LOGGED_BAD_INPUTS || 0 == badInputs % LOG_EVERY_BAD_INPUT)
        {
            LOG.warn("connection {} ({} user={}): bad input #{}: {}", connectionId, ctx.channel().remoteAddress(),
                userName, badInputs, detail);
        }
    }
}
