package io.mdhub.p2p.order;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.status.MdCounters;

/**
 * The order service's counters, in the service's own {@link CountersManager} (the JMX bridge exports them).
 */
final class OrderCounters implements AutoCloseable
{
    final AtomicCounter ordersAccepted;
    final AtomicCounter ordersAcked;
    final AtomicCounter duplicates;
    final AtomicCounter rejected;
    final AtomicCounter replicated;
    final AtomicCounter gaps;
    final AtomicCounter failovers;
    final AtomicCounter malformed;
    final AtomicCounter heldAcks;
    final AtomicCounter forcedTakeovers;
    final AtomicCounter fenceLost;
    final AtomicCounter sinkErrors;
    final AtomicCounter unknownClient;
    final AtomicCounter answersForPeer;
    final AtomicCounter answerRequests;
    final AtomicCounter errors;
    final AtomicCounter clientsEvicted;
    final AtomicCounter storeInlineChunks;
    final AtomicCounter staleCatchUpRequests;
    final AtomicCounter connectionsRefused;
    final AtomicCounter tlsHandshakeFailures;
    final AtomicCounter tlsHandshakesCompleted;
    final AtomicCounter garbage;
    final AtomicCounter catchUpSent;
    final AtomicCounter handshakeTimeouts;
    /** Not a counter: the store-to-completion latency of the orders this server completes as primary. */
    final OrderAckLatency ackLatency = new OrderAckLatency();

    OrderCounters(final CountersManager counters, final int serverId)
    {
        final String suffix = ": server=" + serverId;
        ordersAccepted = counters.newCounter("order-accepted" + suffix, MdCounters.ORDER_ACCEPTED_TYPE_ID);
        ordersAcked = counters.newCounter("order-acked" + suffix, MdCounters.ORDER_ACKED_TYPE_ID);
        duplicates = counters.newCounter("order-duplicates" + suffix, MdCounters.ORDER_DUPLICATES_TYPE_ID);
        rejected = counters.newCounter("order-rejected" + suffix, MdCounters.ORDER_REJECTED_TYPE_ID);
        replicated = counters.newCounter("order-replicated-in" + suffix, MdCounters.ORDER_REPLICATED_TYPE_ID);
        gaps = counters.newCounter("order-sequence-gaps" + suffix, MdCounters.ORDER_GAPS_TYPE_ID);
        failovers = counters.newCounter("order-failovers" + suffix, MdCounters.ORDER_FAILOVERS_TYPE_ID);
        malformed = counters.newCounter("order-malformed" + suffix, MdCounters.ORDER_MALFORMED_TYPE_ID);
        heldAcks = counters.newCounter("order-acks-held" + suffix, MdCounters.ORDER_HELD_TYPE_ID);
        forcedTakeovers = counters.newCounter(
            "order-forced-takeovers" + suffix, MdCounters.ORDER_FORCED_TAKEOVERS_TYPE_ID);
        fenceLost = counters.newCounter("order-fence-connections-lost" + suffix, MdCounters.ORDER_FENCE_LOST_TYPE_ID);
        sinkErrors = counters.newCounter("order-sink-errors" + suffix, MdCounters.ORDER_SINK_ERRORS_TYPE_ID);
        unknownClient = counters.newCounter("order-unknown-client" + suffix, MdCounters.ORDER_UNKNOWN_CLIENT_TYPE_ID);
        answersForPeer = counters.newCounter(
            "order-answers-for-peer" + suffix, MdCounters.ORDER_ANSWERS_FOR_PEER_TYPE_ID);
        answerRequests = counters.newCounter(
            "order-answer-requests" + suffix, MdCounters.ORDER_ANSWER_REQUESTS_TYPE_ID);
        errors = counters.newCounter("order-errors" + suffix, MdCounters.ORDER_ERRORS_TYPE_ID);
        clientsEvicted = counters.newCounter(
            "order-clients-evicted" + suffix, MdCounters.ORDER_CLIENTS_EVICTED_TYPE_ID);
        storeInlineChunks = counters.newCounter(
            "order-store-inline-chunks" + suffix, MdCounters.ORDER_STORE_INLINE_CHUNKS_TYPE_ID);
        staleCatchUpRequests = counters.newCounter(
            "order-catch-up-stale-requests" + suffix, MdCounters.ORDER_CATCH_UP_STALE_TYPE_ID);
        connectionsRefused = counters.newCounter(
            "order-connections-refused" + suffix, MdCounters.ORDER_CONNECTIONS_REFUSED_TYPE_ID);
        tlsHandshakeFailures = counters.newCounter(
            "order-tls-handshake-failures" + suffix, MdCounters.ORDER_TLS_HANDSHAKE_FAILURES_TYPE_ID);
        tlsHandshakesCompleted = counters.newCounter(
            "order-tls-handshakes-completed" + suffix, MdCounters.ORDER_TLS_HANDSHAKES_COMPLETED_TYPE_ID);
        garbage = counters.newCounter("order-garbage" + suffix, MdCounters.ORDER_GARBAGE_TYPE_ID);
        catchUpSent = counters.newCounter("order-catch-up-sent" + suffix, MdCounters.ORDER_CATCH_UP_SENT_TYPE_ID);
        handshakeTimeouts = counters.newCounter(
            "order-handshake-timeouts" + suffix, MdCounters.ORDER_HANDSHAKE_TIMEOUTS_TYPE_ID);
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(ordersAccepted, ordersAcked, duplicates, rejected, replicated, gaps, failovers,
            malformed, heldAcks, forcedTakeovers, fenceLost, sinkErrors, unknownClient, answersForPeer,
            answerRequests, errors, clientsEvicted, storeInlineChunks, staleCatchUpRequests, connectionsRefused,
            garbage, catchUpSent, tlsHandshakeFailures, tlsHandshakesCompleted, handshakeTimeouts);
    }
}
