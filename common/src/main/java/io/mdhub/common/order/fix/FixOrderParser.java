package io.mdhub.common.order.fix;

import org.agrona.DirectBuffer;

import io.mdhub.common.codecs.order.RawEncodingEncoder;
import io.mdhub.common.codecs.order.Side;

/**
 * Reads one FIX 4.2/4.3/4.4 NewOrderSingle (tag=value, SOH separated) from an Agrona buffer into a {@link FixOrder},
 * in one pass over the bytes, allocating nothing. It never throws on bad input and never reads outside
 * [offset, offset + length): {@link #parse} returns false and the order's {@link FixOrder#error()} says why.
 * <p>
 * Framing (any fault is {@code MALFORMED_FIX}):
 * <ul>
 *   <li>the message starts with {@code 8=FIX.4.2}, {@code 8=FIX.4.3} or {@code 8=FIX.4.4}, then {@code 9=} BodyLength
 *       (digits), then {@code 35=} MsgType, as FIX requires;</li>
 *   <li>BodyLength counts the bytes from after its own SOH up to and including the SOH before {@code 10=}, and the
 *       message ends right after the CheckSum field: the region must be exactly one message;</li>
 *   <li>the last field is {@code 10=nnn} (three digits) and equals the sum of all bytes before it modulo 256; a tag
 *       10 anywhere else is refused;</li>
 *   <li>every field is a tag of 1 to 9 digits without a leading zero, '=', a non-empty value and SOH; values may
 *       hold any byte but SOH (so length-prefixed data fields such as EncodedText must not contain SOH);</li>
 *   <li>no key tag (8, 9, 35, 10, 11, 55, 54, 38, 40, 44, 59) appears twice; other tags may repeat, as repeating
 *       groups need.</li>
 * </ul>
 * Order validation (any fault is {@code INVALID_ORDER}; checked only when the framing is sound):
 * <ul>
 *   <li>MsgType is D; ClOrdID (11) 1 to {@value #MAX_CL_ORD_ID_LENGTH} printable ASCII; Symbol (55) 1 to
 *       {@value #MAX_SYMBOL_LENGTH} printable ASCII; Side (54) 1, 2 or 5;</li>
 *   <li>OrderQty (38) a positive whole number of at most 18 digits; FIX sends quantities as floats, so a decimal
 *       point followed by zeros only ({@code 100.0}, {@code 100.}) is accepted, any other fraction is not;</li>
 *   <li>OrdType (40) 1 (market) or 2 (limit); a limit order needs a positive Price (44); a market order may carry
 *       a Price only if it is zero (some clients always send the field), and is stored with price 0;</li>
 *   <li>Price is parsed without floating point into mantissa and exponent exactly as written ({@code 123.45} is
 *       12345, -2; {@code 123.450} is 123450, -3), at most 18 significant digits and 18 decimals;</li>
 *   <li>TimeInForce (59), optional, one of the FIX 4.4 values 0 to 7 (GTD's expiry fields are not checked).</li>
 * </ul>
 * Other fields (header, Account, TransactTime, ...) are checked only for syntax. One parser per thread.
 */
public final class FixOrderParser
{
    /** Largest message an OrderRecord can store (the rawEncoding maximum), the default and upper limit. */
    public static final int MAX_LENGTH = RawEncodingEncoder.lengthMaxValue();
    /** Longest Symbol (55) accepted: the OrderRecord symbol width. */
    public static final int MAX_SYMBOL_LENGTH = 16;
    /** Longest ClOrdID (11) accepted. */
    public static final int MAX_CL_ORD_ID_LENGTH = 64;

    private static final byte SOH = 1;
    private static final byte[] BEGIN_STRING_PREFIX = {'8', '=', 'F', 'I', 'X', '.', '4', '.'};
    private static final int BEGIN_STRING_LENGTH = BEGIN_STRING_PREFIX.length + 2;
    private static final int CHECKSUM_FIELD_LENGTH = 7;
    private static final int MAX_TAG_DIGITS = 9;
    private static final int MAX_DECIMAL_DIGITS = 18;
    private static final long[] POWERS_OF_TEN = new long[MAX_DECIMAL_DIGITS + 1];

