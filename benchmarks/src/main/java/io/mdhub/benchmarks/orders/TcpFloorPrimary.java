package io.mdhub.benchmarks.orders;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

import org.agrona.CloseHelper;

/**
 * The primary of the TCP floor: clients connect to it, each order goes on to the backup and the backup's answer
 * comes back to the client. Built the plainest way on purpose, as the floor under any replicated order service on
 * the host: blocking sockets, TCP_NODELAY, a thread per client connection that reads the client's order and writes
 * it to the ONE socket to the backup (writes serialised by a lock, frames tagged with the connection's id), one
 * thread that reads the backup's answers and writes each to the connection it names. Nothing is stored, nothing is
 * parsed, nothing is batched: two synchronous round trips over loopback per order, one thread hand-off in the
 * primary each way. (A thread per connection is what our servers avoid; here it is the simplest correct thing, and
 * that is what a floor should be.)
 * <p>
 * A client connection that fails closes alone: its thread ends, its slot is freed, answers still on the way to it
 * are dropped and counted. When the backup's connection ends, every client connection is closed, so no client waits
 * for answers that will never come.
 */
final class TcpFloorPrimary implements AutoCloseable
{
    /** Most client connections open at once. */
    static final int MAX_CONNECTIONS = 4096;
    private static final int SLOT_BITS = 12;
    private static final int SLOT_MASK = MAX_CONNECTIONS - 1;
    private static final int GENERATION_MASK = (1 << (Integer.SIZE - 1 - SLOT_BITS)) - 1;
    private static final long BACKUP_RETRY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long JOIN_MS = TimeUnit.SECONDS.toMillis(5);

    private final ServerSocket server;
    private final Socket backup;
    private final OutputStream toBackup;
    private final Object backupWriteLock = new Object();
    private final AtomicReferenceArray<Connection> connections = new AtomicReferenceArray<>(MAX_CONNECTIONS);
    private final Thread acceptor;
    private final Thread router;
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private volatile boolean isClosed;
    private int generation;

    private TcpFloorPrimary(final ServerSocket server, final Socket backup) throws IOException
    {
        this.server = server;
        this.backup = backup;
        this.toBackup = backup.getOutputStream();
        this.acceptor = new Thread(this::accept, "tcp-floor-accept");
        this.router = new Thread(this::routeAnswers, "tcp-floor-answers");
        acceptor.setDaemon(true);
        router.setDaemon(true);
    }

    /**
     * Connect to the backup (retrying until the time is up, as it may be starting too), then listen for clients.
     *
     * @param address        where to listen for clients (port 0 for any free one).
     * @param backupAddress  the backup's address.
     * @param timeoutSeconds how long the backup may take to accept.
     * @return the running primary.
     * @throws IOException when the backup does not accept in time or the address cannot be bound.
     */
    static TcpFloorPrimary start(
        final InetSocketAddress address, final InetSocketAddress backupAddress, final long timeoutSeconds)
        throws IOException
    {
        final Socket backup = connect(backupAddress, timeoutSeconds);
        final ServerSocket server = new ServerSocket();
        try
        {
            backup.setTcpNoDelay(true);
            server.bind(address);
            final TcpFloorPrimary primary = new TcpFloorPrimary(server, backup);
            primary.router.start();
            primary.acceptor.start();
            return primary;
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietCloseAll(server, backup);
            throw ex;
        }
    }

