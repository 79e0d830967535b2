package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.ripc.RipcVersion;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * The steady-state update path of a provider session (RWF header flyweight, stream lookup, FieldList applied to the
 * image field by field, counters, listener call with the provider's bytes) allocates nothing. The session runs in
 * an EmbeddedChannel on the test thread; the allocation counter of that thread is read around the update loop.
 */
@InterruptAfter(60)
class ProviderSessionAllocationTest
{
    private static final int ITERATIONS = 100_000;

    private final CountersManager countersManager = new CountersManager(
        new UnsafeBuffer(new byte[256 * CountersManager.METADATA_LENGTH]),
        new UnsafeBuffer(new byte[256 * CountersManager.COUNTER_LENGTH]));
    private final long[] updatesSeen = new long[1];
    private final DistributorCore core = new DistributorCore("alloc-test", 4, 4, 100, new DistributorListener()
    {
        @Override
        public void onItemUpdate(
            final int serviceId,
            final int itemHandle,
            final int domainType,
            final int updateType,
            final DirectBuffer rwf,
            final int rwfOffset,
            final int rwfLength)
        {
            updatesSeen[0] += rwfLength;
        }
    }, new DistributorCounters(countersManager, "alloc-test"));
    private final ProviderSession session = new ProviderSession(core);
    private final EmbeddedChannel channel = new EmbeddedChannel(session);

    @AfterEach
    void tearDown()
    {
        channel.finishAndReleaseAll();
        core.close();
    }

    private void inbound(final byte[] message)
    {
        channel.writeInbound(Unpooled.directBuffer(message.length).writeBytes(message));
        Object out;
        while (null != (out = channel.readOutbound()))
        {
            ((ByteBuf)out).release();
        }
    }

    @Test
    void updatesAllocateNothingInSteadyState()
    {
        channel.pipeline().fireUserEventTriggered(
            new RipcSession(RipcVersion.RIPC14, 6144, 60, 0, 14, 1, "test", "", "", 0));
        final LoginRequest login = (LoginRequest)LoginMsgFactory.createMsg();
        login.rdmMsgType(LoginMsgType.REQUEST);
        login.initDefaultRequest(1);
        login.userName().data("nip");
        login.applyHasRole();
        login.role(com.refinitiv.eta.rdm.Login.RoleTypes.PROV);
        inbound(EtaNiProvider.encode(login::encode));
        inbound(EtaNiProvider.encode((it) -> EtaNiProvider.directoryRefresh(1, "NI_PUB").encode(it)));

        final EtaFieldLists fields = new EtaFieldLists();
        final byte[] image = fields.begin(1, 0).uint(1, 64).ascii(3, "LAB ITEM").real(22, 1, 12).real(25, 2, 12).end();
        final com.refinitiv.eta.codec.RefreshMsg refresh = (com.refinitiv.eta.codec.RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(-2);
        refresh.containerType(DataTypes.FIELD_LIST);
        refresh.flags(RefreshMsgFlags.HAS_MSG_KEY | RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE);
        refresh.state().streamState(1);
        refresh.state().dataState(1);
        refresh.msgKey().applyHasServiceId();
        refresh.msgKey().serviceId(1);
        refresh.msgKey().applyHasName();
        refresh.msgKey().name().data("TRI.N");
        refresh.encodedDataBody(etaBuffer(image));
        inbound(EtaNiProvider.encode(refresh::encode));
        assertEquals(1, core.directory.service("NI_PUB").cache().size());

        final ByteBuf[] updates = new ByteBuf[16];
        for (int i = 0; i < updates.length; i++)
        {
            final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
            update.msgClass(MsgClasses.UPDATE);
            update.domainType(DomainTypes.MARKET_PRICE);
            update.streamId(-2);
            update.containerType(DataTypes.FIELD_LIST);
            update.updateType(UpdateEventTypes.QUOTE);
            update.encodedDataBody(etaBuffer(fields.begin(0, 0).real(22, 1000 + i * 77L, 12)
                .real(25, 1_000_000L * i, 12).ascii(3, "N".repeat(i)).end()));
            final byte[] bytes = EtaNiProvider.encode(update::encode);
            // a plain wrapped buffer: leak-aware ones record every retain/release under paranoid detection
            final java.nio.ByteBuffer memory = java.nio.ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            updates[i] = Unpooled.wrappedBuffer(memory);
        }

        final ChannelHandlerContext ctx = channel.pipeline().context(session);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long tid = Thread.currentThread().getId();
        run(ctx, updates);
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 5 && best != 0; round++)
        {
            final long before = threads.getThreadAllocatedBytes(tid);
            run(ctx, updates);
            best = Math.min(best, threads.getThreadAllocatedBytes(tid) - before);
        }
        for (final ByteBuf update : updates)
        {
            update.release();
        }
        assertTrue(updatesSeen[0] > 0);
        assertTrue(core.directory.service("NI_PUB").updatesIn().get() >= 2L * ITERATIONS);
        assertEquals(0, best, "bytes allocated over " + ITERATIONS + " updates");
    }

    private void run(final ChannelHandlerContext ctx, final ByteBuf[] updates)
    {
        for (int i = 0; i < ITERATIONS; i++)
        {
            final ByteBuf update = updates[i & 15];
            session.channelRead(ctx, update.retain());
        }
    }

    private static com.refinitiv.eta.codec.Buffer etaBuffer(final byte[] bytes)
    {
        final com.refinitiv.eta.codec.Buffer buffer = CodecFactory.createBuffer();
        buffer.data(java.nio.ByteBuffer.wrap(bytes));
        return buffer;
    }
}
