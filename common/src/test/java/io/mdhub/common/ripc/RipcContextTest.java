package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import io.mdhub.common.status.MdCounters;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

@InterruptAfter(10)
class RipcContextTest
{
    @Test
    void rejectsSettingsTheWireCannotCarry()
    {
        assertThrows(IllegalArgumentException.class, () -> new RipcServer.Context().maxUserMsgSize(65_530).conclude());
        assertThrows(IllegalArgumentException.class,
            () -> new RipcServer.Context().pingTimeoutNs(TimeUnit.SECONDS.toNanos(300)).conclude());
        assertThrows(IllegalArgumentException.class, () -> new RipcServer.Context()
            .pingTimeoutNs(TimeUnit.SECONDS.toNanos(10)).minPingTimeoutNs(TimeUnit.SECONDS.toNanos(20)).conclude());
        assertThrows(IllegalArgumentException.class, () -> new RipcServer.Context().handshakeTimeoutNs(0).conclude());
        assertThrows(IllegalArgumentException.class, () -> new RipcClient.Context().port(0).conclude());
        assertThrows(IllegalArgumentException.class,
            () -> new RipcServer.Context().componentName("x".repeat(201)).conclude());
    }

    @Test
    void closeFreesCounterIdsOnlyAfterEveryChannelIsTornDown() throws InterruptedException
    {
        final CountersManager countersManager = RipcTests.newCountersManager();
        final EventLoopGroup suppliedGroup = RipcTransport.newEventLoopGroup(1, false, "ripc-supplied");
        try
        {
            final RipcServer.Context ctx = new RipcServer.Context().componentName("close-wait")
                .countersManager(countersManager).eventLoopGroup(suppliedGroup);
            ctx.conclude();
            final AtomicCounter localCloses = ctx.counters().disconnects(RipcDisconnectReason.LOCAL_CLOSE);
            final EmbeddedChannel channel = new EmbeddedChannel();
            RipcPipeline.initHandshakePhase(channel, ctx.channelSettings(), new ChannelInboundHandlerAdapter(), null);

            final Thread closer = new Thread(ctx::close, "ripc-context-closer");
            closer.start();
            MdTests.await("close() to wait for the live channel",
                () -> Thread.State.TIMED_WAITING == closer.getState() || !closer.isAlive());
            assertTrue(closer.isAlive(), "close() returned while a channel could still update its counters");
            assertEquals(RipcContextTest.countCounters(countersManager), RipcDisconnectReason.count() + 13);

            channel.close(); // its close is still counted in a live counter
            assertEquals(1, localCloses.get());
            assertFalse(channel.finishAndReleaseAll());
            closer.join();
            assertEquals(0, countCounters(countersManager));
        }
        finally
        {
            suppliedGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static int countCounters(final CountersManager countersManager)
    {
        final int[] count = {0};
        countersManager.forEach((counterId, label) -> count[0]++);
        return count[0];
    }

    @Test
    void allocatesLabelledCountersInASuppliedManagerAndFreesThemOnClose()
    {
        final CountersManager countersManager = RipcTests.newCountersManager();
        final RipcServer.Context ctx = new RipcServer.Context().componentName("p2p").countersManager(countersManager)
            .eventLoopThreads(1);
        ctx.conclude();
        final int[] disconnectCounters = {0};
        countersManager.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (MdCounters.RIPC_DISCONNECTS_TYPE_ID == typeId)
            {
                final RipcDisconnectReason reason = RipcDisconnectReason.fromCode(keyBuffer.getInt(0));
                assertEquals("ripc-disconnects: reason=" + reason.label() + " component=p2p", label);
                disconnectCounters[0]++;
            }
        });
        assertEquals(RipcDisconnectReason.count(), disconnectCounters[0]);
        assertNotNull(ctx.eventLoopGroup());

        final RipcServer.Context copy = ctx.clone();
        assertNull(copy.eventLoopGroup(), "a clone owns nothing");

        ctx.close();
        final int[] remaining = {0};
        countersManager.forEach((counterId, label) -> remaining[0]++);
        assertEquals(0, remaining[0]);
    }
}
