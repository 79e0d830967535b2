package io.mdhub.benchmarks.source;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.rdm.UpdateEventTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.eta.DirectoryEncoder;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.FieldListWriter;
import io.mdhub.common.rwf.eta.MarketPriceEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The source's side of one connection to a distributor, acting as an ETA-style non-interactive provider: login
 * with Role = provider, an unsolicited directory refresh on stream -1, one refresh per item on negative streams
 * (item i on stream -(i + 2)), then updates spread over the items at the paced rate. Every update carries the
 * item's update counter (MDH_UPDSEQ); every n-th also carries System.nanoTime() (MDH_ORGTIM) for latency.
 * Everything runs on the channel's event loop. A tick the distributor pushes back on (the socket full) leaves the rest
 * due for the next tick; a backlog beyond one burst is dropped and counted as skipped.
 * <p>
 * An update is encoded into one reused buffer and packed by the RIPC encoder straight into its frame
 * ({@link RipcFrameEncoder#writeCopy}), so the update path allocates nothing: at a million updates a second a
 * buffer and a wrapper per update made the source collect every few seconds, and each pause came back as a
 * catch-up burst the test could mistake for the distributor pushing back.
 */
final class NiProviderSession extends ChannelInboundHandlerAdapter
{
    private static final int LOGIN_STREAM_ID = 1;
    private static final int DIRECTORY_STREAM_ID = -1;
    private static final int MESSAGE_CAPACITY = 512;
    private static final long TICK_US = 1000;
    private static final int REFRESHES_PER_TURN = 2000;

    private final Source.Context settings;
    private final SourceStats stats;
    private final ItemUniverse items;
    private final long[] updateCounts;
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final MarketPriceEncoder marketPrice = new MarketPriceEncoder();
    private final DirectoryEncoder directory = new DirectoryEncoder(1);
    private final RwfMsgFlyweight header = new RwfMsgFlyweight();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer update = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_CAPACITY / 4));
    private final Buffer text = CodecFactory.createBuffer();
    private RipcFrameEncoder encoder;
    private UpdatePacer pacer;
    private ScheduledFuture<?> ticker;
    private int nextRefresh;
    private int nextUpdate;
    private long updatesSent;
    private boolean isLoggedIn;

    NiProviderSession(final Source.Context settings, final SourceStats stats)
    {
        this.settings = settings;
        this.stats = stats;
        this.items = settings.items();
        this.updateCounts = new long[items.size()];
        text.data("MDHub source");
        if (null != settings.lock())
        {
            marketPrice.permData(settings.lock().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt) throws Exception
    {
        if (evt instanceof RipcSession)
        {
            write(ctx, encodeLogin(ctx));
            ctx.flush();
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf buf = (ByteBuf)msg;
        try
        {
            view.wrap(buf.memoryAddress() + buf.readerIndex(), buf.readableBytes());
            if (!header.wrap(view, 0, buf.readableBytes()))
            {
                stats.malformedIn.incrementAndGet();
                return;
            }
            if (DomainTypes.LOGIN == header.domainType() && !isLoggedIn)
            {
                onLoginResponse(ctx);
            }
            else if (MsgClasses.STATUS == header.msgClass() && header.hasState())
            {
                stats.statusIn.incrementAndGet();
            }
        }
        finally
        {
            buf.release();
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        if (null != ticker)
        {
            ticker.cancel(false);
        }
        stats.connected = false;
        super.channelInactive(ctx);
    }

    /**
     * Change the update rate; runs on the event loop.
     */
    void rate(final long ratePerSecond)
    {
        if (null != pacer)
        {
            pacer.rate(ratePerSecond, System.nanoTime());
        }
        stats.targetRate = ratePerSecond;
    }

    private void onLoginResponse(final ChannelHandlerContext ctx)
    {
        if (MsgClasses.REFRESH != header.msgClass() || StreamStates.OPEN != header.streamState())
        {
            stats.loginRefused = true;
            ctx.close();
            return;
        }
        isLoggedIn = true;
        stats.connected = true;
        write(ctx, encodeDirectory(ctx));
        ctx.flush();
        publishRefreshes(ctx);
    }

    private void publishRefreshes(final ChannelHandlerContext ctx)
    {
        final int end = Math.min(items.size(), nextRefresh + REFRESHES_PER_TURN);
        while (nextRefresh < end && ctx.channel().isWritable())
        {
            write(ctx, encodeRefresh(ctx, nextRefresh++));
        }
        ctx.flush();
        stats.refreshesSent = nextRefresh;
        if (nextRefresh < items.size())
        {
            ctx.executor().schedule(() -> publishRefreshes(ctx), 1, TimeUnit.MILLISECONDS);
            return;
        }
        pacer = new UpdatePacer(stats.targetRate, settings.maxBurst(), System.nanoTime());
        ticker = ctx.executor().scheduleAtFixedRate(() -> tick(ctx), TICK_US, TICK_US, TimeUnit.MICROSECONDS);
    }

    private void tick(final ChannelHandlerContext ctx)
    {
        final int due = pacer.due(System.nanoTime());
        final Channel channel = ctx.channel();
        int sent = 0;
        while (sent < due)
        {
            // Writes pile up in Netty's outbound buffer until flushed, so a burst of one tick (75 KB at 1M/s) passes
            // the high water mark by itself; only a socket that stays full after a flush is the distributor pushing
            // back.
            if (!channel.isWritable())
            {
                ctx.flush();
                if (!channel.isWritable())
                {
                    stats.pushBacks.incrementAndGet();
                    break;
                }
            }
            sendUpdate(ctx, nextUpdate);
            nextUpdate = nextUpdate + 1 == items.size() ? 0 : nextUpdate + 1;
            updatesSent++;
            sent++;
        }
        if (sent > 0)
        {
            ctx.flush();
            pacer.sent(sent);
            stats.updatesSent = updatesSent;
        }
        // what is not sent stays due for the next tick; only a backlog beyond one burst is dropped
        stats.skipped = pacer.forgotten();
    }

    private ByteBuf encodeLogin(final ChannelHandlerContext ctx)
    {
        final LoginRequest login = (LoginRequest)LoginMsgFactory.createMsg();
        login.rdmMsgType(LoginMsgType.REQUEST);
        login.initDefaultRequest(LOGIN_STREAM_ID);
        login.userName().data(settings.userName());
        login.applyHasRole();
        login.role(Login.RoleTypes.PROV);
        login.applyHasAttrib();
        login.attrib().applyHasApplicationName();
        login.attrib().applicationName().data("mdhub-source");
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), MESSAGE_CAPACITY);
        return finish(buf, login.encode(writer.begin(buf, buf.writerIndex(), buf.writableBytes())));
    }

    private ByteBuf encodeDirectory(final ChannelHandlerContext ctx)
    {
        final Service service = com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory
            .createService();
        service.serviceId(settings.serviceId());
        service.applyHasInfo();
        service.info().serviceName().data(settings.serviceName());
        service.info().capabilitiesList().add((long)DomainTypes.MARKET_PRICE);
        service.info().applyHasDictionariesUsed();
        service.info().dictionariesUsedList().add("RWFFld");
        service.info().dictionariesUsedList().add("RWFEnum");
        service.info().applyHasQos();
        final com.refinitiv.eta.codec.Qos qos = CodecFactory.createQos();
        qos.timeliness(com.refinitiv.eta.codec.QosTimeliness.REALTIME);
        qos.rate(com.refinitiv.eta.codec.QosRates.TICK_BY_TICK);
        service.info().qosList().add(qos);
        service.applyHasState();
        service.state().serviceState(1);
        service.state().applyHasAcceptingRequests();
        service.state().acceptingRequests(1);

        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), MESSAGE_CAPACITY * 2);
        return finish(buf, directory.encodeRefresh(writer.begin(buf, buf.writerIndex(), buf.writableBytes()),
            DIRECTORY_STREAM_ID, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE, -1, false,
            List.of(service), text));
    }

    private ByteBuf encodeRefresh(final ChannelHandlerContext ctx, final int item)
    {
        final UnsafeBuffer name = items.name(item);
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), MESSAGE_CAPACITY);
        final FieldListWriter fields = marketPrice.beginRefresh(
            writer.begin(buf, buf.writerIndex(), buf.writableBytes()), streamId(item), settings.serviceId(),
            name, 0, name.capacity(), StreamStates.OPEN, DataStates.OK, false, 1);
        Level1Layout.refresh(fields, name, name.capacity(), basePrice(item), 0);
        return finish(buf, marketPrice.complete());
    }

    private void sendUpdate(final ChannelHandlerContext ctx, final int item)
    {
        final long count = ++updateCounts[item];
        final FieldListWriter fields = marketPrice.beginUpdate(
            writer.begin(update, 0, update.capacity()), streamId(item), UpdateEventTypes.QUOTE);
        Level1Layout.update(fields, basePrice(item), count,
            0 == (updatesSent + 1) % settings.timestampEvery() ? System.nanoTime() : 0);
        checkEncoded(marketPrice.complete());
        final int length = writer.encodedLength();
        if (null == encoder)
        {
            encoder = ctx.pipeline().get(RipcFrameEncoder.class); // in the pipeline once the session is active
        }
        // packed, or a frame of its own when the connection does not pack; the streamId "patched" in is the one
        // encoded: the message goes out as it is
        encoder.writeCopy(update, 0, length, RwfMsgDescriptor.STREAM_ID_OFFSET, streamId(item));
    }

    private ByteBuf finish(final ByteBuf buf, final int result)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            buf.release();
        }
        checkEncoded(result);
        return buf.writerIndex(buf.writerIndex() + writer.encodedLength());
    }

    private static void checkEncoded(final int result)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            throw new IllegalStateException("encoding failed: " + CodecReturnCodes.toString(result));
        }
    }

    private static void write(final ChannelHandlerContext ctx, final ByteBuf message)
    {
        ctx.write(message, ctx.voidPromise());
    }

    private static int streamId(final int item)
    {
        return -(item + 2); // -1 is the directory stream
    }

    private static long basePrice(final int item)
    {
        return 10_000 + (item % 5000) * 7L;
    }
}
