package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.bytes;
import static io.mdhub.common.ripc.RipcTests.hex;
import static io.mdhub.common.ripc.RipcTests.message;
import static io.mdhub.common.ripc.RipcTests.normalFrame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class RipcServerPhasesTest
{
    private final DefaultEventLoopGroup group = new DefaultEventLoopGroup(1);
    private final RecordingRwfHandler app = new RecordingRwfHandler(false, false);
    private final RipcServerPhases phases = RipcServerPhases.launch(new RipcServer.Context()
        .componentName("carried").eventLoopGroup(group).countersManager(RipcTests.newCountersManager())
        .pingTimeoutNs(TimeUnit.SECONDS.toNanos(60)).minPingTimeoutNs(TimeUnit.SECONDS.toNanos(20))
        .channelHook((ch) -> ch.pipeline().addLast("app", app)));

    @AfterEach
    void close()
    {
        phases.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void laysTheServerPhasesBehindTheCarrierOfAnActiveConnectionAndRunsEtasHandshakeThroughThem()
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast("carrier", new ChannelDuplexHandler());
        phases.install(channel, "carrier");

        assertEquals(List.of("carrier", RipcPipeline.GUARD, RipcPipeline.HANDSHAKE, "app", RipcPipeline.ERRORS),
            channel.pipeline().names().subList(0, 5));
        final RipcCounters counters = phases.context().counters();
        assertEquals(1, counters.connectionsOpened().get(), "counted on install: no channelActive comes");
        assertEquals(1, counters.connectionsActive().get());

        channel.writeInbound(Unpooled.wrappedBuffer(hex(RawRipcPeer.ETA_CONNECT_REQ)));
        final ByteBuf ack = channel.readOutbound();
        assertNotNull(ack, "ConnectAck");
        assertEquals(0x01, ack.getByte(2) & 0xFF, "ConnectAck opcode");
        ack.release();
        assertNull(app.session, "no session before the ClientKey");

        final byte[] login = message(40, 1);
        channel.writeInbound(Unpooled.wrappedBuffer(hex("00 04 08 00")));
        channel.writeInbound(Unpooled.wrappedBuffer(normalFrame(login)));
        assertNotNull(app.session, "the real RipcSession event reached the application");
        assertEquals("etaj3.9.1.L1.all.rrg", app.session.remoteComponent());
        assertArrayEquals(login, app.received.poll());
        assertEquals(List.of("carrier", RipcPipeline.GUARD, RipcPipeline.LIVENESS, RipcPipeline.DECODER,
            RipcPipeline.ENCODER, "app", RipcPipeline.ERRORS), channel.pipeline().names().subList(0, 7));
        assertEquals(1, counters.handshakesCompleted().get());

        final byte[] reply = message(30, 2);
        channel.writeAndFlush(Unpooled.wrappedBuffer(reply));
        final ByteBuf frame = channel.readOutbound();
        assertArrayEquals(normalFrame(reply), bytes(frame), "one RIPC frame per written message");
        frame.release();

        channel.close();
        assertEquals(0, counters.connectionsActive().get());
        assertFalse(channel.finishAndReleaseAll());
    }
}
