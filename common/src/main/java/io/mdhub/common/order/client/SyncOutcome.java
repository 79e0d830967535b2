package io.mdhub.common.order.client;

import io.mdhub.common.codecs.order.RejectReason;

/**
 * The outcome of the synchronous submit in progress: the listener {@link OrderClient#submit} gives its order, read
 * once the order is answered. Answers for any other order id are ignored. Not thread safe: the client's thread.
 */
final class SyncOutcome implements OrderListener
{
    private long orderId;
    private boolean isDone;
    private long sequence;
    private int partition;
    private int epoch;
    private boolean duplicate;
    private RejectReason reason;
    private String text;

    /**
     * Forget the last outcome and wait for this order's.
     *
     * @param orderId the order being submitted.
     */
    void reset(final long orderId)
    {
        this.orderId = orderId;
        isDone = false;
        sequence = 0;
        partition = -1;
        epoch = 0;
        duplicate = false;
        reason = null;
        text = null;
    }

    /**
     * @return true once the order was acknowledged or finally rejected.
     */
    boolean isDone()
    {
        return isDone;
    }

    /**
     * @return the order's sequence in its partition, when acknowledged.
     */
    long sequence()
    {
        return sequence;
    }

    /**
     * @return the order's partition (numbered across pairs), or -1 before an answer.
     */
    int partition()
    {
        return partition;
    }

    /**
     * @return the partition's epoch in the ack.
     */
    int epoch()
    {
        return epoch;
    }

    /**
     * @return whether the ack was flagged duplicate.
     */
    boolean duplicate()
    {
        return duplicate;
    }

    /**
     * @return why the order was rejected, or null when it was not.
     */
    RejectReason reason()
    {
        return reason;
    }

    /**
     * @return the reject's text, or null when it was not rejected.
     */
    String text()
    {
        return text;
    }

    @Override
    public void onAck(
        final long orderId,
        final int partition,
        final int epoch,
        final long sequence,
        final boolean duplicate,
        final boolean replicated,
        final long sendTimestampNs)
    {
        if (orderId == this.orderId)
        {
            this.isDone = true;
            this.sequence = sequence;
            this.partition = partition;
            this.epoch = epoch;
            this.duplicate = duplicate;
        }
    }

    @Override
    public void onReject(
        final long orderId,
        final int partition,
        final RejectReason reason,
        final long sendTimestampNs,
        final CharSequence text)
    {
        if (orderId == this.orderId)
        {
            this.isDone = true;
            this.partition = partition;
            this.reason = reason;
            this.text = text.toString();
        }
    }
}
