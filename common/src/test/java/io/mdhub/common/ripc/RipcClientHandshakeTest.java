package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.bytes;
import static io.mdhub.common.ripc.RipcTests.connectAck;
import static io.mdhub.common.ripc.RipcTests.hex;
import static io.mdhub.common.ripc.RipcTests.keyExchangeBlock;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.List;
import java.util.stream.Stream;

import io.mdhub.common.test.InterruptAfter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client side of the handshake on an embedded channel: what it accepts from a server's ConnectAck, and which
 * failures may trigger the RIPC13 fallback (only a close by the peer).
 */
@InterruptAfter(10)
class RipcClientHandshakeTest
{
    private final RipcChannelSettings settings = RipcTests.settings(true, 1 << 20);
    private final RipcTests.TrackingAllocator allocator = new RipcTests.TrackingAllocator();
    private final RecordingRwfHandler app = new RecordingRwfHandler(false, false);
    private Promise<Channel> connect;

    private EmbeddedChannel clientChannel(final RipcVersion version)
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(allocator);
        connect = channel.eventLoop().newPromise();
        RipcPipeline.initHandshakePhase(channel, settings, new RipcClientHandshakeHandler(
            settings, version, 60, "test-host", new SecureRandom(), connect), (ch) -> ch.pipeline().addLast(app));
        channel.pipeline().fireChannelActive(); // sends the ConnectReq
        final ByteBuf req = channel.readOutbound();
        assertEquals(version.connectionVersion(), req.getInt(3));
        req.release();
        return channel;
    }

    static Stream<Arguments> malformedAcks()
    {
        final byte[] declined = hex("08 00 00");
        final byte[] shortAckWithTrailer = RipcTests.concat(List.of(
            hex("00 11 01 01 0a 00 00 00 00 09 18 00 03 3c 0e 01 00"), hex("00 00 ff")));
        return Stream.of(
            Arguments.of("ack shorter than its fixed part", hex("00 0c 01 01 0a 00 00 00 00 09 18 00")),
            Arguments.of("ack ending inside the compression type", shortAckWithTrailer),
            Arguments.of("key exchange prime 2", connectAck(9, 6144, 3, 60, keyExchangeBlock(2, 5, 3), "x")),
            Arguments.of("key exchange prime 0", connectAck(9, 6144, 3, 60, keyExchangeBlock(0, 5, 3), "x")),
            Arguments.of("ping timeout 0", connectAck(9, 6144, 3, 0, declined, "x")),
            Arguments.of("maxUserMsgSize 3", connectAck(9, 3, 3, 60, declined, "x")),
            Arguments.of("maxUserMsgSize 63", connectAck(9, 63, 3, 60, declined, "x")),
            Arguments.of("maxUserMsgSize 65535", connectAck(9, 65535, 3, 60, declined, "x")),
            Arguments.of("wrong ripcVersion", connectAck(8, 6144, 3, 60, declined, "x")),
            Arguments.of("key block overruns the ack", hex("00 18 01 01 0a 00 00 00 00 09 18 00 03 3c 0e 01 00 00 00 " +
                "08 01 18 00 00")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedAcks")
    void malformedAckFailsTheConnectWithBadHandshakeAndLeaksNothing(final String name, final byte[] ack)
    {
        final EmbeddedChannel channel = clientChannel(RipcVersion.RIPC14);
        channel.writeInbound(Unpooled.wrappedBuffer(ack));

        assertTrue(connect.isDone());
        final RipcHandshakeException failure = assertInstanceOf(RipcHandshakeException.class, connect.cause());
        assertEquals(RipcDisconnectReason.BAD_HANDSHAKE, failure.reason(), failure::getMessage);
        assertEquals(RipcVersion.RIPC14, failure.version());
        assertFalse(channel.isOpen());
        assertEquals(RipcDisconnectReason.BAD_HANDSHAKE, RipcDisconnects.reason(channel));
        assertEquals(1, settings.counters().disconnects(RipcDisconnectReason.BAD_HANDSHAKE).get());
        assertNull(channel.readOutbound(), "no ClientKey after a malformed ack");
        assertNull(app.session);
        channel.finishAndReleaseAll();
        assertTrue(allocator.allReleased(), "nothing allocated for the ClientKey leaks");
    }

    @Test
    void acceptsEtasRealAckAndAnswersTheKeyExchange()
    {
        final EmbeddedChannel channel = clientChannel(RipcVersion.RIPC14);
        channel.writeInbound(Unpooled.wrappedBuffer(hex("00 44 01 01 0a 00 00 00 00 09 18 00 03 3c 0e 01 00 00 00 " +
            "08 01 18 1f 2a 84 d2 44 65 9c 9c 00 00 00 00 00 00 00 05 1a 79 bc 04 14 47 2f 11 " +
            "15 14 65 74 61 6a 33 2e 39 2e 31 2e 4c 31 2e 61 6c 6c 2e 72 72 67")));

        assertTrue(connect.isSuccess(), () -> String.valueOf(connect.cause()));
        final ByteBuf clientKey = channel.readOutbound();
        assertEquals(12, clientKey.readableBytes());
        final long publicKey = clientKey.getLong(4);
        clientKey.release();
        final BigInteger prime = RipcKeyExchange.unsigned(0x1f2a84d244659c9cL);
        assertTrue(RipcKeyExchange.unsigned(publicKey).compareTo(prime) < 0);
        assertEquals("etaj3.9.1.L1.all.rrg", app.session.remoteComponent());
        assertEquals(6144, app.session.maxUserMsgSize());
        assertTrue(app.session.isPeerSendingPings(), "session flags 0x03");
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void learnsFromTheSessionFlagsWhetherTheServerPings()
    {
        final EmbeddedChannel channel = clientChannel(RipcVersion.RIPC13);
        channel.writeInbound(Unpooled.wrappedBuffer(connectAck(8, 6144, 0x01, 30, null, "no-pings")));
        assertTrue(connect.isSuccess(), () -> String.valueOf(connect.cause()));
        assertFalse(app.session.isPeerSendingPings());
        assertEquals(30, app.session.pingTimeoutSeconds());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void closeByThePeerIsTheOnlyFailureThatReadsAsPeerClosed()
    {
        final EmbeddedChannel channel = clientChannel(RipcVersion.RIPC14);
        channel.pipeline().fireChannelInactive(); // what the transport fires when the server closes
        final RipcHandshakeException failure = assertInstanceOf(RipcHandshakeException.class, connect.cause());
        assertEquals(RipcDisconnectReason.PEER_CLOSED, failure.reason());
        channel.finishAndReleaseAll();
    }

    @Test
    void localCloseDuringTheHandshakeIsNotMistakenForAServerClose()
    {
        final EmbeddedChannel channel = clientChannel(RipcVersion.RIPC14);
        channel.close();
        final RipcHandshakeException failure = assertInstanceOf(RipcHandshakeException.class, connect.cause());
        assertEquals(RipcDisconnectReason.LOCAL_CLOSE, failure.reason());
        channel.finishAndReleaseAll();
    }

    @Test
    void connectReqAnnouncesHostAndIpWithinTheOneByteHeaderLength()
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        final Promise<Channel> promise = channel.eventLoop().newPromise();
        final String longestHost = "h".repeat(RipcClient.Context.MAX_HOST_NAME_LENGTH);
        RipcPipeline.initHandshakePhase(channel, settings, new RipcClientHandshakeHandler(
            settings, RipcVersion.RIPC14, 60, longestHost, new SecureRandom(), promise), null);
        channel.pipeline().fireChannelActive();
        final ByteBuf req = channel.readOutbound();
        final byte[] bytes = bytes(req);
        req.release();
        final int headerLength = bytes[8] & 0xFF;
        assertEquals(ConnectReqDescriptor.headerLength(0, longestHost.length(), "127.0.0.1".length()), headerLength);
        assertTrue(headerLength + ConnectReqDescriptor.MAX_IP_ADDRESS_LENGTH - "127.0.0.1".length() <= 255);
        assertArrayEquals(longestHost.getBytes(), java.util.Arrays.copyOfRange(bytes, 16, 16 + longestHost.length()));
        channel.finishAndReleaseAll();
    }
}
