package io.mdhub.common.latency;

import io.mdhub.common.config.ConfigValues;

/**
 * Latency recording settings. The only place that reads them from system properties.
 */
public final class LatencyConfiguration
{
    /**
     * Largest latency in nanoseconds a histogram resolves; larger values are recorded as this value and counted.
     */
    public static final String HIGHEST_TRACKABLE_NS_PROP_NAME = "mdhub.latency.highest.trackable.ns";

    /**
     * Default for {@link #HIGHEST_TRACKABLE_NS_PROP_NAME}: 60 s, far above any pause we expect to see.
     */
    public static final long HIGHEST_TRACKABLE_NS_DEFAULT = 60_000_000_000L;

    /**
     * Significant decimal digits histograms keep (1 to 5); 3 means values are exact to 0.1%.
     */
    public static final String SIGNIFICANT_DIGITS_PROP_NAME = "mdhub.latency.significant.digits";

    /**
     * Default for {@link #SIGNIFICANT_DIGITS_PROP_NAME}.
     */
    public static final int SIGNIFICANT_DIGITS_DEFAULT = 3;

    private LatencyConfiguration()
    {
    }

    /**
     * @return highest trackable latency in nanoseconds.
     */
    public static long highestTrackableNs()
    {
        return ConfigValues.getLong(
            HIGHEST_TRACKABLE_NS_PROP_NAME, HIGHEST_TRACKABLE_NS_DEFAULT, 1_000_000L, 86_400_000_000_000L);
    }

    /**
     * @return significant digits of histograms.
     */
    public static int significantDigits()
    {
        return ConfigValues.getInt(SIGNIFICANT_DIGITS_PROP_NAME, SIGNIFICANT_DIGITS_DEFAULT, 0, 5);
    }
}
