package io.mdhub.benchmarks.chaos;

import picocli.CommandLine.Command;

/**
 * {@code bin/mdhub chaos}: {@code orders} breaks an order pair under load, {@code md} the market data path under a
 * consumer that checks every update.
 */
@Command(
    name = "mdhub chaos",
    mixinStandardHelpOptions = true,
    description = "Random kill -9 rounds with a table: 'chaos orders' against an order pair under load, " +
        "'chaos md' against the market data path.",
    subcommands = {OrdersChaos.class, MdChaos.class})
public final class ChaosMain implements Runnable
{
    @Override
    public void run()
    {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
            "name a chaos: orders or md");
    }
}
