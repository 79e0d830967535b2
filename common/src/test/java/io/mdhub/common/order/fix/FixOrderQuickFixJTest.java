package io.mdhub.common.order.fix;

import static io.mdhub.common.order.fix.FixMessages.LIMIT_BODY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.InterruptAfter;
import quickfix.DataDictionary;
import quickfix.FieldException;
import quickfix.FieldNotFound;
import quickfix.IncorrectDataFormat;
import quickfix.IncorrectTagValue;
import quickfix.InvalidMessage;
import quickfix.Message;
import quickfix.MessageUtils;

/**
 * QuickFIX/J as an independent FIX implementation: it parses what {@link FixOrderEncoder} writes with validation on
 * (header order, CheckSum, the FIX 4.4 dictionary: required fields, enums, formats) and reads the same field values
 * as {@link FixOrderParser}; and over damaged orders, whatever both accept, both read alike.
 */
@InterruptAfter(60)
class FixOrderQuickFixJTest
{
    private static final int ORDERS = 5_000;
    private static final int MUTATIONS = 50_000;

    /**
     * Framing faults QuickFIX/J 2.3.2 lets through: a tag with a leading zero (it reads tags with parseInt), a
     * second BeginString or MsgType among the header fields (the later one silently wins, so even a first field
     * "8=4.4" passes), and a CheckSum field before the last one.
     */
    private static final Set<FixOrderError> QUICKFIXJ_LENIENT = EnumSet.of(
        FixOrderError.BAD_TAG,
        FixOrderError.DUPLICATE_TAG,
        FixOrderError.BEGIN_STRING,
        FixOrderError.CHECKSUM_NOT_LAST);

    private static DataDictionary fix44;
    private static DataDictionary fix42;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final FixOrderEncoder encoder = new FixOrderEncoder();
    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();

    @BeforeAll
    static void loadDictionaries() throws Exception
    {
        fix44 = new DataDictionary("FIX44.xml");
        fix42 = new DataDictionary("FIX42.xml");
    }

    @Test
    void quickFixJValidatesAndReadsWhatTheEncoderWrites() throws Exception
    {
        final RandomOrders orders = new RandomOrders(44);
        for (int i = 0; i < ORDERS; i++)
        {
            orders.next(encoder);
            final int length = encoder.encode(buffer, 0);
            final String text = buffer.getStringWithoutLengthAscii(0, length);
            assertTrue(parser.parse(buffer, 0, length, order), () -> order.error().toString());
            orders.assertParsed(order);

            final Message message = new Message(text, fix44, true);
            assertNull(message.getException(), text);
            fix44.validate(message);
            assertEquals(message.getHeader().getInt(9), message.bodyLength(), "BodyLength");
            assertEquals(MessageUtils.checksum(text), message.getTrailer().getInt(10), "CheckSum");
            assertEquals("D", message.getHeader().getString(35));
            assertSameValues(message, text);
        }
    }

    @Test
    void quickFixJReadsHandWrittenFix42And44OrdersAsWeDo() throws Exception
    {
        for (final String beginString : new String[] {"8=FIX.4.2|", "8=FIX.4.4|"})
        {
            final String text = FixMessages.seal(beginString, LIMIT_BODY);
            final DataDictionary dictionary = beginString.contains("4.2") ? fix42 : fix44;
            final UnsafeBuffer message = FixMessages.buffer(text);
            assertTrue(parser.parse(message, 0, message.capacity(), order), () -> order.error().toString());
            final Message parsed = new Message(text, dictionary, true);
            assertNull(parsed.getException());
            dictionary.validate(parsed);
            assertSameValues(parsed, text);
        }
    }

    @Test
    void quickFixJRefusesTheCheckSumsAndBodyLengthsWeRefuse() throws Exception
    {
        final String valid = FixMessages.seal(LIMIT_BODY);
        final String badChecksum = valid.substring(0, valid.length() - 4) +
            String.format("%03d", (FixMessages.checksum(valid.substring(0, valid.length() - 7)) + 1) & 0xFF) +
            FixMessages.SOH;
        final UnsafeBuffer bad = FixMessages.buffer(badChecksum);
        assertFalse(parser.parse(bad, 0, bad.capacity(), order));
        assertEquals(FixOrderError.CHECKSUM_MISMATCH, order.error());
        assertQuickFixJRefuses(badChecksum);

        // QuickFIX/J checks BodyLength in its transport decoder, not in Message: compare it with what it counts.
        final String bodyLength = FixMessages.value(valid, 9);
        final String badLength = FixMessages.withChecksum(valid.substring(0, valid.length() - 7)
            .replace("9=" + bodyLength, "9=" + (Integer.parseInt(bodyLength) + 1)));
        final UnsafeBuffer wrong = FixMessages.buffer(badLength);
        assertFalse(parser.parse(wrong, 0, wrong.capacity(), order));
        assertEquals(FixOrderError.BODY_LENGTH_MISMATCH, order.error());
        final Message message = new Message(badLength, fix44, true);
        assertFalse(message.getHeader().getInt(9) == message.bodyLength());
    }

