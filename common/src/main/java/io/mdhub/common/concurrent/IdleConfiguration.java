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
     * Idle strategy every agent uses unless its component's {@code *.idle.strategy} key says otherwise: it spins a
     * little, yields a little, then parks for up to 1 ms, so an idle process costs almost no CPU.
     */
    public static final String IDLE_STRATEGY_DEFAULT = IdleStrategies.BACKOFF;

    private IdleConfiguration()
    {
    }

    /**
     * @return cores reserved for busy-spinning agents, from {@link #SPIN_CORES_PROP_NAME}.
     */
    public static int spinCores()
    {
        return ConfigValues.getInt(SPIN_CORES_PROP_NAME, SPIN_CORES_DEFAULT);
    }
}
