package io.mdhub.common.net;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

import org.agrona.BitUtil;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One non-blocking TCP connection carrying length-prefixed messages ({@link FrameDescriptor}), owned by the thread
 * of its {@link SocketPoller}.
 * <p>
 * <b>Reading</b> drains the socket: every read the kernel has ready, up to a byte budget per poll so that one busy
 * peer cannot starve the others (the selector reports it again at once), each complete message handed to the
 * handler straight from the receive buffer. A partial frame waits for the rest; a frame longer than the receive
 * buffer grows it, up to the largest message allowed.
 * <p>
 * <b>Sending</b> copies a message into the send buffer; nothing is written until {@link #flush()} (the poller
 * flushes every connection with something to send once per duty cycle), so a batch of answers costs one
 * {@code write}. What the socket does not take stays and is written when it becomes writable. The send buffer grows
 * up to the connection's send limit: past it {@link #offer} says no, and the owner decides what back-pressure means
 * (retry later, drop and count, or close a peer that stopped reading).
 * <p>
 * <b>TLS</b> ({@link #startTls}): an {@link SSLEngine} sits between the frames and the socket. Reads unwrap what the
 * socket has into the receive buffer and dispatch from there; flushes wrap what waits in the send buffer into one
 * network buffer of at most two TLS records' worth and write that. The handshake is driven by the same reads and
 * flushes, and so are the handshake messages the engine asks for after it (a TLS 1.3 key update). Its delegated
 * tasks (key exchange, signature, certificate checks) run inline on the poller's thread, so a handshake holds every
 * other connection of the poller for its duration (FrameConnectionTlsTest prints it: milliseconds, not
 * microseconds); the owner's per-address budget bounds how many a peer can start. Messages offered before
 * it completes wait in the send buffer, so back-pressure stays the send limit plus the bounded network buffer. A
 * handshake that fails (a plain-TCP peer, an untrusted certificate), a record that does not decrypt, or an end of
 * stream inside a record closes the connection; the owner tells it by {@link #tlsFailure()} in {@code onClose}. An
 * orderly {@link #close} of a connection past its handshake sends a close_notify first (one wrap, one non-blocking
 * write; a peer that does not take it at once does not get it).
 */
public final class FrameConnection
{
    private static final int READ_BUDGET_BUFFERS = 4;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SocketPoller poller;
    private final SocketChannel channel;
    private final ConnectionHandler handler;
    private final String remote;
    private final int maxMessageLength;
    private final UnsafeBuffer receiveView = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer sendView = new UnsafeBuffer(0, 0);
    private SelectionKey key;
    private ByteBuffer receive;
    private ByteBuffer send;
    private int sendLimitBytes;
    private boolean isOpen;
    private boolean isClosed;
    private boolean isFlushQueued;
    private boolean wasRefused;
    private boolean isReadPaused;
    private int interestOps;
    private Object attachment;
    private InetSocketAddress remoteSocketAddress;
    private SSLEngine engine;
    private ByteBuffer netIn;
    private ByteBuffer netOut;
    private boolean isTlsReady;
    private boolean isPeerGone;
    private String tlsFailure;

    FrameConnection(
        final SocketPoller poller,
        final SocketChannel channel,
        final ConnectionHandler handler,
        final String remote,
        final int receiveBufferBytes,
        final int sendBufferBytes,
        final int sendLimitBytes,
        final int maxMessageLength)
    {
        this.poller = poller;
        this.channel = channel;
        this.handler = handler;
        this.remote = remote;
        this.maxMessageLength = maxMessageLength;
        this.sendLimitBytes = Math.max(sendLimitBytes, FrameDescriptor.frameLength(maxMessageLength));
        this.receive = ByteBuffer.allocateDirect(receiveBufferBytes).order(ByteOrder.LITTLE_ENDIAN);
        this.send = ByteBuffer.allocateDirect(Math.min(sendBufferBytes, this.sendLimitBytes))
            .order(ByteOrder.LITTLE_ENDIAN);
        receiveView.wrap(receive);
        sendView.wrap(send);
    }

    void register(final SelectionKey key, final boolean isConnected)
    {
        this.key = key;
        this.interestOps = key.interestOps();
        this.isOpen = isConnected;
    }

    /**
     * Speak TLS on this connection: call before it is registered with the poller (the poller does, for a TLS
     * listener or a TLS connect).
     *
     * @param engine a server or client engine, not yet used.
     */
    void startTls(final SSLEngine engine)
    {
        this.engine = engine;
        final int packet = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocateDirect(packet);
        netOut = ByteBuffer.allocateDirect(2 * packet);
    }

    /**
     * @return true if this connection speaks TLS.
     */
    public boolean isTls()
    {
        return null != engine;
    }

    /**
     * @return true once the TLS handshake completed (always true for a plain connection once open).
     */
    public boolean isTlsReady()
    {
        return null == engine || isTlsReady;
    }

    /**
     * @return why the TLS handshake or a TLS record failed, or null: set when the connection was closed for it.
     */
    public String tlsFailure()
    {
        return tlsFailure;
    }

    /**
     * @return the peer's address as text, for logs.
     */
    public String remoteAddress()
    {
        return remote;
    }

    /**
     * @return where an accepted connection comes from; null for one this side opened.
     */
    public InetSocketAddress remoteSocketAddress()
    {
        return remoteSocketAddress;
    }

    void remoteSocketAddress(final InetSocketAddress remoteSocketAddress)
    {
        this.remoteSocketAddress = remoteSocketAddress;
    }

    /**
     * @return true once connected (accepted, or an outbound connect completed) and until closed.
     */
    public boolean isOpen()
    {
        return isOpen && !isClosed;
    }

    /**
     * @return true once closed, for whatever reason.
     */
    public boolean isClosed()
    {
        return isClosed;
    }

    /**
     * @return true if an outbound connect was refused: the host answered and nothing listened on the port.
     */
    public boolean wasRefused()
    {
        return wasRefused;
    }

    /**
     * @return the owner's object for this connection, or null.
     */
    public Object attachment()
    {
        return attachment;
    }

    /**
     * @param attachment the owner's object for this connection (a session).
     */
    public void attach(final Object attachment)
    {
        this.attachment = attachment;
    }

    /**
     * @return bytes offered and not yet taken by the socket.
     */
    public int pendingBytes()
    {
        return send.position() + (null == netOut ? 0 : netOut.position());
    }

    /**
     * @return the most bytes that may wait to be sent.
     */
    public int sendLimitBytes()
    {
        return sendLimitBytes;
    }

    /**
     * @param bytes the most bytes that may wait to be sent (at least one largest frame).
     */
    public void sendLimitBytes(final int bytes)
    {
        sendLimitBytes = Math.max(bytes, FrameDescriptor.frameLength(maxMessageLength));
    }

    /**
     * Stop or resume reading: while paused nothing is read, the kernel's buffers fill and TCP flow control holds the
     * peer's sends back (back-pressure to the peer, Artio's way).
     *
     * @param isPaused true to stop reading.
     */
    public void readPaused(final boolean isPaused)
    {
        isReadPaused = isPaused;
        if (isOpen && !isClosed)
        {
            interest(pendingBytes() > 0 ? SelectionKey.OP_WRITE : 0);
        }
    }

    /**
     * Queue one message; it goes out with the next flush.
     *
     * @param buffer holds the message.
     * @param offset where it starts.
     * @param length its bytes.
     * @return false if closed, or if the bytes waiting would pass the send limit (nothing was queued).
     * @throws IllegalArgumentException if the message is shorter than a header or longer than allowed.
     */
    public boolean offer(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < FrameDescriptor.MIN_MESSAGE_LENGTH || length > maxMessageLength)
        {
            throw new IllegalArgumentException("message of " + length + " bytes, allowed " +
                FrameDescriptor.MIN_MESSAGE_LENGTH + ".." + maxMessageLength);
        }
        if (isClosed)
        {
            return false;
        }
        final int frameLength = FrameDescriptor.frameLength(length);
        if (send.remaining() < frameLength && !growSend(send.position() + frameLength))
        {
            return false;
        }
        final int position = send.position();
        sendView.putInt(position + FrameDescriptor.LENGTH_OFFSET, length, ByteOrder.LITTLE_ENDIAN);
        sendView.putBytes(position + FrameDescriptor.HEADER_LENGTH, buffer, offset, length);
        send.position(position + frameLength);
        if (!isFlushQueued)
        {
            isFlushQueued = true;
            poller.queueFlush(this);
        }
        return true;
    }

    /**
     * Write what waits, as much as the socket takes now; the rest goes when it becomes writable.
     *
     * @return bytes written.
     */
    public int flush()
    {
        isFlushQueued = false;
        if (null != engine && isOpen && !isClosed)
        {
            return flushTls();
        }
        if (isClosed || !isOpen || 0 == send.position())
        {
            return 0;
        }
        final int written;
        try
        {
            send.flip();
            written = channel.write(send);
            send.compact();
        }
        catch (final IOException ex)
        {
            close("write failed: " + ex.getMessage());
            return 0;
        }
        interest(send.position() > 0 ? SelectionKey.OP_WRITE : 0);
        return written;
    }

    /**
     * Close the connection now (what waits to be sent is dropped) and tell the handler, once.
     *
     * @param reason why, for the handler and logs.
     */
    public void close(final String reason)
    {
        if (isClosed)
        {
            return;
        }
        isClosed = true;
        if (null != key)
        {
            key.cancel();
        }
        if (null != engine && isOpen && isTlsReady && null == tlsFailure && !isPeerGone)
        {
            sendCloseNotify();
        }
        CloseHelper.quietClose(channel);
        poller.onClosed(this);
        handler.onClose(this, reason);
    }

    /**
     * Drain the socket and hand every complete message to the handler.
     *
     * @return messages handled.
     */
    int read()
    {
        if (null != engine)
        {
            return readTls();
        }
        int messages = 0;
        int budget = READ_BUDGET_BUFFERS * receive.capacity();
        while (!isClosed && budget > 0)
        {
            final int space = receive.remaining();
            final int read;
            try
            {
                read = channel.read(receive);
            }
            catch (final IOException ex)
            {
                isPeerGone = true;
                close("read failed: " + ex.getMessage());
                return messages;
            }
            if (read < 0)
            {
                isPeerGone = true;
                messages += dispatch(); // what came whole before the end is still delivered
                close("closed by peer");
                return messages;
            }
            messages += dispatch();
            if (read < space || 0 == read)
            {
                // the socket had less than the room offered: it is drained, and asking again would cost a read
                // that finds nothing (epoll reports what arrives meanwhile)
                break;
            }
            budget -= read;
        }
        return messages;
    }

    /**
     * The outbound connect can complete.
     *
     * @return 1 if it did (the connection is open), 0 if still under way or failed.
     */
    int finishConnect()
    {
        try
        {
            if (!channel.finishConnect())
            {
                return 0;
            }
        }
        catch (final IOException ex)
        {
            wasRefused = ex instanceof ConnectException;
            close("connect failed: " + ex.getMessage());
            return 0;
        }
        isOpen = true;
        interest(0);
        handler.onOpen(this);
        if (null != engine && !isClosed)
        {
            beginTls();
            return 1;
        }
        if (send.position() > 0 && !isClosed)
        {
            flush(); // what was offered while it connected
        }
        return 1;
    }

    /**
     * Start the TLS handshake of an open connection (a client sends its hello now, a server waits for one).
     */
    void beginTls()
    {
        try
        {
            engine.beginHandshake();
            driveHandshake();
        }
        catch (final SSLException ex)
        {
            failTls(ex);
        }
    }

    private int readTls()
    {
        int messages = 0;
        int budget = READ_BUDGET_BUFFERS * receive.capacity();
        while (!isClosed && budget > 0)
        {
            final int space = netIn.remaining();
            final int read;
            try
            {
                read = channel.read(netIn);
            }
            catch (final IOException ex)
            {
                isPeerGone = true;
                if (isTlsReady && netIn.position() > 0)
                {
                    tlsFailure = "TLS record cut short: " + ex.getMessage(); // reset inside a record
                }
                close(null == tlsFailure ? "read failed: " + ex.getMessage() : tlsFailure);
                return messages;
            }
            messages += unwrap();
            if (read < 0)
            {
                isPeerGone = true;
                if (!isClosed)
                {
                    if (isTlsReady && netIn.position() > 0)
                    {
                        // the end came inside a record: what the peer sent last is lost, tell it apart from a close
                        tlsFailure = "TLS record cut short: closed by peer with " + netIn.position() +
                            " bytes of a record unread";
                        close(tlsFailure);
                    }
                    else
                    {
                        close(isTlsReady ? "closed by peer" : "closed by peer during the TLS handshake");
                    }
                }
                return messages;
            }
            if (read < space || 0 == read)
            {
                break;
            }
            budget -= read;
        }
        return messages;
    }

    private int unwrap()
    {
        int messages = 0;
        netIn.flip();
        try
        {
            while (!isClosed)
            {
                final SSLEngineResult result = engine.unwrap(netIn, receive);
                if (SSLEngineResult.HandshakeStatus.FINISHED == result.getHandshakeStatus())
                {
                    onTlsReady();
                }
                if (result.bytesProduced() > 0)
                {
                    messages += dispatch();
                }
                final SSLEngineResult.Status status = result.getStatus();
                if (SSLEngineResult.Status.CLOSED == status)
                {
                    close("TLS closed by peer");
                    break;
                }
                if (SSLEngineResult.Status.BUFFER_OVERFLOW == status)
                {
                    ensureReceiveRoom(engine.getSession().getApplicationBufferSize());
                    continue;
                }
                if (!isTlsReady || SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING != result.getHandshakeStatus())
                {
                    driveHandshake(); // the handshake, or a message the engine must answer after it (key update)
                }
                if (SSLEngineResult.Status.BUFFER_UNDERFLOW == status || !netIn.hasRemaining())
                {
                    break; // the rest of a record is still on its way
                }
            }
        }
        catch (final SSLException ex)
        {
            failTls(ex);
        }
        if (!isClosed)
        {
            netIn.compact();
        }
        return messages;
    }

    private void driveHandshake() throws SSLException
    {
        while (!isClosed)
        {
            final SSLEngineResult.HandshakeStatus status = engine.getHandshakeStatus();
            if (SSLEngineResult.HandshakeStatus.NEED_TASK == status)
            {
                Runnable task;
                while (null != (task = engine.getDelegatedTask()))
                {
                    task.run();
                }
            }
            else if (SSLEngineResult.HandshakeStatus.NEED_WRAP == status)
            {
                final SSLEngineResult result = engine.wrap(EMPTY, netOut);
                if (SSLEngineResult.Status.BUFFER_OVERFLOW == result.getStatus() && 0 == writeNet())
                {
                    break; // the socket takes nothing now: OP_WRITE brings us back
                }
                if (SSLEngineResult.HandshakeStatus.FINISHED == result.getHandshakeStatus())
                {
                    onTlsReady();
                }
                if (SSLEngineResult.Status.CLOSED == result.getStatus())
                {
                    break;
                }
            }
            else
            {
                break; // NEED_UNWRAP: the peer's turn; NOT_HANDSHAKING: done
            }
        }
        if (!isClosed)
        {
            writeNet();
        }
    }

    private void onTlsReady()
    {
        if (!isTlsReady)
        {
            isTlsReady = true;
            handler.onTlsReady(this);
            if (send.position() > 0 && !isFlushQueued && !isClosed)
            {
                isFlushQueued = true;
                poller.queueFlush(this); // what was offered during the handshake
            }
        }
    }

    private int flushTls()
    {
        try
        {
            if (!isTlsReady)
            {
                driveHandshake();
                return 0;
            }
            if (send.position() > 0)
            {
                send.flip();
                while (send.hasRemaining() && !isClosed)
                {
                    final SSLEngineResult result = engine.wrap(send, netOut);
                    if (SSLEngineResult.Status.CLOSED == result.getStatus())
                    {
                        close("TLS closed");
                        return 0;
                    }
                    if (SSLEngineResult.Status.BUFFER_OVERFLOW == result.getStatus())
                    {
                        if (0 == writeNet())
                        {
                            break; // the network buffer is full and the socket takes nothing: wait for OP_WRITE
                        }
                    }
                    else if (0 == result.bytesConsumed() && 0 == result.bytesProduced())
                    {
                        break; // the engine wants the peer first (a handshake under way): the next read drives it
                    }
                }
                send.compact();
            }
            return isClosed ? 0 : writeNet();
        }
        catch (final SSLException ex)
        {
            failTls(ex);
            return 0;
        }
    }

    private int writeNet()
    {
        if (0 == netOut.position())
        {
            interest(send.position() > 0 && isTlsReady ? SelectionKey.OP_WRITE : 0);
            return 0;
        }
        final int written;
        try
        {
            netOut.flip();
            written = channel.write(netOut);
            netOut.compact();
        }
        catch (final IOException ex)
        {
            isPeerGone = true;
            close("write failed: " + ex.getMessage());
            return 0;
        }
        interest(pendingBytes() > 0 ? SelectionKey.OP_WRITE : 0);
        return written;
    }

    /**
     * Tell the peer this side ends the TLS session (close_notify), after what the network buffer holds already: best
     * effort, the connection is closing and nothing waits for the socket.
     */
    private void sendCloseNotify()
    {
        try
        {
            engine.closeOutbound();
            engine.wrap(EMPTY, netOut);
            netOut.flip();
            channel.write(netOut);
        }
        catch (final IOException ex)
        {
            // the peer is gone or the buffer full: it sees the TCP close without the alert
        }
    }

    private void failTls(final SSLException ex)
    {
        if (!isClosed)
        {
            tlsFailure = (isTlsReady ? "TLS failed: " : "TLS handshake failed: ") + ex.getMessage();
            close(tlsFailure);
        }
    }

    private void ensureReceiveRoom(final int room)
    {
        if (receive.remaining() >= room)
        {
            return;
        }
        final ByteBuffer larger = ByteBuffer.allocateDirect(
            BitUtil.findNextPositivePowerOfTwo(receive.position() + room)).order(ByteOrder.LITTLE_ENDIAN);
        receive.flip();
        larger.put(receive);
        receive = larger;
        receiveView.wrap(receive);
    }

    private int dispatch()
    {
        final int limit = receive.position();
        int position = 0;
        int messages = 0;
        while (!isClosed && limit - position >= FrameDescriptor.HEADER_LENGTH)
        {
            final int length = receiveView.getInt(position + FrameDescriptor.LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (length < FrameDescriptor.MIN_MESSAGE_LENGTH || length > maxMessageLength)
            {
                close("malformed frame: message length " + length + ", allowed " +
                    FrameDescriptor.MIN_MESSAGE_LENGTH + ".." + maxMessageLength);
                return messages;
            }
            if (limit - position - FrameDescriptor.HEADER_LENGTH < length)
            {
                break;
            }
            handler.onMessage(this, receiveView, position + FrameDescriptor.HEADER_LENGTH, length);
            messages++;
            position += FrameDescriptor.frameLength(length);
        }
        if (isClosed)
        {
            return messages;
        }
        if (position > 0)
        {
            receive.limit(limit).position(position);
            receive.compact();
        }
        if (receive.remaining() == 0)
        {
            growReceive();
        }
        return messages;
    }

    private void growReceive()
    {
        // full and no whole frame in it: the frame at its start is longer than the buffer (checked against the
        // largest message when its length was read)
        final ByteBuffer larger = ByteBuffer.allocateDirect(
            BitUtil.findNextPositivePowerOfTwo(FrameDescriptor.frameLength(maxMessageLength)))
            .order(ByteOrder.LITTLE_ENDIAN);
        receive.flip();
        larger.put(receive);
        receive = larger;
        receiveView.wrap(receive);
    }

    private boolean growSend(final int needed)
    {
        if (needed > sendLimitBytes)
        {
            return false;
        }
        final int capacity = (int)Math.min(sendLimitBytes, BitUtil.findNextPositivePowerOfTwo((long)needed));
        final ByteBuffer larger = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        send.flip();
        larger.put(send);
        send = larger;
        sendView.wrap(send);
        return true;
    }

    /**
     * @param writeOps {@link SelectionKey#OP_WRITE} while bytes wait, else 0; reading is added unless paused.
     */
    private void interest(final int writeOps)
    {
        final int ops = writeOps | (isReadPaused ? 0 : SelectionKey.OP_READ);
        if (ops != interestOps && null != key && key.isValid())
        {
            key.interestOps(ops);
            interestOps = ops;
        }
    }

    @Override
    public String toString()
    {
        return "FrameConnection{" + remote + (isClosed ? ", closed" : isOpen ? "" : ", connecting") + "}";
    }
}
