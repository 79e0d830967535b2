package io.mdhub.common.order.fix;

import static io.mdhub.common.order.fix.FixMessages.SOH;
import static io.mdhub.common.order.fix.FixMessages.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class FixOrderEncoderTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final FixOrderEncoder encoder = new FixOrderEncoder();
    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();

    private String encode()
    {
        final int length = encoder.encode(buffer, 0);
        return buffer.getStringWithoutLengthAscii(0, length);
    }

    @Test
    void defaultOrderIsAValid305ByteNewOrderSingle()
    {
        final int length = encoder.encode(buffer, 0);
        assertTrue(length >= 300 && length <= 310, "length " + length);
        assertEquals(FixOrderEncoder.DEFAULT_LENGTH, length);
        assertTrue(parser.parse(buffer, 0, length, order), () -> order.error().toString());
        assertEquals("1", FixMessages.clOrdId(order));
        assertEquals("MDH.L", FixMessages.symbol(order));
        assertEquals(Side.BUY, order.side());
        assertEquals(100, order.quantity());
        assertEquals(10_000, order.priceMantissa());
        assertEquals(-2, order.priceExponent());
        assertEquals(FixOrder.ORD_TYPE_LIMIT, order.ordType());
        assertEquals('0', order.timeInForce());
    }

    @Test
    void writesTheFieldsInOrder()
    {
        encoder.length(0).account("ACC").sendingTimeMs(1_704_164_645_678L).transactTimeMs(1_704_164_645_679L)
            .msgSeqNum(42).clOrdId("C-9").symbol("VOD.L").side(Side.SELL_SHORT).quantity(250)
            .ordType(FixOrder.ORD_TYPE_LIMIT).price(12345, -2).timeInForce((byte)'3');
        final String message = encode();
        final String body =
            "35=D|34=42|49=CLIENT|56=MDHUB|52=20240102-03:04:05.678|11=C-9|1=ACC|21=1|55=VOD.L|54=5|" +
            "60=20240102-03:04:05.679|38=250|40=2|44=123.45|59=3|";
        assertEquals(FixMessages.seal(body), message);
    }

    @Test
    void leavesOptionalFieldsOut()
    {
        encoder.length(0).account("").noPrice().ordType(FixOrder.ORD_TYPE_MARKET)
            .timeInForce(FixOrder.TIME_IN_FORCE_ABSENT);
        final String message = encode();
        assertNull(value(message, 1));
        assertNull(value(message, 44));
        assertNull(value(message, 59));
        assertNull(value(message, 58));
        assertTrue(parser.parse(buffer, 0, message.length(), order), () -> order.error().toString());
    }

    @Test
    void padsToTheRequestedLength()
    {
        encoder.length(0);
        final int unpadded = encoder.encode(buffer, 0);
        for (int target = 1; target <= 3000; target++)
        {
            final int length = encoder.length(target).encode(buffer, 0);
            assertTrue(parser.parse(buffer, 0, length, order), () -> order.error().toString());
            if (target < unpadded + 5)
            {
                assertEquals(unpadded, length, "target " + target);
            }
            else if (length != target)
            {
                // Only at a BodyLength digit boundary (the body crosses 999 here) can the exact length be impossible.
                assertEquals(target + 1, length, "target " + target);
                assertEquals("1000", value(buffer.getStringWithoutLengthAscii(0, length), 9), "target " + target);
            }
        }
    }

    @Test
    void writesUtcTimestamps()
    {
        final DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
        final Random random = new Random(3);
        final long[] edges = {0, 1, 86_399_999L, 86_400_000L, 951_782_400_000L, 951_868_799_999L, 4_107_542_400_000L,
            FixOrderEncoder.MAX_EPOCH_MS};
        for (int i = 0; i < 100_000 + edges.length; i++)
        {
            final long epochMs = i < edges.length ? edges[i] :
                (random.nextLong() & Long.MAX_VALUE) % (FixOrderEncoder.MAX_EPOCH_MS + 1);
            assertEquals(21, FixOrderEncoder.putUtcTimestamp(buffer, 5, epochMs));
            assertEquals(format.format(Instant.ofEpochMilli(epochMs)), buffer.getStringWithoutLengthAscii(5, 21),
                "epochMs " + epochMs);
        }
    }

    @Test
    void writesPricesWithTheirDecimals()
    {
        final long[] mantissas = {5, -12345, 100, 0, Long.MAX_VALUE, 12340, -5, 1};
        final int[] exponents = {-2, -2, 0, -3, -18, -2, 0, -18};
        final String[] texts = {"0.05", "-123.45", "100", "0.000", "9.223372036854775807", "123.40", "-5",
            "0.000000000000000001"};
        for (int i = 0; i < texts.length; i++)
        {
            encoder.price(mantissas[i], exponents[i]);
            assertEquals(texts[i], value(encode(), 44));
        }
    }

    @Test
    void writesNumericClOrdIds()
    {
        for (final long id : new long[] {0, 7, 10, 1234567890L, Long.MAX_VALUE})
        {
            encoder.clOrdId(id);
            assertEquals(Long.toString(id), value(encode(), 11));
        }
    }

    @Test
    void writesAtAnOffset()
    {
        final String expected = encode();
        final int length = encoder.encode(buffer, 1000);
        assertEquals(expected, buffer.getStringWithoutLengthAscii(1000, length));
    }

    @Test
    void refusesValuesThatWouldBreakTheFraming()
    {
        assertThrows(IllegalArgumentException.class, () -> encoder.symbol("A" + SOH));
        assertThrows(IllegalArgumentException.class, () -> encoder.symbol(""));
        assertThrows(IllegalArgumentException.class, () -> encoder.clOrdId("x".repeat(65)));
        assertThrows(IllegalArgumentException.class, () -> encoder.clOrdId("\u00e9"));
        assertThrows(IllegalArgumentException.class, () -> encoder.clOrdId(-1));
        assertThrows(IllegalArgumentException.class, () -> encoder.senderCompId(null));
        assertThrows(IllegalArgumentException.class, () -> encoder.targetCompId(""));
        assertThrows(IllegalArgumentException.class, () -> encoder.msgSeqNum(0));
        assertThrows(IllegalArgumentException.class, () -> encoder.sendingTimeMs(-1));
        assertThrows(IllegalArgumentException.class, () -> encoder.transactTimeMs(FixOrderEncoder.MAX_EPOCH_MS + 1));
        assertThrows(IllegalArgumentException.class, () -> encoder.price(1, 1));
        assertThrows(IllegalArgumentException.class, () -> encoder.price(1, -19));
        assertThrows(IllegalArgumentException.class, () -> encoder.price(Long.MIN_VALUE, -2));
        assertThrows(IllegalArgumentException.class, () -> encoder.ordType((byte)1));
        assertThrows(IllegalArgumentException.class, () -> encoder.timeInForce((byte)1));
        assertThrows(IllegalArgumentException.class, () -> encoder.side(Side.NULL_VAL));
        assertThrows(IllegalArgumentException.class, () -> encoder.length(-1));
        assertThrows(IllegalArgumentException.class, () -> encoder.length(FixOrderParser.MAX_LENGTH + 1));
        assertEquals(FixOrderEncoder.DEFAULT_LENGTH, encode().length());
    }

    @Test
    void longestUnpaddedOrderFitsItsBound()
    {
        final String longest = "x".repeat(FixOrderEncoder.MAX_TEXT_LENGTH);
        encoder.length(0).senderCompId(longest).targetCompId(longest).account(longest).clOrdId(longest)
            .symbol(longest).msgSeqNum(Integer.MAX_VALUE).quantity(Long.MIN_VALUE).price(-Long.MAX_VALUE, -18);
        final int length = encoder.encode(buffer, 0);
        assertTrue(length <= FixOrderEncoder.MAX_UNPADDED_LENGTH, "length " + length);
    }
}
