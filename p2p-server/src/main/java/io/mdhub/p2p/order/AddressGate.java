package io.mdhub.p2p.order;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;

import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.log.LogSummary;
import io.mdhub.common.net.AddressBudget;
import io.mdhub.common.net.FrameConnection;
import io.mdhub.common.net.SocketPoller;

/**
 * The per-address budget of one order listening port (the client port, the peer port or the fence port), on the
 * order agent's thread: a remote address may have at most {@code mdhub.order.address.max.handshakes} connections
 * open that have not yet proven they speak their protocol (a client's hello, any valid message of the peer, the
 * fence's first keep-alive byte) and open at most
 * {@code mdhub.order.address.accept.rate} new ones a second. A connection over either is closed as it is accepted,
 * before a buffer is made for it ({@code order-connections-refused}, a summarised warning), so a flood from one
 * address costs the order thread an accept and a close per connection and no other client its acknowledgements.
 * <p>
 * With a handshake timeout (the client port's {@code mdhub.order.handshake.timeout}) a connection that has not
 * proven itself in that time — silent, stuck in its TLS handshake, or through it and never saying hello — is closed
 * ({@link #closeExpired}, counted and logged summed up), so that it holds neither its buffers nor its address's
 * budget for ever. Connections are timed in the order they opened: one deque, no timer per connection.
 */
final class AddressGate implements SocketPoller.AcceptFilter
{
    private static final Logger LOG = LoggerFactory.getLogger(AddressGate.class);

    private final int serverId;
    private final String port;
    private final AddressBudget budget;
    private final AtomicCounter refused;
    private final LogSummary refusals;
    private final IdentityHashMap<FrameConnection, InetAddress> inHandshake = new IdentityHashMap<>();
    private final long handshakeTimeoutNs;
    private final AtomicCounter timeouts;
    private final LogSummary timeoutLog;
    private final ArrayDeque<FrameConnection> byAge = new ArrayDeque<>();
    private final ArrayDeque<Long> deadlines = new ArrayDeque<>();

    /**
     * @param port             the port's name in logs ("order port", "peer port", "fence port").
     * @param maxHandshakes    connections of one address open without a first valid message.
     * @param acceptsPerSecond new connections one address may open a second.
     * @param refused          counts the connections closed as accepted.
     */
    AddressGate(
        final int serverId,
        final String port,
        final int maxHandshakes,
        final int acceptsPerSecond,
        final AtomicCounter refused)
    {
        this(serverId, port, maxHandshakes, acceptsPerSecond, refused, Long.MAX_VALUE, null);
    }

    /**
     * @param port               the port's name in logs.
     * @param maxHandshakes      connections of one address open without a first valid message.
     * @param acceptsPerSecond   new connections one address may open a second.
     * @param refused            counts the connections closed as accepted.
     * @param handshakeTimeoutNs how long a connection may stay open without a first valid message.
     * @param timeouts           counts the connections closed for it.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    AddressGate(
        final int serverId,
        final String port,
        final int maxHandshakes,
        final int acceptsPerSecond,
        final AtomicCounter refused,
        final long handshakeTimeoutNs,
        final AtomicCounter timeouts)
    {
        this.handshakeTimeoutNs = handshakeTimeoutNs;
        this.timeouts = timeouts;
        this.timeoutLog = new LogSummary(LOG, "order server " + serverId + " " + port, "handshake timeouts", 1);
        this.serverId = serverId;
        this.port = port;
        this.budget = new AddressBudget(maxHandshakes, acceptsPerSecond,
            OrderServiceConfiguration.ADDRESS_MAX_HANDSHAKES_PROP_NAME,
            OrderServiceConfiguration.ADDRESS_ACCEPT_RATE_PROP_NAME);
        this.refused = refused;
        this.refusals = new LogSummary(LOG, "order server " + serverId + " " + port, "refused connections", 1);
    }

    @Override
    public boolean admit(final InetSocketAddress remote)
    {
        final String why = budget.admit(remote.getAddress(), System.nanoTime());
        if (null == why)
        {
            return true;
        }
        refused.increment();
        if (refusals.admit(0, "address-budget", true, why))
        {
            LOG.warn("order server {}: {} connection from {} closed as accepted: {}", serverId, port, remote, why);
        }
        return false;
    }

    @Override
    public void abandoned(final InetSocketAddress remote)
    {
        handshakeEnded(remote);
    }

    /**
     * The handshake of a connection admitted from this address is over (for a listener that keeps its own
     * connections, as the fence does; {@link #established} for a {@link FrameConnection}).
     */
    void handshakeEnded(final InetSocketAddress remote)
    {
        budget.handshakeEnded(remote.getAddress());
    }

    /**
     * An admitted connection is open: it counts as in its handshake until {@link #established} or {@link #closed}.
     */
    void opened(final FrameConnection connection)
    {
        final InetSocketAddress remote = connection.remoteSocketAddress();
        if (null != remote)
        {
            inHandshake.put(connection, remote.getAddress());
            if (Long.MAX_VALUE != handshakeTimeoutNs)
            {
                byAge.addLast(connection);
                deadlines.addLast(System.nanoTime() + handshakeTimeoutNs); // boxed: per connection, not message
            }
        }
    }

    /**
     * @return when the oldest connection still in its handshake times out; {@link Long#MAX_VALUE} for none.
     */
    long deadlineNs()
    {
        while (!byAge.isEmpty() && !inHandshake.containsKey(byAge.peekFirst()))
        {
            byAge.pollFirst(); // established or closed meanwhile
            deadlines.pollFirst();
        }
        return byAge.isEmpty() ? Long.MAX_VALUE : deadlines.peekFirst();
    }

    /**
     * Close the connections past their handshake timeout.
     *
     * @param nowNs the time.
     * @return connections closed.
     */
    int closeExpired(final long nowNs)
    {
        int closed = 0;
        for (long deadlineNs = deadlineNs(); Long.MAX_VALUE != deadlineNs && deadlineNs - nowNs <= 0;
            deadlineNs = deadlineNs())
        {
            final FrameConnection connection = byAge.pollFirst();
            deadlines.pollFirst();
            timeouts.increment();
            closed++;
            final String why = connection.isTlsReady() ? "no hello" : "TLS handshake not completed";
            if (timeoutLog.admit(0, "handshake-timeout", true, connection.remoteAddress() + ": " + why))
            {
                LOG.warn("order server {}: {} connection from {} closed: {} within {} ms", serverId, port,
                    connection.remoteAddress(), why, handshakeTimeoutNs / 1_000_000);
            }
            connection.close(why + " within the handshake timeout"); // closed() takes it out of inHandshake
        }
        return closed;
    }

    /**
     * The connection spoke the protocol: it no longer counts against its address's handshakes.
     */
    void established(final FrameConnection connection)
    {
        if (!inHandshake.isEmpty())
        {
            final InetAddress address = inHandshake.remove(connection);
            if (null != address)
            {
                budget.handshakeEnded(address);
            }
        }
    }

    void closed(final FrameConnection connection)
    {
        established(connection);
    }

    /**
     * @return connections open and not yet established (for tests).
     */
    int inHandshake()
    {
        return inHandshake.size();
    }

    /**
     * Log the summaries of refusals still pending.
     */
    void flushLog()
    {
        refusals.flush();
        timeoutLog.flush();
    }
}
