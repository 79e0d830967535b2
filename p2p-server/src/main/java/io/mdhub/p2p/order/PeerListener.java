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

    void onReplicateOrder(boolean catchUp, DirectBuffer record, int offset, int length);

    void onReplicateAck(int partition, int epoch, long sequence);

    void onCatchUpRequest(CatchUpRequestDecoder request);

    void onCatchUpComplete(CatchUpCompleteDecoder complete);
}
