package io.mdhub.p2p.order;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.util.ArrayList;

import org.agrona.CloseHelper;

import io.mdhub.common.net.SocketPoller;

/**
 * Tells a dead peer from a silent one, which heartbeats alone cannot. Each server listens on a TCP port and keeps a
 * connection open to its peer's; both ends of every fence connection send a keep-alive byte every
 * {@code timeout / 4} and read whatever arrives. Non-blocking, served from the order agent's duty cycle: its
 * channels are {@link #watchOn watched} on the agent's poller, so the fence runs when one of them is ready or one
 * of its timers (a keep-alive, a silence timeout, a connect timeout, a retry) is due, and costs nothing between.
 * <p>
 * What counts as what (the order agent takes over only on {@link State#DOWN}):
 * <ul>
 *     <li><b>UP</b>: the outbound connection is established and a byte arrived within the timeout.</li>
 *     <li><b>Connection lost</b> — end of stream, a reset, a failed write, or no byte for {@code timeout} (a crashed
 *     host sends no reset: its connection just goes quiet) — is not a verdict: the connection is closed and a new
 *     connect is tried at once; the state is UNKNOWN until that connect decides.</li>
 *     <li><b>DOWN</b> ("certainly dead"): a connect REFUSED — the peer's host answered that nothing listens on the
 *     fence port, which only happens when the peer process is not running (it binds the port before it serves and
 *     holds it until it exits). A host that rebooted without the process answers the same way.</li>
 *     <li><b>UNKNOWN</b> ("maybe alive"): a connect that gets no answer within {@code connectTimeout} (a dead or
 *     cut-off host, a network that drops packets) or fails for any other reason (no route, network unreachable,
 *     an unresolvable name). The peer may be alive and serving on the other side of a partition, so nothing is taken
 *     over automatically; an operator who has made sure the peer is dead uses
 *     {@link OrderServiceMXBean#takeOverPeerPartitions(String)}.</li>
 * </ul>
 * A firewall that answers the fence port with a reset (REJECT with tcp-reset) makes a live peer look DOWN: fence
 * ports must be reachable or silently dropped, never rejected.
 */
final class PeerFence implements AutoCloseable, RoleFence
{
    /**
     * What the fence knows of the peer process.
     */
    enum State
    {
        /** No verdict: connecting, or the peer's host does not answer (it may be alive). */
        UNKNOWN,
        /** A connection to the peer's fence port is open and the peer's keep-alives arrive. */
        UP,
        /** The peer's host refused a connection to the fence port: the peer process is not running. */
        DOWN
    }

    private static final long RETRY_INTERVAL_NS = 100_000_000L;

    /**
     * A connection the peer opened to this server's fence port.
     */
    private static final class Accepted
    {
        final SocketChannel channel;
        final InetSocketAddress remote;
        boolean isProven;
        long heardNs;
        long nextKeepAliveNs;

        Accepted(final SocketChannel channel, final InetSocketAddress remote, final long nowNs)
        {
            this.channel = channel;
            this.remote = remote;
            this.heardNs = nowNs;
        }
    }

    private final ServerSocketChannel listener;
    private final AddressGate gate;
    private final SocketPoller.ReadyHandler onReady = this::onReady;
    private final InetSocketAddress peerAddress;
    private final long timeoutNs;
    private final long keepAliveIntervalNs;
    private final long connectTimeoutNs;
    private final ArrayList<Accepted> accepted = new ArrayList<>();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(64);
    private final ByteBuffer keepAlive = ByteBuffer.allocateDirect(1);
    private SocketPoller poller;
    private boolean isReady;
    private SocketChannel outbound;
    private SelectionKey outboundKey;
    private boolean isConnecting;
    private long connectStartedNs;
    private long outboundHeardNs;
    private long outboundNextKeepAliveNs;
    private long nextAttemptNs;
    private State state = State.UNKNOWN;
    private long downSinceNs;
    private long connectionsLost;
    private String reason = "not connected yet";
    private boolean isUnreachable;

