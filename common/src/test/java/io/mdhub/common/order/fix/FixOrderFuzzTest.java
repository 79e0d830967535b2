package io.mdhub.common.order.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.fuzz.ByteMutations;
import io.mdhub.common.test.fuzz.FuzzGuarded;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * The FIX order parser under random bytes, byte-level mutations of valid orders, and FIX-aware mutations
 * ({@link FixMutator}) raw and with BodyLength and CheckSum made right again: it never throws, answers the same for
 * the same bytes, and what it accepts agrees with a plain string reading. The resealed ones must reach both
 * outcomes (accepted, and refused as an invalid order) in a good share of tries, or the generator has gone blind.
 */
@FuzzGuarded
class FixOrderFuzzTest
{
    private final FixOrderEncoder encoder = new FixOrderEncoder();
    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[4096]);

    @Property
    void randomBytes(@ForAll @Size(max = 300) final byte[] bytes)
    {
        parse(bytes);
    }

    @Property
    void byteMutations(@ForAll("byteMutated") final byte[] bytes)
    {
        parse(bytes);
    }

    @Property
    void rawFixMutations(@ForAll final long seed)
    {
        parse(fixMutated(seed, false));
    }

    @Property
    void resealedFixMutationsAgreeWithTheText(@ForAll final long seed)
    {
        final FixOrderError error = parse(fixMutated(seed, true));
        Statistics.label("outcome").collect(FixOrderError.NONE == error ? "accepted" :
            RejectReason.INVALID_ORDER == error.rejectReason() ? "invalid order" : "other");
        Statistics.label("outcome").coverage(checker ->
        {
            checker.check("accepted").percentage(share -> share > 1);
            checker.check("invalid order").percentage(share -> share > 1);
        });
    }

    @Provide
    Arbitrary<byte[]> byteMutated()
    {
        return ByteMutations.mutated(Arbitraries.longs().map(this::validOrder));
    }

    private byte[] validOrder(final long seed)
    {
        new RandomOrders(seed).next(encoder);
        final int length = encoder.encode(scratch, 0);
        final byte[] valid = new byte[length];
        scratch.getBytes(0, valid);
        return valid;
    }

    private byte[] fixMutated(final long seed, final boolean reseal)
    {
        final byte[] mutated = new FixMutator(new Random(seed)).mutate(validOrder(seed));
        final byte[] resealed = reseal ? FixMutator.reseal(mutated) : null;
        return null == resealed ? mutated : resealed;
    }

    private FixOrderError parse(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final boolean ok = parser.parse(buffer, 0, bytes.length, order);
        final FixOrderError error = order.error();
        assertEquals(ok, parser.parse(buffer, 0, bytes.length, order));
        assertEquals(error, order.error());
        assertNotNull(error.rejectReason());
        assertEquals(ok, FixOrderError.NONE == error);
        if (ok)
        {
            assertAgreesWithText(FixMessages.string(bytes, 0, bytes.length));
        }
        return error;
    }

    private void assertAgreesWithText(final String message)
    {
        final String printable = message.replace(FixMessages.SOH, '|');
        assertTrue(message.startsWith("8=FIX.4."), printable);
        final int checksumAt = message.length() - 7;
        assertEquals(FixMessages.checksum(message.substring(0, checksumAt)),
            Integer.parseInt(message.substring(checksumAt + 3, checksumAt + 6)), printable);
        final int bodyStart = message.indexOf(FixMessages.SOH, message.indexOf(FixMessages.SOH) + 1) + 1;
        assertEquals(Integer.parseInt(FixMessages.value(message, 9)), checksumAt - bodyStart, printable);
        assertEquals("D", FixMessages.value(message, 35), printable);
        assertEquals(FixMessages.value(message, 11), FixMessages.clOrdId(order), printable);
        assertEquals(FixMessages.value(message, 55), FixMessages.symbol(order), printable);
        assertEquals(FixMessages.value(message, 54), Character.toString('0' + order.side().value()), printable);
        assertEquals(0, new BigDecimal(FixMessages.value(message, 38)).compareTo(BigDecimal.valueOf(order.quantity())),
            printable);
        assertEquals(FixMessages.value(message, 40), Character.toString(order.ordType()), printable);
        final String price = FixMessages.value(message, 44);
        if (order.hasPrice())
        {
            assertEquals(new BigDecimal(price), BigDecimal.valueOf(order.priceMantissa(), -order.priceExponent()),
                printable);
        }
        else if (null != price)
        {
            assertEquals(0, new BigDecimal(price).signum(), printable);
        }
        final String tif = FixMessages.value(message, 59);
        assertEquals(null == tif ? FixOrder.TIME_IN_FORCE_ABSENT : tif.charAt(0), order.timeInForce(), printable);
    }
}
