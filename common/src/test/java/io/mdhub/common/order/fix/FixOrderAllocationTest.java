package io.mdhub.common.order.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;


import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.test.Allocations;
import io.mdhub.common.test.InterruptAfter;

/**
 * The order path allocates nothing after warm-up: parsing a valid order, refusing malformed and invalid ones,
 * writing the OrderRecord, and generating the next order with the encoder. Measured with the per-thread allocation
 * counter, best of a few windows, as RwfMsgFlyweightAllocationTest does.
 */
@InterruptAfter(30)
class FixOrderAllocationTest
{
    private static final int ITERATIONS = 200_000;

    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();
    private final FixOrderEncoder encoder = new FixOrderEncoder().account("ACC").symbol("VOD.L");
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[1024]);
    private final UnsafeBuffer malformed = FixMessages.buffer(FixMessages.seal(FixMessages.LIMIT_BODY) + "x");
    private final UnsafeBuffer invalid =
        FixMessages.buffer(FixMessages.seal(FixMessages.LIMIT_BODY.replace("|54=1|", "|54=3|")));
    private final UnsafeBuffer record = new UnsafeBuffer(new byte[1024]);
    private final OrderRecordEncoder recordEncoder = new OrderRecordEncoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();

    private long work(final int iterations)
    {
        long sum = 0;
        for (int i = 0; i < iterations; i++)
        {
            final int length = encoder
                .clOrdId(i)
                .msgSeqNum(1 + i)
                .sendingTimeMs(1_700_000_000_000L + i)
                .transactTimeMs(1_700_000_000_000L + i)
                .side(0 == (i & 1) ? Side.BUY : Side.SELL)
                .quantity(1 + (i & 1023))
                .price(10_000 + i, -2)
                .encode(message, 0);
            if (parser.parse(message, 0, length, order))
            {
                order.encodeInto(recordEncoder.wrapAndApplyHeader(record, 0, headerEncoder))
                    .partition(1).epoch(1).sequence(i).clientId(7).orderId(i).storedTimeMs(i);
                sum += recordEncoder.encodedLength() + order.quantity();
            }
            sum += parser.parse(malformed, 0, malformed.capacity(), order) ? 1 : order.rejectText().length();
            sum += parser.parse(invalid, 0, invalid.capacity(), order) ? 1 : order.rejectReason().value();
        }
        return sum;
    }

    @Test
    void orderPathAllocatesNothing()
    {
        assertEquals(0, Allocations.leastAllocatedBytes(() -> work(ITERATIONS), 5),
            "bytes allocated over the order path");
    }
}
