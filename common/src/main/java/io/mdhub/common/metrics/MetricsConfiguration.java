package io.mdhub.common.metrics;

import io.mdhub.common.config.ConfigValues;

/**
 * Metrics settings. The only place that reads them from system properties.
 */
public final class MetricsConfiguration
{
    /**
     * Period at which a {@link CountersMetricsBridge} walks its counters to add meters for new counters and remove
     * those of freed ones. Values themselves are read live, whenever JMX asks.
     */
    public static final String COUNTERS_POLL_INTERVAL_MS_PROP_NAME = "mdhub.metrics.counters.poll.interval.ms";

    /**
     * Default for {@link #COUNTERS_POLL_INTERVAL_MS_PROP_NAME}: one second.
     */
    public static final long COUNTERS_POLL_INTERVAL_MS_DEFAULT = 1000;

    private MetricsConfiguration()
    {
    }

    /**
     * @return the counters poll period in milliseconds.
     */
    public static long countersPollIntervalMs()
    {
        return ConfigValues.getLong(
            COUNTERS_POLL_INTERVAL_MS_PROP_NAME, COUNTERS_POLL_INTERVAL_MS_DEFAULT, 10, 3_600_000);
    }
}
