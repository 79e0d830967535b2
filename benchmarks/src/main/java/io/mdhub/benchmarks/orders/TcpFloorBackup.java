package io.mdhub.benchmarks.orders;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;

/**
 * The backup of the TCP floor: it accepts the primary's connection and, on one thread, reads every order frame
 * from it and writes the order's answer back on the same socket at once. Nothing is stored. When the primary
 * goes, it waits for the next one.
 */
final class TcpFloorBackup implements AutoCloseable
{
    private static final long JOIN_MS = TimeUnit.SECONDS.toMillis(5);

    private final ServerSocket server;
    private final Thread thread;
    private volatile Socket primary;
    private volatile boolean isClosed;
    private volatile long answered;

    private TcpFloorBackup(final ServerSocket server)
    {
        this.server = server;
        this.thread = new Thread(this::run, "tcp-floor-backup");
        this.thread.setDaemon(true);
    }

    /**
     * Listen and answer.
     *
     * @param address where to listen (port 0 for any free one).
     * @return the running backup.
     * @throws IOException when it cannot listen there.
     */
    static TcpFloorBackup start(final InetSocketAddress address) throws IOException
    {
        final ServerSocket server = new ServerSocket();
        try
        {
            server.bind(address);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(server);
            throw ex;
        }
        final TcpFloorBackup backup = new TcpFloorBackup(server);
        backup.thread.start();
        return backup;
    }

    /**
     * @return the port it listens on.
     */
    int port()
    {
        return server.getLocalPort();
    }

    /**
     * @return orders answered so far.
     */
    long answered()
    {
        return answered;
    }

    private void run()
    {
        final TcpFloorFrame.Writer writer = new TcpFloorFrame.Writer();
        while (!isClosed)
        {
            try (Socket socket = server.accept())
            {
                socket.setTcpNoDelay(true);
                primary = socket;
                final TcpFloorFrame.Reader reader = new TcpFloorFrame.Reader(socket.getInputStream());
                final OutputStream out = socket.getOutputStream();
                while (reader.read())
                {
                    writer.writeAnswer(out, reader.connectionId, reader.clientId, reader.orderId);
                    answered++; // this thread only writes it
                }
            }
            catch (final IOException | IllegalStateException ex)
            {
                if (!isClosed)
                {
                    System.err.println("tcp floor backup: the primary's connection failed: " + ex);
                }
            }
            finally
            {
                primary = null;
            }
        }
    }

    @Override
    public void close()
    {
        isClosed = true;
        CloseHelper.quietClose(server);
        CloseHelper.quietClose(primary);
        try
        {
            thread.join(JOIN_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
