package io.mdhub.orderprobe.probe;

/**
 * An order an {@link OrderTarget.Session} submitted was not acknowledged (refused, timed out, lost with its
 * connection); the probe counts it as failed, keeps no latency for it, and the publisher goes on with the next order.
 */
public final class OrderFailedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what happened to the order.
     * @param cause   the target's own exception, or null.
     */
    public OrderFailedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
