package io.mdhub.common.order.fix;

import java.nio.charset.StandardCharsets;

import org.agrona.MutableDirectBuffer;

import io.mdhub.common.codecs.order.Side;

/**
 * Writes a FIX 4.4 NewOrderSingle into a buffer without allocating: the load tools' order generator. Set the
 * session fields once, the order fields per order (fluent setters), then {@link #encode}. Fields, in order:
 * <pre>
 *   8=FIX.4.4 | 9=BodyLength | 35=D | 34=MsgSeqNum | 49=SenderCompID | 56=TargetCompID | 52=SendingTime |
 *   11=ClOrdID | 1=Account (if set) | 21=HandlInst | 55=Symbol | 54=Side | 60=TransactTime | 38=OrderQty |
 *   40=OrdType | 44=Price (if set) | 59=TimeInForce (if set) | 58=Text (padding, if a length is set) | 10=CheckSum
 * </pre>
 * Times are UTC {@code yyyyMMdd-HH:mm:ss.SSS} from epoch milliseconds. The Text field pads the message to
 * {@link #length(int)} bytes ({@value #DEFAULT_LENGTH} by default, the size of the GemCache probe's orders): exactly,
 * except where BodyLength gains a digit, where the message is one byte longer.
 * <p>
 * The encoder checks only what would break the FIX framing (SOH in a text, texts longer than
 * {@value #MAX_TEXT_LENGTH} bytes, a price it cannot write); it does not validate the order, so tests can make
 * invalid ones. Not thread-safe.
 */
public final class FixOrderEncoder
{
    /** Default total length of an encoded order: the GemCache probe's 305-byte orders. */
    public static final int DEFAULT_LENGTH = 305;
    /** Longest text field (CompIDs, Account, ClOrdID, Symbol). */
    public static final int MAX_TEXT_LENGTH = 64;
    /** Most decimals a price may have. */
    public static final int MAX_PRICE_DECIMALS = 18;
    /** Latest time that fits {@code yyyyMMdd-HH:mm:ss.SSS}: 9999-12-31T23:59:59.999Z. */
    public static final long MAX_EPOCH_MS = 253_402_300_799_999L;
    /** Longest message this encoder can write with padding off: every field at its longest. */
    public static final int MAX_UNPADDED_LENGTH = 512;

    private static final byte SOH = 1;
    private static final byte PAD = 'x';
    private static final byte HANDL_INST_AUTOMATED_PRIVATE = '1';
    private static final int TIMESTAMP_LENGTH = 21;
    private static final int PADDING_FIELD_OVERHEAD = 4;
    private static final int CHECKSUM_FIELD_LENGTH = 7;
    private static final int ASSUMED_BODY_LENGTH_DIGITS = 3;
    private static final long MS_PER_DAY = 86_400_000L;

    private static final byte[] BEGIN_STRING = ascii("8=FIX.4.4\u00019=");
    private static final byte[] MSG_TYPE_AND_SEQ_NUM = ascii("35=D\u000134=");
    private static final byte[] SENDER_COMP_ID = ascii("49=");
    private static final byte[] TARGET_COMP_ID = ascii("56=");
    private static final byte[] SENDING_TIME = ascii("52=");
    private static final byte[] CL_ORD_ID = ascii("11=");
    private static final byte[] ACCOUNT = ascii("1=");
    private static final byte[] HANDL_INST = ascii("21=");
    private static final byte[] SYMBOL = ascii("55=");
    private static final byte[] SIDE = ascii("54=");
    private static final byte[] TRANSACT_TIME = ascii("60=");
    private static final byte[] ORDER_QTY = ascii("38=");
    private static final byte[] ORD_TYPE = ascii("40=");
    private static final byte[] PRICE = ascii("44=");
    private static final byte[] TIME_IN_FORCE = ascii("59=");
    private static final byte[] TEXT = ascii("58=");
    private static final byte[] CHECKSUM = ascii("10=");

