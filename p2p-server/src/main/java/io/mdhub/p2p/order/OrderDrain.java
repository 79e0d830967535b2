package io.mdhub.p2p.order;

import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains completed orders of the partitions this server is primary of to the downstream {@link OrderSink}, and
 * advances the drained positions (persisted in the queue, replicated in the heartbeats) once the sink made them
 * durable.
 */
final class OrderDrain
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderDrain.class);
    private static final int DRAIN_BUDGET = 1024;
    /** How soon a sink that refused or failed a write is tried again. */
    private static final long SINK_RETRY_NS = 1_000_000L;

    private final int serverId;
    private final boolean isSinkFsync;
    private final OrderSink sink;
    private final Partition[] partitions;
    private final OrdersRegion region;
    private final OrderQueue queue;
    private final OrderCounters counters;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final LogInterval sinkErrorLog = new LogInterval(LogInterval.ONE_SECOND_NS);
    private long drainDueNs = Long.MAX_VALUE;

    OrderDrain(
        final OrderService.Context ctx,
        final Partition[] partitions,
        final OrdersRegion region,
        final OrderQueue queue,
        final OrderCounters counters)
    {
        this.serverId = ctx.serverId();
        this.isSinkFsync = ctx.sinkFsync();
        this.sink = ctx.sink();
        this.partitions = partitions;
        this.region = region;
        this.queue = queue;
        this.counters = counters;
    }

    /**
     * @return when the next drain is due: now after a budget stopped one short, a little later after the sink
     * refused or failed a write ({@link Long#MAX_VALUE}: nothing waits).
     */
    long drainDueNs()
    {
        return drainDueNs;
    }

    /**
     * Write a batch of completed orders of the partitions this server is primary of to the sink, have the sink make
     * it durable, and only then advance (and persist) the drained positions that the heartbeats replicate. A failed
     * write or flush leaves the positions where they were and writes the batch again later (at least once).
     */
    int drain(final long nowNs)
    {
        int work = 0;
        drainDueNs = Long.MAX_VALUE;
        try
        {
            for (final Partition partition : partitions)
            {
                if (!partition.isPrimary())
                {
                    partition.written = partition.drained;
                    continue;
                }
                while (partition.written < partition.acked && work < DRAIN_BUDGET)
                {
                    final long sequence = partition.written + 1;
                    final int length = region.wrap(partition.id, sequence, view);
                    if (!sink.write(partition.id, sequence, view, 0, length))
                    {
                        break;
                    }
                    partition.written = sequence;
                    work++;
                }
                if (partition.written < partition.acked)
                {
                    // a budget reached: on with the next cycle; a sink that took no more for now: a little later
                    drainDueNs = Math.min(drainDueNs, work >= DRAIN_BUDGET ? nowNs : nowNs + SINK_RETRY_NS);
                }
            }
            if (isUndrainedWritten() && sink.flush())
            {
                for (final Partition partition : partitions)
                {
                    if (partition.written > partition.drained)
                    {
                        partition.drained = partition.written;
                        queue.drained(partition.id, partition.drained);
                    }
                }
                if (isSinkFsync)
                {
                    queue.forceDrained();
                }
            }
        }
        catch (final RuntimeException ex)
        {
            counters.sinkErrors.increment();
            drainDueNs = nowNs + SINK_RETRY_NS;
            for (final Partition partition : partitions)
            {
                partition.written = partition.drained; // written again from the durable position
            }
            if (sinkErrorLog.onEvent(System.nanoTime()) > 0)
            {
                LOG.error("order server {}: the sink failed; the batch will be written again", serverId, ex);
            }
        }
        return work;
    }

    private boolean isUndrainedWritten()
    {
        for (final Partition partition : partitions)
        {
            if (partition.written > partition.drained)
            {
                return true;
            }
        }
        return false;
    }
}