    /**
     * Damage orders, make BodyLength and CheckSum right again, and give them to both parsers. Whatever both accept
     * must read alike; whatever we accept must pass QuickFIX/J's framing and CheckSum. The cases where one accepts
     * and the other refuses are counted by reason and printed: they are where the two differ by design.
     */
    @Test
    void agreesWithQuickFixJOnDamagedOrders()
    {
        final RandomOrders orders = new RandomOrders(4242);
        final FixMutator mutator = new FixMutator(new Random(4242));
        final Map<String, Integer> onlyWeAccept = new TreeMap<>();
        final Map<String, Integer> onlyTheyAccept = new TreeMap<>();
        int bothAccept = 0;
        for (int i = 0; i < MUTATIONS; i++)
        {
            orders.next(encoder);
            final int length = encoder.encode(buffer, 0);
            final byte[] valid = new byte[length];
            buffer.getBytes(0, valid);
            final byte[] mutated = FixMutator.reseal(mutator.mutate(valid));
            if (null == mutated)
            {
                continue;
            }
            final String text = FixMessages.string(mutated, 0, mutated.length);
            final boolean weAccept = parser.parse(new UnsafeBuffer(mutated), 0, mutated.length, order);
            final String theirVerdict = quickFixJVerdict(text);

            if (weAccept && null == theirVerdict)
            {
                bothAccept++;
                assertSameValues(parseQuietly(text), text);
            }
            else if (weAccept)
            {
                assertFalse(theirVerdict.contains("CheckSum"), theirVerdict);
                onlyWeAccept.merge(theirVerdict, 1, Integer::sum);
            }
            else if (null == theirVerdict)
            {
                if (1 == onlyTheyAccept.merge(order.error().name(), 1, Integer::sum))
                {
                    System.out.println("e.g. " + order.error() + ": " + text.replace(FixMessages.SOH, '|'));
                }
            }
        }
        System.out.println("both accept: " + bothAccept);
        System.out.println("only MDHub accepts (QuickFIX/J's reason): " + onlyWeAccept);
        System.out.println("only QuickFIX/J accepts (MDHub's reason): " + onlyTheyAccept);
        assertTrue(bothAccept > 1000, "both accept " + bothAccept);

        // Where QuickFIX/J is more lenient by design or by accident; any other framing error must never be one it
        // accepts (BodyLength, CheckSum, empty tags or values, the header order).
        for (final String error : onlyTheyAccept.keySet())
        {
            final FixOrderError ours = FixOrderError.valueOf(error);
            assertTrue(RejectReason.INVALID_ORDER == ours.rejectReason() || QUICKFIXJ_LENIENT.contains(ours),
                () -> "QuickFIX/J accepts what we refuse as " + ours);
        }
    }

    private static String quickFixJVerdict(final String text)
    {
        try
        {
            final Message message = new Message(text, fix44, true);
            if (null != message.getException())
            {
                return "FieldException " + message.getException().getSessionRejectReason();
            }
            fix44.validate(message);
            return null;
        }
        catch (final InvalidMessage ex)
        {
            final String reason = ex.getMessage();
            return "InvalidMessage " + reason.substring(0, Math.min(reason.length(), 24)).replaceAll("[0-9]+", "N");
        }
        catch (final FieldException ex)
        {
            return "FieldException " + ex.getSessionRejectReason();
        }
        catch (final IncorrectTagValue ex)
        {
            return "IncorrectTagValue " + ex.getField();
        }
        catch (final IncorrectDataFormat ex)
        {
            return "IncorrectDataFormat " + ex.getField();
        }
        catch (final FieldNotFound ex)
        {
            return "FieldNotFound " + ex.field;
        }
        catch (final RuntimeException ex)
        {
            return ex.getClass().getSimpleName();
        }
    }

    private static Message parseQuietly(final String text)
    {
        try
        {
            return new Message(text, fix44, true);
        }
        catch (final InvalidMessage ex)
        {
            return fail(ex);
        }
    }

    private static void assertQuickFixJRefuses(final String text)
    {
        try
        {
            new Message(text, fix44, true);
            fail("QuickFIX/J accepted " + text);
        }
        catch (final InvalidMessage expected)
        {
            assertTrue(expected.getMessage().contains("CheckSum"), expected.getMessage());
        }
    }

    private void assertSameValues(final Message message, final String text)
    {
        final String printable = text.replace(FixMessages.SOH, '|');
        try
        {
            assertEquals(message.getString(11), FixMessages.clOrdId(order), printable);
            assertEquals(message.getString(55), FixMessages.symbol(order), printable);
            assertEquals(message.getChar(54), (char)('0' + order.side().value()), printable);
            assertEquals(0, message.getDecimal(38).compareTo(BigDecimal.valueOf(order.quantity())), printable);
            assertEquals(message.getChar(40), (char)order.ordType(), printable);
            if (order.hasPrice())
            {
                final BigDecimal price = message.getDecimal(44);
                assertEquals(price.unscaledValue().longValueExact(), order.priceMantissa(), printable);
                assertEquals(-price.scale(), order.priceExponent(), printable);
            }
            else if (message.isSetField(44))
            {
                assertEquals(0, message.getDecimal(44).signum(), printable);
            }
            assertEquals(message.isSetField(59) ? message.getChar(59) : FixOrder.TIME_IN_FORCE_ABSENT,
                order.timeInForce(), printable);
        }
        catch (final FieldNotFound ex)
        {
            fail(printable, ex);
        }
    }
}
