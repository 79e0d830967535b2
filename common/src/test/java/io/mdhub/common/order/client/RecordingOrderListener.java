package io.mdhub.common.order.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.mdhub.common.codecs.order.RejectReason;

/**
 * Keeps every outcome an {@link OrderClient} reports, by order id (test thread only).
 */
final class RecordingOrderListener implements OrderListener
{
    final Map<Long, Ack> acks = new HashMap<>();
    final Map<Long, Reject> rejects = new HashMap<>();
    final List<Long> outcomes = new ArrayList<>();

    @Override
    public void onAck(
        final long orderId,
        final int partition,
        final int epoch,
        final long sequence,
        final boolean duplicate,
        final boolean replicated,
        final long sendTimestampNs)
    {
        outcomes.add(orderId);
        acks.put(orderId, new Ack(partition, epoch, sequence, duplicate, replicated));
    }

    @Override
    public void onReject(
        final long orderId,
        final int partition,
        final RejectReason reason,
        final long sendTimestampNs,
        final CharSequence text)
    {
        outcomes.add(orderId);
        rejects.put(orderId, new Reject(partition, reason, text.toString()));
    }

    int count()
    {
        return outcomes.size();
    }

    static final class Ack
    {
        final int partition;
        final int epoch;
        final long sequence;
        final boolean duplicate;
        final boolean replicated;

        Ack(final int partition, final int epoch, final long sequence, final boolean duplicate,
            final boolean replicated)
        {
            this.partition = partition;
            this.epoch = epoch;
            this.sequence = sequence;
            this.duplicate = duplicate;
            this.replicated = replicated;
        }
    }

    static final class Reject
    {
        final int partition;
        final RejectReason reason;
        final String text;

        Reject(final int partition, final RejectReason reason, final String text)
        {
            this.partition = partition;
            this.reason = reason;
            this.text = text;
        }
    }
}
