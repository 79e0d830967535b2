package io.mdhub.common.metrics;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;

/**
 * The process's one Micrometer registry, exported over JMX in the {@value #JMX_DOMAIN} domain, and the low-priority
 * thread that feeds it. Micrometer never runs on an agent thread: agents write Agrona counters and a
 * {@link CountersMetricsBridge} on the metrics thread turns them into meters.
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

    private static final class RegistryHolder
    {
        static final JmxMeterRegistry REGISTRY = newJmxRegistry();
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
