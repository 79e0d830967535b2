package io.mdhub.distributor;

import java.util.function.Consumer;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StreamStates;

import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.ripc.RipcMessageSink;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.status.MdCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;

/**
 * One RSSL connection to a provider application, whichever side opened it: a non-interactive provider that connected
 * to the distributor ({@link ProviderSession}) or an interactive provider the distributor mounted ({@link
 * RouteSession}). It is the application handler of the connection's RIPC pipeline, on the distributor's single event
 * loop, and holds what both kinds share: the provider's serviceId and streamId mappings onto distributor services and
 * cached items, the message counters, reading paused and resumed by the {@link ProviderReadGate}, item StatusMsgs,
 * and the end of the connection on bad input (one counter, one log line). It takes messages lent by the RIPC decoder
 * ({@link RipcMessageSink}) and keeps none of them.
 */
abstract class ProviderLink extends ChannelInboundHandlerAdapter implements RipcMessageSink
{
    private static final Logger LOG = LoggerFactory.getLogger(ProviderLink.class);
    private static final int STATUS_CAPACITY = 512;

    final DistributorCore core;
    private final Int2ObjectHashMap<DistributedService> servicesByProviderId = new Int2ObjectHashMap<>();
    private final StreamItemTable itemsByStream = new StreamItemTable();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final ExpandableDirectByteBuffer copy = new ExpandableDirectByteBuffer(0);
    private long connectionId;
    private long keepAliveIntervalNs;
    private long lastKeepAliveNs;
    ChannelHandlerContext ctx;
    Channel channel;
    String userName = "";
    String remoteComponent = "";
    private AtomicCounter messagesIn;
    private AtomicCounter itemsCounter;
    boolean isActive;
    boolean isLoggedIn;
    boolean isClosing;
    private boolean needsFlush;

    ProviderLink(final DistributorCore core)
    {
        this.core = core;
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
        // a mounted route is the operator's own configuration and is never refused: refused, it would close with no
        // one to reconnect it (its connect had succeeded), and its sink-driven items would stay orphaned
        if (!isRoute() && core.sessions.size() >= core.maxProviders)
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
        LOG.info("{}: provider connection={} remote={} component={} {}", core.component, connectionId,
            channel.remoteAddress(), remoteComponent, kind());
        onActive();
    }

    /**
     * @return how the connection came about, for logs ("connected", "mounted").
     */
    abstract String kind();

    /**
     * The RIPC handshake is done and the connection counts: a mounted route logs in here.
     */
    void onActive()
    {
    }

