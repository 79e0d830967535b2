package io.mdhub.common.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

import javax.net.ssl.SSLEngine;

import org.agrona.CloseHelper;

/**
 * The sockets one thread serves — listeners, accepted and outbound {@link FrameConnection}s — over one
 * {@link Selector} (epoll on Linux), for an agent whose duty cycle does the rest of its work on the same thread:
 * <ul>
 * <li>{@link #poll()} (in the duty cycle) accepts, completes connects, and drains every readable connection,
 * handing each message to its handler, without blocking;</li>
 * <li>{@link #flush()} (at the end of the duty cycle) writes what the cycle queued, one write per connection;</li>
 * <li>{@link #await(long)} (the agent's idle, see {@link SocketIdleStrategy}) blocks in the kernel until a socket is
 * ready, another thread calls {@link #wakeup()}, or the timeout passes, and reads what is ready then; the next
 * {@link #poll()} hands that work to the duty cycle without a system call of its own.</li>
 * </ul>
 * A channel the owner reads and writes itself (not framed) can be {@link #watch watched}: its readiness is told to
 * the owner during {@link #poll()} or {@link #await(long)}, so that it costs no system call of its own until it has
 * something to do.
 * <p>
 * Nothing spins or polls on a timer: a thread with nothing to read sleeps until the bytes arrive, and wakes once for
 * all that came meanwhile. Not thread-safe except {@link #wakeup()}. Selection uses the action form of
 * {@code select}, so the selector's key set — and its garbage — is never used.
 */
public final class SocketPoller implements AutoCloseable
{
    /**
     * How soon an owner dials again after a connection it made ends or fails: soon enough that a restarted peer is
     * back within a heartbeat, rarely enough that a dead one costs a refused connect twenty times a second.
     */
    public static final long RECONNECT_INTERVAL_NS = 50_000_000L;

    /** Bytes of a new connection's receive buffer. */
    public static final int RECEIVE_BUFFER_DEFAULT = 64 * 1024;
    /** Bytes of a new connection's send buffer (it grows up to its limit). */
    public static final int SEND_BUFFER_DEFAULT = 64 * 1024;
    private static final int ACCEPTS_PER_POLL = 64;

    private final Selector selector;
    private final int maxMessageLength;
    private final int sendLimitBytes;
    private final ArrayList<FrameConnection> flushQueue = new ArrayList<>();
    private final ArrayList<FrameConnection> connections = new ArrayList<>();
    private final ArrayList<Listener> listeners = new ArrayList<>();
    private final Consumer<SelectionKey> onReady = this::onReady;
    private final Consumer<SelectionKey> ignore = (key) -> { };
    private int workDone;
    private long deadlineNs = Long.MAX_VALUE;
    private boolean isSelecting;
    private boolean hasJustSelected;
    private boolean isBlockingAfterWork;
    private boolean isDeregistrationDue;
    private boolean isClosed;

    /**
     * Told when a {@link #watch watched} channel is ready; it does the channel's I/O itself.
     */
    @FunctionalInterface
    public interface ReadyHandler
    {
        /**
         * The channel of the key is ready for some of its interest set. Runs on the poller's thread, inside
         * {@link #poll()} or {@link #await(long)}.
         *
         * @param key the watched channel's key ({@link SelectionKey#readyOps()} says for what).
         * @return work done.
         */
        int onReady(SelectionKey key);
    }

    /**
     * Decides whether a listener takes a connection, as it is accepted and before anything is set up for it (no
     * buffers, no handler): one it refuses is closed at once, so refusing costs an accept and a close.
     */
    public interface AcceptFilter
    {
        /**
         * @param remote where the connection comes from.
         * @return true to take it; false closes it at once.
         */
        boolean admit(InetSocketAddress remote);

        /**
         * A connection admitted could not be set up (reset before it was taken): it never reaches the handler.
         *
         * @param remote where it came from.
         */
        default void abandoned(final InetSocketAddress remote)
        {
        }
    }

    /**
     * A bound listening socket; its accepted connections go to its handler.
     */
    public final class Listener implements AutoCloseable
    {
        private final ServerSocketChannel channel;
        private final ConnectionHandler handler;
        private final AcceptFilter filter;
        private final Supplier<SSLEngine> tls;
        private final InetSocketAddress boundAddress;

