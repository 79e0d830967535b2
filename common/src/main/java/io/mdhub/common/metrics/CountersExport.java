package io.mdhub.common.metrics;

import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntPredicate;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.CountersReader;

/**
 * A component's counters published over JMX for as long as it runs: a {@link CountersMetricsBridge} into the
 * process registry, polled on its own low-priority thread. Close it before the counters' memory goes away.
 */
public final class CountersExport implements AutoCloseable
{
    private final CountersMetricsBridge bridge;
    private final ScheduledExecutorService scheduler;

    private CountersExport(final CountersMetricsBridge bridge, final ScheduledExecutorService scheduler)
    {
        this.bridge = bridge;
        this.scheduler = scheduler;
    }

    /**
     * @param counters        what to export.
     * @param source          the {@code source} tag (e.g. the component name).
     * @param isMonotonicType which type ids are running totals.
     * @return the running export.
     */
    public static CountersExport start(
        final CountersReader counters, final String source, final IntPredicate isMonotonicType)
    {
        final CountersMetricsBridge bridge =
            new CountersMetricsBridge(MdMetrics.registry(), counters, source, isMonotonicType);
        final ScheduledExecutorService scheduler = MdMetrics.newScheduler("mdhub-metrics-" + source);
        bridge.schedule(scheduler, MetricsConfiguration.countersPollIntervalMs());
        return new CountersExport(bridge, scheduler);
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(bridge, scheduler::shutdownNow);
    }
}
