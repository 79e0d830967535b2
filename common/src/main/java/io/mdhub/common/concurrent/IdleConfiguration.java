package io.mdhub.common.concurrent;

import io.mdhub.common.config.ConfigValues;

/**
 * Process-wide threading settings. The only place that reads them from system properties.
 */
public final class IdleConfiguration
{
    /**
     * Cores reserved for busy-spinning agents in this process. Conclude fails when more agents are configured with a
     * busy-spinning idle strategy ({@link IdleStrategies#isBusySpinning}). Zero means no agent may spin.
     */
    public static final String SPIN_CORES_PROP_NAME = "mdhub.spin.cores";

    /**
     * Default for {@link #SPIN_CORES_PROP_NAME}: none, because our hosts have two cores shared by several processes.
     */
    public static final int SPIN_CORES_DEFAULT = 0;

    /**
     * Idle strategy of the backbone daemon's media driver unless its keys say otherwise: no spins, no yields, parks
     * from 1 µs doubling to 10 ms. Busy, it parks a few µs between duty cycles; idle, it wakes about a hundred
     * times a second. On one host the driver carries no data (IPC): it only moves publication limits, which a busy
     * stream keeps it awake for anyway. A UDP backbone's receiver waits up to the longest park after a quiet spell;
     * see the operations guide for the settings that trade CPU for that.
     */
    public static final String IDLE_STRATEGY_DEFAULT = IdleStrategies.BACKOFF + ":0,0,1000,10000000";

    private IdleConfiguration()
    {
    }

    /**
     * @return cores reserved for busy-spinning agents, from {@link #SPIN_CORES_PROP_NAME}.
     */
    public static int spinCores()
    {
        return ConfigValues.getInt(SPIN_CORES_PROP_NAME, SPIN_CORES_DEFAULT, 0, 1024);
    }
}
