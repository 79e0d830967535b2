package io.mdhub.common.order.fix;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.codecs.order.Side;

/**
 * One NewOrderSingle as {@link FixOrderParser} read it: a reusable result, filled in place by every parse, that
 * keeps the message's buffer and points into it for the text fields (ClOrdID, Symbol) instead of copying them.
 * <p>
 * After a failed parse only {@link #error()}, {@link #rejectReason()} and {@link #rejectText()} are meaningful. After
 * a successful one every accessor is valid until the next parse or until the caller reuses the message's bytes.
 * Nothing here allocates; one instance per thread.
 */
public final class FixOrder
{
    /** OrdType (40) 1: market. */
    public static final byte ORD_TYPE_MARKET = '1';
    /** OrdType (40) 2: limit. */
    public static final byte ORD_TYPE_LIMIT = '2';
    /** {@link #timeInForce()} when the message has no TimeInForce (59). */
    public static final byte TIME_IN_FORCE_ABSENT = 0;

    private DirectBuffer buffer;
    private int offset;
    private int length;
    private FixOrderError error = FixOrderError.NONE;
    private int fixMinorVersion;
    private int clOrdIdOffset;
    private int clOrdIdLength;
    private int symbolOffset;
    private int symbolLength;
    private Side side = Side.NULL_VAL;
    private long quantity;
    private long priceMantissa;
    private int priceExponent;
    private boolean hasPrice;
    private byte ordType;
    private byte timeInForce;

    /**
     * @return the buffer of the last parsed message.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the last parsed message in {@link #buffer()}.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return length of the last parsed message.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return true if the last parse succeeded.
     */
    public boolean isValid()
    {
        return FixOrderError.NONE == error;
    }

    /**
     * @return why the last parse failed, or {@link FixOrderError#NONE}.
     */
    public FixOrderError error()
    {
        return error;
    }

    /**
     * @return the OrderReject category of {@link #error()}; {@link RejectReason#NULL_VAL} after a success.
     */
    public RejectReason rejectReason()
    {
        return error.rejectReason();
    }

    /**
     * @return a constant text describing {@link #error()}.
     */
    public String rejectText()
    {
        return error.text();
    }

    /**
     * @return the minor version of the BeginString: 2, 3 or 4 for FIX.4.2, FIX.4.3, FIX.4.4.
     */
    public int fixMinorVersion()
    {
        return fixMinorVersion;
    }

    /**
     * @return offset of the ClOrdID (11) value in {@link #buffer()}.
     */
    public int clOrdIdOffset()
    {
        return clOrdIdOffset;
    }

    /**
     * @return length of the ClOrdID (11) value: 1 to {@link FixOrderParser#MAX_CL_ORD_ID_LENGTH} printable ASCII.
     */
    public int clOrdIdLength()
    {
        return clOrdIdLength;
    }

    /**
     * @return offset of the Symbol (55) value in {@link #buffer()}.
     */
    public int symbolOffset()
    {
        return symbolOffset;
    }

    /**
     * @return length of the Symbol (55) value: 1 to {@link FixOrderParser#MAX_SYMBOL_LENGTH} printable ASCII.
     */
    public int symbolLength()
    {
        return symbolLength;
    }

    /**
     * @return Side (54).
     */
    public Side side()
    {
        return side;
    }

    /**
     * @return OrderQty (38), positive.
     */
    public long quantity()
    {
        return quantity;
    }

    /**
     * @return Price (44) as price = mantissa * 10^exponent, digits as sent (123.40 is 12340, -2); 0 for market.
     */
    public long priceMantissa()
    {
        return priceMantissa;
    }

    /**
     * @return decimal exponent of the price, -18 to 0; 0 for market.
     */
    public int priceExponent()
    {
        return priceExponent;
    }

    /**
     * @return true for a limit order (which always has a positive price); false for market.
     */
    public boolean hasPrice()
    {
        return hasPrice;
    }

    /**
     * @return OrdType (40) as its ASCII character: {@link #ORD_TYPE_MARKET} or {@link #ORD_TYPE_LIMIT}.
     */
    public byte ordType()
    {
        return ordType;
    }

    /**
     * @return TimeInForce (59) as its ASCII character '0' to '7', or {@link #TIME_IN_FORCE_ABSENT}.
     */
    public byte timeInForce()
    {
        return timeInForce;
    }

    /**
     * Write this order into an OrderRecord: side, quantity, price, ordType, timeInForce and symbol (NUL padded to
     * {@link OrderRecordEncoder#symbolLength()}), then the variable-length clOrdId and fix fields, in schema order.
     * Partition, epoch, sequence, clientId, orderId and storedTimeMs are the caller's (fixed fields, any order,
     * before or after). Call once per record, right after {@code wrap}/{@code wrapAndApplyHeader}: the variable
     * fields go at the encoder's limit. Allocates nothing.
     *
     * @param encoder wrapped over the record's buffer.
     * @return the encoder, whose {@code encodedLength()} now covers the whole record.
     * @throws IllegalStateException if the last parse failed.
     */
    public OrderRecordEncoder encodeInto(final OrderRecordEncoder encoder)
    {
        if (FixOrderError.NONE != error || null == buffer)
        {
            throw new IllegalStateException("no valid order to encode");
        }

        encoder
            .side(side)
            .quantity(quantity)
            .priceMantissa(priceMantissa)
            .priceExponent((byte)priceExponent)
            .ordType((short)ordType)
            .timeInForce((short)timeInForce);

        final MutableDirectBuffer out = encoder.buffer();
        final int symbolAt = encoder.offset() + OrderRecordEncoder.symbolEncodingOffset();
        out.putBytes(symbolAt, buffer, symbolOffset, symbolLength);
        out.setMemory(symbolAt + symbolLength, OrderRecordEncoder.symbolLength() - symbolLength, (byte)0);

        encoder.putClOrdId(buffer, clOrdIdOffset, clOrdIdLength);
        encoder.putFix(buffer, offset, length);

        return encoder;
    }

    void reset(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        error = FixOrderError.NONE;
        fixMinorVersion = 0;
        clOrdIdOffset = 0;
        clOrdIdLength = 0;
        symbolOffset = 0;
        symbolLength = 0;
        side = Side.NULL_VAL;
        quantity = 0;
        priceMantissa = 0;
        priceExponent = 0;
        hasPrice = false;
        ordType = 0;
        timeInForce = TIME_IN_FORCE_ABSENT;
    }

    boolean fail(final FixOrderError error)
    {
        this.error = error;
        return false;
    }

    void fixMinorVersion(final int fixMinorVersion)
    {
        this.fixMinorVersion = fixMinorVersion;
    }

    void clOrdId(final int offset, final int length)
    {
        clOrdIdOffset = offset;
        clOrdIdLength = length;
    }

    void symbol(final int offset, final int length)
    {
        symbolOffset = offset;
        symbolLength = length;
    }

    void side(final Side side)
    {
        this.side = side;
    }

    void quantity(final long quantity)
    {
        this.quantity = quantity;
    }

    void price(final long mantissa, final int exponent, final boolean hasPrice)
    {
        priceMantissa = mantissa;
        priceExponent = exponent;
        this.hasPrice = hasPrice;
    }

    void ordType(final byte ordType)
    {
        this.ordType = ordType;
    }

    void timeInForce(final byte timeInForce)
    {
        this.timeInForce = timeInForce;
    }
}