    private final byte[] senderCompId = new byte[MAX_TEXT_LENGTH];
    private final byte[] targetCompId = new byte[MAX_TEXT_LENGTH];
    private final byte[] account = new byte[MAX_TEXT_LENGTH];
    private final byte[] clOrdId = new byte[MAX_TEXT_LENGTH];
    private final byte[] symbol = new byte[MAX_TEXT_LENGTH];
    private int senderCompIdLength;
    private int targetCompIdLength;
    private int accountLength;
    private int clOrdIdLength;
    private int symbolLength;
    private int msgSeqNum = 1;
    private long sendingTimeMs;
    private long transactTimeMs;
    private Side side = Side.BUY;
    private long quantity = 100;
    private byte ordType = FixOrder.ORD_TYPE_LIMIT;
    private boolean hasPrice = true;
    private long priceMantissa = 10_000;
    private int priceExponent = -2;
    private byte timeInForce = '0';
    private int length = DEFAULT_LENGTH;

    /**
     * An encoder with defaults for every field: CLIENT to MDHUB, ClOrdID 1, buy 100 MDH.L limit 100.00 day,
     * padded to {@value #DEFAULT_LENGTH} bytes.
     */
    public FixOrderEncoder()
    {
        senderCompIdLength = copy("CLIENT", senderCompId);
        targetCompIdLength = copy("MDHUB", targetCompId);
        clOrdIdLength = copy("1", clOrdId);
        symbolLength = copy("MDH.L", symbol);
    }

    /**
     * @param value SenderCompID (49), 1 to {@value #MAX_TEXT_LENGTH} ASCII characters, no SOH.
     * @return this.
     */
    public FixOrderEncoder senderCompId(final CharSequence value)
    {
        senderCompIdLength = copyNonEmpty(value, senderCompId);
        return this;
    }

    /**
     * @param value TargetCompID (56), 1 to {@value #MAX_TEXT_LENGTH} ASCII characters, no SOH.
     * @return this.
     */
    public FixOrderEncoder targetCompId(final CharSequence value)
    {
        targetCompIdLength = copyNonEmpty(value, targetCompId);
        return this;
    }

    /**
     * @param value Account (1), up to {@value #MAX_TEXT_LENGTH} ASCII characters, no SOH; empty leaves it out.
     * @return this.
     */
    public FixOrderEncoder account(final CharSequence value)
    {
        accountLength = copy(value, account);
        return this;
    }

    /**
     * @param value MsgSeqNum (34), positive (an int, as FIX engines such as QuickFIX/J hold it).
     * @return this.
     */
    public FixOrderEncoder msgSeqNum(final int value)
    {
        if (value < 1)
        {
            throw new IllegalArgumentException("MsgSeqNum must be positive");
        }
        msgSeqNum = value;
        return this;
    }

    /**
     * @param epochMs SendingTime (52), 0 to {@link #MAX_EPOCH_MS}.
     * @return this.
     */
    public FixOrderEncoder sendingTimeMs(final long epochMs)
    {
        sendingTimeMs = checkTime(epochMs);
        return this;
    }

    /**
     * @param epochMs TransactTime (60), 0 to {@link #MAX_EPOCH_MS}.
     * @return this.
     */
    public FixOrderEncoder transactTimeMs(final long epochMs)
    {
        transactTimeMs = checkTime(epochMs);
        return this;
    }

    /**
     * @param value ClOrdID (11), 1 to {@value #MAX_TEXT_LENGTH} ASCII characters, no SOH.
     * @return this.
     */
    public FixOrderEncoder clOrdId(final CharSequence value)
    {
        clOrdIdLength = copyNonEmpty(value, clOrdId);
        return this;
    }

