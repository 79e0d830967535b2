package io.mdhub.benchmarks.backbone;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.benchmarks.gate.NoAllocation;
import io.mdhub.benchmarks.rwf.BenchmarkMessages;
import io.mdhub.common.codecs.backbone.ItemUpdateDecoder;
import io.mdhub.common.codecs.backbone.ItemUpdateEncoder;
import io.mdhub.common.codecs.backbone.MessageHeaderDecoder;
import io.mdhub.common.codecs.backbone.MessageHeaderEncoder;

/**
 * The backbone's ItemUpdate in SBE, without Aeron: the message header and update, carrying the 57-byte level-1
 * update, encoded into a reused direct buffer as the distributor encodes it into a claimed log frame, and decoded as
 * a p2p-server's adapter does (header and block checked, fields read, the RWF bytes located, not copied).
 */
public class ItemUpdateCodecBenchmark extends AbstractMdBenchmark
{
    private static final int CAPACITY = 256;

    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ItemUpdateEncoder updateEncoder = new ItemUpdateEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ItemUpdateDecoder updateDecoder = new ItemUpdateDecoder();
    private final UnsafeBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
    private final UnsafeBuffer encoded = new UnsafeBuffer(ByteBuffer.allocateDirect(CAPACITY));
    private UnsafeBuffer update;
    private int encodedLength;
    private long sequence;

    /**
     * Encode the message the decoder reads.
     */
    @Setup
    public void setUp()
    {
        update = BenchmarkMessages.direct(BenchmarkMessages.LEVEL1_UPDATE);
        updateEncoder.wrapAndApplyHeader(encoded, 0, headerEncoder)
            .serviceId(1)
            .itemHandle(42)
            .sequence(1)
            .originTimestampNs(1_764_000_000_000_000_000L)
            .putRwf(update, 0, update.capacity());
        encodedLength = MessageHeaderEncoder.ENCODED_LENGTH + updateEncoder.encodedLength();
    }

    /**
     * @return the encoded length, header included.
     */
    @Benchmark
    @NoAllocation
    public int encodeUpdate()
    {
        final long next = ++sequence;
        updateEncoder.wrapAndApplyHeader(out, 0, headerEncoder)
            .serviceId(1)
            .itemHandle(42)
            .sequence(next)
            .originTimestampNs(next)
            .putRwf(update, 0, update.capacity());
        return MessageHeaderEncoder.ENCODED_LENGTH + updateEncoder.encodedLength();
    }

    /**
     * @return a sum of the fields read, or -1 when the message does not check out.
     */
    @Benchmark
    @NoAllocation
    public long decodeUpdate()
    {
        headerDecoder.wrap(encoded, 0);
        final int blockLength = headerDecoder.blockLength();
        if (MessageHeaderDecoder.SCHEMA_ID != headerDecoder.schemaId() ||
            ItemUpdateDecoder.TEMPLATE_ID != headerDecoder.templateId() ||
            blockLength < ItemUpdateDecoder.BLOCK_LENGTH)
        {
            return -1;
        }
        updateDecoder.wrap(encoded, MessageHeaderDecoder.ENCODED_LENGTH, blockLength, headerDecoder.version());
        final int rwfOffset = updateDecoder.limit() + ItemUpdateDecoder.rwfHeaderLength();
        final int rwfLength = updateDecoder.rwfLength();
        if (rwfOffset + rwfLength > encodedLength)
        {
            return -1;
        }
        return updateDecoder.serviceId() + updateDecoder.itemHandle() + updateDecoder.sequence() +
            updateDecoder.originTimestampNs() + rwfOffset + rwfLength;
    }
}
