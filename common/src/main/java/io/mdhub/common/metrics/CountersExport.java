package io.mdhub.common.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntPredicate;

import javax.management.ObjectName;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A component's counters published for as long as it runs: over JMX through a {@link CountersMetricsBridge} into the
 * process registry, polled on its own low-priority thread, and to Prometheus scrapes through the process's
 * {@link CountersCollector}. Close it before the counters' memory goes away.
 */
public final class CountersExport implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(CountersExport.class);

    private final CountersMetricsBridge bridge;
    private final ScheduledExecutorService scheduler;
    private final Object scraped;
    private final ObjectName countersName;

    private CountersExport(
        final CountersMetricsBridge bridge,
        final ScheduledExecutorService scheduler,
        final Object scraped,
        final ObjectName countersName)
    {
        this.bridge = bridge;
        this.scheduler = scheduler;
        this.scraped = scraped;
        this.countersName = countersName;
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
        ObjectName countersName = null;
        try
        {
            countersName = MBeans.register("Counters", source, new CountersView(bridge, counters));
        }
        catch (final IllegalStateException ex)
        {
            LOG.warn("counters of {} not served as one MBean: another export of the name runs in this process", source);
        }
        return new CountersExport(bridge, scheduler,
            MdMetrics.countersCollector().add(counters, source, isMonotonicType), countersName);
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(
            () -> MBeans.unregister(countersName),
            () -> MdMetrics.countersCollector().remove(scraped),
            bridge,
            scheduler::shutdownNow);
    }

    /**
     * The counters in one call, read under the bridge's lock so that none is read once the export closed.
     */
    private static final class CountersView implements CountersMXBean
    {
        private final CountersMetricsBridge bridge;
        private final CountersReader counters;

        CountersView(final CountersMetricsBridge bridge, final CountersReader counters)
        {
            this.bridge = bridge;
            this.counters = counters;
        }

        @Override
        public CounterValue[] getCounters()
        {
            final List<CounterValue> values = new ArrayList<>();
            bridge.whileReadable(() -> counters.forEach((counterId, typeId, keyBuffer, label) ->
                values.add(new CounterValue(counterId, typeId, label, counters.getCounterValue(counterId)))));
            return values.toArray(new CounterValue[0]);
        }
    }
}
