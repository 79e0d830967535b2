package io.mdhub.benchmarks.fanout;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.benchmarks.gate.NoAllocation;
import io.mdhub.benchmarks.ripc.RipcChannels;
import io.mdhub.benchmarks.rwf.BenchmarkMessages;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * The p2p-server's per-watcher cost of an update: the copy of the 57-byte level-1 update, with the watcher's
 * streamId written in, straight into the consumer connection's packed frame ({@link RipcFrameEncoder#writePackedCopy},
 * the step {@code ConsumerSession.writeCopy} takes for every watcher of an item). One operation is one copy. The
 * fan-out worker flushes its connections once a batch of source events is handled, so each invocation copies a
 * batch of {@value #BATCH} updates and then flushes: the flush, and the pooled frames a full pack closes, are shared
 * by the batch.
 */
public class FanOutCopyBenchmark extends AbstractMdBenchmark
{
    /**
     * Copies per flush.
     */
    public static final int BATCH = 64;

    private UnsafeBuffer update;
    private EmbeddedChannel channel;
    private RipcFrameEncoder encoder;
    private int streamId;

    /**
     * Build the consumer connection's encoder.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        update = BenchmarkMessages.direct(BenchmarkMessages.LEVEL1_UPDATE);
        channel = RipcChannels.newEncoderChannel();
        encoder = channel.pipeline().get(RipcFrameEncoder.class);
    }

    /**
     * Close the channel.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        channel.finishAndReleaseAll();
    }

    /**
     * @return the bytes sent by the flush.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    @NoAllocation
    public int copyForOneWatcher()
    {
        final int watcherStreamId = ++streamId;
        for (int i = 0; i < BATCH; i++)
        {
            if (!encoder.writePackedCopy(
                update, 0, update.capacity(), RwfMsgDescriptor.STREAM_ID_OFFSET, watcherStreamId))
            {
                return -1;
            }
        }
        channel.flush();
        return RipcChannels.drainOutbound(channel);
    }
}