    /**
     * @param bindAddress      where this server's fence listens.
     * @param peerAddress      the peer's fence.
     * @param timeoutNs        silence after which a fence connection counts as lost.
     * @param connectTimeoutNs how long a connect may stay unanswered before the state is UNKNOWN.
     * @param gate             what one remote address may cost the fence port: a connection counts as in its
     *                         handshake until its first byte arrives; one over the budget is closed as accepted.
     */
    PeerFence(
        final InetSocketAddress bindAddress,
        final InetSocketAddress peerAddress,
        final long timeoutNs,
        final long connectTimeoutNs,
        final AddressGate gate)
    {
        this.gate = gate;
        this.peerAddress = peerAddress;
        this.timeoutNs = timeoutNs;
        this.keepAliveIntervalNs = Math.max(1_000_000L, timeoutNs / 4);
        this.connectTimeoutNs = connectTimeoutNs;
        keepAlive.put(0, (byte)'.');
        try
        {
            listener = ServerSocketChannel.open();
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(bindAddress);
            listener.configureBlocking(false);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot listen for the peer fence on " + bindAddress, ex);
        }
    }

    /**
     * @return the bound port (for an ephemeral bind).
     */
    int port()
    {
        return listener.socket().getLocalPort();
    }

    /**
     * Watch the fence's channels on the owner's poller from now on: {@link #isDue} then says when to {@link #poll}.
     * Without it, the owner polls on a timer of its own.
     *
     * @param poller the owner's poller, served on the thread that polls the fence.
     */
    void watchOn(final SocketPoller poller)
    {
        this.poller = poller;
        poller.watch(listener, SelectionKey.OP_ACCEPT, onReady);
        if (null != outbound)
        {
            outboundKey = watch(outbound, isConnecting ? SelectionKey.OP_CONNECT : SelectionKey.OP_READ);
        }
        for (final Accepted connection : accepted)
        {
            watch(connection.channel, SelectionKey.OP_READ);
        }
    }

    private int onReady(final SelectionKey key)
    {
        isReady = true;
        return 0; // the work is the poll this makes due
    }

    /**
     * @param nowNs the duty cycle's clock.
     * @return true when a watched channel is ready or a timer of the fence is due: time to {@link #poll}.
     */
    boolean isDue(final long nowNs)
    {
        return isReady || nowNs - deadlineNs() >= 0;
    }

    /**
     * @param nowNs the duty cycle's clock.
     * @return when the fence must next be polled without a channel being ready; {@code nowNs} when one is.
     */
    long deadlineNs(final long nowNs)
    {
        return isReady ? nowNs : deadlineNs();
    }

    private long deadlineNs()
    {
        long deadlineNs;
        if (null == outbound)
        {
            deadlineNs = nextAttemptNs;
        }
        else if (isConnecting)
        {
            deadlineNs = connectStartedNs + connectTimeoutNs + 1;
        }
        else
        {
            deadlineNs = Math.min(outboundNextKeepAliveNs, outboundHeardNs + timeoutNs + 1);
        }
        for (int i = 0, size = accepted.size(); i < size; i++)
        {
            final Accepted connection = accepted.get(i);
            deadlineNs = Math.min(deadlineNs, Math.min(connection.nextKeepAliveNs, connection.heardNs + timeoutNs + 1));
        }
        return deadlineNs;
    }

    /**
     * Accept and serve the peer's connections; connect, keep alive and watch this server's own.
     *
     * @param nowNs the duty cycle's clock.
     * @return work done.
     */
    int poll(final long nowNs)
    {
        isReady = false;
        int work = acceptAndServe(nowNs);
        if (null == outbound)
        {
            if (nowNs >= nextAttemptNs)
            {
                work += connect(nowNs);
            }
        }
        else if (isConnecting)
        {
            work += finishConnect(nowNs);
        }
        else
        {
            work += serveOutbound(nowNs);
        }
        return work;
    }

