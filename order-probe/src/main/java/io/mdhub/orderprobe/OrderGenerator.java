package io.mdhub.orderprobe;

import org.agrona.MutableDirectBuffer;

/**
 * Makes the FIX bytes of one order for the load tool ({@link FixNewOrderSingles} over the shared
 * {@code FixOrderEncoder}); a seam for other order shapes. Implementations must not allocate per order.
 */
public interface OrderGenerator
{
    /**
     * Write one FIX NewOrderSingle.
     *
     * @param orderId its order id (also its ClOrdID and MsgSeqNum).
     * @param epochMs wall-clock time for SendingTime and TransactTime.
     * @param buffer  where to write.
     * @param offset  where the message starts; {@link #maxLength()} bytes must fit from there.
     * @return the message length.
     */
    int generate(long orderId, long epochMs, MutableDirectBuffer buffer, int offset);

    /**
     * @return the longest message {@link #generate} writes.
     */
    int maxLength();
}
