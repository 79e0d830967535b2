package io.mdhub.common.order.fix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.test.InterruptAfter;

/**
 * Encoder to parser to OrderRecord and back, for many random orders: every field comes out as it went in.
 */
@InterruptAfter(30)
class FixOrderRoundTripTest
{
    private static final int ORDERS = 50_000;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final UnsafeBuffer record = new UnsafeBuffer(new byte[4096]);
    private final FixOrderEncoder encoder = new FixOrderEncoder();
    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();
    private final OrderRecordEncoder recordEncoder = new OrderRecordEncoder();
    private final OrderRecordDecoder recordDecoder = new OrderRecordDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();

    @Test
    void randomOrdersRoundTrip()
    {
        final RandomOrders orders = new RandomOrders(20_240_601);
        for (int i = 0; i < ORDERS; i++)
        {
            orders.next(encoder);
            final int offset = orders.random().nextInt(100);
            final int length = encoder.encode(buffer, offset);
            assertTrue(parser.parse(buffer, offset, length, order), () -> order.error() + " in " +
                buffer.getStringWithoutLengthAscii(offset, length).replace(FixMessages.SOH, '|'));
            orders.assertParsed(order);
            assertEquals(offset, order.offset());
            assertEquals(length, order.length());

            order.encodeInto(recordEncoder.wrapAndApplyHeader(record, 0, headerEncoder));
            recordDecoder.wrapAndApplyHeader(record, 0, headerDecoder);
            assertEquals(orders.side, recordDecoder.side());
            assertEquals(orders.quantity, recordDecoder.quantity());
            assertEquals(orders.priceMantissa, recordDecoder.priceMantissa());
            assertEquals(orders.priceExponent, recordDecoder.priceExponent());
            assertEquals(orders.ordType, recordDecoder.ordType());
            assertEquals(orders.timeInForce, recordDecoder.timeInForce());
            assertEquals(orders.symbol, recordDecoder.symbol());
            assertEquals(orders.clOrdId, recordDecoder.clOrdId());
            final byte[] fix = new byte[recordDecoder.fixLength()];
            recordDecoder.getFix(fix, 0, fix.length);
            final byte[] expected = new byte[length];
            buffer.getBytes(offset, expected);
            assertArrayEquals(expected, fix);
        }
    }
}
