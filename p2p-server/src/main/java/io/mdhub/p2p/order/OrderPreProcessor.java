package io.mdhub.p2p.order;

import org.agrona.DirectBuffer;

import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.RejectReason;

/**
 * The pre-processing callback, an extension point: turns a submitted order's bytes into an Order record, or refuses
 * it. Runs on the order agent's thread for every new order on its primary, before a sequence number is taken, so it
 * must not block and should not allocate. Implementations are named by class in {@code mdhub.order.pre.processor}
 * and need a public no-argument constructor.
 */
public interface OrderPreProcessor
{
    /**
     * Parse and validate one order and fill the order-specific fields of the record: side, quantity, price,
     * ordType, timeInForce, symbol, then the var-data clOrdId and fix, in that order (the caller has already set
     * partition, epoch, sequence, clientId, orderId and storedTimeMs, and wrapped the encoder).
     *
     * @param order  the submitted bytes (FIX tag=value for the default implementation).
     * @param offset first byte.
     * @param length length.
     * @param record the record to complete.
     * @return null if accepted, else the reason to refuse it (nothing is stored and no sequence is used).
     */
    RejectReason preProcess(DirectBuffer order, int offset, int length, OrderRecordEncoder record);

    /**
     * @return a short text for the last refusal (a constant; sent to the client with the reject).
     */
    String lastRejectText();
}
