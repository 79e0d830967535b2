package io.mdhub.common.order.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.test.InterruptAfter;

/**
 * 100,000 random mutations of valid orders, raw and with BodyLength and CheckSum made right again: the parser never
 * throws, always answers the same for the same bytes, and what it accepts agrees with a plain string reading.
 */
@InterruptAfter(60)
class FixOrderFuzzTest
{
    private static final int MUTATIONS = 100_000;

    private final FixOrderEncoder encoder = new FixOrderEncoder();
    private final FixOrderParser parser = new FixOrderParser();
    private final FixOrder order = new FixOrder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[4096]);

    @Test
    void rawMutationsNeverThrow()
    {
        final Map<FixOrderError, Integer> outcomes = run(false, 1);
        System.out.println("raw mutations: " + outcomes);
    }

    @Test
    void resealedMutationsNeverThrowAndAgreeWithTheText()
    {
        final Map<FixOrderError, Integer> outcomes = run(true, 2);
        System.out.println("resealed mutations: " + outcomes);
        assertTrue(outcomes.getOrDefault(FixOrderError.NONE, 0) > 0);
        assertTrue(outcomes.keySet().stream().anyMatch(e -> RejectReason.INVALID_ORDER == e.rejectReason()));
    }

    private Map<FixOrderError, Integer> run(final boolean reseal, final long seed)
    {
        final RandomOrders orders = new RandomOrders(seed);
        final FixMutator mutator = new FixMutator(new Random(seed));
        final Map<FixOrderError, Integer> outcomes = new EnumMap<>(FixOrderError.class);
        for (int i = 0; i < MUTATIONS; i++)
        {
            orders.next(encoder);
            final int length = encoder.encode(scratch, 0);
            final byte[] valid = new byte[length];
            scratch.getBytes(0, valid);

            byte[] mutated = mutator.mutate(valid);
            if (reseal)
            {
                final byte[] resealed = FixMutator.reseal(mutated);
                mutated = null == resealed ? mutated : resealed;
            }

            final UnsafeBuffer buffer = new UnsafeBuffer(mutated);
            final boolean ok = parser.parse(buffer, 0, mutated.length, order);
            final FixOrderError error = order.error();
            outcomes.merge(error, 1, Integer::sum);

            assertEquals(ok, parser.parse(buffer, 0, mutated.length, order));
            assertEquals(error, order.error());
            assertNotNull(error.rejectReason());
            if (ok)
            {
                assertAgreesWithText(FixMessages.string(mutated, 0, mutated.length));
            }
        }
        return outcomes;
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
