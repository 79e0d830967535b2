package io.mdhub.p2p.order;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;

import org.agrona.CloseHelper;

/**
 * Tells a dead peer from a silent one, which heartbeats alone cannot: each server listens on a TCP port and keeps a
 * connection open to its peer's. When the peer PROCESS dies its kernel closes that connection (end of stream or
 * reset) and later connects are refused: the peer is {@link State#DOWN}, certainly, and its partitions may be taken
 * over. When the peer's host or the network is gone nothing answers at all: the state stays {@link State#UP} or
 * {@link State#UNKNOWN} and the server must not take over (split-brain protection). Non-blocking, polled from the
 * order agent's duty cycle; nothing but the connection itself is exchanged.
 */
final class PeerFence implements AutoCloseable
{
    /**
     * What the fence knows of the peer process.
     */
    enum State
    {
        /** No answer yet (connecting, or the peer's host is not answering). */
        UNKNOWN,
        /** A connection to the peer's fence port is open. */
        UP,
        /** The peer's kernel refused or closed the connection: the process is not running. */
        DOWN
    }

    private static final long RETRY_INTERVAL_NS = 100_000_000L;

    private final ServerSocketChannel listener;
    private final InetSocketAddress peerAddress;
    private final ArrayList<SocketChannel> accepted = new ArrayList<>();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(64);
    private SocketChannel outbound;
    private boolean isConnecting;
    private long nextAttemptNs;
    private State state = State.UNKNOWN;
    private long downSinceNs;

    PeerFence(final InetSocketAddress bindAddress, final InetSocketAddress peerAddress)
    {
        this.peerAddress = peerAddress;
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
     * Accept, connect, and read the end of stream of a dead peer.
     *
     * @return work done.
     */
    int poll(final long nowNs)
    {
        int work = acceptAndDrain();
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
            work += readOutbound(nowNs);
        }
        return work;
    }

    private int acceptAndDrain()
    {
        int work = 0;
        try
        {
            SocketChannel channel;
            while (null != (channel = listener.accept()))
            {
                channel.configureBlocking(false);
                accepted.add(channel);
                work++;
            }
        }
        catch (final IOException ignore)
        {
            // a failed accept leaves the peer to connect again
        }
        for (int i = accepted.size() - 1; i >= 0; i--)
        {
            final SocketChannel channel = accepted.get(i);
            try
            {
                scratch.clear();
                if (channel.read(scratch) < 0)
                {
                    CloseHelper.quietClose(channel);
                    accepted.remove(i);
                }
            }
            catch (final IOException ex)
            {
                CloseHelper.quietClose(channel);
                accepted.remove(i);
            }
        }
        return work;
    }

    private int connect(final long nowNs)
    {
        try
        {
            outbound = SocketChannel.open();
            outbound.configureBlocking(false);
            isConnecting = !outbound.connect(peerAddress);
            if (!isConnecting)
            {
                state = State.UP;
            }
        }
        catch (final IOException ex)
        {
            down(nowNs);
        }
        return 1;
    }

    private int finishConnect(final long nowNs)
    {
        try
        {
            if (outbound.finishConnect())
            {
                isConnecting = false;
                state = State.UP;
                return 1;
            }
        }
        catch (final IOException ex)
        {
            down(nowNs); // refused: nothing listens on the peer's port
            return 1;
        }
        return 0;
    }

    private int readOutbound(final long nowNs)
    {
        try
        {
            scratch.clear();
            if (outbound.read(scratch) < 0)
            {
                down(nowNs);
                return 1;
            }
        }
        catch (final IOException ex)
        {
            down(nowNs);
            return 1;
        }
        return 0;
    }

    private void down(final long nowNs)
    {
        CloseHelper.quietClose(outbound);
        outbound = null;
        isConnecting = false;
        if (State.DOWN != state)
        {
            downSinceNs = nowNs;
        }
        state = State.DOWN;
        nextAttemptNs = nowNs + RETRY_INTERVAL_NS;
    }

    /**
     * @return the peer process's state as far as the fence can tell.
     */
    State state()
    {
        return state;
    }

    /**
     * @return when the fence first saw the peer down (meaningful while {@link State#DOWN}).
     */
    long downSinceNs()
    {
        return downSinceNs;
    }

    @Override
    public void close()
    {
        CloseHelper.quietClose(outbound);
        for (final SocketChannel channel : accepted)
        {
            CloseHelper.quietClose(channel);
        }
        CloseHelper.quietClose(listener);
    }
}
