package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.concat;
import static io.mdhub.common.ripc.RipcTests.hex;
import static io.mdhub.common.ripc.RipcTests.message;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The RIPC server's decoders of peer bytes under random and mutated streams, cut into random chunks as TCP may
 * deliver them: {@link RipcFrameDecoder} (normal, ping, packed and fragmented frames, interleaved) and
 * {@link RipcServerHandshakeHandler} (ConnectReq, ClientKey, then frames through the data-phase pipeline it
 * installs). No exception may leave them (there is no catch-all handler in these pipelines: anything thrown reaches
 * the EmbeddedChannel, which rethrows it); a bad stream ends in a disconnect. Reassembly holds no more than its
 * budget at any point, and every buffer the decoder allocated is released at the end.
 */
@FuzzGuarded
class RipcFuzzTest
{
    /** Small, so fragmented messages are short and a try is quick; the decoder's logic does not depend on it. */
    private static final int MAX_USER_MSG_SIZE = 256;
    private static final int MAX_REASSEMBLED = 4 * 1024;
    private static final int REASSEMBLY_BUDGET = 6 * 1024;

    // one set of counters and disconnect log summaries for all tries, as a server has for all its connections
    private final RipcChannelSettings settings = RipcTests.settings(true, MAX_REASSEMBLED, REASSEMBLY_BUDGET);
    private final RipcServerSettings serverSettings = new RipcServerSettings(MAX_USER_MSG_SIZE,
        TimeUnit.SECONDS.toNanos(60), TimeUnit.SECONDS.toNanos(20), "fuzz/0.1");

    @Property
    void frameStreamOfRandomBytes(
        @ForAll @Size(max = 400) final byte[] stream,
        @ForAll @Size(max = 8) final List<@IntRange(max = 400) Integer> cuts)
    {
        decodeFrames(stream, cuts);
    }

    @Property
    void mutatedFrameStream(
        @ForAll("frameStreams") final byte[] stream,
        @ForAll @Size(max = 8) final List<@IntRange(max = 2000) Integer> cuts)
    {
        decodeFrames(stream, cuts);
    }

    @Property
    void handshakeOfRandomBytes(
        @ForAll @Size(max = 200) final byte[] stream,
        @ForAll @Size(max = 4) final List<@IntRange(max = 200) Integer> cuts)
    {
        handshake(stream, cuts);
    }

    @Property
    void mutatedHandshake(
        @ForAll("handshakes") final byte[] stream,
        @ForAll @Size(max = 6) final List<@IntRange(max = 400) Integer> cuts)
    {
        handshake(stream, cuts);
    }

    @Provide
    Arbitrary<byte[]> frameStreams()
    {
        return ByteMutations.mutated(validFrames().list().ofMinSize(1).ofMaxSize(6).map(RipcTests::concat));
    }

    @Provide
    Arbitrary<byte[]> handshakes()
    {
        final Arbitrary<byte[]> connectReq = Arbitraries.of(true, false).map(ripc14 ->
        {
            final byte[] req = hex(RawRipcPeer.ETA_CONNECT_REQ);
            if (!ripc14)
            {
                req[6] = 0x16; // RIPC13: no ClientKey leg
                req[7] = 0x00;
            }
            return concat(List.of(req, ripc14 ? hex("00 04 08 00") : new byte[0]));
        });
        return ByteMutations.mutated(Combinators.combine(connectReq, validFrames().list().ofMaxSize(3))
            .as((req, frames) ->
            {
                final List<byte[]> parts = new ArrayList<>();
                parts.add(req);
                parts.addAll(frames);
                return concat(parts);
            }));
    }

    /**
     * One valid frame of each kind, or a fragmented message (all its frames) with a random fragId.
     */
    private static Arbitrary<byte[]> validFrames()
    {
        final Arbitrary<byte[]> messages =
            Arbitraries.integers().between(0, MAX_USER_MSG_SIZE - 10).map(length -> message(length, 7));
        return Arbitraries.oneOf(
            messages.map(RipcTests::normalFrame),
            Arbitraries.just(hex("00 03 02")),
            messages.list().ofMinSize(1).ofMaxSize(4).map(list -> RipcTests.packedFrame(list.toArray(new byte[0][]))),
            Combinators.combine(Arbitraries.integers().between(MAX_USER_MSG_SIZE, 3 * MAX_USER_MSG_SIZE),
                Arbitraries.integers().between(0, 0xFFFF)).as((length, fragId) ->
                    concat(RipcTests.fragmentFrames(message(length, 3), fragId, MAX_USER_MSG_SIZE))));
    }

    private void decodeFrames(final byte[] stream, final List<Integer> cuts)
    {
        final RipcTests.TrackingAllocator allocator = new RipcTests.TrackingAllocator();
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(allocator);
        final RipcFrameDecoder decoder = new RipcFrameDecoder(RipcTests.session(MAX_USER_MSG_SIZE), settings);
        channel.pipeline().addLast(decoder);

        int from = 0;
        for (final int cut : chunkEnds(stream.length, cuts))
        {
            if (!channel.isOpen())
            {
                break; // disconnected: a closed socket reads nothing more
            }
            channel.writeInbound(Unpooled.wrappedBuffer(stream, from, cut - from));
            from = cut;
            assertTrue(decoder.reassemblyBytes() <= REASSEMBLY_BUDGET, "reassembly over its budget");
            releaseInbound(channel);
        }
        channel.finishAndReleaseAll();
        assertTrue(allocator.allReleased(), "a buffer the decoder allocated was not released");
    }

    private void handshake(final byte[] stream, final List<Integer> cuts)
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast(RipcPipeline.GUARD, new RipcConnectionGuard(settings));
        channel.pipeline().addLast(RipcPipeline.HANDSHAKE, new RipcServerHandshakeHandler(settings, serverSettings));
        channel.pipeline().addLast(new ReleasingHandler());

        int from = 0;
        for (final int cut : chunkEnds(stream.length, cuts))
        {
            if (!channel.isOpen())
            {
                break; // disconnected: a closed socket reads nothing more
            }
            channel.writeInbound(Unpooled.wrappedBuffer(stream, from, cut - from));
            from = cut;
            releaseOutbound(channel);
        }
        assertNull(channel.readInbound());
        channel.finishAndReleaseAll();
        assertFalse(channel.isOpen() && null == channel.pipeline().get(RipcPipeline.HANDSHAKE) &&
            null == channel.pipeline().get(RipcPipeline.DECODER), "neither handshaking nor decoding");
    }

    /**
     * @return increasing chunk ends in (0, length], the last one length.
     */
    private static List<Integer> chunkEnds(final int length, final List<Integer> cuts)
    {
        final List<Integer> ends = new ArrayList<>();
        cuts.stream().filter(cut -> cut > 0 && cut < length).distinct().sorted().forEach(ends::add);
        ends.add(length);
        return ends;
    }

    private static void releaseInbound(final EmbeddedChannel channel)
    {
        Object message;
        while (null != (message = channel.readInbound()))
        {
            ReferenceCountUtil.release(message);
        }
    }

    private static void releaseOutbound(final EmbeddedChannel channel)
    {
        Object message;
        while (null != (message = channel.readOutbound()))
        {
            ReferenceCountUtil.release(message);
        }
    }

    /**
     * The application behind the handshake: takes every message and releases it, as the last handler must.
     */
    private static final class ReleasingHandler extends ChannelInboundHandlerAdapter
    {
        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            ReferenceCountUtil.release(msg);
        }
    }
}
