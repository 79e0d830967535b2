package io.mdhub.common.order.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import io.mdhub.common.codecs.order.Side;

/**
 * Random valid orders: sets every field of a {@link FixOrderEncoder} and remembers what it set, so a parse can be
 * checked field by field.
 */
final class RandomOrders
{
    private static final Side[] SIDES = {Side.BUY, Side.SELL, Side.SELL_SHORT};

    private final Random random;

    String clOrdId;
    String symbol;
    Side side;
    long quantity;
    byte ordType;
    long priceMantissa;
    int priceExponent;
    boolean hasPrice;
    byte timeInForce;

    RandomOrders(final long seed)
    {
        random = new Random(seed);
    }

    Random random()
    {
        return random;
    }

    /**
     * Set every field of encoder to a random valid value.
     *
     * @param encoder to set.
     * @return encoder.
     */
    FixOrderEncoder next(final FixOrderEncoder encoder)
    {
        clOrdId = text(1, FixOrderParser.MAX_CL_ORD_ID_LENGTH);
        symbol = text(1, FixOrderParser.MAX_SYMBOL_LENGTH);
        side = SIDES[random.nextInt(SIDES.length)];
        quantity = 1 + (random.nextLong() & Long.MAX_VALUE) %
            (random.nextBoolean() ? 10_000 : 999_999_999_999_999_999L);
        ordType = random.nextInt(4) == 0 ? FixOrder.ORD_TYPE_MARKET : FixOrder.ORD_TYPE_LIMIT;
        timeInForce = random.nextInt(5) == 0 ? FixOrder.TIME_IN_FORCE_ABSENT : (byte)('0' + random.nextInt(8));

        encoder
            .senderCompId(text(1, 20))
            .targetCompId(text(1, 20))
            .account(random.nextBoolean() ? "" : text(1, 12))
            .msgSeqNum(1 + random.nextInt(random.nextInt(3) == 0 ? Integer.MAX_VALUE : 1_000_000))
            .sendingTimeMs((random.nextLong() & Long.MAX_VALUE) % FixOrderEncoder.MAX_EPOCH_MS)
            .transactTimeMs((random.nextLong() & Long.MAX_VALUE) % FixOrderEncoder.MAX_EPOCH_MS)
            .clOrdId(clOrdId)
            .symbol(symbol)
            .side(side)
            .quantity(quantity)
            .ordType(ordType)
            .timeInForce(timeInForce)
            .length(random.nextInt(3) == 0 ? 0 : random.nextBoolean() ? FixOrderEncoder.DEFAULT_LENGTH :
                random.nextInt(1200));

        if (FixOrder.ORD_TYPE_LIMIT == ordType)
        {
            final int exponent = -random.nextInt(FixOrderEncoder.MAX_PRICE_DECIMALS + 1);
            final long mantissa = 1 + (random.nextLong() & Long.MAX_VALUE) %
                (random.nextBoolean() ? 1_000_000 : 999_999_999_999_999_999L);
            encoder.price(mantissa, exponent);
            hasPrice = true;
            priceMantissa = mantissa;
            priceExponent = exponent;
        }
        else
        {
            if (random.nextBoolean())
            {
                encoder.noPrice();
            }
            else
            {
                encoder.price(0, -random.nextInt(3));
            }
            hasPrice = false;
            priceMantissa = 0;
            priceExponent = 0;
        }

        return encoder;
    }

    /**
     * @param order parsed from what {@link #next} set.
     */
    void assertParsed(final FixOrder order)
    {
        assertEquals(FixOrderError.NONE, order.error());
        assertEquals(clOrdId, FixMessages.clOrdId(order));
        assertEquals(symbol, FixMessages.symbol(order));
        assertEquals(side, order.side());
        assertEquals(quantity, order.quantity());
        assertEquals(ordType, order.ordType());
        assertEquals(hasPrice, order.hasPrice());
        assertEquals(priceMantissa, order.priceMantissa());
        assertEquals(priceExponent, order.priceExponent());
        assertEquals(timeInForce, order.timeInForce());
        assertEquals(4, order.fixMinorVersion());
    }

    /**
     * @return printable ASCII (including space) of a random length in [min, max].
     */
    String text(final int min, final int max)
    {
        final int length = min + random.nextInt(max - min + 1);
        final char[] chars = new char[length];
        for (int i = 0; i < length; i++)
        {
            chars[i] = (char)(' ' + random.nextInt('~' - ' ' + 1));
        }
        return new String(chars);
    }
}
