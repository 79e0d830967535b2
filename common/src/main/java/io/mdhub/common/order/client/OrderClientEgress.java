package io.mdhub.common.order.client;

import org.agrona.AsciiSequenceView;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.codecs.order.RejectReason;

/**
 * What the servers of every pair answer, applied to the client's state: maps to {@link OrderRouting}, acks and final
 * rejects to the orders' listeners, retryable rejects to a wait for the pair's next map. Runs inside {@link
 * OrderClient#poll()}. Not thread safe: the client's thread.
 */
final class OrderClientEgress implements OrderEgressListener
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderClient.class);

    private final long clientId;
    private final NanoClock clock;
    private final InFlightOrders orders;
    private final OrderRouting routing;
    private final ServerLinks links;
    private final OrderClientCounters counters;
    private final AsciiSequenceView textView = new AsciiSequenceView();

    /**
     * @param clientId this client: answers for another are ignored.
     * @param clock    the client's clock.
     * @param orders   the orders in flight.
     * @param routing  takes the maps.
     * @param links    the servers' links (sessions, hellos due).
     * @param counters the client's counters.
     */
    OrderClientEgress(
        final long clientId,
        final NanoClock clock,
        final InFlightOrders orders,
        final OrderRouting routing,
        final ServerLinks links,
        final OrderClientCounters counters)
    {
        this.clientId = clientId;
        this.clock = clock;
        this.orders = orders;
        this.routing = routing;
        this.links = links;
        this.counters = counters;
    }

    @Override
    public boolean onPartitionMapBegin(
        final int pairIndex, final int sessionId, final int serverId, final int partitionCount)
    {
        if (serverId < 0 || serverId >= OrderRouting.SERVERS_PER_PAIR ||
            partitionCount < 1 || partitionCount > OrderClient.MAX_PARTITIONS)
        {
            counters.malformedMessages++;
            return false;
        }
        if (!routing.beginMap(pairIndex, serverId, partitionCount))
        {
            counters.malformedMessages++;
            LOG.error("order client {}: pair {} server {} announces {} partitions, {} before: map ignored " +
                "(restart the client to take a new partition count)", clientId, pairIndex, serverId,
                partitionCount, routing.partitionCount(pairIndex));
            return false;
        }
        return true;
    }

    @Override
    public void onPartitionMapEntry(
        final int pairIndex, final int serverId, final int partition, final short role, final int epoch)
    {
        routing.mapEntry(pairIndex, serverId, partition, role, epoch);
    }

    @Override
    public void onPartitionMapEnd(final int pairIndex, final int sessionId, final int serverId)
    {
        links.onMapReceived(pairIndex * OrderRouting.SERVERS_PER_PAIR + serverId, sessionId);
        counters.mapsReceived++;
        routing.endMap(pairIndex, serverId);
    }

    @Override
    public void onOrderAck(
        final int pairIndex,
        final int sessionId,
        final long ackClientId,
        final long orderId,
        final int partition,
        final int epoch,
        final long sequence,
        final boolean duplicate,
        final boolean replicated,
        final long sendTimestampNs)
    {
        final int slot = slotAnswered(pairIndex, ackClientId, orderId);
        if (slot < 0)
        {
            return;
        }
        final OrderListener listener = orders.listeners[slot];
        final int global = routing.partitionOffset(pairIndex) + partition;
        orders.free(slot);
        counters.acks++;
        if (duplicate)
        {
            counters.duplicateAcks++;
        }
        listener.onAck(orderId, global, epoch, sequence, duplicate, replicated, sendTimestampNs);
    }

    @Override
    public void onOrderReject(
        final int pairIndex,
        final int sessionId,
        final long rejectClientId,
        final long orderId,
        final int partition,
        final RejectReason reason,
        final long sendTimestampNs,
        final DirectBuffer buffer,
        final int textOffset,
        final int textLength)
    {
        final int slot = slotAnswered(pairIndex, rejectClientId, orderId);
        if (slot < 0)
        {
            return;
        }
        switch (reason)
        {
            case NOT_PRIMARY:
            case UNAVAILABLE:
            case UNKNOWN_CLIENT:
                onRetryableReject(slot, pairIndex, sessionId, reason, sendTimestampNs);
                return;
            default:
                final OrderListener listener = orders.listeners[slot];
                final int global = orders.globalPartitions[slot];
                orders.free(slot);
                counters.finalRejects++;
                textView.wrap(buffer, textOffset, textLength);
                listener.onReject(orderId, global, reason, sendTimestampNs, textView);
        }
    }

    @Override
    public void onMalformed(final int pairIndex)
    {
        counters.malformedMessages++;
    }

    private void onRetryableReject(
        final int slot,
        final int pairIndex,
        final int sessionId,
        final RejectReason reason,
        final long sendTimestampNs)
    {
        if (InFlightOrders.SENT != orders.states[slot] || sendTimestampNs != orders.sendTimestampsNs[slot])
        {
            counters.staleAnswers++; // answers an earlier send; the order was routed again since
            return;
        }
        counters.retryableRejects++;
        if (RejectReason.UNKNOWN_CLIENT == reason)
        {
            orders.sentServers[slot] = -1; // after the hello, the same route is good again
        }
        links.askForMap(pairIndex, sessionId); // the rejecting server's answer to a hello is a fresh PartitionMap
        routing.waitForRoute(slot, clock.nanoTime()); // the pair's next map (or the retry time) queues it again
    }

    /**
     * The in-flight slot an answer is for, or -1 (counted) for another client's answer or one for an order not in
     * flight on the pair that answered (answered already: a late duplicate).
     */
    private int slotAnswered(final int pairIndex, final long answerClientId, final long orderId)
    {
        if (clientId != answerClientId)
        {
            counters.foreignAnswers++;
            return -1;
        }
        final int slot = orders.slotOf(orderId);
        if (slot < 0 || pairIndex != orders.pairs[slot])
        {
            counters.staleAnswers++;
            return -1;
        }
        return slot;
    }
}
