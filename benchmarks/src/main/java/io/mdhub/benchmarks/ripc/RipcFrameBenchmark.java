package io.mdhub.benchmarks.ripc;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.benchmarks.gate.NoAllocation;
import io.mdhub.benchmarks.rwf.BenchmarkMessages;
import io.mdhub.common.ripc.RipcFrameDecoder;
import io.mdhub.common.ripc.RipcFrameDescriptor;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.ripc.RipcMessageSink;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * RIPC framing of the 57-byte level-1 update, through the project's Netty handlers (see {@link RipcChannels}):
 * <ul>
 * <li>decode: one socket read holding one normal data frame ({@code [len][0x02][update]}), handed to the decoder
 * as the socket's buffer would be, the message lent to a {@link RipcMessageSink} as the distributor's provider links
 * take them (no slice, no reference counting);</li>
 * <li>encode: one update written with {@link RipcFrameEncoder#writeCopy}, the producers' update path (packing on,
 * the default, so the copy goes straight into a pooled frame), then flushed, so each operation sends one frame.</li>
 * </ul>
 */
public class RipcFrameBenchmark extends AbstractMdBenchmark
{
    private final StreamIdSink sink = new StreamIdSink();
    private UnsafeBuffer update;
    private EmbeddedChannel decoderChannel;
    private ChannelPipeline decoderPipeline;
    private ByteBuf frame;
    private int frameLength;
    private EmbeddedChannel encoderChannel;
    private RipcFrameEncoder encoder;
    private int streamId;

    /**
     * Build both channels and the inbound frame.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        update = BenchmarkMessages.direct(BenchmarkMessages.LEVEL1_UPDATE);
        decoderChannel = RipcChannels.newChannel(
            new RipcFrameDecoder(RipcChannels.session(), RipcChannels.settings()), sink);
        decoderPipeline = decoderChannel.pipeline();
        frameLength = RipcFrameDescriptor.HEADER_LENGTH + update.capacity();
        frame = decoderChannel.alloc().directBuffer(frameLength);
        frame.writeShort(frameLength).writeByte(RipcFrameDescriptor.NORMAL_FRAME_FLAGS);
        frame.writeBytes(BenchmarkMessages.LEVEL1_UPDATE);

        encoderChannel = RipcChannels.newEncoderChannel();
        encoder = encoderChannel.pipeline().get(RipcFrameEncoder.class);
    }

    /**
     * Close both channels and free the frame.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        frame.release();
        decoderChannel.finishAndReleaseAll();
        encoderChannel.finishAndReleaseAll();
    }

    /**
     * @return the streamIds the sink has read so far.
     */
    @Benchmark
    @NoAllocation
    public long decodeFrame()
    {
        // the decoder releases each read once consumed: the extra reference keeps the frame for the next operation
        frame.retain().setIndex(0, frameLength);
        decoderPipeline.fireChannelRead(frame);
        decoderPipeline.fireChannelReadComplete();
        return sink.streamIds;
    }

    /**
     * @return the length of the frame sent.
     */
    @Benchmark
    @NoAllocation
    public int encodeFrame()
    {
        encoder.writeCopy(update, 0, update.capacity(), RwfMsgDescriptor.STREAM_ID_OFFSET, ++streamId);
        encoderChannel.flush();
        return RipcChannels.drainOutbound(encoderChannel);
    }

    /**
     * The application handler behind the decoder: reads what routing reads first, the streamId.
     */
    private static final class StreamIdSink extends ChannelInboundHandlerAdapter implements RipcMessageSink
    {
        private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        private long streamIds;

        @Override
        public void onRipcMessage(final ByteBuf message)
        {
            view.wrap(message.memoryAddress() + message.readerIndex(), message.readableBytes());
            streamIds += view.getInt(RwfMsgDescriptor.STREAM_ID_OFFSET, ByteOrder.BIG_ENDIAN);
        }
    }
}
