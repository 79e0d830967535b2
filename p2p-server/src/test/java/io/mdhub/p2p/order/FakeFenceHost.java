package io.mdhub.p2p.order;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.agrona.CloseHelper;

/**
 * Stands in for a peer's host as a fence sees it: while alive it accepts connections on its port and sends
 * keep-alives on each, as a {@link PeerFence} would; {@link #die()} makes it a crashed host — silent connections and
 * connects that get no answer (its accept queue is left full, so the kernel drops new SYNs); {@link #revive()}
 * answers again. One thread of its own, stopped by {@link #close()}.
 */
final class FakeFenceHost implements AutoCloseable
{
    private final ServerSocketChannel listener;
    private final List<SocketChannel> accepted = new ArrayList<>();
    private final List<SocketChannel> fillers = new ArrayList<>();
    private final ByteBuffer keepAlive = ByteBuffer.allocateDirect(1);
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(64);
    private final Thread thread;
    private volatile boolean isAlive = true;
    private volatile boolean isClosed;
    private volatile long cycles;

    FakeFenceHost()
    {
        try
        {
            listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            listener.configureBlocking(false);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        thread = new Thread(this::run, "fake-fence-host");
        thread.setDaemon(true);
        thread.start();
    }

    int port()
    {
        return listener.socket().getLocalPort();
    }

    private void run()
    {
        while (!isClosed)
        {
            if (isAlive)
            {
                try
                {
                    SocketChannel channel;
                    while (null != (channel = listener.accept()))
                    {
                        channel.configureBlocking(false);
                        accepted.add(channel);
                    }
                    for (int i = accepted.size() - 1; i >= 0; i--)
                    {
                        final SocketChannel connection = accepted.get(i);
                        try
                        {
                            scratch.clear();
                            if (connection.read(scratch) < 0)
                            {
                                CloseHelper.quietClose(connection);
                                accepted.remove(i);
                                continue;
                            }
                            keepAlive.clear();
                            keepAlive.put(0, (byte)'.');
                            connection.write(keepAlive);
                        }
                        catch (final IOException ex)
                        {
                            CloseHelper.quietClose(connection);
                            accepted.remove(i);
                        }
                    }
                }
                catch (final IOException ignore)
                {
                    // accept failed: try again next cycle
                }
            }
            cycles++;
            LockSupport.parkNanos(20_000_000L);
        }
    }

    /**
     * The host crashes: nothing more is written, nothing accepted, and the accept queue is filled.
     */
    void die()
    {
        isAlive = false;
        final long seen = cycles;
        while (cycles < seen + 2 && !isClosed)
        {
            LockSupport.parkNanos(1_000_000L); // the thread is past its last write
        }
        try
        {
            for (int i = 0; i < 2; i++)
            {
                final SocketChannel filler = SocketChannel.open();
                filler.configureBlocking(false);
                filler.connect(listener.getLocalAddress());
                fillers.add(filler);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The host answers again (accepting what waits in its queue).
     */
    void revive()
    {
        for (final SocketChannel filler : fillers)
        {
            CloseHelper.quietClose(filler);
        }
        fillers.clear();
        isAlive = true;
    }

    @Override
    public void close()
    {
        isClosed = true;
        try
        {
            thread.join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        for (final SocketChannel filler : fillers)
        {
            CloseHelper.quietClose(filler);
        }
        for (final SocketChannel connection : accepted)
        {
            CloseHelper.quietClose(connection);
        }
        CloseHelper.quietClose(listener);
    }
}