    private static final int TAG_BEGIN_STRING = 8;
    private static final int TAG_BODY_LENGTH = 9;
    private static final int TAG_CHECKSUM = 10;
    private static final int TAG_CL_ORD_ID = 11;
    private static final int TAG_MSG_TYPE = 35;
    private static final int TAG_ORDER_QTY = 38;
    private static final int TAG_ORD_TYPE = 40;
    private static final int TAG_PRICE = 44;
    private static final int TAG_SIDE = 54;
    private static final int TAG_SYMBOL = 55;
    private static final int TAG_TIME_IN_FORCE = 59;

    private static final int SEEN_CL_ORD_ID = 1;
    private static final int SEEN_SYMBOL = 1 << 1;
    private static final int SEEN_SIDE = 1 << 2;
    private static final int SEEN_ORDER_QTY = 1 << 3;
    private static final int SEEN_ORD_TYPE = 1 << 4;
    private static final int SEEN_PRICE = 1 << 5;
    private static final int SEEN_TIME_IN_FORCE = 1 << 6;

    static
    {
        long power = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++)
        {
            POWERS_OF_TEN[i] = power;
            power *= 10;
        }
    }

    private final int maxLength;

    private DirectBuffer buffer;
    private int sum;
    private FixOrderError scanError;
    private FixOrderError contentError;
    private int seen;

    private int tag;
    private int valueOffset;
    private int valueLength;
    private byte valueFirstByte;
    private boolean valuePrintable;

    private boolean decimalValid;
    private boolean decimalNegative;
    private long decimalMantissa;
    private int decimalFractionDigits;

    private boolean priceNegative;
    private long priceMantissa;
    private int priceExponent;

    /**
     * A parser for messages of up to {@link #MAX_LENGTH} bytes.
     */
    public FixOrderParser()
    {
        this(MAX_LENGTH);
    }

    /**
     * @param maxLength longest message accepted, 1 to {@link #MAX_LENGTH}; longer ones fail with
     *                  {@link FixOrderError#OVERSIZE}.
     */
    public FixOrderParser(final int maxLength)
    {
        if (maxLength < 1 || maxLength > MAX_LENGTH)
        {
            throw new IllegalArgumentException("maxLength must be 1.." + MAX_LENGTH + ": " + maxLength);
        }
        this.maxLength = maxLength;
    }

    /**
     * @return the longest message this parser accepts.
     */
    public int maxLength()
    {
        return maxLength;
    }

    /**
     * Parse and validate the message at [offset, offset + length) of buffer into order.
     *
     * @param buffer holding the message.
     * @param offset of its first byte ('8' of BeginString).
     * @param length of the message: exactly one message, through the SOH that ends the CheckSum field.
     * @param order  filled in; see {@link FixOrder} for what is valid after a failure.
     * @return true if the message is a well-formed, valid NewOrderSingle; otherwise {@link FixOrder#error()} says
     * why.
     */
    public boolean parse(final DirectBuffer buffer, final int offset, final int length, final FixOrder order)
    {
        order.reset(buffer, offset, length);
        if (null == buffer || offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            return order.fail(FixOrderError.REGION_OUTSIDE_BUFFER);
        }
        if (length > maxLength)
        {
            return order.fail(FixOrderError.OVERSIZE);
        }

        this.buffer = buffer;
        sum = 0;
        scanError = FixOrderError.NONE;
        contentError = FixOrderError.NONE;
        seen = 0;
        priceNegative = false;
        priceMantissa = 0;
        priceExponent = 0;

        final boolean ok = parseMessage(offset, offset + length, order);
        this.buffer = null;

        return ok && validate(order);
    }

    private boolean parseMessage(final int offset, final int end, final FixOrder order)
    {
        if (end - offset < BEGIN_STRING_LENGTH)
        {
            return order.fail(FixOrderError.BEGIN_STRING);
        }
        for (int i = 0; i < BEGIN_STRING_PREFIX.length; i++)
        {
            if (BEGIN_STRING_PREFIX[i] != buffer.getByte(offset + i))
            {
                return order.fail(FixOrderError.BEGIN_STRING);
            }
            sum += BEGIN_STRING_PREFIX[i];
        }
        final byte minor = buffer.getByte(offset + BEGIN_STRING_PREFIX.length);
        if (minor < '2' || minor > '4' || SOH != buffer.getByte(offset + BEGIN_STRING_LENGTH - 1))
        {
            return order.fail(FixOrderError.BEGIN_STRING);
        }
        sum += minor + SOH;
        order.fixMinorVersion(minor - '0');

        final int bodyStart = scanBodyLength(offset + BEGIN_STRING_LENGTH, end);
        if (bodyStart < 0)
        {
            return order.fail(scanError);
        }

        final int checksumStart = end - CHECKSUM_FIELD_LENGTH;
        if (bodyStart == checksumStart)
        {
            return order.fail(FixOrderError.MSG_TYPE_NOT_THIRD);
        }
        int position = scanTag(bodyStart, checksumStart);
        if (position < 0)
        {
            return order.fail(scanError);
        }
        if (TAG_MSG_TYPE != tag)
        {
            return order.fail(FixOrderError.MSG_TYPE_NOT_THIRD);
        }
        position = scanValue(position, checksumStart, false);
        if (position < 0)
        {
            return order.fail(scanError);
        }
        if (1 != valueLength || 'D' != valueFirstByte)
        {
            contentError = FixOrderError.NOT_NEW_ORDER_SINGLE;
        }

        while (position < checksumStart)
        {
            position = scanBodyField(position, checksumStart, order);
            if (position < 0)
            {
                return order.fail(scanError);
            }
        }

        return parseChecksum(checksumStart, order);
    }

    /**
     * Reads "9=digits SOH" and checks that BodyLength puts the CheckSum field exactly at the end of the region.
     *
     * @return the offset of the body (the byte after the SOH), or -1 with {@link #scanError} set.
     */
    private int scanBodyLength(final int start, final int end)
    {
        if (end - start < 4 || '9' != buffer.getByte(start) || '=' != buffer.getByte(start + 1))
        {
            return fail(FixOrderError.BODY_LENGTH_FIELD);
        }
        sum += '9' + '=';
        int position = start + 2;
        int bodyLength = 0;
        int digits = 0;
        while (true)
        {
            if (position >= end)
            {
                return fail(FixOrderError.BODY_LENGTH_FIELD);
            }
            final byte b = buffer.getByte(position++);
            sum += b & 0xFF;
            if (SOH == b)
            {
                break;
            }
            if (b < '0' || b > '9' || ++digits > MAX_TAG_DIGITS)
            {
                return fail(FixOrderError.BODY_LENGTH_FIELD);
            }
            bodyLength = bodyLength * 10 + (b - '0');
        }
        if (0 == digits)
        {
            return fail(FixOrderError.BODY_LENGTH_FIELD);
        }
        if ((long)position + bodyLength + CHECKSUM_FIELD_LENGTH != end)
        {
            return fail(FixOrderError.BODY_LENGTH_MISMATCH);
        }

        return position;
    }

    /**
     * Reads one field of the body after MsgType and applies it to the order if it is one of the key tags.
     *
     * @return the offset after the field's SOH, or -1 with {@link #scanError} set.
     */
    private int scanBodyField(final int start, final int limit, final FixOrder order)
    {
        final int valueStart = scanTag(start, limit);
        if (valueStart < 0)
        {
            return -1;
        }

        final int fieldTag = tag;
        final int bit;
        switch (fieldTag)
        {
            case TAG_BEGIN_STRING:
            case TAG_BODY_LENGTH:
            case TAG_MSG_TYPE:
                return fail(FixOrderError.DUPLICATE_TAG);
            case TAG_CHECKSUM:
                return fail(FixOrderError.CHECKSUM_NOT_LAST);
            case TAG_CL_ORD_ID:
                bit = SEEN_CL_ORD_ID;
                break;
            case TAG_SYMBOL:
                bit = SEEN_SYMBOL;
                break;
            case TAG_SIDE:
                bit = SEEN_SIDE;
                break;
            case TAG_ORDER_QTY:
                bit = SEEN_ORDER_QTY;
                break;
            case TAG_ORD_TYPE:
                bit = SEEN_ORD_TYPE;
                break;
            case TAG_PRICE:
                bit = SEEN_PRICE;
                break;
            case TAG_TIME_IN_FORCE:
                bit = SEEN_TIME_IN_FORCE;
                break;
            default:
                bit = 0;
                break;
        }

        final int next = scanValue(valueStart, limit, TAG_ORDER_QTY == fieldTag || TAG_PRICE == fieldTag);
        if (next < 0 || 0 == bit)
        {
            return next;
        }
        if (0 != (seen & bit))
        {
            return fail(FixOrderError.DUPLICATE_TAG);
        }
        seen |= bit;
        applyField(fieldTag, order);

        return next;
    }

    /**
     * Reads "digits=" into {@link #tag}.
     *
     * @return the offset of the value (after '='), or -1 with {@link #scanError} set.
     */
    private int scanTag(final int start, final int limit)
    {
        int position = start;
        int value = 0;
        int digits = 0;
        while (true)
        {
            if (position >= limit)
            {
                return fail(FixOrderError.BODY_LENGTH_MISMATCH);
            }
            final byte b = buffer.getByte(position++);
            sum += b & 0xFF;
            if (b >= '0' && b <= '9')
            {
                if ((0 == digits && '0' == b) || ++digits > MAX_TAG_DIGITS)
                {
                    return fail(FixOrderError.BAD_TAG);
                }
                value = value * 10 + (b - '0');
            }
            else if ('=' == b)
            {
                if (0 == digits)
                {
                    return fail(FixOrderError.EMPTY_TAG);
                }
                tag = value;
                return position;
            }
            else
            {
                return fail(FixOrderError.BAD_TAG);
            }
        }
    }

    /**
     * Reads a value up to and including its SOH, noting its first byte, whether it is printable ASCII and, if
     * decimal, its value as a FIX float.
     *
     * @return the offset after the SOH, or -1 with {@link #scanError} set.
     */
    private int scanValue(final int start, final int limit, final boolean decimal)
    {
        int position = start;
        boolean printable = true;
        decimalValid = true;
        decimalNegative = false;
        decimalMantissa = 0;
        decimalFractionDigits = 0;
        int significantDigits = 0;
        boolean anyDigit = false;
        boolean seenPoint = false;
        while (true)
        {
            if (position >= limit)
            {
                return fail(FixOrderError.BODY_LENGTH_MISMATCH);
            }
            final byte b = buffer.getByte(position);
            sum += b & 0xFF;
            if (SOH == b)
            {
                break;
            }
            if (b < ' ' || b > '~')
            {
                printable = false;
            }
            if (decimal)
            {
                if (b >= '0' && b <= '9')
                {
                    anyDigit = true;
                    if (0 != decimalMantissa || '0' != b)
                    {
                        significantDigits++;
                    }
                    if (seenPoint)
                    {
                        decimalFractionDigits++;
                    }
                    if (significantDigits > MAX_DECIMAL_DIGITS || decimalFractionDigits > MAX_DECIMAL_DIGITS)
                    {
                        decimalValid = false;
                    }
                    else
                    {
                        decimalMantissa = decimalMantissa * 10 + (b - '0');
                    }
                }
                else if ('.' == b && !seenPoint)
                {
                    seenPoint = true;
                }
                else if ('-' == b && position == start)
                {
                    decimalNegative = true;
                }
                else
                {
                    decimalValid = false;
                }
            }
            position++;
        }

        if (position == start)
        {
            return fail(FixOrderError.EMPTY_VALUE);
        }
        valueOffset = start;
        valueLength = position - start;
        valueFirstByte = buffer.getByte(start);
        valuePrintable = printable;
        decimalValid &= anyDigit;

        return position + 1;
    }

    private void applyField(final int fieldTag, final FixOrder order)
    {
        switch (fieldTag)
        {
            case TAG_CL_ORD_ID:
                if (valueLength > MAX_CL_ORD_ID_LENGTH || !valuePrintable)
                {
                    content(FixOrderError.BAD_CL_ORD_ID);
                }
                order.clOrdId(valueOffset, valueLength);
                break;
            case TAG_SYMBOL:
                if (valueLength > MAX_SYMBOL_LENGTH || !valuePrintable)
                {
                    content(FixOrderError.BAD_SYMBOL);
                }
                order.symbol(valueOffset, valueLength);
                break;
            case TAG_SIDE:
                applySide(order);
                break;
            case TAG_ORDER_QTY:
                applyQuantity(order);
                break;
            case TAG_ORD_TYPE:
                if (1 != valueLength || (FixOrder.ORD_TYPE_MARKET != valueFirstByte &&
                    FixOrder.ORD_TYPE_LIMIT != valueFirstByte))
                {
                    content(FixOrderError.BAD_ORD_TYPE);
                }
                order.ordType(valueFirstByte);
                break;
            case TAG_PRICE:
                if (!decimalValid)
                {
                    content(FixOrderError.BAD_PRICE);
                }
                priceNegative = decimalNegative;
                priceMantissa = decimalMantissa;
                priceExponent = -decimalFractionDigits;
                break;
            case TAG_TIME_IN_FORCE:
                if (1 != valueLength || valueFirstByte < '0' || valueFirstByte > '7')
                {
                    content(FixOrderError.BAD_TIME_IN_FORCE);
                }
                order.timeInForce(valueFirstByte);
                break;
            default:
                break;
        }
    }

    private void applySide(final FixOrder order)
    {
        Side side = Side.NULL_VAL;
        if (1 == valueLength)
        {
            switch (valueFirstByte)
            {
                case '1':
                    side = Side.BUY;
                    break;
                case '2':
                    side = Side.SELL;
                    break;
                case '5':
                    side = Side.SELL_SHORT;
                    break;
                default:
                    break;
            }
        }
        if (Side.NULL_VAL == side)
        {
            content(FixOrderError.BAD_SIDE);
        }
        order.side(side);
    }

    private void applyQuantity(final FixOrder order)
    {
        final long scale = POWERS_OF_TEN[Math.min(decimalFractionDigits, MAX_DECIMAL_DIGITS)];
        if (!decimalValid || decimalNegative || 0 == decimalMantissa || 0 != decimalMantissa % scale)
        {
            content(FixOrderError.BAD_QUANTITY);
        }
        else
        {
            order.quantity(decimalMantissa / scale);
        }
    }

    private boolean parseChecksum(final int start, final FixOrder order)
    {
        if ('1' != buffer.getByte(start) || '0' != buffer.getByte(start + 1) || '=' != buffer.getByte(start + 2) ||
            SOH != buffer.getByte(start + CHECKSUM_FIELD_LENGTH - 1))
        {
            return order.fail(FixOrderError.BAD_CHECKSUM_FIELD);
        }
        int checksum = 0;
        for (int i = start + 3; i < start + CHECKSUM_FIELD_LENGTH - 1; i++)
        {
            final byte b = buffer.getByte(i);
            if (b < '0' || b > '9')
            {
                return order.fail(FixOrderError.BAD_CHECKSUM_FIELD);
            }
            checksum = checksum * 10 + (b - '0');
        }
        if ((sum & 0xFF) != checksum)
        {
            return order.fail(FixOrderError.CHECKSUM_MISMATCH);
        }

        return true;
    }

    private boolean validate(final FixOrder order)
    {
        if (FixOrderError.NONE != contentError)
        {
            return order.fail(contentError);
        }
        if (0 == (seen & SEEN_CL_ORD_ID))
        {
            return order.fail(FixOrderError.MISSING_CL_ORD_ID);
        }
        if (0 == (seen & SEEN_SYMBOL))
        {
            return order.fail(FixOrderError.MISSING_SYMBOL);
        }
        if (0 == (seen & SEEN_SIDE))
        {
            return order.fail(FixOrderError.MISSING_SIDE);
        }
        if (0 == (seen & SEEN_ORDER_QTY))
        {
            return order.fail(FixOrderError.MISSING_QUANTITY);
        }
        if (0 == (seen & SEEN_ORD_TYPE))
        {
            return order.fail(FixOrderError.MISSING_ORD_TYPE);
        }

        final boolean pricePresent = 0 != (seen & SEEN_PRICE);
        if (FixOrder.ORD_TYPE_LIMIT == order.ordType())
        {
            if (!pricePresent)
            {
                return order.fail(FixOrderError.MISSING_PRICE);
            }
            if (priceNegative || 0 == priceMantissa)
            {
                return order.fail(FixOrderError.NON_POSITIVE_PRICE);
            }
            order.price(priceMantissa, priceExponent, true);
        }
        else if (pricePresent && 0 != priceMantissa)
        {
            return order.fail(FixOrderError.MARKET_WITH_PRICE);
        }

        return true;
    }

    private void content(final FixOrderError error)
    {
        if (FixOrderError.NONE == contentError)
        {
            contentError = error;
        }
    }

    private int fail(final FixOrderError error)
    {
        scanError = error;
        return -1;
    }
}
