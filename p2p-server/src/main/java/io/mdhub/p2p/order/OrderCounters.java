package io.mdhub.p2p.order;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.AtomicCounter;

import io.aeron.Aeron;
import io.mdhub.common.status.MdCounters;

/**
 * The order service's counters, in the Aeron client's counters file (AeronStat and the JMX bridge see them).
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

    OrderCounters(final Aeron aeron, final int serverId)
    {
        final String suffix = ": server=" + serverId;
        ordersAccepted = aeron.addCounter(MdCounters.ORDER_ACCEPTED_TYPE_ID, "order-accepted" + suffix);
        ordersAcked = aeron.addCounter(MdCounters.ORDER_ACKED_TYPE_ID, "order-acked" + suffix);
        duplicates = aeron.addCounter(MdCounters.ORDER_DUPLICATES_TYPE_ID, "order-duplicates" + suffix);
        rejected = aeron.addCounter(MdCounters.ORDER_REJECTED_TYPE_ID, "order-rejected" + suffix);
        replicated = aeron.addCounter(MdCounters.ORDER_REPLICATED_TYPE_ID, "order-replicated-in" + suffix);
        gaps = aeron.addCounter(MdCounters.ORDER_GAPS_TYPE_ID, "order-sequence-gaps" + suffix);
        failovers = aeron.addCounter(MdCounters.ORDER_FAILOVERS_TYPE_ID, "order-failovers" + suffix);
        malformed = aeron.addCounter(MdCounters.ORDER_MALFORMED_TYPE_ID, "order-malformed" + suffix);
        heldAcks = aeron.addCounter(MdCounters.ORDER_HELD_TYPE_ID, "order-acks-held" + suffix);
        forcedTakeovers = aeron.addCounter(MdCounters.ORDER_FORCED_TAKEOVERS_TYPE_ID, "order-forced-takeovers" +
            suffix);
        fenceLost = aeron.addCounter(MdCounters.ORDER_FENCE_LOST_TYPE_ID, "order-fence-connections-lost" + suffix);
        sinkErrors = aeron.addCounter(MdCounters.ORDER_SINK_ERRORS_TYPE_ID, "order-sink-errors" + suffix);
        unknownClient = aeron.addCounter(MdCounters.ORDER_UNKNOWN_CLIENT_TYPE_ID, "order-unknown-client" + suffix);
        answersForPeer = aeron.addCounter(MdCounters.ORDER_ANSWERS_FOR_PEER_TYPE_ID, "order-answers-for-peer" +
            suffix);
        answerRequests = aeron.addCounter(MdCounters.ORDER_ANSWER_REQUESTS_TYPE_ID, "order-answer-requests" + suffix);
        errors = aeron.addCounter(MdCounters.ORDER_ERRORS_TYPE_ID, "order-errors" + suffix);
        clientsEvicted = aeron.addCounter(MdCounters.ORDER_CLIENTS_EVICTED_TYPE_ID, "order-clients-evicted" + suffix);
    }

    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(ordersAccepted, ordersAcked, duplicates, rejected, replicated, gaps, failovers,
            malformed, heldAcks, forcedTakeovers, fenceLost, sinkErrors, unknownClient, answersForPeer,
            answerRequests, errors, clientsEvicted);
    }
}
