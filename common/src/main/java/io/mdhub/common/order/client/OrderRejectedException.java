package io.mdhub.common.order.client;

import io.mdhub.common.codecs.order.RejectReason;

/**
 * A synchronous {@link OrderClient#submit} was refused for good: nothing was stored.
 */
public final class OrderRejectedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final long orderId;
    private final int partition;
    private final transient RejectReason reason;
    private final String text;

    /**
     * @param orderId   the order id.
     * @param partition the partition the order was meant for.
     * @param reason    why.
     * @param text      the server's explanation.
     */
    public OrderRejectedException(final long orderId, final int partition, final RejectReason reason, final String text)
    {
        super("order " + orderId + " rejected (partition " + partition + "): " + reason +
            (null == text || text.isEmpty() ? "" : " - " + text));
        this.orderId = orderId;
        this.partition = partition;
        this.reason = reason;
        this.text = text;
    }

    /**
     * @return the order id.
     */
    public long orderId()
    {
        return orderId;
    }

    /**
     * @return the partition the order was meant for.
     */
    public int partition()
    {
        return partition;
    }

    /**
     * @return why the order was refused.
     */
    public RejectReason reason()
    {
        return reason;
    }

    /**
     * @return the server's explanation, possibly empty.
     */
    public String text()
    {
        return text;
    }
}
