package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.bytes;
import static io.mdhub.common.ripc.RipcTests.concat;
import static io.mdhub.common.ripc.RipcTests.hex;
import static io.mdhub.common.ripc.RipcTests.message;
import static io.mdhub.common.ripc.RipcTests.normalFrame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.mdhub.common.test.InterruptAfter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

@InterruptAfter(10)
class RipcHandshakeTest
{
    private final RipcChannelSettings settings = RipcTests.settings(true, 1 << 20);
    private final RecordingRwfHandler app = new RecordingRwfHandler(false, false);

    private EmbeddedChannel serverChannel(final long pingTimeoutSeconds, final long minPingTimeoutSeconds)
    {
        final RipcServerSettings serverSettings = new RipcServerSettings(6144,
            TimeUnit.SECONDS.toNanos(pingTimeoutSeconds), TimeUnit.SECONDS.toNanos(minPingTimeoutSeconds),
            "mini-ads/0.1");
        final EmbeddedChannel channel = new EmbeddedChannel();
        RipcPipeline.initHandshakePhase(channel, settings, new RipcServerHandshakeHandler(settings, serverSettings),
            (ch) -> ch.pipeline().addLast(app));
        return channel;
    }

    @Test
    void answersEtasRipc14ConnectReqWithTheMinimalAckEtaAcceptsThenSwallowsTheClientKey()
    {
        final EmbeddedChannel channel = serverChannel(60, 20);
        channel.writeInbound(Unpooled.wrappedBuffer(hex(RawRipcPeer.ETA_CONNECT_REQ)));

        final ByteBuf ack = channel.readOutbound();
        final byte[] expected = concat(List.of(
            hex("00 24 01 01 0a 00 00 00 00 09 18 00 03 3c 0e 01 00 00 00 08 00 00 0d 0c"),
            "mini-ads/0.1".getBytes(StandardCharsets.US_ASCII)));
        assertArrayEquals(expected, bytes(ack)); // byte for byte the ack of the facts sheet §1.3
        ack.release();
        assertNotNull(channel.pipeline().get(RipcPipeline.HANDSHAKE), "waits for the ClientKey");

        // ClientKey and the first data frame in one chunk: the key is swallowed, the frame is decoded
        final byte[] login = message(40, 1);
        channel.writeInbound(Unpooled.wrappedBuffer(concat(List.of(hex("00 04 08 00"), normalFrame(login)))));
        assertNull(channel.pipeline().get(RipcPipeline.HANDSHAKE));
        assertNotNull(channel.pipeline().get(RipcPipeline.DECODER));
        assertEquals(RipcVersion.RIPC14, app.session.version());
        assertEquals("etaj3.9.1.L1.all.rrg", app.session.remoteComponent());
        assertEquals("vm", app.session.remoteHostName());
        assertEquals("127.0.0.1", app.session.remoteIpAddress());
        assertArrayEquals(login, app.received.poll());
        assertEquals(1, settings.counters().handshakesCompleted().get());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void answersRipc13WithoutKeyExchangeBlockAndNegotiatesThePingTimeout()
    {
        final EmbeddedChannel channel = serverChannel(30, 20);
        final byte[] req = hex(RawRipcPeer.ETA_CONNECT_REQ);
        req[6] = 0x16; // RIPC13
        req[7] = 0x00;
        req[10] = 5; // asks for 5 s: floored at 20
        channel.writeInbound(Unpooled.wrappedBuffer(req));

        final ByteBuf ack = channel.readOutbound();
        final byte[] expected = concat(List.of(
            hex("00 21 01 01 0a 00 00 00 00 08 18 00 03 14 0e 01 00 00 00 0d 0c"),
            "mini-ads/0.1".getBytes(StandardCharsets.US_ASCII)));
        assertArrayEquals(expected, bytes(ack));
        ack.release();
        assertNull(channel.pipeline().get(RipcPipeline.HANDSHAKE), "RIPC13 has no ClientKey leg");
        assertEquals(20, app.session.pingTimeoutSeconds());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void negotiatesPingTimeoutLikeEtasServer()
    {
        final RipcServerSettings serverSettings = new RipcServerSettings(6144, TimeUnit.SECONDS.toNanos(60),
            TimeUnit.SECONDS.toNanos(20), "x");
        assertEquals(30, serverSettings.negotiatePingTimeoutSeconds(30));
        assertEquals(60, serverSettings.negotiatePingTimeoutSeconds(120));
        assertEquals(20, serverSettings.negotiatePingTimeoutSeconds(5));
        assertEquals(20, serverSettings.negotiatePingTimeoutSeconds(0));
    }

    @Test
    void keyExchangeAgreesWithTheServersSideOfTheExchange()
    {
        final SecureRandom random = new SecureRandom();
        final long prime = BigInteger.probablePrime(63, random).longValue();
        final long generator = 5;
        final BigInteger serverPrivate = BigInteger.valueOf(123_456_789_012L);
        final BigInteger p = RipcKeyExchange.unsigned(prime);
        final long serverPublic = BigInteger.valueOf(generator).modPow(serverPrivate, p).longValue();

        final RipcKeyExchange client = new RipcKeyExchange(prime, generator, serverPublic, random);
        final long serverShared = RipcKeyExchange.unsigned(client.publicKey()).modPow(serverPrivate, p).longValue();
        assertEquals(serverShared, client.sharedKey());
        assertTrue(RipcKeyExchange.unsigned(client.publicKey()).compareTo(p) < 0);
    }
}
