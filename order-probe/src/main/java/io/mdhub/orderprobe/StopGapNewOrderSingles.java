package io.mdhub.orderprobe;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * STOP-GAP, to be deleted: a minimal FIX 4.4 NewOrderSingle writer for the load tool until
 * {@code io.mdhub.common.order.fix.FixOrderEncoder} lands on this branch (swap it in behind {@link OrderGenerator}).
 * It writes one fixed order shape (buy 100 MDH.L limit 100.25 day, ClOrdID = MsgSeqNum = order id) with a correct
 * BodyLength and CheckSum, padded with a Text (58) field to the requested length (305 bytes, the GemCache probe's
 * orders) unless the fields alone are longer. Allocation-free; not thread safe.
 */
public final class StopGapNewOrderSingles implements OrderGenerator
{
    /** Default message length: the GemCache probe's 305-byte orders. */
    public static final int DEFAULT_LENGTH = 305;

    private static final byte SOH = 1;
    private static final String BEGIN_STRING = "8=FIX.4.4\u0001";

    private final int length;
    private final UnsafeBuffer body = new UnsafeBuffer(new byte[1024]);

    /**
     * @param length total message length to pad to (at least 200, at most 1000).
     */
    public StopGapNewOrderSingles(final int length)
    {
        if (length < 200 || length > 1000)
        {
            throw new IllegalArgumentException("order length must be in [200, 1000]: " + length);
        }
        this.length = length;
    }

    @Override
    public int maxLength()
    {
        return length + 64;
    }

    @Override
    public int generate(final long orderId, final long epochMs, final MutableDirectBuffer buffer, final int offset)
    {
        int bodyLength = writeFields(orderId, epochMs);
        // length = "8=FIX.4.4|" (10) + "9=" + 3 digits + SOH + body + "10=nnn|" (7): the body is length - 23 bytes,
        // which has 3 digits for every length allowed; the Text field "58=" + padding + SOH fills it up
        final int padding = length - 23 - bodyLength - 4;
        if (padding >= 1)
        {
            bodyLength += body.putStringWithoutLengthAscii(bodyLength, "58=");
            for (int i = 0; i < padding; i++)
            {
                body.putByte(bodyLength++, (byte)'x');
            }
            body.putByte(bodyLength++, SOH);
        }

        int position = offset;
        position += buffer.putStringWithoutLengthAscii(position, BEGIN_STRING);
        position += buffer.putStringWithoutLengthAscii(position, "9=");
        position += buffer.putNaturalIntAscii(position, bodyLength);
        buffer.putByte(position++, SOH);
        buffer.putBytes(position, body, 0, bodyLength);
        position += bodyLength;

        int checksum = 0;
        for (int i = offset; i < position; i++)
        {
            checksum += buffer.getByte(i);
        }
        checksum &= 0xFF;
        position += buffer.putStringWithoutLengthAscii(position, "10=");
        buffer.putByte(position++, (byte)('0' + checksum / 100));
        buffer.putByte(position++, (byte)('0' + (checksum / 10) % 10));
        buffer.putByte(position++, (byte)('0' + checksum % 10));
        buffer.putByte(position++, SOH);
        return position - offset;
    }

    private int writeFields(final long orderId, final long epochMs)
    {
        int p = 0;
        p += body.putStringWithoutLengthAscii(p, "35=D\u000134=");
        p += body.putNaturalLongAscii(p, orderId);
        p += body.putStringWithoutLengthAscii(p, "\u000149=MDHUB-PROBE\u000156=MDHUB\u000152=");
        p += putUtcTimestamp(p, epochMs);
        p += body.putStringWithoutLengthAscii(p, "\u000111=");
        p += body.putNaturalLongAscii(p, orderId);
        p += body.putStringWithoutLengthAscii(p, "\u000121=1\u000155=MDH.L\u000154=1\u000160=");
        p += putUtcTimestamp(p, epochMs);
        p += body.putStringWithoutLengthAscii(p, "\u000138=100\u000140=2\u000144=100.25\u000159=0\u0001");
        return p;
    }

    /**
     * UTC {@code yyyyMMdd-HH:mm:ss.SSS} from epoch milliseconds (days to civil date after H. Hinnant).
     */
    private int putUtcTimestamp(final int index, final long epochMs)
    {
        final long days = Math.floorDiv(epochMs, 86_400_000L);
        final long msOfDay = Math.floorMod(epochMs, 86_400_000L);
        final long shifted = days + 719_468;
        final long era = Math.floorDiv(shifted, 146_097);
        final long dayOfEra = shifted - era * 146_097;
        final long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        final long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final long monthIndex = (5 * dayOfYear + 2) / 153;
        final long day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        final long month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        final long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);

        int p = index;
        p = digits(p, year, 4);
        p = digits(p, month, 2);
        p = digits(p, day, 2);
        body.putByte(p++, (byte)'-');
        p = digits(p, msOfDay / 3_600_000L, 2);
        body.putByte(p++, (byte)':');
        p = digits(p, (msOfDay / 60_000L) % 60, 2);
        body.putByte(p++, (byte)':');
        p = digits(p, (msOfDay / 1000L) % 60, 2);
        body.putByte(p++, (byte)'.');
        p = digits(p, msOfDay % 1000L, 3);
        return p - index;
    }

    private int digits(final int index, final long value, final int width)
    {
        long rest = value;
        for (int i = width - 1; i >= 0; i--)
        {
            body.putByte(index + i, (byte)('0' + rest % 10));
            rest /= 10;
        }
        return index + width;
    }
}
