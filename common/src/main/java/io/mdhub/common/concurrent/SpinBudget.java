package io.mdhub.common.concurrent;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.IdleStrategy;

/**
 * The thread budget rule (STYLE §2.2): a process never runs more busy-spinning agents than the cores reserved for
 * them ({@link IdleConfiguration#SPIN_CORES_PROP_NAME}). A Context adds the idle strategy of every agent thread it
 * will start, then calls {@link #check()} from {@code conclude()}.
 */
public final class SpinBudget
{
    private final String component;
    private final int spinCores;
    private final List<String> spinningAgents = new ArrayList<>();

    /**
     * @param component name of the component, for the message.
     * @param spinCores cores reserved for busy-spinning agents.
     */
    public SpinBudget(final String component, final int spinCores)
    {
        if (spinCores < 0)
        {
            throw new IllegalArgumentException(IdleConfiguration.SPIN_CORES_PROP_NAME + " must be >= 0: " + spinCores);
        }
        this.component = component;
        this.spinCores = spinCores;
    }

    /**
     * Count one agent thread.
     *
     * @param agentName name of the agent (or of the configuration key that chose its strategy).
     * @param strategy  the idle strategy the agent's thread will use.
     * @return this.
     */
    public SpinBudget add(final String agentName, final IdleStrategy strategy)
    {
        if (IdleStrategies.isBusySpinning(strategy))
        {
            spinningAgents.add(agentName + "=" + strategy.getClass().getSimpleName());
        }
        return this;
    }

    /**
     * @return agents added so far whose strategy busy-spins.
     */
    public int spinningAgentCount()
    {
        return spinningAgents.size();
    }

    /**
     * @return the cores reserved for spinning.
     */
    public int spinCores()
    {
        return spinCores;
    }

    /**
     * @throws IllegalArgumentException if more agents busy-spin than cores are reserved.
     */
    public void check()
    {
        if (spinningAgents.size() > spinCores)
        {
            throw new IllegalArgumentException(component + ": " + spinningAgents.size() +
                " busy-spinning agent(s) " + spinningAgents + " but " + IdleConfiguration.SPIN_CORES_PROP_NAME + "=" +
                spinCores + "; use backoff or sleep-* idle strategies, or reserve more cores");
        }
    }
}
