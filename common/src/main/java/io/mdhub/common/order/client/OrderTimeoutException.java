package io.mdhub.common.order.client;

/**
 * A synchronous {@link OrderClient#submit} had no answer within the submit timeout. The client stops resending the
 * order, whose fate is unknown: it may or may not be stored. Submitting it again with the same order id is safe (a
 * stored order is answered with its original ack, flagged duplicate).
 */
public final class OrderTimeoutException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final long orderId;

    /**
     * @param orderId the order id.
     * @param message what the client was waiting for.
     */
    public OrderTimeoutException(final long orderId, final String message)
    {
        super(message);
        this.orderId = orderId;
    }

    /**
     * @return the order id.
     */
    public long orderId()
    {
        return orderId;
    }
}
