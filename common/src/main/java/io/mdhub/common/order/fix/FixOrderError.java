package io.mdhub.common.order.fix;

import io.mdhub.common.codecs.order.RejectReason;

/**
 * Why {@link FixOrderParser} refused an order: a constant text for the client's OrderReject and the log, and the
 * {@link RejectReason} category it maps to. The parser returns these instead of throwing; nothing is built per
 * message.
 * <p>
 * Categories: {@link RejectReason#MALFORMED_FIX} when the bytes are not one well-formed FIX tag=value message
 * (framing, BodyLength, CheckSum, field syntax, duplicate key tags); {@link RejectReason#INVALID_ORDER} when the
 * message is well formed but is not an acceptable NewOrderSingle; {@link RejectReason#OVERSIZE} when it is longer
 * than the parser's maximum. A message with both kinds of fault is reported as malformed.
 */
public enum FixOrderError
{
    /** The order was parsed and passed validation. */
    NONE(RejectReason.NULL_VAL, "no error"),

    /** The region [offset, offset + length) is not inside the buffer. */
    REGION_OUTSIDE_BUFFER(RejectReason.MALFORMED_FIX, "message region lies outside the buffer"),
    /** The message does not start with a supported BeginString. */
    BEGIN_STRING(RejectReason.MALFORMED_FIX, "message does not start with 8=FIX.4.2, 8=FIX.4.3 or 8=FIX.4.4"),
    /** The second field is not a well-formed BodyLength. */
    BODY_LENGTH_FIELD(RejectReason.MALFORMED_FIX, "second field is not 9=BodyLength with 1 to 9 digits"),
    /** BodyLength does not agree with where the CheckSum field is and where the message ends. */
    BODY_LENGTH_MISMATCH(RejectReason.MALFORMED_FIX, "BodyLength does not match the message (truncated or wrong)"),
    /** The third field is not MsgType. */
    MSG_TYPE_NOT_THIRD(RejectReason.MALFORMED_FIX, "third field is not 35=MsgType"),
    /** A field whose tag is empty. */
    EMPTY_TAG(RejectReason.MALFORMED_FIX, "field with an empty tag"),
    /** A tag that is not digits followed by '='. */
    BAD_TAG(RejectReason.MALFORMED_FIX, "tag is not 1 to 9 digits without a leading zero, followed by '='"),
    /** A field whose value is empty. */
    EMPTY_VALUE(RejectReason.MALFORMED_FIX, "field with an empty value"),
    /** One of the key tags (8, 9, 35, 10, 11, 55, 54, 38, 40, 44, 59) appears twice. */
    DUPLICATE_TAG(RejectReason.MALFORMED_FIX, "a key tag appears more than once"),
    /** A CheckSum field before the end of the message. */
    CHECKSUM_NOT_LAST(RejectReason.MALFORMED_FIX, "CheckSum (10) is not the last field"),
    /** The last field is not 10=nnn with exactly three digits. */
    BAD_CHECKSUM_FIELD(RejectReason.MALFORMED_FIX, "last field is not 10=nnn with three digits"),
    /** The CheckSum value differs from the sum of the bytes modulo 256. */
    CHECKSUM_MISMATCH(RejectReason.MALFORMED_FIX, "CheckSum does not match the message bytes"),

    /** Longer than the parser's maximum. */
    OVERSIZE(RejectReason.OVERSIZE, "message longer than the maximum order size"),

    /** MsgType is not D. */
    NOT_NEW_ORDER_SINGLE(RejectReason.INVALID_ORDER, "MsgType (35) is not D (NewOrderSingle)"),
    /** Tag 11 is missing. */
    MISSING_CL_ORD_ID(RejectReason.INVALID_ORDER, "ClOrdID (11) is missing"),
    /** Tag 11 is too long or not printable ASCII. */
    BAD_CL_ORD_ID(RejectReason.INVALID_ORDER, "ClOrdID (11) is longer than 64 or not printable ASCII"),
    /** Tag 55 is missing. */
    MISSING_SYMBOL(RejectReason.INVALID_ORDER, "Symbol (55) is missing"),
    /** Tag 55 is too long or not printable ASCII. */
    BAD_SYMBOL(RejectReason.INVALID_ORDER, "Symbol (55) is longer than 16 or not printable ASCII"),
    /** Tag 54 is missing. */
    MISSING_SIDE(RejectReason.INVALID_ORDER, "Side (54) is missing"),
    /** Tag 54 is not 1, 2 or 5. */
    BAD_SIDE(RejectReason.INVALID_ORDER, "Side (54) is not 1 (buy), 2 (sell) or 5 (sell short)"),
    /** Tag 38 is missing. */
    MISSING_QUANTITY(RejectReason.INVALID_ORDER, "OrderQty (38) is missing"),
    /** Tag 38 is not a positive whole number. */
    BAD_QUANTITY(RejectReason.INVALID_ORDER, "OrderQty (38) is not a positive whole number of at most 18 digits"),
    /** Tag 40 is missing. */
    MISSING_ORD_TYPE(RejectReason.INVALID_ORDER, "OrdType (40) is missing"),
    /** Tag 40 is not 1 or 2. */
    BAD_ORD_TYPE(RejectReason.INVALID_ORDER, "OrdType (40) is not 1 (market) or 2 (limit)"),
    /** Tag 44 is not a decimal number. */
    BAD_PRICE(RejectReason.INVALID_ORDER, "Price (44) is not a decimal of at most 18 digits and 18 decimals"),
    /** A limit order without tag 44. */
    MISSING_PRICE(RejectReason.INVALID_ORDER, "limit order without Price (44)"),
    /** A limit order whose price is zero or negative. */
    NON_POSITIVE_PRICE(RejectReason.INVALID_ORDER, "limit order Price (44) is not positive"),
    /** A market order with a non-zero price. */
    MARKET_WITH_PRICE(RejectReason.INVALID_ORDER, "market order with a non-zero Price (44)"),
    /** Tag 59 is not one of the FIX 4.4 values. */
    BAD_TIME_IN_FORCE(RejectReason.INVALID_ORDER, "TimeInForce (59) is not 0 to 7");

    private final RejectReason rejectReason;
    private final String text;

    FixOrderError(final RejectReason rejectReason, final String text)
    {
        this.rejectReason = rejectReason;
        this.text = text;
    }

    /**
     * @return the category for the OrderReject message; {@link RejectReason#NULL_VAL} for {@link #NONE}.
     */
    public RejectReason rejectReason()
    {
        return rejectReason;
    }

    /**
     * @return a constant US-ASCII text for the OrderReject message and logs (no allocation).
     */
    public String text()
    {
        return text;
    }
}
