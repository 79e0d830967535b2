package io.mdhub.benchmarks.client;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.ripc.RipcMessageSink;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.rwf.RwfFieldListFlyweight;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.eta.DirectoryRefreshDecoder;
import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * One consumer connection of the test client: logs in, reads the directory, finds its service, opens its share of
 * the universe (item k of the mount on stream {@link #FIRST_ITEM_STREAM} + k), then counts what arrives. Message
 * headers are read with the RWF flyweight only; when checking is on, the field list is walked for the source's
 * per-item update counter (gaps are lost updates) and origin timestamp (end-to-end latency, same host).
 * Runs entirely on its channel's event loop.
 */
final class ConsumerMount extends ChannelInboundHandlerAdapter implements RipcMessageSink
{
    static final int FIRST_ITEM_STREAM = 1000;
    private static final int LOGIN_STREAM = 1;
    private static final int FIRST_DIRECTORY_STREAM = 2;
    private static final int DIRECTORY_ATTEMPTS = 100;
    private static final long DIRECTORY_RETRY_MS = 100;
    private static final int REQUESTS_PER_TURN = 1000;
    private static final int REQUEST_CAPACITY = 320;

    private final TestClient.Context settings;
    private final MountStats stats;
    private final int[] itemIndexes;
    private final MountItems items;
    private final ItemChecks checks;
    private final Runnable onConnectionLost;
    private final RwfMsgFlyweight header = new RwfMsgFlyweight();
    private final RwfFieldListFlyweight fields = new RwfFieldListFlyweight();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final EtaMsgReader reader = new EtaMsgReader();
    private final RequestMsg request = (RequestMsg)CodecFactory.createMsg();
    private ChannelHandlerContext ctx;
    private int serviceId = -1;
    private int nextRequest;
    private int directoryAttempts;

    /**
     * @param settings         the client's settings.
     * @param stats            the mount's counters.
     * @param items            the mount's items, kept across its connections.
     * @param onConnectionLost called on the event loop when this connection ends (null: the end is a failure).
     */
    ConsumerMount(
        final TestClient.Context settings,
        final MountStats stats,
        final MountItems items,
        final Runnable onConnectionLost)
    {
        this.settings = settings;
        this.stats = stats;
        this.items = items;
        this.itemIndexes = items.indexes;
        this.checks = new ItemChecks(stats, items);
        this.onConnectionLost = onConnectionLost;
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt) throws Exception
    {
        if (evt instanceof RipcSession)
        {
            ctx.writeAndFlush(encodeLogin(ctx), ctx.voidPromise());
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
    }

    /**
     * A message the decoder passed down the pipeline (it does not when this handler is the sink behind it).
     */
    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf buf = (ByteBuf)msg;
        try
        {
            onRipcMessage(buf);
        }
        finally
        {
            buf.release();
        }
    }

    /**
     * A message lent by the RIPC decoder for this call: at a million updates a second the client shares a CPU with
     * the p2p-server's worker, so what a message costs here is latency on the path.
     */
    @Override
    public void onRipcMessage(final ByteBuf buf)
    {
        view.wrap(buf.memoryAddress() + buf.readerIndex(), buf.readableBytes());
        if (!header.wrap(view, 0, buf.readableBytes()))
        {
            MountStats.increment(stats.malformed);
            return;
        }
        final int streamId = header.streamId();
        if (streamId >= FIRST_ITEM_STREAM && streamId - FIRST_ITEM_STREAM < itemIndexes.length)
        {
            onItemMessage(streamId - FIRST_ITEM_STREAM);
        }
        else if (LOGIN_STREAM == streamId)
        {
            onLogin(ctx);
        }
        else if (streamId >= FIRST_DIRECTORY_STREAM && streamId < FIRST_ITEM_STREAM &&
            MsgClasses.REFRESH == header.msgClass())
        {
            onDirectory(ctx, buf);
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        stats.isReady = false;
        if (null == onConnectionLost)
        {
            if (null == stats.failure)
            {
                stats.failure = "connection closed";
            }
        }
        else
        {
            stats.suspectChanged(items.connectionLost(System.nanoTime()));
            onConnectionLost.run();
        }
        super.channelInactive(ctx);
    }

    private void onItemMessage(final int k)
    {
        switch (header.msgClass())
        {
            case MsgClasses.UPDATE:
                MountStats.increment(stats.updates);
                if (settings.checkSequence())
                {
                    checkUpdate(k);
                }
                break;
            case MsgClasses.REFRESH:
                checks.onRefresh(k, settings.checkSequence() ? findUInt(FieldIds.MDH_UPDSEQ) : -1);
                checks.onState(k, header.streamState(), header.dataState());
                break;
            case MsgClasses.STATUS:
                if (header.hasState())
                {
                    checks.onStatus(k, header.streamState());
                    checks.onState(k, header.streamState(), header.dataState());
                }
                else
                {
                    checks.onStatus(k, StreamStates.OPEN);
                }
                break;
            default:
                break;
        }
    }

    private void checkUpdate(final int k)
    {
        if (DataTypes.FIELD_LIST != header.containerType() ||
            !fields.wrap(view, header.payloadOffset(), header.payloadLength()))
        {
            MountStats.increment(stats.malformed);
            return;
        }
        long sequence = -1;
        while (fields.next())
        {
            final int fid = fields.fieldId();
            if (FieldIds.MDH_UPDSEQ == fid)
            {
                sequence = readUnsigned(view, fields.valueOffset(), fields.valueLength());
            }
            else if (FieldIds.MDH_ORGTIM == fid)
            {
                stats.latency.record(System.nanoTime() - readSigned(view, fields.valueOffset(), fields.valueLength()));
            }
        }
        checks.onSequence(k, sequence);
    }

    private long findUInt(final int fieldId)
    {
        if (DataTypes.FIELD_LIST != header.containerType() ||
            !fields.wrap(view, header.payloadOffset(), header.payloadLength()))
        {
            return -1;
        }
        while (fields.next())
        {
            if (fieldId == fields.fieldId())
            {
                return readUnsigned(view, fields.valueOffset(), fields.valueLength());
            }
        }
        return -1;
    }

    private void onLogin(final ChannelHandlerContext ctx)
    {
        if (MsgClasses.REFRESH == header.msgClass() && StreamStates.OPEN == header.streamState())
        {
            ctx.writeAndFlush(encodeDirectoryRequest(ctx), ctx.voidPromise());
        }
        else if (header.hasState() && header.streamState() != StreamStates.OPEN)
        {
            stats.failure = "login refused";
            ctx.close();
        }
    }

    private void onDirectory(final ChannelHandlerContext ctx, final ByteBuf buf)
    {
        if (serviceId >= 0)
        {
            return;
        }
        final DirectoryRefreshDecoder directory = new DirectoryRefreshDecoder();
        if (CodecReturnCodes.SUCCESS != reader.read(buf, buf.readerIndex(), buf.readableBytes()) ||
            CodecReturnCodes.SUCCESS != directory.decode(reader))
        {
            stats.failure = "undecodable directory";
            ctx.close();
            return;
        }
        final List<Service> services = directory.services();
        for (int i = 0; i < services.size(); i++)
        {
            if (services.get(i).checkHasInfo() &&
                settings.serviceName().equals(services.get(i).info().serviceName().toString()))
            {
                serviceId = services.get(i).serviceId();
            }
        }
        if (serviceId >= 0)
        {
            sendRequests(ctx);
        }
        else if (directoryAttempts < DIRECTORY_ATTEMPTS)
        {
            // the server may not have heard of the service yet (it learns services from the backbone): ask again
            ctx.executor().schedule(() -> ctx.writeAndFlush(encodeDirectoryRequest(ctx), ctx.voidPromise()),
                DIRECTORY_RETRY_MS, TimeUnit.MILLISECONDS);
        }
        else
        {
            stats.failure = "service " + settings.serviceName() + " not in the directory after " +
                DIRECTORY_ATTEMPTS + " attempts";
            ctx.close();
        }
    }

    private void sendRequests(final ChannelHandlerContext ctx)
    {
        final int end = Math.min(itemIndexes.length, nextRequest + REQUESTS_PER_TURN);
        while (nextRequest < end)
        {
            ctx.write(encodeRequest(ctx, nextRequest), ctx.voidPromise());
            nextRequest++;
        }
        ctx.flush();
        if (nextRequest < itemIndexes.length)
        {
            ctx.executor().schedule(() -> sendRequests(ctx), 1, TimeUnit.MILLISECONDS);
        }
        else
        {
            stats.isReady = true;
        }
    }

    private ByteBuf encodeLogin(final ChannelHandlerContext ctx)
    {
        final LoginRequest login = (LoginRequest)LoginMsgFactory.createMsg();
        login.rdmMsgType(LoginMsgType.REQUEST);
        login.initDefaultRequest(LOGIN_STREAM);
        login.userName().data(settings.userName());
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), 512);
        return finish(buf, login.encode(writer.begin(buf, buf.writerIndex(), buf.writableBytes())));
    }

    private ByteBuf encodeDirectoryRequest(final ChannelHandlerContext ctx)
    {
        final DirectoryRequest directory = (DirectoryRequest)DirectoryMsgFactory.createMsg();
        directory.rdmMsgType(DirectoryMsgType.REQUEST);
        directory.streamId(FIRST_DIRECTORY_STREAM + directoryAttempts++); // a snapshot on a fresh stream each time
        directory.filter(Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), 128);
        return finish(buf, directory.encode(writer.begin(buf, buf.writerIndex(), buf.writableBytes())));
    }

    private ByteBuf encodeRequest(final ChannelHandlerContext ctx, final int k)
    {
        final UnsafeBuffer name = settings.items().name(itemIndexes[k]);
        request.clear();
        request.msgClass(MsgClasses.REQUEST);
        request.domainType(DomainTypes.MARKET_PRICE);
        request.streamId(FIRST_ITEM_STREAM + k);
        request.containerType(DataTypes.NO_DATA);
        request.flags(RequestMsgFlags.STREAMING | RequestMsgFlags.HAS_QOS);
        request.qos().timeliness(QosTimeliness.REALTIME);
        request.qos().rate(QosRates.TICK_BY_TICK);
        request.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        request.msgKey().serviceId(serviceId);
        request.msgKey().nameType(InstrumentNameTypes.RIC);
        request.msgKey().name().data(name.byteArray() != null ?
            java.nio.ByteBuffer.wrap(name.byteArray()) : name.byteBuffer(), 0, name.capacity());
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), REQUEST_CAPACITY);
        return finish(buf, request.encode(writer.begin(buf, buf.writerIndex(), buf.writableBytes())));
    }

    private ByteBuf finish(final ByteBuf buf, final int result)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            buf.release();
            throw new IllegalStateException("encoding failed: " + CodecReturnCodes.toString(result));
        }
        return buf.writerIndex(buf.writerIndex() + writer.encodedLength());
    }

    static long readUnsigned(final DirectBuffer buffer, final int offset, final int length)
    {
        long value = 0;
        for (int i = 0; i < length; i++)
        {
            value = (value << 8) | (buffer.getByte(offset + i) & 0xFF);
        }
        return value;
    }

    static long readSigned(final DirectBuffer buffer, final int offset, final int length)
    {
        if (0 == length)
        {
            return 0;
        }
        long value = buffer.getByte(offset); // sign-extends the first byte
        for (int i = 1; i < length; i++)
        {
            value = (value << 8) | (buffer.getByte(offset + i) & 0xFF);
        }
        return value;
    }
}
