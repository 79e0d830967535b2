package io.mdhub.common.ripc;

import java.net.InetAddress;

import io.mdhub.common.net.AddressBudget;

/**
 * What one remote address may cost a RIPC listener ({@link AddressBudget} with the RIPC keys): at most so many
 * connections in their RIPC handshake at once, and new connections at a bounded rate. Shared by the listener's event
 * loops (thread safe).
 */
final class RipcAddressBudget
{
    private final AddressBudget budget;

    /**
     * @param maxHandshakes    connections of one address in their handshake at once.
     * @param acceptsPerSecond new connections one address may open a second (also the burst).
     */
    RipcAddressBudget(final int maxHandshakes, final long acceptsPerSecond)
    {
        budget = new AddressBudget(maxHandshakes, acceptsPerSecond, RipcConfiguration.ADDRESS_MAX_HANDSHAKES_PROP_NAME,
            RipcConfiguration.ADDRESS_ACCEPT_RATE_PROP_NAME);
    }

    /**
     * @param address the remote address of a connection just accepted.
     * @param nowNs   now.
     * @return null if admitted (its handshake counts until {@link #handshakeEnded}), else why it is refused.
     */
    String admit(final InetAddress address, final long nowNs)
    {
        return budget.admit(address, nowNs);
    }

    /**
     * The handshake of an admitted connection is over (completed, or the connection closed).
     */
    void handshakeEnded(final InetAddress address)
    {
        budget.handshakeEnded(address);
    }

    /**
     * @return addresses with an entry (for tests).
     */
    int addresses()
    {
        return budget.addresses();
    }
}