        private Listener(
            final ServerSocketChannel channel,
            final ConnectionHandler handler,
            final AcceptFilter filter,
            final Supplier<SSLEngine> tls)
            throws IOException
        {
            this.channel = channel;
            this.handler = handler;
            this.filter = filter;
            this.tls = tls;
            this.boundAddress = (InetSocketAddress)channel.getLocalAddress();
        }

        /**
         * @return the address bound (with the port chosen when 0 was asked for).
         */
        public InetSocketAddress boundAddress()
        {
            return boundAddress;
        }

        /**
         * Stop listening; connections already accepted stay.
         */
        @Override
        public void close()
        {
            listeners.remove(this);
            CloseHelper.quietClose(channel);
            deregisterClosed();
        }

        private int accept()
        {
            int accepted = 0;
            while (accepted < ACCEPTS_PER_POLL)
            {
                final SocketChannel socket;
                try
                {
                    socket = channel.accept();
                }
                catch (final IOException ex)
                {
                    return accepted; // a connection reset before it was taken, or out of descriptors: try next poll
                }
                if (null == socket)
                {
                    break;
                }
                accepted++;
                InetSocketAddress remote = null;
                final FrameConnection connection;
                try
                {
                    remote = (InetSocketAddress)socket.getRemoteAddress();
                    if (null != filter && !filter.admit(remote))
                    {
                        CloseHelper.quietClose(socket);
                        continue;
                    }
                    connection = open(socket, handler, remote.toString());
                    connection.remoteSocketAddress(remote);
                    if (null != tls)
                    {
                        connection.startTls(tls.get());
                    }
                    connection.register(socket.register(selector, SelectionKey.OP_READ, connection), true);
                }
                catch (final IOException ex)
                {
                    CloseHelper.quietClose(socket); // reset between accept and set-up: nothing to tell the handler
                    if (null != filter && null != remote)
                    {
                        filter.abandoned(remote);
                    }
                    continue;
                }
                connections.add(connection);
                handler.onOpen(connection);
                if (connection.isTls() && !connection.isClosed())
                {
                    connection.beginTls();
                }
            }
            return accepted;
        }
    }

    /**
     * @param maxMessageLength the longest message any connection sends or takes.
     * @param sendLimitBytes   the most bytes that may wait to be sent on one connection (a connection can change its
     *                         own).
     */
    public SocketPoller(final int maxMessageLength, final int sendLimitBytes)
    {
        if (maxMessageLength < FrameDescriptor.MIN_MESSAGE_LENGTH)
        {
            throw new IllegalArgumentException("maxMessageLength " + maxMessageLength + " < " +
                FrameDescriptor.MIN_MESSAGE_LENGTH);
        }
        this.maxMessageLength = maxMessageLength;
        this.sendLimitBytes = sendLimitBytes;
        try
        {
            this.selector = Selector.open();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open a selector", ex);
        }
    }

    /**
     * Listen on an address; accepted connections are told to the handler.
     *
     * @param address where (port 0 picks a free one).
     * @param handler for the accepted connections.
     * @return the listener.
     * @throws UncheckedIOException if the address cannot be bound.
     */
    public Listener listen(final InetSocketAddress address, final ConnectionHandler handler)
    {
        return listen(address, handler, null);
    }

    /**
     * Listen on an address; connections the filter admits are told to the handler, the others closed as accepted.
     *
     * @param address where (port 0 picks a free one).
     * @param handler for the accepted connections.
     * @param filter  decides on each connection before anything is set up for it; null takes every one.
     * @return the listener.
     * @throws UncheckedIOException if the address cannot be bound.
     */
    public Listener listen(final InetSocketAddress address, final ConnectionHandler handler, final AcceptFilter filter)
    {
        return listen(address, handler, filter, null);
    }

    /**
     * Listen on an address for TLS (or plain) connections.
     *
     * @param address where (port 0 picks a free one).
     * @param handler for the accepted connections.
     * @param filter  decides on each connection before anything is set up for it; null takes every one.
     * @param tls     a new server engine per accepted connection; null for plain TCP.
     * @return the listener.
     * @throws UncheckedIOException if the address cannot be bound.
     */
    public Listener listen(
        final InetSocketAddress address,
        final ConnectionHandler handler,
        final AcceptFilter filter,
        final Supplier<SSLEngine> tls)
    {
        ServerSocketChannel channel = null;
        try
        {
            channel = ServerSocketChannel.open();
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(address, 1024);
            channel.configureBlocking(false);
            final Listener listener = new Listener(channel, handler, filter, tls);
            channel.register(selector, SelectionKey.OP_ACCEPT, listener);
            listeners.add(listener);
            return listener;
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(channel);
            throw new UncheckedIOException("cannot listen on " + address, ex);
        }
    }

