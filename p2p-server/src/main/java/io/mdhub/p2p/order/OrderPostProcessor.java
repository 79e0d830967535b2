package io.mdhub.p2p.order;

import io.mdhub.common.codecs.order.OrderRecordDecoder;

/**
 * The post-processing callback, an extension point: sees every order once it is stored on the primary and its
 * backup, just before it is appended to the write-behind queue and acknowledged. Runs on the order agent's thread;
 * must not block. Named by class in {@code mdhub.order.post.processor}; public no-argument constructor.
 */
@FunctionalInterface
public interface OrderPostProcessor
{
    /** Does nothing. */
    OrderPostProcessor NONE = (record) ->
    {
    };

    /**
     * @param record the stored order (valid during the call only).
     */
    void postProcess(OrderRecordDecoder record);
}