    private static Socket connect(final InetSocketAddress address, final long timeoutSeconds) throws IOException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true)
        {
            final Socket socket = new Socket();
            try
            {
                socket.connect(address, (int)TimeUnit.SECONDS.toMillis(timeoutSeconds));
                return socket;
            }
            catch (final IOException ex)
            {
                CloseHelper.quietClose(socket);
                if (System.nanoTime() - deadlineNs >= 0)
                {
                    throw new IOException("the tcp floor backup at " + address + " did not accept within " +
                        timeoutSeconds + " s", ex);
                }
                LockSupport.parkNanos(BACKUP_RETRY_NS);
            }
        }
    }

    /**
     * @return the port clients connect to.
     */
    int port()
    {
        return server.getLocalPort();
    }

    /**
     * @return orders passed on to the backup.
     */
    long forwarded()
    {
        return forwarded.get();
    }

    /**
     * @return answers passed back to their clients.
     */
    long answered()
    {
        return answered.get();
    }

    /**
     * @return answers whose connection had closed (or failed as they were written).
     */
    long dropped()
    {
        return dropped.get();
    }

    /**
     * @return client connections accepted so far.
     */
    long accepted()
    {
        return accepted.get();
    }

    private void accept()
    {
        int next = 0;
        while (!isClosed)
        {
            final Socket socket;
            try
            {
                socket = server.accept();
                socket.setTcpNoDelay(true);
            }
            catch (final IOException ex)
            {
                if (!isClosed)
                {
                    System.err.println("tcp floor primary: accept failed: " + ex);
                }
                return;
            }
            int slot = -1;
            for (int i = 0; i < MAX_CONNECTIONS && slot < 0; i++)
            {
                final int candidate = (next + i) & SLOT_MASK;
                slot = null == connections.get(candidate) ? candidate : -1;
            }
            if (slot < 0)
            {
                System.err.println("tcp floor primary: " + MAX_CONNECTIONS + " connections open, refusing another");
                CloseHelper.quietClose(socket);
                continue;
            }
            next = slot + 1;
            generation = (generation + 1) & GENERATION_MASK;
            try
            {
                final Connection connection = new Connection((generation << SLOT_BITS) | slot, socket);
                connections.set(slot, connection);
                accepted.incrementAndGet();
                connection.thread.start();
            }
            catch (final IOException ex)
            {
                CloseHelper.quietClose(socket);
            }
        }
    }

    private void routeAnswers()
    {
        final TcpFloorFrame.Writer writer = new TcpFloorFrame.Writer();
        try
        {
            final TcpFloorFrame.Reader reader = new TcpFloorFrame.Reader(backup.getInputStream());
            while (reader.read())
            {
                final Connection connection = connections.get(reader.connectionId & SLOT_MASK);
                if (null == connection || connection.id != reader.connectionId)
                {
                    dropped.incrementAndGet(); // its client went meanwhile
                    continue;
                }
                try
                {
                    writer.writeAnswer(connection.out, 0, reader.clientId, reader.orderId);
                    answered.incrementAndGet();
                }
                catch (final IOException ex)
                {
                    dropped.incrementAndGet();
                    connection.close(); // that client alone
                }
            }
        }
        catch (final IOException | IllegalStateException ex)
        {
            if (!isClosed)
            {
                System.err.println("tcp floor primary: the backup's connection failed: " + ex);
            }
        }
        if (!isClosed)
        {
            System.err.println("tcp floor primary: the backup's connection ended; closing every client's");
        }
        closeConnections();
    }

    private void closeConnections()
    {
        for (int i = 0; i < MAX_CONNECTIONS; i++)
        {
            final Connection connection = connections.get(i);
            if (null != connection)
            {
                connection.close();
            }
        }
    }

    @Override
    public void close()
    {
        isClosed = true;
        CloseHelper.quietCloseAll(server, backup);
        closeConnections();
        try
        {
            acceptor.join(JOIN_MS);
            router.join(JOIN_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One client's connection and the thread that passes its orders on.
     */
    private final class Connection implements Runnable
    {
        final int id;
        final Socket socket;
        final OutputStream out;
        final Thread thread;

        Connection(final int id, final Socket socket) throws IOException
        {
            this.id = id;
            this.socket = socket;
            this.out = socket.getOutputStream();
            this.thread = new Thread(this, "tcp-floor-connection-" + (id & SLOT_MASK));
            this.thread.setDaemon(true);
        }

        @Override
        public void run()
        {
            final TcpFloorFrame.Writer writer = new TcpFloorFrame.Writer();
            try
            {
                final TcpFloorFrame.Reader reader = new TcpFloorFrame.Reader(socket.getInputStream());
                while (reader.read())
                {
                    synchronized (backupWriteLock)
                    {
                        writer.write(toBackup, id, reader.clientId, reader.orderId, reader.fix, reader.fixLength);
                    }
                    forwarded.incrementAndGet();
                }
            }
            catch (final IOException | IllegalStateException ex)
            {
                // this client's connection failed or sent garbage: it closes, the others go on
            }
            finally
            {
                close();
            }
        }

        void close()
        {
            connections.compareAndSet(id & SLOT_MASK, this, null);
            CloseHelper.quietClose(socket);
        }
    }
}
