package io.mdhub.common.metrics;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The process's Micrometer registries: one exported over JMX in the {@value #JMX_DOMAIN} domain, fed by the
 * low-priority thread of each {@link CountersMetricsBridge}, and one scraped by Prometheus over HTTP, which reads the
 * same counters at each scrape ({@link CountersCollector}) beside the JVM's own meters (memory, GC, threads, CPU,
 * uptime). Micrometer never runs on an agent thread: agents write Agrona counters, and only the management threads
 * read them.
 */
public final class MdMetrics
{
    /**
     * JMX domain of every MDHub MBean, meters and management beans alike.
     */
    public static final String JMX_DOMAIN = "io.mdhub";

    private MdMetrics()
    {
    }

    /**
     * The process-wide registry, created on first use. Meter names become JMX names through
     * {@link JmxSafeNameMapper}, so {@code io.mdhub:name=<meter.tags>,type=gauges|meters|...}.
     *
     * @return the registry.
     */
    public static MeterRegistry registry()
    {
        return RegistryHolder.REGISTRY;
    }

    /**
     * The process-wide Prometheus registry, created on first use: the JVM's meters, and every component's counters
     * once its {@link CountersExport} has started.
     *
     * @return the registry; {@link PrometheusMeterRegistry#scrape(String)} writes the exposition.
     */
    public static PrometheusMeterRegistry prometheus()
    {
        return PrometheusHolder.REGISTRY;
    }

    /**
     * @return the collector that puts counters into {@link #prometheus()}.
     */
    public static CountersCollector countersCollector()
    {
        return PrometheusHolder.COUNTERS;
    }

    /**
     * A new single daemon thread at minimum priority for periodic management work (counter bridges, reports). The
     * caller owns it and shuts it down.
     *
     * @param threadName name of the thread.
     * @return the scheduler.
     */
    public static ScheduledExecutorService newScheduler(final String threadName)
    {
        final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(
            1,
            (runnable) ->
            {
                final Thread thread = new Thread(runnable, threadName);
                thread.setDaemon(true);
                thread.setPriority(Thread.MIN_PRIORITY);
                return thread;
            });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /**
     * Build a JMX registry in the MDHub domain. {@link #registry()} is the normal entry point; this one is for the
     * singleton and for tests that need an isolated registry.
     *
     * @return a new started registry; the caller closes it.
     */
    static JmxMeterRegistry newJmxRegistry()
    {
        return new JmxMeterRegistry(MdJmxConfig.INSTANCE, Clock.SYSTEM, new JmxSafeNameMapper());
    }

    /**
     * A Prometheus registry with the JVM's meters and a counters collector registered in it.
     *
     * @param counters the collector to register.
     * @return a new registry; the caller closes it.
     */
    static PrometheusMeterRegistry newPrometheusRegistry(final CountersCollector counters)
    {
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry); // a GC notification listener: no thread, no timer
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        registry.getPrometheusRegistry().register(counters);
        return registry;
    }

    private static final class RegistryHolder
    {
        static final JmxMeterRegistry REGISTRY = newJmxRegistry();
    }

    private static final class PrometheusHolder
    {
        static final CountersCollector COUNTERS = new CountersCollector();
        static final PrometheusMeterRegistry REGISTRY = newPrometheusRegistry(COUNTERS);
    }

    /**
     * Micrometer's JMX settings with our domain; everything else stays at Micrometer's default.
     */
    private static final class MdJmxConfig implements JmxConfig
    {
        static final MdJmxConfig INSTANCE = new MdJmxConfig();

        public String get(final String key)
        {
            return null;
        }

        public String domain()
        {
            return JMX_DOMAIN;
        }
    }
}
