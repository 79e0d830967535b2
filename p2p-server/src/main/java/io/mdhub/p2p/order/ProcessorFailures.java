package io.mdhub.p2p.order;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failures of the configured pre- and post-processors: counted in order-errors and logged at most once a second
 * (one interval for both), so a processor that fails on every order cannot flood the log.
 */
final class ProcessorFailures
{
    private static final Logger LOG = LoggerFactory.getLogger(ProcessorFailures.class);

    private final int serverId;
    private final OrderCounters counters;
    private final LogInterval processorErrorLog = new LogInterval(LogInterval.ONE_SECOND_NS);

    ProcessorFailures(final int serverId, final OrderCounters counters)
    {
        this.serverId = serverId;
        this.counters = counters;
    }

    void processorFailed(final String which, final int partition, final long orderId, final RuntimeException ex)
    {
        counters.errors.increment();
        if (processorErrorLog.onEvent(System.nanoTime()) > 0)
        {
            LOG.error("order server {}: the {} failed on order {} of partition {} (logged at most once a second, " +
                "counted in order-errors)", serverId, which, orderId, partition, ex);
        }
    }
}
