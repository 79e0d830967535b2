package io.mdhub.distributor;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.rwf.eta.LoginRequestDecoder;
import io.mdhub.common.rwf.eta.LoginResponseEncoder;
import io.mdhub.common.status.MdCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * One provider connection: the application handler of its RIPC pipeline, on the distributor's single event loop.
 * It logs the provider in (Role must be provider), dispatches directory messages to the {@link DirectoryFeed} and
 * item messages to the {@link ItemFeed}, keeps the provider's serviceId and streamId mappings, answers with Login and
 * item StatusMsgs, and ends the connection on bad input with a counter and one log line. It releases every message it
 * receives.
 * <p>
 * Once logged in, its reading follows the {@link ProviderReadGate}: the backbone publisher pauses it (Netty autoRead
 * off, so the provider's TCP writes back up) while live data waits for the backbone, and a long pause gets one
 * keep-alive read per interval so the provider's pings still arrive.
 */
final class ProviderSession extends ChannelInboundHandlerAdapter
{
    private static final Logger LOG = LoggerFactory.getLogger(ProviderSession.class);
    private static final int STATUS_CAPACITY = 512;
    private static final long REJECT_CLOSE_DELAY_MS = 500;
    private static final int LOGIN_CAPACITY = 2048;

    private final DistributorCore core;
    private final LoginRequestDecoder loginDecoder;
    private final LoginResponseEncoder loginEncoder;
    private final Buffer loginAcceptText;
    private final Buffer loginRejectText;
    private final Int2ObjectHashMap<DistributedService> servicesByProviderId = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<CachedItem> itemsByStream = new Int2ObjectHashMap<>();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final ExpandableDirectByteBuffer copy = new ExpandableDirectByteBuffer(0);
    private long connectionId;
    private long keepAliveIntervalNs;
    private long lastKeepAliveNs;
    private ChannelHandlerContext ctx;
    private Channel channel;
    private String userName = "";
    private String remoteComponent = "";
    private AtomicCounter messagesIn;
    private AtomicCounter itemsCounter;
    private boolean isActive;
    private boolean isLoggedIn;
    private boolean isClosing;
    private boolean needsFlush;

    ProviderSession(final DistributorCore core)
    {
        this.core = core;
        this.loginDecoder = core.loginDecoder;
        this.loginEncoder = core.loginEncoder;
        this.loginAcceptText = core.loginAcceptText;
        this.loginRejectText = core.loginRejectText;
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt) throws Exception
    {
        if (evt instanceof RipcSession && !isActive)
        {
            activate(ctx, (RipcSession)evt);
        }
        super.userEventTriggered(ctx, evt);
    }

    private void activate(final ChannelHandlerContext ctx, final RipcSession session)
    {
        this.ctx = ctx;
        this.channel = ctx.channel();
        this.remoteComponent = session.remoteComponent();
        connectionId = core.nextConnectionId();
        if (core.sessions.size() >= core.maxProviders)
        {
            isActive = false;
            disconnect(ProviderDisconnectReason.TOO_MANY_PROVIDERS, "limit " + core.maxProviders);
            return;
        }
        isActive = true;
        keepAliveIntervalNs = Math.min(session.pingTimeoutNs(), core.partialFrameTimeoutNs) / 3;
        core.sessions.put(connectionId, this);
        final String suffix = " connection=" + connectionId + " remote=" + channel.remoteAddress();
        messagesIn = core.counters.newCounter(
            MdCounters.DISTRIBUTOR_CONNECTION_MESSAGES_IN_TYPE_ID, "distributor-connection-messages-in:" + suffix);
        itemsCounter = core.counters.newCounter(
            MdCounters.DISTRIBUTOR_CONNECTION_ITEMS_TYPE_ID, "distributor-connection-items:" + suffix);
        LOG.info("{}: provider connection={} remote={} component={} connected", core.component, connectionId,
            channel.remoteAddress(), remoteComponent);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf message = (ByteBuf)msg;
        try
        {
            if (isActive && !isClosing)
            {
                onMessage(message);
            }
        }
        finally
        {
            message.release();
        }
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx)
    {
        if (needsFlush)
        {
            needsFlush = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        if (isActive)
        {
            isActive = false;
            core.readGate.unregister(this);
            providerGone();
            core.sessions.remove(connectionId);
            messagesIn.close();
            itemsCounter.close();
            LOG.info("{}: provider connection={} user={} disconnected", core.component, connectionId, userName);
        }
        super.channelInactive(ctx);
    }

    private void onMessage(final ByteBuf message)
    {
        messagesIn.increment();
        final int length = message.readableBytes();
        final DirectBuffer buffer = wrap(message, length);
        if (!core.msg.wrap(buffer, 0, length))
        {
            disconnect(ProviderDisconnectReason.MALFORMED_RWF, core.msg.errorReason());
            return;
        }
        final int domainType = core.msg.domainType();
        if (DomainTypes.LOGIN == domainType)
        {
            onLogin(message);
        }
        else if (!isLoggedIn)
        {
            disconnect(ProviderDisconnectReason.NOT_LOGGED_IN, "domain " + domainType + " before the login");
        }
        else if (DomainTypes.SOURCE == domainType)
        {
            core.directoryFeed.onMessage(this, message);
        }
        else
        {
            core.items.onMessage(this, message, buffer);
        }
    }

    private DirectBuffer wrap(final ByteBuf message, final int length)
    {
        if (message.hasMemoryAddress())
        {
            view.wrap(message.memoryAddress() + message.readerIndex(), length);
            return view;
        }
        if (message.hasArray())
        {
            view.wrap(message.array(), message.arrayOffset() + message.readerIndex(), length);
            return view;
        }
        copy.checkLimit(length);
        message.getBytes(message.readerIndex(), copy.byteBuffer().duplicate().clear().limit(length));
        return copy;
    }

    private void onLogin(final ByteBuf message)
    {
        final int msgClass = core.msg.msgClass();
        if (MsgClasses.CLOSE == msgClass)
        {
            disconnect(ProviderDisconnectReason.LOGIN_CLOSED, "user " + userName);
            return;
        }
        if (MsgClasses.REQUEST != msgClass)
        {
            core.counters.messagesDropped().increment();
            return;
        }
        if (CodecReturnCodes.SUCCESS != core.reader.read(message, message.readerIndex(), message.readableBytes()) ||
            CodecReturnCodes.SUCCESS != loginDecoder.decode(core.reader))
        {
            disconnect(ProviderDisconnectReason.UNDECODABLE_ADMIN, "login request");
            return;
        }
        final int streamId = loginDecoder.request().streamId();
        if (!loginDecoder.isProvider())
        {
            rejectLogin(streamId);
            return;
        }
        final ByteBuf refresh = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), LOGIN_CAPACITY);
        final int result = loginEncoder.encodeAccept(
            core.writer.begin(refresh, refresh.writerIndex(), refresh.writableBytes()),
            loginDecoder.request(), false, true, loginAcceptText);
        if (CodecReturnCodes.SUCCESS != result)
        {
            refresh.release();
            disconnect(ProviderDisconnectReason.UNDECODABLE_ADMIN, "login refresh: " +
                CodecReturnCodes.toString(result));
            return;
        }
        refresh.writerIndex(refresh.writerIndex() + core.writer.encodedLength());
        write(refresh);
        if (!isLoggedIn)
        {
            isLoggedIn = true;
            userName = loginDecoder.request().userName().toString();
            core.counters.providersActive().increment();
            core.readGate.register(this);
            LOG.info("{}: provider connection={} logged in as {}", core.component, connectionId, userName);
        }
    }

    private void rejectLogin(final int streamId)
    {
        core.counters.loginsRejected().increment();
        final ByteBuf status = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), STATUS_CAPACITY);
        final int result = loginEncoder.encodeReject(
            core.writer.begin(status, status.writerIndex(), status.writableBytes()), streamId,
            StateCodes.USAGE_ERROR, loginRejectText);
        if (CodecReturnCodes.SUCCESS != result)
        {
            status.release();
            disconnect(ProviderDisconnectReason.LOGIN_REJECTED, "consumer role (reject not encodable)");
            return;
        }
        status.writerIndex(status.writerIndex() + core.writer.encodedLength());
        record(ProviderDisconnectReason.LOGIN_REJECTED, "role is not provider");
        // ETA drops data that arrives together with the connection close, so give the peer time to read the status
        ctx.writeAndFlush(status);
        ctx.executor().schedule(() -> channel.close(), REJECT_CLOSE_DELAY_MS, TimeUnit.MILLISECONDS);
    }

    void rejectItem(final int streamId, final int domainType, final ItemRejectReason reason)
    {
        core.counters.itemsRejected(reason).increment();
        final ByteBuf status = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), STATUS_CAPACITY);
        final int result = core.statusEncoder.encode(
            core.writer.begin(status, status.writerIndex(), status.writableBytes()), domainType, streamId,
            StreamStates.CLOSED, DataStates.SUSPECT, reason.stateCode(), reason.text());
        if (CodecReturnCodes.SUCCESS != result)
        {
            status.release();
            throw new IllegalStateException("item status encoding failed: " + CodecReturnCodes.toString(result));
        }
        status.writerIndex(status.writerIndex() + core.writer.encodedLength());
        write(status);
        LOG.debug("{}: provider connection={} item stream {} refused: {}", core.component, connectionId, streamId,
            reason.label());
    }

    private void write(final ByteBuf message)
    {
        ctx.write(message, ctx.voidPromise());
        needsFlush = true;
    }

    /**
     * End the connection for a reason: counted once, logged once, closed.
     */
    void disconnect(final ProviderDisconnectReason reason, final String detail)
    {
        if (record(reason, detail))
        {
            channel.close();
        }
    }

    private boolean record(final ProviderDisconnectReason reason, final String detail)
    {
        if (isClosing)
        {
            return false;
        }
        isClosing = true;
        core.counters.disconnects(reason).increment();
        if (ProviderDisconnectReason.LOGIN_CLOSED == reason || ProviderDisconnectReason.OPERATOR == reason)
        {
            LOG.info("{}: disconnect provider connection={} remote={} reason={} {}", core.component, connectionId,
                channel.remoteAddress(), reason.label(), detail);
        }
        else
        {
            LOG.warn("{}: disconnect provider connection={} remote={} reason={} {}", core.component, connectionId,
                channel.remoteAddress(), reason.label(), detail);
        }
        return true;
    }

    private void providerGone()
    {
        if (isLoggedIn)
        {
            isLoggedIn = false;
            core.counters.providersActive().decrement();
        }
        servicesByProviderId.values().forEach((service) -> core.directoryFeed.leave(this, service));
        servicesByProviderId.clear();
        core.items.onProviderGone(this);
        itemsByStream.clear();
        itemsCounter.setOrdered(0);
    }

    /**
     * Stop reading the socket (the backbone cannot take more live data now).
     */
    void pauseReading(final long nowNs)
    {
        lastKeepAliveNs = nowNs;
        channel.config().setAutoRead(false);
    }

    /**
     * Read the socket again.
     */
    void resumeReading()
    {
        channel.config().setAutoRead(true);
    }

    /**
     * While paused: read once when the keep-alive interval passed since the pause or the last keep-alive read.
     *
     * @return true if a read was asked for.
     */
    boolean keepAlive(final long nowNs)
    {
        if (nowNs - lastKeepAliveNs < keepAliveIntervalNs || !channel.isActive())
        {
            return false;
        }
        lastKeepAliveNs = nowNs;
        channel.read();
        return true;
    }

    long connectionId()
    {
        return connectionId;
    }

    String userName()
    {
        return userName;
    }

    String remoteAddress()
    {
        return String.valueOf(channel.remoteAddress());
    }

    int itemCount()
    {
        return itemsByStream.size();
    }

    int serviceCount()
    {
        return servicesByProviderId.size();
    }

    DistributedService service(final int providerServiceId)
    {
        return servicesByProviderId.get(providerServiceId);
    }

    void mapService(final int providerServiceId, final DistributedService service)
    {
        servicesByProviderId.put(providerServiceId, service);
    }

    void unmapService(final int providerServiceId)
    {
        servicesByProviderId.remove(providerServiceId);
    }

    CachedItem item(final int streamId)
    {
        return itemsByStream.get(streamId);
    }

    void bind(final int streamId, final CachedItem item)
    {
        if (null == itemsByStream.put(streamId, item))
        {
            itemsCounter.increment();
        }
    }

    void unbind(final int streamId)
    {
        if (null != itemsByStream.remove(streamId))
        {
            itemsCounter.decrement();
        }
    }

    void forEachItem(final Consumer<CachedItem> action)
    {
        itemsByStream.values().forEach(action);
    }
}
