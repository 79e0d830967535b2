package io.mdhub.benchmarks.peers;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options both ends of a peer take: which system, where, and how many items.
 */
final class PeerOptions
{
    @Option(names = "--system", required = true, description = "redis, nats, mdhub-eta, relay or relay2.")
    String system;

    @Option(names = "--port", required = true, description = "The server's port on 127.0.0.1 (a relay's; for " +
        "mdhub-eta the distributor's or the p2p-server's).")
    int port;

    @Option(names = "--items", description = "Items, a channel or subject each (default ${DEFAULT-VALUE}).")
    int items = 100_000;

    /**
     * @param commandLine for the error.
     * @return the system.
     * @throws CommandLine.ParameterException on a bad value.
     */
    PeerSystem checked(final CommandLine commandLine)
    {
        if (items < 1)
        {
            throw new CommandLine.ParameterException(commandLine, "--items must be positive: " + items);
        }
        try
        {
            return PeerSystem.of(system);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(commandLine, ex.getMessage());
        }
    }
}
