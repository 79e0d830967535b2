package io.mdhub.benchmarks.rwf;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

import io.mdhub.benchmarks.AbstractMdBenchmark;
import io.mdhub.benchmarks.gate.NoAllocation;
import io.mdhub.common.rwf.RwfMsgFlyweight;

/**
 * The hot routing path: wrap a message with the flyweight, read what routing needs (class, domain, streamId; key
 * service and name for a request), and rewrite the streamId in place, as fan-out does for each consumer.
 */
public class RwfFlyweightBenchmark extends AbstractMdBenchmark
{
    private final RwfMsgFlyweight flyweight = new RwfMsgFlyweight();
    private final byte[] itemName = "TRI.N".getBytes(StandardCharsets.US_ASCII);
    private UnsafeBuffer update;
    private UnsafeBuffer request;
    private int streamId;

    @Setup
    public void setup()
    {
        update = BenchmarkMessages.direct(BenchmarkMessages.LEVEL1_UPDATE);
        request = BenchmarkMessages.direct(BenchmarkMessages.REQUEST_TRI_N);
    }

    @Benchmark
    @NoAllocation
    public int updateHeaderAndStreamIdRewrite()
    {
        if (!flyweight.wrap(update, 0, update.capacity()))
        {
            return -1;
        }
        final int routing = flyweight.msgClass() + flyweight.domainType() + flyweight.streamId()
            + flyweight.updateType() + flyweight.payloadLength();
        flyweight.streamId(++streamId);
        return routing;
    }

    @Benchmark
    @NoAllocation
    public int requestHeaderKeyAndStreamIdRewrite()
    {
        if (!flyweight.wrap(request, 0, request.capacity()))
        {
            return -1;
        }
        int routing = flyweight.msgClass() + flyweight.domainType() + flyweight.streamId();
        routing += flyweight.key().serviceId();
        routing += flyweight.key().nameEquals(itemName) ? 1 : 0;
        flyweight.streamId(++streamId);
        return routing;
    }
}
