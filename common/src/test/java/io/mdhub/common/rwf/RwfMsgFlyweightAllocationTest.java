package io.mdhub.common.rwf;

import static org.junit.jupiter.api.Assertions.assertEquals;


import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;

/**
 * The flyweight path (wrap, routing reads, name and group id compare, name copy, streamId rewrite) allocates nothing.
 * Measured with the per-thread allocation counter after warm-up; JMH {@code -prof gc} in benchmarks/ is the main
 * evidence.
 */
@InterruptAfter(30)
class RwfMsgFlyweightAllocationTest
{
    private static final int ITERATIONS = 200_000;

    private final RwfMsgFlyweight flyweight = new RwfMsgFlyweight();
    private final UnsafeBuffer update = new UnsafeBuffer(RwfDumpVectors.LEVEL1_UPDATE.clone());
    private final UnsafeBuffer request = new UnsafeBuffer(RwfDumpVectors.REQUEST_TRI_N.clone());
    private final UnsafeBuffer refresh = new UnsafeBuffer(RwfDumpVectors.DIRECTORY_REFRESH.clone());
    private final byte[] triN = "TRI.N".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private final byte[] nameCopy = new byte[256];
    private final UnsafeBuffer truncated = new UnsafeBuffer(new byte[5]);

    private long work(final int iterations)
    {
        long sum = 0;
        for (int i = 0; i < iterations; i++)
        {
            flyweight.wrap(update, 0, update.capacity());
            sum += flyweight.msgClass() + flyweight.domainType() + flyweight.updateType();
            flyweight.streamId(i);
            flyweight.wrap(request, 0, request.capacity());
            sum += flyweight.key().serviceId() + (flyweight.key().nameEquals(triN) ? 1 : 0);
            sum += flyweight.key().getName(nameCopy, 0);
            flyweight.streamId(-i);
            flyweight.wrap(refresh, 0, refresh.capacity());
            sum += flyweight.streamState() + flyweight.key().filter();
            sum += flyweight.groupIdLength() + (flyweight.groupIdEquals(refresh, 0, 0) ? 1 : 0);
            sum += flyweight.wrap(truncated, 0, truncated.capacity()) ? 1 : flyweight.errorReason().length();
        }
        return sum;
    }

    @Test
    void flyweightPathAllocatesNothing()
    {
        assertEquals(0, Allocations.leastAllocatedBytes(() -> work(ITERATIONS), 5),
            "bytes allocated over the flyweight path");
    }
}