    /**
     * @param value ClOrdID (11) as its decimal digits, not negative; allocation-free for generators.
     * @return this.
     */
    public FixOrderEncoder clOrdId(final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("negative ClOrdID");
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10)
        {
            digits++;
        }
        long rest = value;
        for (int i = digits - 1; i >= 0; i--)
        {
            clOrdId[i] = (byte)('0' + rest % 10);
            rest /= 10;
        }
        clOrdIdLength = digits;
        return this;
    }

    /**
     * @param value Symbol (55), 1 to {@value #MAX_TEXT_LENGTH} ASCII characters, no SOH (the parser takes 16).
     * @return this.
     */
    public FixOrderEncoder symbol(final CharSequence value)
    {
        symbolLength = copyNonEmpty(value, symbol);
        return this;
    }

    /**
     * @param value Side (54).
     * @return this.
     */
    public FixOrderEncoder side(final Side value)
    {
        if (Side.NULL_VAL == value)
        {
            throw new IllegalArgumentException("no side");
        }
        side = value;
        return this;
    }

    /**
     * @param value OrderQty (38), written as an integer (any sign, so tests can make bad orders).
     * @return this.
     */
    public FixOrderEncoder quantity(final long value)
    {
        quantity = value;
        return this;
    }

    /**
     * @param value OrdType (40) as its ASCII character, e.g. {@link FixOrder#ORD_TYPE_LIMIT}; not SOH.
     * @return this.
     */
    public FixOrderEncoder ordType(final byte value)
    {
        ordType = checkChar(value);
        return this;
    }

    /**
     * @param mantissa of Price (44) = mantissa * 10^exponent; not {@link Long#MIN_VALUE}.
     * @param exponent -{@value #MAX_PRICE_DECIMALS} to 0: the number of decimals written, trailing zeros kept.
     * @return this.
     */
    public FixOrderEncoder price(final long mantissa, final int exponent)
    {
        if (exponent > 0 || exponent < -MAX_PRICE_DECIMALS || Long.MIN_VALUE == mantissa)
        {
            throw new IllegalArgumentException("price exponent must be -18..0 and mantissa > Long.MIN_VALUE");
        }
        hasPrice = true;
        priceMantissa = mantissa;
        priceExponent = exponent;
        return this;
    }

    /**
     * Leave Price (44) out, as for a market order.
     *
     * @return this.
     */
    public FixOrderEncoder noPrice()
    {
        hasPrice = false;
        return this;
    }

    /**
     * @param value TimeInForce (59) as its ASCII character, or {@link FixOrder#TIME_IN_FORCE_ABSENT} to leave it
     *              out; not SOH.
     * @return this.
     */
    public FixOrderEncoder timeInForce(final byte value)
    {
        timeInForce = FixOrder.TIME_IN_FORCE_ABSENT == value ? value : checkChar(value);
        return this;
    }

    /**
     * @param totalLength length to pad the message to with a Text (58) field, or 0 for no padding; a message that
     *                    is already as long (or too close to it for a Text field) is not padded.
     * @return this.
     */
    public FixOrderEncoder length(final int totalLength)
    {
        if (totalLength < 0 || totalLength > FixOrderParser.MAX_LENGTH)
        {
            throw new IllegalArgumentException("length must be 0.." + FixOrderParser.MAX_LENGTH);
        }
        length = totalLength;
        return this;
    }

    /**
     * Write the order at offset. The buffer needs room for max({@link #length(int)} + 1,
     * {@link #MAX_UNPADDED_LENGTH}) bytes from offset.
     *
     * @param buffer to write into.
     * @param offset of the first byte.
     * @return the length of the message.
     */
    public int encode(final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putBytes(offset, BEGIN_STRING);
        final int bodyStart = offset + BEGIN_STRING.length + ASSUMED_BODY_LENGTH_DIGITS + 1;
        int position = bodyStart;

        position = putBytes(buffer, position, MSG_TYPE_AND_SEQ_NUM);
        position += buffer.putNaturalIntAscii(position, msgSeqNum);
        position = putField(buffer, position, SENDER_COMP_ID, senderCompId, senderCompIdLength);
        position = putField(buffer, position, TARGET_COMP_ID, targetCompId, targetCompIdLength);
        position = putTimestampField(buffer, position, SENDING_TIME, sendingTimeMs);
        position = putField(buffer, position, CL_ORD_ID, clOrdId, clOrdIdLength);
        if (accountLength > 0)
        {
            position = putField(buffer, position, ACCOUNT, account, accountLength);
        }
        position = putCharField(buffer, position, HANDL_INST, HANDL_INST_AUTOMATED_PRIVATE);
        position = putField(buffer, position, SYMBOL, symbol, symbolLength);
        position = putCharField(buffer, position, SIDE, (byte)('0' + side.value()));
        position = putTimestampField(buffer, position, TRANSACT_TIME, transactTimeMs);
        position = putBytes(buffer, putBytes(buffer, position, SOH), ORDER_QTY);
        position += buffer.putLongAscii(position, quantity);
        position = putCharField(buffer, position, ORD_TYPE, ordType);
        if (hasPrice)
        {
            position = putBytes(buffer, putBytes(buffer, position, SOH), PRICE);
            position = putDecimal(buffer, position, priceMantissa, priceExponent);
        }
        if (FixOrder.TIME_IN_FORCE_ABSENT != timeInForce)
        {
            position = putCharField(buffer, position, TIME_IN_FORCE, timeInForce);
        }
        position = putBytes(buffer, position, SOH);

        final int unpaddedBody = position - bodyStart;
        final int padding = padding(unpaddedBody);
        if (padding > 0)
        {
            position = putBytes(buffer, position, TEXT);
            buffer.setMemory(position, padding, PAD);
            position = putBytes(buffer, position + padding, SOH);
        }

        final int bodyLength = position - bodyStart;
        final int shift = digits(bodyLength) - ASSUMED_BODY_LENGTH_DIGITS;
        if (0 != shift)
        {
            move(buffer, bodyStart, bodyLength, shift);
            position += shift;
        }
        final int bodyLengthAt = offset + BEGIN_STRING.length;
        buffer.putByte(bodyLengthAt + buffer.putNaturalIntAscii(bodyLengthAt, bodyLength), SOH);

        int sum = 0;
        for (int i = offset; i < position; i++)
        {
            sum += buffer.getByte(i) & 0xFF;
        }
        sum &= 0xFF;
        position = putBytes(buffer, position, CHECKSUM);
        buffer.putByte(position, (byte)('0' + sum / 100));
        buffer.putByte(position + 1, (byte)('0' + sum / 10 % 10));
        buffer.putByte(position + 2, (byte)('0' + sum % 10));
        buffer.putByte(position + 3, SOH);

        return position + 4 - offset;
    }

    /**
     * Write epoch milliseconds as UTC {@code yyyyMMdd-HH:mm:ss.SSS} (21 bytes), without allocating.
     *
     * @param buffer  to write into.
     * @param offset  of the first byte.
     * @param epochMs 0 to {@link #MAX_EPOCH_MS}.
     * @return the number of bytes written: 21.
     */
    public static int putUtcTimestamp(final MutableDirectBuffer buffer, final int offset, final long epochMs)
    {
        final long days = Math.floorDiv(epochMs, MS_PER_DAY);
        final long msOfDay = Math.floorMod(epochMs, MS_PER_DAY);

        // Days to civil date: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", civil_from_days.
        final long shifted = days + 719_468;
        final long era = Math.floorDiv(shifted, 146_097);
        final long dayOfEra = shifted - era * 146_097;
        final long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        final long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final long monthIndex = (5 * dayOfYear + 2) / 153;
        final long day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        final long month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        final long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);

        putDigits(buffer, offset, year, 4);
        putDigits(buffer, offset + 4, month, 2);
        putDigits(buffer, offset + 6, day, 2);
        buffer.putByte(offset + 8, (byte)'-');
        putDigits(buffer, offset + 9, msOfDay / 3_600_000, 2);
        buffer.putByte(offset + 11, (byte)':');
        putDigits(buffer, offset + 12, msOfDay / 60_000 % 60, 2);
        buffer.putByte(offset + 14, (byte)':');
        putDigits(buffer, offset + 15, msOfDay / 1000 % 60, 2);
        buffer.putByte(offset + 17, (byte)'.');
        putDigits(buffer, offset + 18, msOfDay % 1000, 3);

        return TIMESTAMP_LENGTH;
    }

    private int padding(final int unpaddedBody)
    {
        final int unpaddedLength =
            BEGIN_STRING.length + digits(unpaddedBody) + 1 + unpaddedBody + CHECKSUM_FIELD_LENGTH;
        if (length < unpaddedLength + PADDING_FIELD_OVERHEAD + 1)
        {
            return 0;
        }
        // total = BEGIN_STRING + digits(body) + SOH + body + checksum; body = unpadded + "58=" + padding + SOH.
        // At a BodyLength digit boundary the exact length may be impossible: then take one byte more.
        for (int target = length; target <= length + 1; target++)
        {
            for (int digits = 1; digits <= 9; digits++)
            {
                final int padding = target - BEGIN_STRING.length - digits - 1 - unpaddedBody -
                    PADDING_FIELD_OVERHEAD - CHECKSUM_FIELD_LENGTH;
                if (padding >= 1 && digits(unpaddedBody + PADDING_FIELD_OVERHEAD + padding) == digits)
                {
                    return padding;
                }
            }
        }
        return 0;
    }

    private static void move(final MutableDirectBuffer buffer, final int start, final int length, final int shift)
    {
        if (shift > 0)
        {
            for (int i = start + length - 1; i >= start; i--)
            {
                buffer.putByte(i + shift, buffer.getByte(i));
            }
        }
        else
        {
            for (int i = start; i < start + length; i++)
            {
                buffer.putByte(i + shift, buffer.getByte(i));
            }
        }
    }

    private static int putDecimal(
        final MutableDirectBuffer buffer, final int offset, final long mantissa, final int exponent)
    {
        if (0 == exponent)
        {
            return offset + buffer.putLongAscii(offset, mantissa);
        }
        int position = offset;
        long magnitude = mantissa;
        if (magnitude < 0)
        {
            buffer.putByte(position++, (byte)'-');
            magnitude = -magnitude;
        }
        final int decimals = -exponent;
        final int digits = Math.max(digits(magnitude), decimals + 1);
        final int pointAt = position + digits - decimals;
        long rest = magnitude;
        for (int i = position + digits; i >= position; i--)
        {
            if (i == pointAt)
            {
                buffer.putByte(i, (byte)'.');
            }
            else
            {
                buffer.putByte(i, (byte)('0' + rest % 10));
                rest /= 10;
            }
        }
        return position + digits + 1;
    }

    private static int putTimestampField(
        final MutableDirectBuffer buffer, final int offset, final byte[] tag, final long epochMs)
    {
        final int position = putBytes(buffer, putBytes(buffer, offset, SOH), tag);
        return position + putUtcTimestamp(buffer, position, epochMs);
    }

    private static int putField(
        final MutableDirectBuffer buffer, final int offset, final byte[] tag, final byte[] value, final int length)
    {
        final int position = putBytes(buffer, putBytes(buffer, offset, SOH), tag);
        buffer.putBytes(position, value, 0, length);
        return position + length;
    }

    private static int putCharField(
        final MutableDirectBuffer buffer, final int offset, final byte[] tag, final byte value)
    {
        final int position = putBytes(buffer, putBytes(buffer, offset, SOH), tag);
        buffer.putByte(position, value);
        return position + 1;
    }

    private static int putBytes(final MutableDirectBuffer buffer, final int offset, final byte[] bytes)
    {
        buffer.putBytes(offset, bytes);
        return offset + bytes.length;
    }

    private static int putBytes(final MutableDirectBuffer buffer, final int offset, final byte value)
    {
        buffer.putByte(offset, value);
        return offset + 1;
    }

    private static void putDigits(final MutableDirectBuffer buffer, final int offset, final long value, final int width)
    {
        long rest = value;
        for (int i = offset + width - 1; i >= offset; i--)
        {
            buffer.putByte(i, (byte)('0' + rest % 10));
            rest /= 10;
        }
    }

    private static int digits(final long value)
    {
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10)
        {
            digits++;
        }
        return digits;
    }

    private static long checkTime(final long epochMs)
    {
        if (epochMs < 0 || epochMs > MAX_EPOCH_MS)
        {
            throw new IllegalArgumentException("time must be 0.." + MAX_EPOCH_MS + " ms");
        }
        return epochMs;
    }

    private static byte checkChar(final byte value)
    {
        if (SOH == value)
        {
            throw new IllegalArgumentException("SOH is not a field value");
        }
        return value;
    }

    private static int copyNonEmpty(final CharSequence value, final byte[] destination)
    {
        if (null == value || 0 == value.length())
        {
            throw new IllegalArgumentException("empty value");
        }
        return copy(value, destination);
    }

    private static int copy(final CharSequence value, final byte[] destination)
    {
        final int length = null == value ? 0 : value.length();
        if (length > destination.length)
        {
            throw new IllegalArgumentException("longer than " + destination.length + " characters");
        }
        for (int i = 0; i < length; i++)
        {
            final char c = value.charAt(i);
            if (c > 0x7F || SOH == c)
            {
                throw new IllegalArgumentException("not ASCII, or SOH, at index " + i);
            }
            destination[i] = (byte)c;
        }
        return length;
    }

    private static byte[] ascii(final String value)
    {
        return value.getBytes(StandardCharsets.US_ASCII);
    }
}
