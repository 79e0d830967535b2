package io.mdhub.common.test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * A TLS peer a test drives by hand: its own {@link SSLEngine} over a plain non-blocking {@link SocketChannel}, so a
 * test decides how the TLS bytes are cut into writes (one byte at a time, random chunks, a record cut short), what
 * raw bytes follow, and when it stops reading. Every wait is bounded by a deadline; while it waits it runs the
 * test's pump (a server poller driven on the same thread, so that each write is read by the server on its own) or
 * parks briefly.
 */
public final class TlsTestPeer implements AutoCloseable
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);

    private final SSLEngine engine;
    private final SocketChannel channel;
    private final Runnable pump;
    private final Random random;
    private final ByteBuffer netIn;
    private ByteBuffer appIn;
    private int maxChunk = Integer.MAX_VALUE;
    private boolean isEnded;

    /**
     * @param engine      a client engine, not yet used.
     * @param address     the server.
     * @param receiveBytes the socket's receive buffer (small, to make a peer that stops reading stop soon), or 0 for
     *                    the default.
     * @param pump        run while waiting (drives the server when it shares this thread), or null to park.
     * @param seed        for the random chunk sizes.
     */
    public TlsTestPeer(
        final SSLEngine engine,
        final InetSocketAddress address,
        final int receiveBytes,
        final Runnable pump,
        final long seed)
    {
        this.engine = engine;
        this.pump = pump;
        this.random = new Random(seed);
        this.netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        try
        {
            channel = SocketChannel.open();
            if (receiveBytes > 0)
            {
                channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBytes);
            }
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.connect(address);
            channel.configureBlocking(false);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @param maxChunk the most bytes per write: 1 sends byte by byte; the sizes are random in 1..maxChunk.
     * @return this.
     */
    public TlsTestPeer maxChunk(final int maxChunk)
    {
        this.maxChunk = maxChunk;
        return this;
    }

    /**
     * Run the handshake to its end.
     *
     * @return this.
     * @throws SSLException if the server refused it.
     */
    public TlsTestPeer handshake() throws SSLException
    {
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        engine.beginHandshake();
        while (true)
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
                final ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                engine.wrap(ByteBuffer.allocate(0), out);
                out.flip();
                writeRaw(out);
            }
            else if (SSLEngineResult.HandshakeStatus.NEED_UNWRAP == status ||
                SSLEngineResult.HandshakeStatus.NEED_UNWRAP_AGAIN == status)
            {
                if (!unwrapOnce() && !readSome(deadlineNs))
                {
                    throw new SSLException("the server closed the connection during the handshake");
                }
            }
            else
            {
                return this;
            }
        }
    }

    /**
     * @param application bytes to send.
     * @return them as TLS records, not sent.
     * @throws SSLException if the engine cannot wrap.
     */
    public byte[] wrap(final byte[] application) throws SSLException
    {
        final ByteBuffer in = ByteBuffer.wrap(application);
        final ByteArrayOutputStream records = new ByteArrayOutputStream();
        final ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        while (in.hasRemaining())
        {
            out.clear();
            final SSLEngineResult result = engine.wrap(in, out);
            if (0 == result.bytesConsumed() && 0 == result.bytesProduced())
            {
                throw new IllegalStateException("cannot wrap: " + result);
            }
            records.write(out.array(), 0, out.position());
        }
        return records.toByteArray();
    }

    /**
     * Wrap and send application bytes, cut into writes of random sizes up to the chunk.
     *
     * @param application the bytes.
     * @throws SSLException if the engine cannot wrap.
     */
    public void send(final byte[] application) throws SSLException
    {
        writeRaw(ByteBuffer.wrap(wrap(application)));
    }

    /**
     * Send bytes as they are (TLS records made by {@link #wrap}, or garbage), cut into chunks.
     *
     * @param bytes what to write.
     */
    public void writeRaw(final ByteBuffer bytes)
    {
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        while (bytes.hasRemaining())
        {
            final int chunk = Math.min(bytes.remaining(), 1 + random.nextInt(Math.min(maxChunk, 1 << 20)));
            final ByteBuffer slice = bytes.slice();
            slice.limit(chunk);
            try
            {
                while (slice.hasRemaining())
                {
                    if (0 == channel.write(slice))
                    {
                        idle(deadlineNs);
                    }
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
            bytes.position(bytes.position() + chunk);
            if (null != pump)
            {
                pump.run(); // the server reads this chunk by itself
            }
        }
    }

    /**
     * Try to write without waiting (for a peer that keeps sending while it does not read).
     *
     * @param bytes TLS records.
     * @return bytes the socket took; -1 once the server closed the connection.
     */
    public int tryWrite(final ByteBuffer bytes)
    {
        try
        {
            return channel.write(bytes);
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    /**
     * Read and decrypt until the given bytes of application data are in.
     *
     * @param length how many.
     * @return them.
     * @throws SSLException if a record does not decrypt.
     */
    public byte[] receive(final int length) throws SSLException
    {
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        while (appIn.position() < length)
        {
            if (!unwrapOnce() && !readSome(deadlineNs))
            {
                throw new SSLException("closed with " + appIn.position() + " of " + length + " bytes in");
            }
        }
        appIn.flip();
        final byte[] bytes = new byte[length];
        appIn.get(bytes);
        appIn.compact();
        return bytes;
    }

    /**
     * Read until the server ends the connection.
     *
     * @return true if it sent a close_notify first, false if the TCP connection just ended.
     */
    public boolean awaitEnd()
    {
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        try
        {
            while (!engine.isInboundDone())
            {
                if (!unwrapOnce() && !readSome(deadlineNs))
                {
                    return engine.isInboundDone();
                }
            }
            return true;
        }
        catch (final SSLException ex)
        {
            return false;
        }
    }

    /**
     * @return the engine (its session, for tests).
     */
    public SSLEngine engine()
    {
        return engine;
    }

    @Override
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            // closing
        }
    }

    /**
     * Unwrap one record of what was read.
     *
     * @return true if that made progress; false if more bytes are needed.
     */
    private boolean unwrapOnce() throws SSLException
    {
        netIn.flip();
        try
        {
            if (!netIn.hasRemaining())
            {
                return false;
            }
            final SSLEngineResult result = engine.unwrap(netIn, appIn);
            if (SSLEngineResult.Status.BUFFER_OVERFLOW == result.getStatus())
            {
                final ByteBuffer larger = ByteBuffer.allocate(2 * appIn.capacity());
                appIn.flip();
                larger.put(appIn);
                appIn = larger;
                return true;
            }
            return SSLEngineResult.Status.BUFFER_UNDERFLOW != result.getStatus() &&
                (result.bytesConsumed() > 0 || result.bytesProduced() > 0 ||
                SSLEngineResult.Status.CLOSED == result.getStatus());
        }
        finally
        {
            netIn.compact();
        }
    }

    /**
     * @return false once the connection ended.
     */
    private boolean readSome(final long deadlineNs)
    {
        if (isEnded)
        {
            return false;
        }
        while (true)
        {
            final int read;
            try
            {
                read = channel.read(netIn);
            }
            catch (final IOException ex)
            {
                isEnded = true;
                return false;
            }
            if (read < 0)
            {
                isEnded = true;
                return false;
            }
            if (read > 0)
            {
                return true;
            }
            idle(deadlineNs);
        }
    }

    private void idle(final long deadlineNs)
    {
        if (System.nanoTime() - deadlineNs > 0)
        {
            throw new IllegalStateException("the TLS test peer waited too long");
        }
        if (null != pump)
        {
            pump.run();
        }
        else
        {
            LockSupport.parkNanos(100_000L);
        }
    }
}