    /**
     * A message the decoder passed down the pipeline (it does not when this handler is the sink behind it).
     */
    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf message = (ByteBuf)msg;
        try
        {
            onRipcMessage(message);
        }
        finally
        {
            message.release();
        }
    }

    /**
     * A message lent by the RIPC decoder for this call (see {@link RipcMessageSink}): nothing on the update path
     * keeps it.
     */
    @Override
    public void onRipcMessage(final ByteBuf message)
    {
        if (isActive && !isClosing)
        {
            messagesIn.increment();
            final int length = message.readableBytes();
            final DirectBuffer buffer = wrap(message, length);
            if (!core.msg.wrap(buffer, 0, length))
            {
                disconnect(ProviderDisconnectReason.MALFORMED_RWF, core.msg.errorReason());
                return;
            }
            onMessage(message, buffer);
        }
    }

    /**
     * @param message the message, wrapped in {@link DistributorCore#msg}.
     * @param buffer  the same bytes as an Agrona buffer.
     */
    abstract void onMessage(ByteBuf message, DirectBuffer buffer);

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
            onInactive();
        }
        super.channelInactive(ctx);
    }

    /**
     * The connection is gone and its items are stale: a mounted route moves them to another connection.
     */
    void onInactive()
    {
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

    /**
     * The login was accepted: the provider's data counts from now on, and its reading follows the gate.
     */
    void loggedIn(final String userName)
    {
        if (!isLoggedIn)
        {
            isLoggedIn = true;
            this.userName = userName;
            core.counters.providersActive().increment();
            core.readGate.register(this);
            LOG.info("{}: provider connection={} logged in as {}", core.component, connectionId, userName);
        }
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

    /**
     * Queue a message; it is flushed at the end of the current read burst ({@link #flushIfNeeded()} outside one). A
     * provider that stopped reading while its own messages keep earning answers (refused items, repeated logins) or
     * a mounted one that stopped taking requests is disconnected once its waiting output passes the limit: its
     * output would otherwise grow on the event loop every provider shares until direct memory ran out.
     */
    void write(final ByteBuf message)
    {
        final ChannelOutboundBuffer outbound = channel.unsafe().outboundBuffer();
        if (isClosing || null == outbound)
        {
            message.release();
            return;
        }
        final long pendingBytes = outbound.totalPendingWriteBytes();
        if (pendingBytes > core.providerMaxOutputBytes)
        {
            message.release();
            disconnect(ProviderDisconnectReason.SLOW_PROVIDER, "output waiting " + pendingBytes + " bytes, limit " +
                core.providerMaxOutputBytes + " (mdhub.distributor.provider.max.output.bytes)");
            return;
        }
        ctx.write(message, ctx.voidPromise());
        needsFlush = true;
    }

    /**
     * Flush what {@link #write} queued outside a read burst (requests made on behalf of the backbone).
     */
    void flushIfNeeded()
    {
        if (needsFlush && null != ctx)
        {
            needsFlush = false;
            ctx.flush();
        }
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

    boolean record(final ProviderDisconnectReason reason, final String detail)
    {
        if (isClosing)
        {
            return false;
        }
        isClosing = true;
        core.counters.disconnects(reason).increment();
        final boolean isOrderly =
            ProviderDisconnectReason.LOGIN_CLOSED == reason || ProviderDisconnectReason.OPERATOR == reason;
        final boolean isLogged = core.disconnectLog.admit(reason.code(), reason.label(), !isOrderly,
            "connection=" + connectionId + " remote=" + channel.remoteAddress() + " " + detail);
        if (isLogged && isOrderly)
        {
            LOG.info("{}: disconnect provider connection={} remote={} reason={} {}", core.component, connectionId,
                channel.remoteAddress(), reason.label(), detail);
        }
        else if (isLogged)
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

    /**
     * @return the provider's own id for a distributor service, or -1 when this connection does not carry it.
     */
    int providerServiceId(final DistributedService service)
    {
        final Int2ObjectHashMap<DistributedService>.EntryIterator it = servicesByProviderId.entrySet().iterator();
        while (it.hasNext())
        {
            it.next();
            if (it.getValue() == service)
            {
                return it.getIntKey();
            }
        }
        return -1;
    }

    /**
     * @return the remote host's address (no port): what failed logins are throttled by.
     */
    String remoteHost()
    {
        final java.net.SocketAddress remote = null == channel ? null : channel.remoteAddress();
        return remote instanceof java.net.InetSocketAddress ?
            ((java.net.InetSocketAddress)remote).getAddress().getHostAddress() : String.valueOf(remote);
    }

    /**
     * @return the distributor services this connection publishes (a view).
     */
    java.util.Collection<DistributedService> services()
    {
        return servicesByProviderId.values();
    }

    void mapService(final int providerServiceId, final DistributedService service)
    {
        servicesByProviderId.put(providerServiceId, service);
    }

    void unmapService(final int providerServiceId)
    {
        servicesByProviderId.remove(providerServiceId);
    }

    /**
     * A consumer's GenericMsg onto the item's stream: its bytes with this connection's stream id for the item.
     *
     * @return false if the item has no stream here.
     */
    boolean writeGeneric(final CachedItem item, final DirectBuffer buffer, final int offset, final int length)
    {
        if (item.owner != this || null == ctx)
        {
            return false;
        }
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), length);
        final int start = buf.writerIndex();
        buf.ensureWritable(length);
        for (int i = 0; i < length; i++)
        {
            buf.writeByte(buffer.getByte(offset + i));
        }
        buf.setInt(start + RwfMsgDescriptor.STREAM_ID_OFFSET, item.providerStreamId);
        write(buf);
        return true;
    }

    CachedItem item(final int streamId)
    {
        return itemsByStream.get(streamId);
    }

    /**
     * @return the update fields of the item bound to the streamId (see {@link StreamItemTable#find}), or null.
     */
    StreamItemTable.Found find(final int streamId)
    {
        return itemsByStream.find(streamId);
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
        itemsByStream.forEach(action);
    }

    /**
     * @return true for a mounted interactive provider, whose items exist only while the backbone wants them.
     */
    boolean isRoute()
    {
        return false;
    }
}
