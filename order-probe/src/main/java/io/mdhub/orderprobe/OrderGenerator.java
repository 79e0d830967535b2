package io.mdhub.orderprobe;

import org.agrona.MutableDirectBuffer;

/**
 * Makes the FIX bytes of one order for the load tool. The stop-gap {@link StopGapNewOrderSingles} implements it until
 * {@code io.mdhub.common.order.fix.FixOrderEncoder} (another branch) is on this one; then an adapter over that encoder
 * replaces it here and nowhere else. Implementations must not allocate per order.
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
