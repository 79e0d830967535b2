package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.RipcTests.MAX_USER_MSG_SIZE;
import static io.mdhub.common.ripc.RipcTests.bytes;
import static io.mdhub.common.ripc.RipcTests.concat;
import static io.mdhub.common.ripc.RipcTests.fragmentFrames;
import static io.mdhub.common.ripc.RipcTests.hex;
import static io.mdhub.common.ripc.RipcTests.message;
import static io.mdhub.common.ripc.RipcTests.normalFrame;
import static io.mdhub.common.ripc.RipcTests.packedFrame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.mdhub.common.test.InterruptAfter;
import org.agrona.concurrent.UnsafeBuffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@InterruptAfter(10)
class RipcFrameCodecTest
{
    private static final int CAP = 64 * 1024;

    private final RipcChannelSettings settings = RipcTests.settings(true, CAP);
    private final RipcTests.TrackingAllocator allocator = new RipcTests.TrackingAllocator();

    private EmbeddedChannel decoderChannel()
    {
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast(new RipcFrameDecoder(RipcTests.session(MAX_USER_MSG_SIZE), settings));
        return channel;
    }

    private static List<byte[]> allFrameKinds(final List<byte[]> expectedMessages)
    {
        final List<byte[]> frames = new ArrayList<>();
        final byte[] first = message(57, 1);
        frames.add(normalFrame(first));
        expectedMessages.add(first);

        frames.add(hex("00 03 02")); // ping: counted, not delivered

        final byte[] a = message(57, 2);
        final byte[] b = message(1, 3);
        final byte[] c = message(300, 4);
        frames.add(packedFrame(a, b, c));
        expectedMessages.add(a);
        expectedMessages.add(b);
        expectedMessages.add(c);

        final byte[] big = message(15019, 5); // the size of the captured ETA fragmented update
        final List<byte[]> fragments = fragmentFrames(big, 1, MAX_USER_MSG_SIZE);
        assertEquals(3, fragments.size());
        assertArrayEquals(hex("18 03 03 08 00 00 3a ab 00 01"), java.util.Arrays.copyOf(fragments.get(0), 10));
        final byte[] between = message(20, 6);
        frames.add(fragments.get(0));
        frames.add(normalFrame(between)); // other frames may interleave with fragments
        frames.add(fragments.get(1));
        frames.add(fragments.get(2));
        expectedMessages.add(between);
        expectedMessages.add(big);

        final byte[] d = message(10, 7);
        final byte[] packedWithTerminator = concat(List.of(packedFrame(d), hex("00 00")));
        packedWithTerminator[1] += 2; // frame length covers the zero sub-length that ends it
        frames.add(packedWithTerminator);
        expectedMessages.add(d);
        return frames;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 7, 13, 4096})
    void decodesEveryFrameKindWhateverTheChunking(final int chunkSize)
    {
        final List<byte[]> expected = new ArrayList<>();
        final byte[] stream = concat(allFrameKinds(expected));
        final EmbeddedChannel channel = decoderChannel();

        final int step = 0 == chunkSize ? stream.length : chunkSize;
        for (int i = 0; i < stream.length; i += step)
        {
            final int length = Math.min(step, stream.length - i);
            channel.writeInbound(Unpooled.wrappedBuffer(stream, i, length));
        }

        for (final byte[] message : expected)
        {
            final ByteBuf received = channel.readInbound();
            assertArrayEquals(message, bytes(received));
            received.release();
        }
        assertNull(channel.readInbound());
        assertTrue(channel.isOpen());
        assertEquals(1, settings.counters().pingsIn().get());
        assertEquals(expected.size(), settings.counters().messagesIn().get());
        assertEquals(8, settings.counters().framesIn().get());
        assertFalse(channel.finishAndReleaseAll());
        assertTrue(allocator.allReleased());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 7, 4096})
    void lendsEveryFrameKindToASinkInOrderWithNoSliceAndNothingDownThePipeline(final int chunkSize)
    {
        final List<byte[]> expected = new ArrayList<>();
        final byte[] stream = concat(allFrameKinds(expected));
        final RecordingSink sink = new RecordingSink();
        final EmbeddedChannel channel = decoderChannel();
        channel.pipeline().addLast(new ChannelOutboundHandlerAdapter(), sink); // an encoder-like handler between

        final int step = 0 == chunkSize ? stream.length : chunkSize;
        for (int i = 0; i < stream.length; i += step)
        {
            channel.writeInbound(Unpooled.wrappedBuffer(stream, i, Math.min(step, stream.length - i)));
        }

        assertEquals(expected.size(), sink.messages.size());
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), sink.messages.get(i), "message " + i);
        }
        assertEquals(0, sink.channelReads, "nothing passed down the pipeline as well");
        assertNull(channel.readInbound());
        assertEquals(expected.size(), settings.counters().messagesIn().get());
        assertFalse(channel.finishAndReleaseAll());
        assertTrue(allocator.allReleased(), "the reassembled message is released after the sink's call");
    }

    @Test
    void aSinkThatThrowsLosesThatMessageOnlyAndTheFrameStillAdvances()
    {
        final RecordingSink sink = new RecordingSink();
        sink.throwOnCall = 2;
        final EmbeddedChannel channel = decoderChannel();
        channel.pipeline().addLast(sink);
        final byte[] a = message(10, 1);
        final byte[] b = message(11, 2);
        final byte[] c = message(12, 3);

        channel.writeInbound(Unpooled.wrappedBuffer(concat(List.of(packedFrame(a, b), normalFrame(c)))));

        assertEquals(3, sink.calls);
        assertEquals(2, sink.messages.size());
        assertArrayEquals(a, sink.messages.get(0));
        assertArrayEquals(c, sink.messages.get(1), "the frame after the failed message is decoded once");
        assertEquals(1, sink.exceptions, "the failure reaches the sink's exceptionCaught, as a channelRead's would");
        assertTrue(channel.isOpen());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aSinkMayRewriteTheLentBytesInPlaceAndSeesOnlyItsMessage()
    {
        final EmbeddedChannel channel = decoderChannel();
        final byte[] refresh = hex("00 0e 02 06 00 00 00 05 40 00 09 00 00 02 00 00");
        final int[] seen = new int[2];
        channel.pipeline().addLast(new SinkHandler((message) ->
        {
            message.setInt(message.readerIndex() + 4, 77);
            seen[0] = message.getInt(message.readerIndex() + 4);
            seen[1] = message.readableBytes();
        }));

        channel.writeInbound(Unpooled.wrappedBuffer(normalFrame(refresh)));

        assertEquals(77, seen[0]);
        assertEquals(refresh.length, seen[1], "bounded to the message, not the rest of the read");
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void lentMessagesDoNotMakeAPausedReaderReadAgainButAPartialFrameStillAsksForMore()
    {
        final int[] reads = new int[1];
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast(new ChannelOutboundHandlerAdapter()
        {
            @Override
            public void read(final ChannelHandlerContext ctx)
            {
                reads[0]++;
                ctx.read();
            }
        });
        channel.pipeline().addLast(new RipcFrameDecoder(RipcTests.session(MAX_USER_MSG_SIZE), settings));
        final RecordingSink sink = new RecordingSink();
        channel.pipeline().addLast(sink);
        channel.config().setAutoRead(false); // as the distributor's read gate pauses a provider
        reads[0] = 0;

        final byte[] frame = normalFrame(message(40, 1));
        channel.writeInbound(Unpooled.wrappedBuffer(frame));
        assertEquals(1, sink.messages.size());
        assertEquals(0, reads[0], "a whole message was handed on: the pause holds");

        channel.writeInbound(Unpooled.wrappedBuffer(frame, 0, 5));
        assertEquals(1, reads[0], "short of a whole message the decoder asks for the rest");
        assertFalse(channel.finishAndReleaseAll());
    }

    /**
     * A sink that records copies of what it was lent (and can be told to throw on one call).
     */
    private static final class RecordingSink extends ChannelInboundHandlerAdapter implements RipcMessageSink
    {
        final List<byte[]> messages = new ArrayList<>();
        int calls;
        int throwOnCall = -1;
        int channelReads;
        int exceptions;

        @Override
        public void onRipcMessage(final ByteBuf message)
        {
            if (++calls == throwOnCall)
            {
                throw new IllegalStateException("the sink fails on call " + calls);
            }
            messages.add(ByteBufUtil.getBytes(message));
        }

        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            channelReads++;
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
        {
            exceptions++;
        }
    }

    /**
     * A sink that runs a consumer on each message.
     */
    private static final class SinkHandler extends ChannelInboundHandlerAdapter implements RipcMessageSink
    {
        private final Consumer<ByteBuf> consumer;

        SinkHandler(final Consumer<ByteBuf> consumer)
        {
            this.consumer = consumer;
        }

        @Override
        public void onRipcMessage(final ByteBuf message)
        {
            consumer.accept(message);
        }
    }

    @Test
    void deliversMessagesAsWritableSlicesForInPlaceStreamIdRewrite()
    {
        final EmbeddedChannel channel = decoderChannel();
        final byte[] refresh = hex("00 0e 02 06 00 00 00 05 40 00 09 00 00 02 00 00");
        channel.writeInbound(Unpooled.wrappedBuffer(normalFrame(refresh)));
        final ByteBuf received = channel.readInbound();
        received.setInt(received.readerIndex() + 4, 77);
        assertEquals(77, received.getInt(received.readerIndex() + 4));
        received.release();
        assertFalse(channel.finishAndReleaseAll());
    }

    static List<Object[]> malformed()
    {
        final List<Object[]> cases = new ArrayList<>();
        cases.add(new Object[]{"00 02 02", RipcDisconnectReason.FRAME_TOO_SHORT});
        cases.add(new Object[]{"00 00", RipcDisconnectReason.FRAME_TOO_SHORT});
        cases.add(new Object[]{"18 0e 02", RipcDisconnectReason.FRAME_TOO_LONG}); // 6158 > 6144 + 10
        cases.add(new Object[]{"ff ff 02", RipcDisconnectReason.FRAME_TOO_LONG});
        cases.add(new Object[]{"00 05 06 aa bb", RipcDisconnectReason.BAD_FLAGS}); // COMPRESSION
        cases.add(new Object[]{"00 05 0a aa bb", RipcDisconnectReason.BAD_FLAGS}); // COMP_FRAGMENT
        cases.add(new Object[]{"00 05 42 aa bb", RipcDisconnectReason.BAD_FLAGS}); // unknown bit
        cases.add(new Object[]{"00 06 03 20 00 01", RipcDisconnectReason.BAD_FLAGS}); // unknown extended flags
        cases.add(new Object[]{"00 06 13 04 00 01", RipcDisconnectReason.BAD_FLAGS}); // packed + extended
        cases.add(new Object[]{"00 08 03 04 00 07 aa bb", RipcDisconnectReason.BAD_FRAGMENT});
        cases.add(new Object[]{"00 0c 03 08 00 01 00 01 00 01 aa bb", RipcDisconnectReason.REASSEMBLY_LIMIT});
        cases.add(new Object[]{"00 0c 03 08 00 00 00 01 00 01 aa bb", RipcDisconnectReason.BAD_FRAGMENT});
        cases.add(new Object[]{
            "00 0c 03 08 00 00 00 03 00 01 aa bb  00 08 03 04 00 01 cc dd", RipcDisconnectReason.BAD_FRAGMENT});
        cases.add(new Object[]{
            "00 0c 03 08 00 00 00 09 00 01 aa bb  00 0c 03 08 00 00 00 09 00 01 aa bb",
            RipcDisconnectReason.BAD_FRAGMENT});
        cases.add(new Object[]{"00 08 12 00 09 aa bb cc", RipcDisconnectReason.BAD_PACKING});
        cases.add(new Object[]{"00 07 12 00 01 aa 00", RipcDisconnectReason.BAD_PACKING});
        return cases;
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("malformed")
    void malformedFrameDisconnectsWithItsReasonAndLeaksNothing(final String hexFrame, final RipcDisconnectReason reason)
    {
        final EmbeddedChannel channel = decoderChannel();
        final byte[] good = message(30, 9);
        channel.writeInbound(Unpooled.wrappedBuffer(normalFrame(good)));
        final ByteBuf first = channel.readInbound();
        assertArrayEquals(good, bytes(first));
        first.release();

        final ByteBuf bad = Unpooled.wrappedBuffer(concat(List.of(hex(hexFrame), normalFrame(good))));
        channel.writeInbound(bad);

        assertEquals(0, bad.refCnt());
        assertNull(channel.readInbound(), "nothing after the bad frame is delivered");
        assertFalse(channel.isOpen());
        assertEquals(reason, RipcDisconnects.reason(channel));
        assertEquals(1, settings.counters().disconnects(reason).get());

        channel.finishAndReleaseAll();
        assertTrue(allocator.allReleased(), "reassembly buffers released");
    }

    @Test
    void releasesPartialReassemblyWhenTheChannelCloses()
    {
        final EmbeddedChannel channel = decoderChannel();
        final List<byte[]> fragments = fragmentFrames(message(10_000, 3), 9, MAX_USER_MSG_SIZE);
        channel.writeInbound(Unpooled.wrappedBuffer(fragments.get(0)));
        assertNull(channel.readInbound());
        assertFalse(allocator.allReleased());
        channel.finishAndReleaseAll();
        assertTrue(allocator.allReleased());
    }

    @Test
    void firstFragmentsHoldMemoryForWhatArrivedNotForTheAnnouncedTotal()
    {
        final int fourMiB = 4 * 1024 * 1024;
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(allocator);
        final RipcFrameDecoder decoder = new RipcFrameDecoder(
            RipcTests.session(MAX_USER_MSG_SIZE), RipcTests.settings(true, fourMiB, 2 * fourMiB));
        channel.pipeline().addLast(decoder);

        for (int fragId = 1; fragId <= RipcFrameDecoder.MAX_CONCURRENT_REASSEMBLIES; fragId++)
        {
            channel.writeInbound(Unpooled.wrappedBuffer(RipcTests.firstFragment(fragId, fourMiB, 2)));
        }

        assertTrue(channel.isOpen(), "16 concurrent reassemblies are allowed");
        final long atMost = RipcFrameDecoder.MAX_CONCURRENT_REASSEMBLIES * 2L * MAX_USER_MSG_SIZE;
        assertTrue(allocator.unreleasedCapacity() <= atMost, () -> "held " + allocator.unreleasedCapacity());
        assertEquals(allocator.unreleasedCapacity(), decoder.reassemblyBytes());
        assertTrue(decoder.oldestReassemblyStartNs() != RipcFrameDecoder.NO_PARTIAL_FRAME);
        channel.finishAndReleaseAll();
        assertTrue(allocator.allReleased());
    }

    @Test
    void reassemblyGrowsAsFragmentsArriveAndDeliversABufferOfExactlyTheTotal()
    {
        final EmbeddedChannel channel = decoderChannel();
        final byte[] big = message(60_000, 8);
        final List<byte[]> fragments = fragmentFrames(big, 4, MAX_USER_MSG_SIZE);
        for (final byte[] fragment : fragments)
        {
            assertNull(channel.readInbound());
            channel.writeInbound(Unpooled.wrappedBuffer(fragment));
        }
        final ByteBuf received = channel.readInbound();
        assertArrayEquals(big, bytes(received));
        assertEquals(big.length, received.capacity());
        received.release();
        assertFalse(channel.finishAndReleaseAll());
        assertTrue(allocator.allReleased());
    }

    @Test
    void bytesHeldInReassemblyAreCappedPerConnectionAsBuffersGrow()
    {
        final int budget = 64 * 1024;
        final RipcChannelSettings capped = RipcTests.settings(true, budget, budget);
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(allocator);
        final RipcFrameDecoder decoder = new RipcFrameDecoder(RipcTests.session(MAX_USER_MSG_SIZE), capped);
        channel.pipeline().addLast(decoder);

        // A (60000 bytes) and B both start with 2 * 6144 bytes of buffer; A then doubles 12288 -> 24576 -> 49152,
        // and its next growth to 60000 would make 72288 bytes held with B: over the 64 KiB budget
        channel.writeInbound(Unpooled.wrappedBuffer(RipcTests.firstFragment(1, 60_000, 6000)));
        channel.writeInbound(Unpooled.wrappedBuffer(RipcTests.firstFragment(2, 60_000, 6000)));
        for (int i = 0; i < 7; i++)
        {
            channel.writeInbound(Unpooled.wrappedBuffer(RipcTests.nextFragment(1, 6000)));
        }
        assertTrue(channel.isOpen(), () -> "48000 of A and 6000 of B fit, held " + decoder.reassemblyBytes());
        assertEquals(49_152 + 12_288, decoder.reassemblyBytes());

        channel.writeInbound(Unpooled.wrappedBuffer(RipcTests.nextFragment(1, 6000)));
        assertFalse(channel.isOpen());
        assertEquals(RipcDisconnectReason.REASSEMBLY_LIMIT, RipcDisconnects.reason(channel));
        assertEquals(0, decoder.reassemblyBytes());
        channel.finishAndReleaseAll();
        assertTrue(allocator.allReleased());
    }

    @Test
    void tooManyFirstFragmentsForTheBudgetDisconnect()
    {
        final int budget = 64 * 1024;
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(allocator);
        channel.pipeline().addLast(new RipcFrameDecoder(
            RipcTests.session(MAX_USER_MSG_SIZE), RipcTests.settings(true, budget, budget)));
        for (int fragId = 1; fragId <= 5; fragId++)
        {
            channel.writeInbound(Unpooled.wrappedBuffer(RipcTests.firstFragment(fragId, 50_000, 10)));
        }
        assertTrue(channel.isOpen(), "5 x 12288 bytes fit in 64 KiB");
        channel.writeInbound(Unpooled.wrappedBuffer(RipcTests.firstFragment(6, 50_000, 10)));
        assertFalse(channel.isOpen());
        assertEquals(RipcDisconnectReason.REASSEMBLY_LIMIT, RipcDisconnects.reason(channel));
        channel.finishAndReleaseAll();
        assertTrue(allocator.allReleased());
    }

    private EmbeddedChannel encoderChannel(final boolean pack, final int maxUserMsgSize)
    {
        final RipcChannelSettings encoderSettings = RipcTests.settings(pack, CAP);
        final EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast(new RipcFrameEncoder(RipcTests.session(maxUserMsgSize), encoderSettings));
        return channel;
    }

    private static List<byte[]> readFrames(final EmbeddedChannel channel)
    {
        final List<byte[]> frames = new ArrayList<>();
        ByteBuf frame;
        while (null != (frame = channel.readOutbound()))
        {
            frames.add(bytes(frame));
            frame.release();
        }
        return frames;
    }

    @Test
    void encodesNormalFramesInPlaceWithHeadroomAndByCopyWithout()
    {
        final EmbeddedChannel channel = encoderChannel(false, MAX_USER_MSG_SIZE);
        final byte[] message = message(57, 1);

        final ByteBuf withHeadroom = RipcFrameEncoder.newMessageBuffer(channel.alloc(), message.length);
        withHeadroom.writeBytes(message);
        channel.writeOutbound(withHeadroom);
        channel.writeOutbound(Unpooled.copiedBuffer(message));

        final List<byte[]> frames = readFrames(channel);
        assertEquals(2, frames.size());
        assertArrayEquals(normalFrame(message), frames.get(0));
        assertArrayEquals(normalFrame(message), frames.get(1));
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void framesOnlyItsOwnMessageBuffersInPlace()
    {
        final EmbeddedChannel channel = encoderChannel(false, MAX_USER_MSG_SIZE);
        final byte[] message = message(57, 1);
        final ByteBuf own = RipcFrameEncoder.newMessageBuffer(channel.alloc(), message.length);
        own.writeBytes(message);
        channel.writeOutbound(own);
        final ByteBuf frame = channel.readOutbound();
        assertSame(own, frame, "no copy");
        assertArrayEquals(normalFrame(message), bytes(frame));
        frame.release();
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void copiesADuplicateSoTheSharedBytesBeforeItStayIntact()
    {
        final EmbeddedChannel channel = encoderChannel(false, MAX_USER_MSG_SIZE);
        final byte[] first = message(20, 1);
        final byte[] second = message(30, 2);
        // two messages back to back in one buffer the caller keeps: writing the second must not touch the first
        final ByteBuf shared = Unpooled.buffer(64).writeBytes(first).writeBytes(second);
        final ByteBuf secondOnly = shared.retainedDuplicate().setIndex(first.length, first.length + second.length);
        channel.writeOutbound(secondOnly);

        final ByteBuf frame = channel.readOutbound();
        assertArrayEquals(normalFrame(second), bytes(frame));
        frame.release();
        assertArrayEquals(first, bytes(shared.slice(0, first.length)), "the neighbouring message is untouched");
        assertEquals(1, shared.refCnt(), "the duplicate's reference was released");
        shared.release();
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void fansOutOneMessageBufferThroughRetainedDuplicatesWithoutTouchingIt()
    {
        final EmbeddedChannel[] channels = {
            encoderChannel(false, MAX_USER_MSG_SIZE), encoderChannel(false, MAX_USER_MSG_SIZE),
            encoderChannel(true, MAX_USER_MSG_SIZE), encoderChannel(false, MAX_USER_MSG_SIZE)};
        final byte[] message = message(40, 3);
        final ByteBuf original = RipcFrameEncoder.newMessageBuffer(channels[0].alloc(), message.length);
        original.writeBytes(message);
        original.setBytes(0, new byte[]{(byte)0xAA, (byte)0xBB, (byte)0xCC}); // headroom sentinel
        for (int i = 0; i < channels.length - 1; i++)
        {
            channels[i].writeOutbound(original.retainedDuplicate());
        }
        channels[channels.length - 1].writeOutbound(original.retainedSlice()); // a slice is copied as well
        assertArrayEquals(new byte[]{(byte)0xAA, (byte)0xBB, (byte)0xCC}, bytes(original.slice(0, 3)));
        assertEquals(RipcFrameEncoder.HEADROOM, original.readerIndex());
        original.release();
        assertEquals(0, original.refCnt());
        for (final EmbeddedChannel channel : channels)
        {
            final ByteBuf frame = channel.readOutbound();
            assertArrayEquals(normalFrame(message), bytes(frame));
            frame.release();
            assertFalse(channel.finishAndReleaseAll());
        }
    }

    @Test
    void fragmentsLikeEtaAndRoundTripsThroughTheDecoder()
    {
        final EmbeddedChannel channel = encoderChannel(true, MAX_USER_MSG_SIZE);
        final byte[] big = message(15019, 5);
        channel.writeOutbound(Unpooled.copiedBuffer(big));
        final List<byte[]> frames = readFrames(channel);
        assertEquals(fragmentFrames(big, 1, MAX_USER_MSG_SIZE).size(), frames.size());
        for (int i = 0; i < frames.size(); i++)
        {
            assertArrayEquals(fragmentFrames(big, 1, MAX_USER_MSG_SIZE).get(i), frames.get(i));
        }

        final EmbeddedChannel decoder = decoderChannel();
        decoder.writeInbound(Unpooled.wrappedBuffer(concat(frames)));
        final ByteBuf received = decoder.readInbound();
        assertArrayEquals(big, bytes(received));
        received.release();
        assertFalse(channel.finishAndReleaseAll());
        assertFalse(decoder.finishAndReleaseAll());
    }

    @Test
    void packsMessagesWrittenBetweenFlushesAndSendsALoneMessageAsANormalFrame()
    {
        final int maxUserMsgSize = 200;
        final EmbeddedChannel channel = encoderChannel(true, maxUserMsgSize);
        final byte[] a = message(50, 1);
        final byte[] b = message(60, 2);
        final byte[] c = message(70, 3); // a + b + c with sub-lengths = 186 fits in 200
        final byte[] d = message(40, 4); // does not fit any more: starts the next batch
        final byte[] big = message(500, 5); // fragmented: closes the batch, keeps order
        final byte[] e = message(10, 6);

        channel.write(Unpooled.copiedBuffer(a));
        channel.write(Unpooled.copiedBuffer(b));
        channel.write(Unpooled.copiedBuffer(c));
        channel.write(Unpooled.copiedBuffer(d));
        channel.write(Unpooled.copiedBuffer(big));
        channel.write(Unpooled.copiedBuffer(e));
        channel.flush();

        final List<byte[]> frames = readFrames(channel);
        final List<byte[]> expected = new ArrayList<>();
        expected.add(packedFrame(a, b, c));
        expected.add(normalFrame(d));
        expected.addAll(fragmentFrames(big, 1, maxUserMsgSize));
        expected.add(normalFrame(e));
        assertEquals(expected.size(), frames.size());
        for (int i = 0; i < frames.size(); i++)
        {
            assertArrayEquals(expected.get(i), frames.get(i), "frame " + i);
        }
        assertTrue(frames.get(0).length <= maxUserMsgSize + 3);
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void packedCopiesKeepTheOrderOfWritesAndPatchTheInt()
    {
        final int maxUserMsgSize = 200;
        final EmbeddedChannel channel = encoderChannel(true, maxUserMsgSize);
        final RipcFrameEncoder encoder = channel.pipeline().get(RipcFrameEncoder.class);
        final byte[] a = message(50, 1);
        final byte[] b = message(60, 2);
        final byte[] c = message(70, 3);
        final byte[] d = message(40, 4);
        final byte[] e = message(30, 5);

        channel.write(Unpooled.copiedBuffer(a)); // held: the first packed copy joins it in one pack
        assertTrue(encoder.writePackedCopy(new UnsafeBuffer(b), 0, b.length, 4, 0x0102_0304));
        channel.write(Unpooled.copiedBuffer(c));
        assertTrue(encoder.writePackedCopy(new UnsafeBuffer(d), 0, d.length, 4, -7)); // full: the next pack
        assertTrue(encoder.writePackedCopy(new UnsafeBuffer(e), 0, e.length, 0, 99));
        assertFalse(encoder.writePackedCopy(new UnsafeBuffer(new byte[maxUserMsgSize]), 0, maxUserMsgSize, 0, 1),
            "too long for a pack: the caller writes it as usual");
        channel.flush();

        final byte[] patchedB = b.clone();
        java.nio.ByteBuffer.wrap(patchedB).putInt(4, 0x0102_0304);
        final byte[] patchedD = d.clone();
        java.nio.ByteBuffer.wrap(patchedD).putInt(4, -7);
        final byte[] patchedE = e.clone();
        java.nio.ByteBuffer.wrap(patchedE).putInt(0, 99);
        final List<byte[]> frames = readFrames(channel);
        assertEquals(2, frames.size());
        assertArrayEquals(packedFrame(a, patchedB, c), frames.get(0));
        assertArrayEquals(packedFrame(patchedD, patchedE), frames.get(1));
        assertArrayEquals(message(60, 2), b, "the source is not touched");
        assertFalse(channel.finishAndReleaseAll());
    }

    /**
     * writeCopy packs when it can; without packing each copy leaves as a normal frame of its own, patched the same
     * way, and the source is not touched.
     */
    @ParameterizedTest(name = "packing {0}")
    @ValueSource(booleans = {true, false})
    void copiesArePackedOrFramedAloneWithTheIntPatchedIn(final boolean pack)
    {
        final EmbeddedChannel channel = encoderChannel(pack, MAX_USER_MSG_SIZE);
        final RipcFrameEncoder encoder = channel.pipeline().get(RipcFrameEncoder.class);
        final byte[] a = message(50, 1);
        final byte[] b = message(60, 2);
        encoder.writeCopy(new UnsafeBuffer(a), 0, a.length, 4, 11);
        encoder.writeCopy(new UnsafeBuffer(b), 0, b.length, 4, -12);
        channel.flush();

        final byte[] patchedA = a.clone();
        java.nio.ByteBuffer.wrap(patchedA).putInt(4, 11);
        final byte[] patchedB = b.clone();
        java.nio.ByteBuffer.wrap(patchedB).putInt(4, -12);
        final List<byte[]> frames = readFrames(channel);
        if (pack)
        {
            assertEquals(1, frames.size());
            assertArrayEquals(packedFrame(patchedA, patchedB), frames.get(0));
        }
        else
        {
            assertEquals(2, frames.size());
            assertArrayEquals(normalFrame(patchedA), frames.get(0));
            assertArrayEquals(normalFrame(patchedB), frames.get(1));
        }
        assertArrayEquals(message(50, 1), a, "the source is not touched");
        assertFalse(channel.finishAndReleaseAll());
    }

    /**
     * A pack is a whole frame's buffer; one closed while earlier output still waits in the channel would wait too, so
     * it is copied into a buffer of its own size when less than half full (a consumer that stopped reading must not
     * hold a frame-sized buffer per flush). Nothing waits before the first pack: it keeps its buffer.
     */
    @Test
    void aPackClosedBehindWaitingOutputIsCopiedIntoABufferOfItsOwnSize()
    {
        final EmbeddedChannel channel = encoderChannel(true, MAX_USER_MSG_SIZE);
        final RipcFrameEncoder encoder = channel.pipeline().get(RipcFrameEncoder.class);
        final byte[] a = message(50, 1);
        final byte[] b = message(60, 2);
        final byte[] big = message(MAX_USER_MSG_SIZE, 3);
        final byte[] c = message(70, 4);
        assertTrue(encoder.writePackedCopy(new UnsafeBuffer(a), 0, a.length, 0, 1));
        assertTrue(encoder.writePackedCopy(new UnsafeBuffer(b), 0, b.length, 0, 2));
        channel.write(Unpooled.copiedBuffer(big)); // not packable: the pack goes first, into an empty channel
        assertTrue(encoder.writePackedCopy(new UnsafeBuffer(c), 0, c.length, 0, 4));
        channel.flush(); // this pack closes behind the two unflushed writes

        final List<ByteBuf> frames = new ArrayList<>();
        ByteBuf frame;
        while (null != (frame = channel.readOutbound()))
        {
            frames.add(frame);
        }
        final ByteBuf first = frames.get(0);
        final ByteBuf last = frames.get(frames.size() - 1);
        assertTrue(first.capacity() > 2 * first.readableBytes(), "nothing waited: the pack keeps its buffer");
        assertEquals(last.readableBytes(), last.capacity(), "copied into a buffer of its own size");
        final byte[] patchedA = a.clone();
        java.nio.ByteBuffer.wrap(patchedA).putInt(0, 1);
        final byte[] patchedB = b.clone();
        java.nio.ByteBuffer.wrap(patchedB).putInt(0, 2);
        final byte[] patchedC = c.clone();
        java.nio.ByteBuffer.wrap(patchedC).putInt(0, 4);
        assertArrayEquals(packedFrame(patchedA, patchedB), bytes(first));
        assertArrayEquals(packedFrame(patchedC), bytes(last));
        frames.forEach(ByteBuf::release);
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void packedCopiesAreRefusedWithoutPacking()
    {
        final EmbeddedChannel channel = encoderChannel(false, MAX_USER_MSG_SIZE);
        final byte[] a = message(50, 1);
        assertFalse(channel.pipeline().get(RipcFrameEncoder.class)
            .writePackedCopy(new UnsafeBuffer(a), 0, a.length, 4, 1));
        assertFalse(channel.finishAndReleaseAll());
    }

    @ParameterizedTest
    @ValueSource(ints = {57, 15019})
    void allocationFailureWhileFramingReleasesTheMessageAndFailsThePromise(final int length)
    {
        final EmbeddedChannel channel = encoderChannel(false, MAX_USER_MSG_SIZE);
        channel.config().setAllocator(new FailingAllocator());
        final ByteBuf message = Unpooled.copiedBuffer(message(length, 1)); // no headroom: framed by copy
        final ChannelFuture write = channel.writeAndFlush(message);
        assertEquals(0, message.refCnt(), "released although framing failed");
        assertTrue(write.isDone());
        assertInstanceOf(IllegalStateException.class, write.cause());
        channel.finishAndReleaseAll();
    }

    @Test
    void allocationFailureOfThePackReleasesBothMessages()
    {
        final EmbeddedChannel channel = encoderChannel(true, MAX_USER_MSG_SIZE);
        channel.config().setAllocator(new FailingAllocator());
        final ByteBuf first = Unpooled.copiedBuffer(message(10, 1));
        final ByteBuf second = Unpooled.copiedBuffer(message(10, 2));
        channel.write(first);
        final ChannelFuture write = channel.write(second);
        assertEquals(0, second.refCnt());
        assertInstanceOf(IllegalStateException.class, write.cause());
        channel.close();
        assertEquals(0, first.refCnt(), "the held message is released on close");
        channel.finishAndReleaseAll();
    }

    @Test
    void encoderRefusesASessionWhoseMaxUserMsgSizeCannotFrame()
    {
        assertThrows(IllegalArgumentException.class, () -> new RipcFrameEncoder(RipcTests.session(3), settings));
    }

    /**
     * An allocator that is out of memory.
     */
    private static final class FailingAllocator extends io.netty.buffer.AbstractByteBufAllocator
    {
        @Override
        public boolean isDirectBufferPooled()
        {
            return false;
        }

        @Override
        protected ByteBuf newHeapBuffer(final int initialCapacity, final int maxCapacity)
        {
            throw new IllegalStateException("out of memory (test)");
        }

        @Override
        protected ByteBuf newDirectBuffer(final int initialCapacity, final int maxCapacity)
        {
            throw new IllegalStateException("out of memory (test)");
        }
    }

    @Test
    void releasesUnflushedMessagesOnClose()
    {
        final EmbeddedChannel channel = encoderChannel(true, MAX_USER_MSG_SIZE);
        final ByteBuf a = Unpooled.copiedBuffer(message(10, 1));
        final ByteBuf b = Unpooled.copiedBuffer(message(10, 2));
        final ByteBuf c = Unpooled.copiedBuffer(message(10, 3));
        channel.write(a);
        channel.write(b);
        channel.write(c);
        channel.close();
        assertEquals(0, a.refCnt());
        assertEquals(0, b.refCnt());
        assertEquals(0, c.refCnt());
        channel.finishAndReleaseAll();
    }
}