    /**
     * Start a connect without waiting for it: the handler hears {@link ConnectionHandler#onOpen} when it completes
     * or {@link ConnectionHandler#onClose} when it fails. Messages offered meanwhile go once it is open.
     *
     * @param address where to.
     * @param handler for the connection.
     * @return the connection, connecting (or already closed if the connect failed at once).
     */
    public FrameConnection connect(final InetSocketAddress address, final ConnectionHandler handler)
    {
        return connect(address, handler, null);
    }

    /**
     * Start a connect, TLS when given an engine: the handshake starts once connected, and messages offered
     * meanwhile go once it completes.
     *
     * @param address where to.
     * @param handler for the connection.
     * @param tls     a client engine for this connection, or null for plain TCP.
     * @return the connection, connecting (or already closed if the connect failed at once).
     */
    public FrameConnection connect(
        final InetSocketAddress address, final ConnectionHandler handler, final SSLEngine tls)
    {
        SocketChannel socket = null;
        try
        {
            socket = SocketChannel.open();
            socket.configureBlocking(false);
            final FrameConnection connection = open(socket, handler, address.toString());
            if (null != tls)
            {
                connection.startTls(tls);
            }
            final boolean isConnected = socket.connect(address);
            connection.register(socket.register(selector,
                isConnected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, connection), isConnected);
            connections.add(connection);
            if (isConnected)
            {
                handler.onOpen(connection);
                if (null != tls && !connection.isClosed())
                {
                    connection.beginTls();
                }
            }
            return connection;
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(socket);
            final FrameConnection failed = new FrameConnection(this, null, handler, address.toString(),
                FrameDescriptor.MIN_MESSAGE_LENGTH + FrameDescriptor.HEADER_LENGTH,
                FrameDescriptor.MIN_MESSAGE_LENGTH + FrameDescriptor.HEADER_LENGTH, 0, maxMessageLength);
            failed.close("connect failed: " + ex.getMessage());
            return failed;
        }
    }

    /**
     * Watch a non-blocking channel the owner serves itself: the handler hears when it is ready for any of the given
     * operations. Change the interest with {@link SelectionKey#interestOps(int)} (a connect that completed must stop
     * asking for {@link SelectionKey#OP_CONNECT}, or every poll finds it ready again); closing the channel ends the
     * watch.
     *
     * @param channel a channel in non-blocking mode.
     * @param ops     the operations to be told of.
     * @param handler told on this poller's thread.
     * @return the channel's key.
     * @throws UncheckedIOException if the channel is closed.
     */
    public SelectionKey watch(final SelectableChannel channel, final int ops, final ReadyHandler handler)
    {
        try
        {
            return channel.register(selector, ops, handler);
        }
        catch (final ClosedChannelException ex)
        {
            throw new UncheckedIOException("cannot watch a closed channel", ex);
        }
    }

    /**
     * Accept, complete connects, read everything readable and write what became writable, without blocking.
     *
     * @return work done: connections accepted or opened, messages handled, flushes made.
     */
    public int poll()
    {
        if (hasJustSelected)
        {
            hasJustSelected = false; // await just selected and read: nothing new can be there yet worth a syscall
            return workDone;
        }
        workDone = 0;
        isSelecting = true;
        try
        {
            selector.selectNow(onReady);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("selector failed", ex);
        }
        finally
        {
            isSelecting = false;
        }
        if (isDeregistrationDue)
        {
            deregisterClosed();
        }
        return workDone;
    }

    /**
     * Write what was offered since the last flush, one write per connection.
     *
     * @return connections flushed.
     */
    public int flush()
    {
        // a flush that fails closes its connection, whose handler may queue on others: those are flushed too
        int count = 0;
        for (; count < flushQueue.size(); count++)
        {
            flushQueue.get(count).flush();
        }
        flushQueue.clear();
        return count;
    }

    /**
     * The owner's next timer: a wait in {@link #await} ends by then. Set it every duty cycle to the earliest thing
     * the owner must do without input (a heartbeat, a timeout), so that it sleeps exactly until then.
     *
     * @param deadlineNs {@link System#nanoTime()} of the next timer, {@link Long#MAX_VALUE} for none.
     */
    public void deadlineNs(final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
    }

