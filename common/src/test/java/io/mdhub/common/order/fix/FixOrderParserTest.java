package io.mdhub.common.order.fix;

import static io.mdhub.common.order.fix.FixMessages.LIMIT_BODY;
import static io.mdhub.common.order.fix.FixMessages.SOH;
import static io.mdhub.common.order.fix.FixMessages.bytes;
import static io.mdhub.common.order.fix.FixMessages.clOrdId;
import static io.mdhub.common.order.fix.FixMessages.raw;
import static io.mdhub.common.order.fix.FixMessages.seal;
import static io.mdhub.common.order.fix.FixMessages.symbol;
import static io.mdhub.common.order.fix.FixMessages.withChecksum;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.codecs.order.Side;
import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class FixOrderParserTest
{
    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();

    private FixOrder parse(final String message)
    {
        final UnsafeBuffer buffer = FixMessages.buffer(message);
        parser.parse(buffer, 0, buffer.capacity(), order);
        return order;
    }

    private FixOrder parseBody(final String body)
    {
        return parse(seal(body));
    }

    private void assertValid(final String message)
    {
        assertTrue(parse(message).isValid(), () -> order.error() + " for " + message.replace(SOH, '|'));
        assertEquals(RejectReason.NULL_VAL, order.rejectReason());
    }

    private void assertRejected(final String message, final RejectReason category, final FixOrderError error)
    {
        assertFalse(parse(message).isValid(), () -> "accepted " + message.replace(SOH, '|'));
        assertEquals(error, order.error(), () -> message.replace(SOH, '|'));
        assertEquals(category, order.rejectReason());
        assertEquals(error.text(), order.rejectText());
    }

    private void assertMalformed(final String message, final FixOrderError error)
    {
        assertRejected(message, RejectReason.MALFORMED_FIX, error);
    }

    private void assertInvalidBody(final String body, final FixOrderError error)
    {
        assertRejected(seal(body), RejectReason.INVALID_ORDER, error);
    }

    @Test
    void readsEveryFieldOfALimitOrder()
    {
        assertValid(seal(LIMIT_BODY));
        assertEquals(4, order.fixMinorVersion());
        assertEquals("ORD-1", clOrdId(order));
        assertEquals("VOD.L", symbol(order));
        assertEquals(Side.BUY, order.side());
        assertEquals(100, order.quantity());
        assertEquals(FixOrder.ORD_TYPE_LIMIT, order.ordType());
        assertTrue(order.hasPrice());
        assertEquals(12345, order.priceMantissa());
        assertEquals(-2, order.priceExponent());
        assertEquals('0', order.timeInForce());
        assertEquals(0, order.offset());
        assertEquals(seal(LIMIT_BODY).length(), order.length());
    }

    @Test
    void readsAMessageInsideALargerBuffer()
    {
        final byte[] message = bytes(seal(LIMIT_BODY));
        final byte[] bytes = new byte[message.length + 100];
        new Random(7).nextBytes(bytes);
        System.arraycopy(message, 0, bytes, 37, message.length);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        assertTrue(parser.parse(buffer, 37, message.length, order), () -> order.error().toString());
        assertEquals("ORD-1", clOrdId(order));
        assertEquals("VOD.L", symbol(order));
        assertEquals(37, order.offset());

        assertFalse(parser.parse(buffer, 37, message.length + 1, order));
        assertEquals(FixOrderError.BODY_LENGTH_MISMATCH, order.error());
    }

    @ParameterizedTest
    @ValueSource(strings = { "8=FIX.4.2|", "8=FIX.4.3|", "8=FIX.4.4|" })
    void acceptsFix42To44(final String beginString)
    {
        assertValid(seal(beginString, LIMIT_BODY));
        assertEquals(beginString.charAt(8) - '0', order.fixMinorVersion());
    }

    @ParameterizedTest
    @ValueSource(strings = { "8=FIX.4.1|", "8=FIX.4.5|", "8=FIX.5.0|", "8=FIXT.1.1|", "8=FIX.4.44|", "8=FIX.4.|",
        "8=fix.4.4|", "9=FIX.4.4|", "08=FIX.4.4|", "|8=FIX.4.4|"})
    void refusesOtherBeginStrings(final String beginString)
    {
        assertMalformed(seal(beginString, LIMIT_BODY), FixOrderError.BEGIN_STRING);
    }

    @Test
    void acceptsMarketOrdersWithoutOrWithAZeroPrice()
    {
        final String market = LIMIT_BODY.replace("|40=2|44=123.45|", "|40=1|");
        assertValid(seal(market));
        assertEquals(FixOrder.ORD_TYPE_MARKET, order.ordType());
        assertFalse(order.hasPrice());
        assertEquals(0, order.priceMantissa());
        assertEquals(0, order.priceExponent());

        assertValid(seal(LIMIT_BODY.replace("|40=2|44=123.45|", "|40=1|44=0.00|")));
        assertFalse(order.hasPrice());
        assertEquals(0, order.priceMantissa());
        assertEquals(0, order.priceExponent());

        assertInvalidBody(LIMIT_BODY.replace("|40=2|44=123.45|", "|40=1|44=0.01|"), FixOrderError.MARKET_WITH_PRICE);
        assertInvalidBody(LIMIT_BODY.replace("|40=2|44=123.45|", "|40=1|44=-1|"), FixOrderError.MARKET_WITH_PRICE);
        assertInvalidBody(LIMIT_BODY.replace("|40=2|44=123.45|", "|40=1|44=abc|"), FixOrderError.BAD_PRICE);
    }

    @Test
    void readsPricesAsMantissaAndExponent()
    {
        final String[] prices = {"123.45", "0.05", ".5", "5.", "100", "123.450", "007.10", "999999999999999999",
            "0.000000000000000001", "123456789.123456789"};
        final long[] mantissas = {12345, 5, 5, 5, 100, 123450, 710, 999_999_999_999_999_999L, 1, 123456789123456789L};
        final int[] exponents = {-2, -2, -1, 0, 0, -3, -2, 0, -18, -9};
        for (int i = 0; i < prices.length; i++)
        {
            assertValid(seal(LIMIT_BODY.replace("|44=123.45|", "|44=" + prices[i] + "|")));
            assertEquals(mantissas[i], order.priceMantissa(), prices[i]);
            assertEquals(exponents[i], order.priceExponent(), prices[i]);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "1.2.3", "1e5", "12a", "+1", "1-", "--1", "-", ".", "1 ", "1234567890123456789",
        "0.0000000000000000001", "1,5"})
    void refusesBadPrices(final String price)
    {
        assertInvalidBody(LIMIT_BODY.replace("|44=123.45|", "|44=" + price + "|"), FixOrderError.BAD_PRICE);
    }

    @ParameterizedTest
    @ValueSource(strings = { "0", "0.00", "-1", "-0.01", "-0" })
    void refusesLimitOrdersWithoutAPositivePrice(final String price)
    {
        assertInvalidBody(LIMIT_BODY.replace("|44=123.45|", "|44=" + price + "|"), FixOrderError.NON_POSITIVE_PRICE);
    }

    @Test
    void refusesLimitOrdersWithoutPrice()
    {
        assertInvalidBody(LIMIT_BODY.replace("|44=123.45|", "|"), FixOrderError.MISSING_PRICE);
    }

    @ParameterizedTest
    @ValueSource(strings = { "100", "100.0", "100.", "0100", "100.000", "00000000000000000000100" })
    void acceptsWholeQuantitiesAlsoWrittenAsDecimals(final String quantity)
    {
        assertValid(seal(LIMIT_BODY.replace("|38=100|", "|38=" + quantity + "|")));
        assertEquals(100, order.quantity());
    }

    @Test
    void acceptsTheLargestQuantity()
    {
        assertValid(seal(LIMIT_BODY.replace("|38=100|", "|38=999999999999999999|")));
        assertEquals(999_999_999_999_999_999L, order.quantity());
    }

    @ParameterizedTest
    @ValueSource(strings = { "0", "0.0", "-5", "-0", "100.5", "0.1", "1e3", "12a", ".", "1000000000000000000", "1 0",
        "10.0.0"})
    void refusesQuantitiesThatAreNotPositiveWholeNumbers(final String quantity)
    {
        assertInvalidBody(LIMIT_BODY.replace("|38=100|", "|38=" + quantity + "|"), FixOrderError.BAD_QUANTITY);
    }

    @ParameterizedTest
    @ValueSource(strings = { "1", "2", "5" })
    void readsSides(final String side)
    {
        assertValid(seal(LIMIT_BODY.replace("|54=1|", "|54=" + side + "|")));
        assertEquals(Side.get((short)(side.charAt(0) - '0')), order.side());
    }

    @ParameterizedTest
    @ValueSource(strings = { "0", "3", "4", "6", "B", "12", "11", " 1" })
    void refusesOtherSides(final String side)
    {
        assertInvalidBody(LIMIT_BODY.replace("|54=1|", "|54=" + side + "|"), FixOrderError.BAD_SIDE);
    }

    @ParameterizedTest
    @ValueSource(strings = { "3", "4", "P", "12", "21" })
    void refusesOtherOrdTypes(final String ordType)
    {
        assertInvalidBody(LIMIT_BODY.replace("|40=2|", "|40=" + ordType + "|"), FixOrderError.BAD_ORD_TYPE);
    }

    @Test
    void readsTimeInForceOrItsAbsence()
    {
        for (char tif = '0'; tif <= '7'; tif++)
        {
            assertValid(seal(LIMIT_BODY.replace("|59=0|", "|59=" + tif + "|")));
            assertEquals(tif, order.timeInForce());
        }
        assertValid(seal(LIMIT_BODY.replace("|59=0|", "|")));
        assertEquals(FixOrder.TIME_IN_FORCE_ABSENT, order.timeInForce());

        assertInvalidBody(LIMIT_BODY.replace("|59=0|", "|59=8|"), FixOrderError.BAD_TIME_IN_FORCE);
        assertInvalidBody(LIMIT_BODY.replace("|59=0|", "|59=00|"), FixOrderError.BAD_TIME_IN_FORCE);
        assertInvalidBody(LIMIT_BODY.replace("|59=0|", "|59=D|"), FixOrderError.BAD_TIME_IN_FORCE);
    }

    @Test
    void checksSymbolAndClOrdIdLengthAndCharacters()
    {
        assertValid(seal(LIMIT_BODY.replace("|55=VOD.L|", "|55=ABCDEFGHIJKLMNOP|")));
        assertEquals("ABCDEFGHIJKLMNOP", symbol(order));
        assertValid(seal(LIMIT_BODY.replace("|55=VOD.L|", "|55=BRK A|")));
        assertEquals("BRK A", symbol(order));
        assertInvalidBody(LIMIT_BODY.replace("|55=VOD.L|", "|55=ABCDEFGHIJKLMNOPQ|"), FixOrderError.BAD_SYMBOL);
        assertInvalidBody(LIMIT_BODY.replace("|55=VOD.L|", "|55=VOD\u0002L|"), FixOrderError.BAD_SYMBOL);
        assertInvalidBody(LIMIT_BODY.replace("|55=VOD.L|", "|55=VOD\u00e9|"), FixOrderError.BAD_SYMBOL);

        final String longest = "x".repeat(FixOrderParser.MAX_CL_ORD_ID_LENGTH);
        assertValid(seal(LIMIT_BODY.replace("|11=ORD-1|", "|11=" + longest + "|")));
        assertEquals(longest, clOrdId(order));
        assertInvalidBody(LIMIT_BODY.replace("|11=ORD-1|", "|11=" + longest + "y|"), FixOrderError.BAD_CL_ORD_ID);
        assertInvalidBody(LIMIT_BODY.replace("|11=ORD-1|", "|11=ORD\u007f1|"), FixOrderError.BAD_CL_ORD_ID);
    }

    @Test
    void refusesOrdersMissingARequiredTag()
    {
        assertInvalidBody(LIMIT_BODY.replace("|11=ORD-1|", "|"), FixOrderError.MISSING_CL_ORD_ID);
        assertInvalidBody(LIMIT_BODY.replace("|55=VOD.L|", "|"), FixOrderError.MISSING_SYMBOL);
        assertInvalidBody(LIMIT_BODY.replace("|54=1|", "|"), FixOrderError.MISSING_SIDE);
        assertInvalidBody(LIMIT_BODY.replace("|38=100|", "|"), FixOrderError.MISSING_QUANTITY);
        assertInvalidBody(LIMIT_BODY.replace("|40=2|", "|"), FixOrderError.MISSING_ORD_TYPE);
        assertInvalidBody("35=D|", FixOrderError.MISSING_CL_ORD_ID);
    }

    @ParameterizedTest
    @ValueSource(strings = { "8", "0", "F", "AE", "DD", "d" })
    void refusesOtherMessageTypes(final String msgType)
    {
        assertInvalidBody(LIMIT_BODY.replace("35=D|", "35=" + msgType + "|"), FixOrderError.NOT_NEW_ORDER_SINGLE);
    }

    @Test
    void refusesAMessageWhoseThirdFieldIsNotMsgType()
    {
        assertMalformed(seal(LIMIT_BODY.replace("35=D|34=7|", "34=7|35=D|")), FixOrderError.MSG_TYPE_NOT_THIRD);
        assertMalformed(seal(""), FixOrderError.MSG_TYPE_NOT_THIRD);
    }

    @Test
    void refusesFieldsWithBadTags()
    {
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|1x=ACC|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|A=ACC|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|-1=ACC|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|01=ACC|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|0=ACC|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|1234567890=ACC|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "| 1=ACC|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|ACC|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|1|")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "||")), FixOrderError.BAD_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|=ACC|")), FixOrderError.EMPTY_TAG);
        assertMalformed(seal(LIMIT_BODY.replace("35=D|", "35x=D|")), FixOrderError.BAD_TAG);
        assertValid(seal(LIMIT_BODY.replace("|1=ACC|", "|123456789=ACC|")));
    }

    @Test
    void refusesEmptyValues()
    {
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|1=|")), FixOrderError.EMPTY_VALUE);
        assertMalformed(seal(LIMIT_BODY.replace("|11=ORD-1|", "|11=|")), FixOrderError.EMPTY_VALUE);
        assertMalformed(seal(LIMIT_BODY.replace("|38=100|", "|38=|")), FixOrderError.EMPTY_VALUE);
        assertMalformed(seal(LIMIT_BODY.replace("35=D|", "35=|")), FixOrderError.EMPTY_VALUE);
    }

    @ParameterizedTest
    @ValueSource(strings = { "11=X", "55=X", "54=1", "38=5", "40=2", "44=1", "59=0", "35=D", "8=FIX.4.4", "9=5" })
    void refusesADuplicateKeyTag(final String field)
    {
        assertMalformed(seal(LIMIT_BODY + field + "|"), FixOrderError.DUPLICATE_TAG);
    }

    @Test
    void allowsOtherTagsToRepeat()
    {
        assertValid(seal(LIMIT_BODY + "58=one|58=two|"));
    }

    @Test
    void refusesACheckSumBeforeTheEnd()
    {
        assertMalformed(seal(LIMIT_BODY.replace("|1=ACC|", "|10=123|")), FixOrderError.CHECKSUM_NOT_LAST);
    }

    @Test
    void refusesAWrongCheckSum()
    {
        final String message = seal(LIMIT_BODY);
        final int at = message.length() - 4;
        final int sum = Integer.parseInt(message.substring(at, at + 3));
        for (final int delta : new int[] {1, -1, 128, 255})
        {
            final String wrong = String.format("%03d", (sum + delta) & 0xFF);
            assertMalformed(message.substring(0, at) + wrong + SOH, FixOrderError.CHECKSUM_MISMATCH);
        }
        assertMalformed(message.substring(0, at) + (sum + 256) + SOH, FixOrderError.CHECKSUM_MISMATCH);
        assertMalformed(message.substring(0, at) + "1a3" + SOH, FixOrderError.BAD_CHECKSUM_FIELD);
        assertMalformed(message.substring(0, at) + "123" + '|', FixOrderError.BAD_CHECKSUM_FIELD);
        assertMalformed(message.substring(0, at - 3) + "11=123" + SOH, FixOrderError.BAD_CHECKSUM_FIELD);
        assertMalformed(message.substring(0, at - 3) + "10:123" + SOH, FixOrderError.BAD_CHECKSUM_FIELD);
    }

    @Test
    void refusesAWrongBodyLength()
    {
        final String message = seal(LIMIT_BODY);
        final String declared = FixMessages.value(message, 9);
        final int bodyLength = Integer.parseInt(declared);
        for (final int delta : new int[] {1, -1, 2, -2, 7, -7, 50, -50, 100})
        {
            final String wrong = withChecksum(raw("8=FIX.4.4|9=" + (bodyLength + delta) + "|") + raw(LIMIT_BODY));
            assertMalformed(wrong, FixOrderError.BODY_LENGTH_MISMATCH);
        }
        assertValid(withChecksum(raw("8=FIX.4.4|9=0" + bodyLength + "|") + raw(LIMIT_BODY)));

        assertMalformed(withChecksum(raw("8=FIX.4.4|9=|") + raw(LIMIT_BODY)), FixOrderError.BODY_LENGTH_FIELD);
        assertMalformed(withChecksum(raw("8=FIX.4.4|9=2x5|") + raw(LIMIT_BODY)), FixOrderError.BODY_LENGTH_FIELD);
        assertMalformed(withChecksum(raw("8=FIX.4.4|9=-5|") + raw(LIMIT_BODY)), FixOrderError.BODY_LENGTH_FIELD);
        assertMalformed(withChecksum(raw("8=FIX.4.4|9=1234567890|") + raw(LIMIT_BODY)),
            FixOrderError.BODY_LENGTH_FIELD);
        assertMalformed(withChecksum(raw("8=FIX.4.4|") + raw(LIMIT_BODY)), FixOrderError.BODY_LENGTH_FIELD);
        assertMalformed(withChecksum(raw("8=FIX.4.4|35=D|9=" + bodyLength + "|")), FixOrderError.BODY_LENGTH_FIELD);
    }

    @Test
    void refusesTrailingBytesAndTwoMessages()
    {
        final String message = seal(LIMIT_BODY);
        assertMalformed(message + "x", FixOrderError.BODY_LENGTH_MISMATCH);
        assertMalformed(message + SOH, FixOrderError.BODY_LENGTH_MISMATCH);
        assertMalformed(message + message, FixOrderError.BODY_LENGTH_MISMATCH);
    }

    @Test
    void refusesEveryTruncationOfAValidMessage()
    {
        final byte[] message = bytes(seal(LIMIT_BODY));
        final UnsafeBuffer whole = new UnsafeBuffer(message);
        for (int length = 0; length < message.length; length++)
        {
            final byte[] prefix = new byte[length];
            System.arraycopy(message, 0, prefix, 0, length);
            assertFalse(parser.parse(new UnsafeBuffer(prefix), 0, length, order), "length " + length);
            assertEquals(RejectReason.MALFORMED_FIX, order.rejectReason(), "length " + length);
            assertFalse(parser.parse(whole, 0, length, order), "length " + length);
            assertEquals(RejectReason.MALFORMED_FIX, order.rejectReason(), "length " + length);
            assertFalse(parser.parse(whole, message.length - length, length, order), "suffix " + length);
            assertEquals(RejectReason.MALFORMED_FIX, order.rejectReason(), "suffix " + length);
        }
        assertTrue(parser.parse(whole, 0, message.length, order));
    }

    @Test
    void refusesGarbage()
    {
        final Random random = new Random(42);
        final byte[] prefix = bytes(raw("8=FIX.4.4|9="));
        for (int i = 0; i < 20_000; i++)
        {
            final byte[] bytes = new byte[random.nextInt(400)];
            random.nextBytes(bytes);
            if (0 == (i & 1) && bytes.length >= prefix.length)
            {
                System.arraycopy(prefix, 0, bytes, 0, prefix.length);
            }
            assertFalse(parser.parse(new UnsafeBuffer(bytes), 0, bytes.length, order));
            assertEquals(RejectReason.MALFORMED_FIX, order.rejectReason());
        }
    }

    @Test
    void reportsMalformedBeforeInvalid()
    {
        final String invalid = seal(LIMIT_BODY.replace("|54=1|", "|54=9|"));
        final String badChecksum = invalid.substring(0, invalid.length() - 4) +
            (invalid.charAt(invalid.length() - 2) == '9' ? "000" : "999") + SOH;
        assertMalformed(badChecksum, FixOrderError.CHECKSUM_MISMATCH);
        assertMalformed(seal(LIMIT_BODY.replace("|54=1|", "|54=9|") + "54=9|"), FixOrderError.DUPLICATE_TAG);
        assertInvalidBody(LIMIT_BODY.replace("35=D|", "35=8|").replace("|54=1|", "|54=9|"),
            FixOrderError.NOT_NEW_ORDER_SINGLE);
    }

    @Test
    void refusesRegionsOutsideTheBuffer()
    {
        final UnsafeBuffer buffer = FixMessages.buffer(seal(LIMIT_BODY));
        assertFalse(parser.parse(buffer, -1, 10, order));
        assertEquals(FixOrderError.REGION_OUTSIDE_BUFFER, order.error());
        assertFalse(parser.parse(buffer, 0, buffer.capacity() + 1, order));
        assertEquals(FixOrderError.REGION_OUTSIDE_BUFFER, order.error());
        assertFalse(parser.parse(buffer, 5, -1, order));
        assertEquals(FixOrderError.REGION_OUTSIDE_BUFFER, order.error());
        assertFalse(parser.parse(buffer, Integer.MAX_VALUE, Integer.MAX_VALUE, order));
        assertEquals(FixOrderError.REGION_OUTSIDE_BUFFER, order.error());
        assertFalse(parser.parse(null, 0, 0, order));
        assertEquals(FixOrderError.REGION_OUTSIDE_BUFFER, order.error());
        assertEquals(RejectReason.MALFORMED_FIX, order.rejectReason());
    }

    @Test
    void refusesOversizeMessages()
    {
        final String message = seal(LIMIT_BODY);
        final FixOrderParser small = new FixOrderParser(message.length() - 1);
        final UnsafeBuffer buffer = FixMessages.buffer(message);
        assertFalse(small.parse(buffer, 0, buffer.capacity(), order));
        assertEquals(FixOrderError.OVERSIZE, order.error());
        assertEquals(RejectReason.OVERSIZE, order.rejectReason());
        assertTrue(new FixOrderParser(message.length()).parse(buffer, 0, buffer.capacity(), order));

        assertThrows(IllegalArgumentException.class, () -> new FixOrderParser(0));
        assertThrows(IllegalArgumentException.class, () -> new FixOrderParser(FixOrderParser.MAX_LENGTH + 1));
        assertEquals(65_000, new FixOrderParser().maxLength());
    }

    @Test
    void resetsTheResultOnEveryParse()
    {
        assertValid(seal(LIMIT_BODY));
        assertInvalidBody(LIMIT_BODY.replace("|54=1|", "|54=3|"), FixOrderError.BAD_SIDE);
        assertValid(seal(LIMIT_BODY.replace("|40=2|44=123.45|", "|40=1|").replace("|59=0|", "|")));
        assertEquals(0, order.priceMantissa());
        assertFalse(order.hasPrice());
        assertEquals(FixOrder.TIME_IN_FORCE_ABSENT, order.timeInForce());
    }

    @Test
    void writesTheOrderIntoAnOrderRecord()
    {
        final String message = seal(LIMIT_BODY.replace("|55=VOD.L|", "|55=ABCDEFGHIJKLMNOP|"));
        assertValid(message);

        final UnsafeBuffer record = new UnsafeBuffer(new byte[1024]);
        final OrderRecordEncoder encoder = new OrderRecordEncoder();
        encoder.wrapAndApplyHeader(record, 8, new MessageHeaderEncoder());
        order.encodeInto(encoder);
        encoder.partition(3).epoch(4).sequence(5).clientId(6).orderId(7).storedTimeMs(8);

        final OrderRecordDecoder decoder = new OrderRecordDecoder();
        decoder.wrapAndApplyHeader(record, 8, new MessageHeaderDecoder());
        assertEquals(3, decoder.partition());
        assertEquals(5, decoder.sequence());
        assertEquals(8, decoder.storedTimeMs());
        assertEquals(Side.BUY, decoder.side());
        assertEquals(100, decoder.quantity());
        assertEquals(12345, decoder.priceMantissa());
        assertEquals(-2, decoder.priceExponent());
        assertEquals('2', decoder.ordType());
        assertEquals('0', decoder.timeInForce());
        assertEquals("ABCDEFGHIJKLMNOP", decoder.symbol());
        assertEquals("ORD-1", decoder.clOrdId());
        final byte[] fix = new byte[decoder.fixLength()];
        decoder.getFix(fix, 0, fix.length);
        assertArrayEquals(bytes(message), fix);
        assertEquals(MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength(),
            MessageHeaderDecoder.ENCODED_LENGTH + decoder.encodedLength());

        // A shorter symbol is NUL padded over whatever the buffer held, so the SBE getter stops at its end.
        assertValid(seal(LIMIT_BODY.replace("|40=2|44=123.45|", "|40=1|").replace("|59=0|", "|")));
        encoder.wrapAndApplyHeader(record, 8, new MessageHeaderEncoder());
        order.encodeInto(encoder);
        decoder.wrapAndApplyHeader(record, 8, new MessageHeaderDecoder());
        assertEquals("VOD.L", decoder.symbol());
        assertEquals(0, decoder.priceMantissa());
        assertEquals('1', decoder.ordType());
        assertEquals(0, decoder.timeInForce());
    }

    @Test
    void refusesToWriteAnInvalidOrder()
    {
        assertInvalidBody(LIMIT_BODY.replace("|54=1|", "|54=3|"), FixOrderError.BAD_SIDE);
        final OrderRecordEncoder encoder = new OrderRecordEncoder().wrap(new UnsafeBuffer(new byte[512]), 0);
        assertThrows(IllegalStateException.class, () -> order.encodeInto(encoder));
        assertThrows(IllegalStateException.class, () -> new FixOrder().encodeInto(encoder));
    }
}
