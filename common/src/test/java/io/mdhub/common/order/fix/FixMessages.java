package io.mdhub.common.order.fix;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Builds FIX test messages independently of {@link FixOrderEncoder}: written with '|' for SOH, BodyLength and
 * CheckSum computed here.
 */
final class FixMessages
{
    static final char SOH = '\u0001';

    /** A valid FIX.4.4 limit order, as the parts after BodyLength. */
    static final String LIMIT_BODY =
        "35=D|34=7|49=CLIENT|56=MDHUB|52=20240102-03:04:05.678|11=ORD-1|1=ACC|21=1|55=VOD.L|54=1|" +
        "60=20240102-03:04:05.678|38=100|40=2|44=123.45|59=0|";

    private FixMessages()
    {
    }

    /**
     * @param beginString e.g. "8=FIX.4.4|".
     * @param body        the fields after BodyLength, '|' for SOH, ending with '|'.
     * @return the message with BodyLength and CheckSum, SOH separated.
     */
    static String seal(final String beginString, final String body)
    {
        final String bodyWithSoh = body.replace('|', SOH);
        final String head = beginString.replace('|', SOH) + "9=" +
            bodyWithSoh.getBytes(StandardCharsets.ISO_8859_1).length + SOH + bodyWithSoh;
        return withChecksum(head);
    }

    /**
     * @param body fields after BodyLength, '|' for SOH.
     * @return a FIX.4.4 message.
     */
    static String seal(final String body)
    {
        return seal("8=FIX.4.4|", body);
    }

    /**
     * @param withoutChecksum a message up to and including the SOH before the CheckSum, '|' or SOH separated.
     * @return the message with a correct CheckSum field appended.
     */
    static String withChecksum(final String withoutChecksum)
    {
        final String head = withoutChecksum.replace('|', SOH);
        return head + "10=" + String.format("%03d", checksum(head)) + SOH;
    }

    static int checksum(final String text)
    {
        int sum = 0;
        for (final byte b : text.getBytes(StandardCharsets.ISO_8859_1))
        {
            sum += b & 0xFF;
        }
        return sum & 0xFF;
    }

    static String raw(final String pipes)
    {
        return pipes.replace('|', SOH);
    }

    static byte[] bytes(final String message)
    {
        return message.getBytes(StandardCharsets.ISO_8859_1);
    }

    static String string(final byte[] bytes, final int offset, final int length)
    {
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }

    static UnsafeBuffer buffer(final String message)
    {
        return new UnsafeBuffer(bytes(message));
    }

    static String clOrdId(final FixOrder order)
    {
        return order.buffer().getStringWithoutLengthAscii(order.clOrdIdOffset(), order.clOrdIdLength());
    }

    static String symbol(final FixOrder order)
    {
        return order.buffer().getStringWithoutLengthAscii(order.symbolOffset(), order.symbolLength());
    }

    /**
     * @param message SOH separated.
     * @param tag     to find.
     * @return the first value of tag, or null.
     */
    static String value(final String message, final int tag)
    {
        final String needle = tag + "=";
        int start = 0;
        while (start < message.length())
        {
            final int end = message.indexOf(SOH, start);
            if (message.startsWith(needle, start))
            {
                return message.substring(start + needle.length(), end < 0 ? message.length() : end);
            }
            if (end < 0)
            {
                return null;
            }
            start = end + 1;
        }
        return null;
    }
}
