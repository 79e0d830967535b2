package io.mdhub.p2p.order;

import org.agrona.DirectBuffer;

import io.mdhub.common.codecs.order.CatchUpCompleteDecoder;
import io.mdhub.common.codecs.order.CatchUpRequestDecoder;
import io.mdhub.common.codecs.order.PeerHeartbeatDecoder;

/**
 * What a server hears from its peer, decoded by {@link PeerLink}.
 */
interface PeerListener
{
    void onPeerHeartbeat(PeerHeartbeatDecoder heartbeat);

    /**
     * @param catchUp         part of a state transfer, not a live order.
     * @param answer          the primary asks this server to answer the order's client once it has stored it.
     * @param sendTimestampNs the client's send time, for the answer's echo (0 from a primary before version 3).
     */
    void onReplicateOrder(
        boolean catchUp, boolean answer, long sendTimestampNs, DirectBuffer record, int offset, int length);

    void onReplicateAck(int partition, int epoch, long sequence);

    /**
     * The backup stored an order it was asked to answer and could not: answer its client from here.
     */
    void onAnswerRequest(int partition, long sequence);

    void onCatchUpRequest(CatchUpRequestDecoder request);

    void onCatchUpComplete(CatchUpCompleteDecoder complete);
}
