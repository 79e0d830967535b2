package io.mdhub.common.test.order;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Helpers for order client tests: order bytes.
 */
public final class OrderTests
{
    /** Length of the probe's FIX orders. */
    public static final int ORDER_LENGTH = 305;

    private OrderTests()
    {
    }

    /**
     * Order bytes for a fake server (which does not parse them): {@value #ORDER_LENGTH} bytes naming the order id.
     *
     * @param orderId the order id.
     * @return the bytes.
     */
    public static UnsafeBuffer order(final long orderId)
    {
        final byte[] bytes = new byte[ORDER_LENGTH];
        Arrays.fill(bytes, (byte)'x');
        final byte[] head = ("8=FIX.4.4\u00019=0\u000135=D\u000111=" + orderId + "\u0001")
            .getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, bytes, 0, head.length);
        return new UnsafeBuffer(bytes);
    }
}