    private int acceptAndServe(final long nowNs)
    {
        int work = 0;
        try
        {
            for (SocketChannel channel = listener.accept(); null != channel; channel = listener.accept())
            {
                work++;
                admit(channel, nowNs);
            }
        }
        catch (final IOException ignore)
        {
            // a failed accept leaves the peer to connect again
        }
        for (int i = accepted.size() - 1; i >= 0; i--)
        {
            final Accepted connection = accepted.get(i);
            try
            {
                final int read = readAll(connection.channel);
                if (read > 0)
                {
                    connection.heardNs = nowNs;
                    proven(connection);
                }
                if (read < 0 || nowNs - connection.heardNs > timeoutNs)
                {
                    // closed by the peer, or silent: its side reconnects if it is alive
                    closeAccepted(i);
                    work++;
                    continue;
                }
                if (nowNs >= connection.nextKeepAliveNs)
                {
                    connection.nextKeepAliveNs = nowNs + keepAliveIntervalNs;
                    sendKeepAlive(connection.channel);
                }
            }
            catch (final IOException ex)
            {
                closeAccepted(i);
                work++;
            }
        }
        return work;
    }

    /**
     * A fence connection whose first byte arrived speaks the fence: it no longer counts against its address's
     * handshake budget.
     */
    private void proven(final Accepted connection)
    {
        if (!connection.isProven)
        {
            connection.isProven = true;
            gate.handshakeEnded(connection.remote);
        }
    }

    private void closeAccepted(final int index)
    {
        final Accepted connection = accepted.remove(index);
        proven(connection);
        CloseHelper.quietClose(connection.channel);
    }

    /**
     * Take an accepted connection on, or close it: over its address's budget, or reset between the accept and its
     * set-up (then its budget slot is given back too).
     */
    private void admit(final SocketChannel channel, final long nowNs)
    {
        InetSocketAddress remote = null;
        try
        {
            remote = (InetSocketAddress)channel.getRemoteAddress();
            if (!gate.admit(remote))
            {
                CloseHelper.quietClose(channel);
                return;
            }
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            accepted.add(new Accepted(channel, remote, nowNs));
            watch(channel, SelectionKey.OP_READ);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(channel);
            if (null != remote)
            {
                gate.abandoned(remote);
            }
        }
    }

    /**
     * @return bytes read, or -1 at end of stream.
     */
    private int readAll(final SocketChannel channel) throws IOException
    {
        int total = 0;
        int read;
        do
        {
            scratch.clear();
            read = channel.read(scratch);
            if (read < 0)
            {
                return -1;
            }
            total += read;
        }
        while (read == scratch.capacity());
        return total;
    }

    private SelectionKey watch(final SocketChannel channel, final int ops)
    {
        return null == poller ? null : poller.watch(channel, ops, onReady);
    }

    private void sendKeepAlive(final SocketChannel channel) throws IOException
    {
        keepAlive.clear();
        channel.write(keepAlive); // 0 written (send buffer full) is fine: the peer reads nothing and times out
    }

    private int connect(final long nowNs)
    {
        try
        {
            outbound = SocketChannel.open();
            outbound.configureBlocking(false);
            outbound.setOption(StandardSocketOptions.TCP_NODELAY, true);
            connectStartedNs = nowNs;
            isConnecting = !outbound.connect(peerAddress);
            outboundKey = watch(outbound, isConnecting ? SelectionKey.OP_CONNECT : SelectionKey.OP_READ);
            if (!isConnecting)
            {
                connected(nowNs);
            }
        }
        catch (final IOException | UnresolvedAddressException ex)
        {
            connectFailed(nowNs, ex);
        }
        return 1;
    }