    /**
     * The owner's promise that its {@link #deadlineNs deadline} covers all the work it has that no socket will
     * announce — now, when it stopped at a budget with more to do — so that its idle strategy may block after a duty
     * cycle that did work too: then one {@code epoll_wait} per wake-up is both the look for more input and the wait
     * for it, where a non-blocking look first would cost a second system call per wake-up.
     *
     * @param isBlockingAfterWork whether the owner keeps that promise.
     */
    public void blockAfterWork(final boolean isBlockingAfterWork)
    {
        this.isBlockingAfterWork = isBlockingAfterWork;
    }

    /**
     * @return whether the owner's deadline covers all its pending work (see {@link #blockAfterWork}).
     */
    public boolean isBlockingAfterWork()
    {
        return isBlockingAfterWork;
    }

    /**
     * Block until a socket is ready, {@link #wakeup()} is called, the owner's deadline comes or the timeout passes,
     * then accept, connect and read what is ready, as {@link #poll()} would; the next {@link #poll()} returns that
     * work without selecting again (one {@code epoll_wait} per wake-up, not two).
     *
     * @param timeoutMs the longest wait, at least 1.
     * @return work done: connections accepted or opened, messages handled, flushes made.
     */
    public int await(final long timeoutMs)
    {
        long waitMs = Math.max(1, timeoutMs);
        if (Long.MAX_VALUE != deadlineNs)
        {
            final long untilDeadlineNs = deadlineNs - System.nanoTime();
            if (untilDeadlineNs <= 0)
            {
                return 0;
            }
            waitMs = Math.min(waitMs, Math.max(1, (untilDeadlineNs + 999_999) / 1_000_000));
        }
        workDone = 0;
        isSelecting = true;
        try
        {
            selector.select(onReady, waitMs);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("selector failed", ex);
        }
        finally
        {
            isSelecting = false;
        }
        if (isDeregistrationDue)
        {
            deregisterClosed();
        }
        hasJustSelected = true;
        return workDone;
    }

    /**
     * End a wait in {@link #await} now, or make the next one return at once. Any thread.
     */
    public void wakeup()
    {
        selector.wakeup();
    }

    /**
     * @return connections open or connecting.
     */
    public int connectionCount()
    {
        return connections.size();
    }

    /**
     * Close every connection (their handlers are told) and listener, then the selector.
     */
    @Override
    public void close()
    {
        if (isClosed)
        {
            return;
        }
        isClosed = true;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            if (i < connections.size())
            {
                connections.get(i).close("closed locally");
            }
        }
        for (int i = listeners.size() - 1; i >= 0; i--)
        {
            listeners.get(i).close();
        }
        CloseHelper.quietClose(selector);
    }

    void queueFlush(final FrameConnection connection)
    {
        flushQueue.add(connection);
    }

    void onClosed(final FrameConnection connection)
    {
        connections.remove(connection);
        deregisterClosed();
    }

    /**
     * A channel closed while registered keeps its socket until the selector lets go of its key, which happens in
     * the next selection: a closed listener would go on accepting into its backlog, and a closed connection's peer
     * would not see the end, until this thread next polls. So select once more now (or right after the selection
     * under way); what it finds ready is reported again by the next poll.
     */
    private void deregisterClosed()
    {
        if (isSelecting || isClosed)
        {
            isDeregistrationDue = !isClosed;
            return;
        }
        isDeregistrationDue = false;
        try
        {
            selector.selectNow(ignore);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("selector failed", ex);
        }
    }

    private FrameConnection open(final SocketChannel socket, final ConnectionHandler handler, final String remote)
        throws IOException
    {
        socket.configureBlocking(false);
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return new FrameConnection(this, socket, handler, remote, RECEIVE_BUFFER_DEFAULT, SEND_BUFFER_DEFAULT,
            sendLimitBytes, maxMessageLength);
    }

    private void onReady(final SelectionKey key)
    {
        final Object attachment = key.attachment();
        if (attachment instanceof ReadyHandler)
        {
            workDone += ((ReadyHandler)attachment).onReady(key);
            return;
        }
        if (attachment instanceof Listener)
        {
            workDone += ((Listener)attachment).accept();
            return;
        }
        final FrameConnection connection = (FrameConnection)attachment;
        if (key.isValid() && key.isConnectable())
        {
            workDone += connection.finishConnect();
        }
        if (key.isValid() && key.isReadable())
        {
            workDone += connection.read();
        }
        if (key.isValid() && key.isWritable())
        {
            workDone += connection.flush() > 0 ? 1 : 0;
        }
    }
}
