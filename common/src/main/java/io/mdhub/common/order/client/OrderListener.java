package io.mdhub.common.order.client;

import io.mdhub.common.codecs.order.RejectReason;

/**
 * The outcome of an order submitted with {@link OrderClient#submitAsync}: exactly one of the two methods is called,
 * once, from inside {@link OrderClient#poll()} (or from {@code submitAsync} itself for a reject the client decides
 * locally). The client has already forgotten the order when the call is made, so the listener may submit new orders,
 * even with the same order id. Retryable rejects (NOT_PRIMARY, UNAVAILABLE, UNKNOWN_CLIENT) never reach the
 * listener: the client routes the order again.
 */
public interface OrderListener
{
    /**
     * The order is stored (on the primary and its backup, unless {@code replicated} is false).
     *
     * @param orderId         the order id.
     * @param partition       the partition (numbered across pairs: pair i's partitions follow pair i-1's).
     * @param epoch           the partition's epoch when the order was sequenced.
     * @param sequence        the order's sequence in its partition, from 1.
     * @param duplicate       true when this answers a resend of an order the server already held: the original
     *                        ack, its partition, epoch and sequence.
     * @param replicated      false when the primary stored it alone (the pair was degraded).
     * @param sendTimestampNs the client's nanoTime when the send that was answered left (echoed by the server).
     */
    void onAck(
        long orderId,
        int partition,
        int epoch,
        long sequence,
        boolean duplicate,
        boolean replicated,
        long sendTimestampNs);

    /**
     * The order was refused for good; nothing was stored.
     *
     * @param orderId         the order id.
     * @param partition       the partition the order was meant for (numbered across pairs).
     * @param reason          MALFORMED_FIX, INVALID_ORDER, UNKNOWN_PARTITION or OVERSIZE.
     * @param sendTimestampNs the client's nanoTime when the send that was answered left, or when the client
     *                        decided the reject itself.
     * @param text            the server's explanation; valid only during the call (copy it to keep it).
     */
    void onReject(long orderId, int partition, RejectReason reason, long sendTimestampNs, CharSequence text);
}