    private int finishConnect(final long nowNs)
    {
        try
        {
            if (outbound.finishConnect())
            {
                connected(nowNs);
                if (null != outboundKey)
                {
                    outboundKey.interestOps(SelectionKey.OP_READ); // a connectable key is ready on every poll
                }
                return 1;
            }
        }
        catch (final IOException ex)
        {
            connectFailed(nowNs, ex);
            return 1;
        }
        if (nowNs - connectStartedNs > connectTimeoutNs)
        {
            closeOutbound(nowNs);
            unknown("no answer to a connect within " + connectTimeoutNs / 1_000_000 + " ms");
            isUnreachable = true;
            return 1;
        }
        return 0;
    }

    private void connected(final long nowNs)
    {
        isConnecting = false;
        outboundHeardNs = nowNs;
        outboundNextKeepAliveNs = nowNs;
        state = State.UP;
        reason = "connected";
        isUnreachable = false;
    }

    private int serveOutbound(final long nowNs)
    {
        try
        {
            final int read = readAll(outbound);
            if (read < 0)
            {
                lost(nowNs, "closed by the peer");
                return 1;
            }
            if (read > 0)
            {
                outboundHeardNs = nowNs;
            }
            else if (nowNs - outboundHeardNs > timeoutNs)
            {
                lost(nowNs, "silent for " + (nowNs - outboundHeardNs) / 1_000_000 + " ms");
                return 1;
            }
            if (nowNs >= outboundNextKeepAliveNs)
            {
                outboundNextKeepAliveNs = nowNs + keepAliveIntervalNs;
                sendKeepAlive(outbound);
            }
        }
        catch (final IOException ex)
        {
            lost(nowNs, "reset: " + ex.getMessage());
            return 1;
        }
        return 0;
    }

    /**
     * The established connection is gone; a new connect decides what that means.
     */
    private void lost(final long nowNs, final String why)
    {
        connectionsLost++;
        closeOutbound(nowNs);
        nextAttemptNs = nowNs; // at once
        unknown("connection lost (" + why + "), reconnecting");
    }

    private void connectFailed(final long nowNs, final Exception ex)
    {
        closeOutbound(nowNs);
        if (isRefused(ex))
        {
            if (State.DOWN != state)
            {
                downSinceNs = nowNs;
            }
            state = State.DOWN;
            reason = "connect refused: the peer process is not running";
            isUnreachable = false;
        }
        else
        {
            unknown("connect failed: " + ex);
            isUnreachable = true;
        }
    }

    private static boolean isRefused(final Exception ex)
    {
        final String message = ex.getMessage();
        return ex instanceof ConnectException && null != message && message.toLowerCase().contains("refused");
    }

    private void unknown(final String why)
    {
        state = State.UNKNOWN;
        reason = why;
        isUnreachable = false;
    }

    private void closeOutbound(final long nowNs)
    {
        CloseHelper.quietClose(outbound);
        outbound = null;
        outboundKey = null;
        isConnecting = false;
        nextAttemptNs = nowNs + RETRY_INTERVAL_NS;
    }

    /**
     * @return the peer process's state as far as the fence can tell.
     */
    @Override
    public State state()
    {
        return state;
    }

    /**
     * @return why the fence is in its state (for logs and JMX).
     */
    @Override
    public String reason()
    {
        return reason;
    }

    /**
     * @return true if the last connect got no answer or failed other than by a refusal (the peer's host or the
     * network is not answering): UNKNOWN, and more than a reconnect in progress.
     */
    @Override
    public boolean isUnreachable()
    {
        return isUnreachable;
    }

    /**
     * @return established connections lost so far (closed, reset or silent).
     */
    @Override
    public long connectionsLost()
    {
        return connectionsLost;
    }

    /**
     * @return when the fence first saw the peer down (meaningful while {@link State#DOWN}).
     */
    @Override
    public long downSinceNs()
    {
        return downSinceNs;
    }

    @Override
    public void close()
    {
        CloseHelper.quietClose(outbound);
        for (final Accepted connection : accepted)
        {
            CloseHelper.quietClose(connection.channel);
        }
        CloseHelper.quietClose(listener);
        gate.flushLog();
    }
}
