package io.mdhub.benchmarks.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.transport.Channel;
import com.refinitiv.eta.transport.ChannelState;
import com.refinitiv.eta.transport.ConnectOptions;
import com.refinitiv.eta.transport.ConnectionTypes;
import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.InProgInfo;
import com.refinitiv.eta.transport.InitArgs;
import com.refinitiv.eta.transport.ReadArgs;
import com.refinitiv.eta.transport.Transport;
import com.refinitiv.eta.transport.TransportBuffer;
import com.refinitiv.eta.transport.TransportFactory;
import com.refinitiv.eta.transport.TransportReturnCodes;
import com.refinitiv.eta.transport.WriteArgs;

/**
 * One end of an ETA application's connection, driven the way ETA's example applications drive theirs: a
 * non-blocking SOCKET channel, messages encoded straight into the transport's buffers, written and flushed by the
 * application, everything available read after the selector wakes, a ping when nothing was written for a third of
 * the ping timeout. Single-threaded; uses nothing of MDHub.
 */
final class EtaEndpoint implements AutoCloseable
{
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long RETRY_NS = TimeUnit.MICROSECONDS.toNanos(200);
    private static final int PING_TIMEOUT_SECONDS = 30;
    private static final int OUTPUT_BUFFERS = 1_000;
    private static final int SOCKET_BUFFER_BYTES = 1 << 20;
    private static boolean isTransportInitialised;

    private final Channel channel;
    private final Selector selector;
    private final Error error = TransportFactory.createError();
    private final ReadArgs readArgs = TransportFactory.createReadArgs();
    private final WriteArgs writeArgs = TransportFactory.createWriteArgs();
    private final EncodeIterator encodeIterator = CodecFactory.createEncodeIterator();
    private final DecodeIterator decodeIterator = CodecFactory.createDecodeIterator();
    private long lastWriteNs = System.nanoTime();

    /**
     * Encodes one message into a transport buffer.
     */
    @FunctionalInterface
    interface Encoder
    {
        /**
         * @param iterator over the buffer.
         * @return an ETA {@link CodecReturnCodes} value.
         */
        int encode(EncodeIterator iterator);
    }

    /**
     * Takes each message read.
     */
    @FunctionalInterface
    interface Reader
    {
        /**
         * @param iterator positioned at the message, valid during the call.
         */
        void onMessage(DecodeIterator iterator);
    }

    private EtaEndpoint(final Channel channel)
    {
        this.channel = channel;
        try
        {
            selector = Selector.open();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Connect to an RSSL port on loopback and complete the handshake.
     *
     * @param port      the server's port.
     * @param component what ETA appends to its component version in the connect request.
     * @return the active endpoint.
     * @throws IllegalStateException when the server does not accept the connection in time.
     */
    static EtaEndpoint connect(final int port, final String component)
    {
        initialiseTransport();
        final ConnectOptions options = TransportFactory.createConnectOptions();
        options.connectionType(ConnectionTypes.SOCKET);
        options.unifiedNetworkInfo().address("127.0.0.1");
        options.unifiedNetworkInfo().serviceName(Integer.toString(port));
        options.majorVersion(Codec.majorVersion());
        options.minorVersion(Codec.minorVersion());
        options.protocolType(Codec.protocolType());
        options.blocking(false);
        options.tcpOpts().tcpNoDelay(true);
        options.pingTimeout(PING_TIMEOUT_SECONDS);
        options.guaranteedOutputBuffers(OUTPUT_BUFFERS);
        options.sysRecvBufSize(SOCKET_BUFFER_BYTES);
        options.sysSendBufSize(SOCKET_BUFFER_BYTES);
        options.componentVersion(component);
        final Error connectError = TransportFactory.createError();
        final Channel channel = Transport.connect(options, connectError);
        if (null == channel)
        {
            throw new IllegalStateException("ETA cannot connect to port " + port + ": " + connectError.text());
        }
        final EtaEndpoint endpoint = new EtaEndpoint(channel);
        endpoint.awaitActive(port);
        return endpoint;
    }

    private static synchronized void initialiseTransport()
    {
        if (!isTransportInitialised)
        {
            final InitArgs args = TransportFactory.createInitArgs();
            args.globalLocking(false);
            final Error initError = TransportFactory.createError();
            if (TransportReturnCodes.SUCCESS != Transport.initialize(args, initError))
            {
                throw new IllegalStateException("ETA transport: " + initError.text());
            }
            isTransportInitialised = true;
        }
    }

    private void awaitActive(final int port)
    {
        final InProgInfo inProgress = TransportFactory.createInProgInfo();
        final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
        int ret;
        while (TransportReturnCodes.CHAN_INIT_IN_PROGRESS == (ret = channel.init(inProgress, error)))
        {
            if (System.nanoTime() > deadlineNs)
            {
                throw new IllegalStateException("the ETA handshake with port " + port + " did not complete");
            }
            LockSupport.parkNanos(RETRY_NS);
        }
        if (TransportReturnCodes.SUCCESS != ret || ChannelState.ACTIVE != channel.state())
        {
            throw new IllegalStateException("the ETA handshake with port " + port + " failed: " + error.text());
        }
        try
        {
            channel.selectableChannel().register(selector, SelectionKey.OP_READ);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Encode a message into a transport buffer and write it; it goes out by the next {@link #flush()} at the latest.
     *
     * @param capacity bytes the message may take.
     * @param encoder  writes it.
     */
    void write(final int capacity, final Encoder encoder)
    {
        TransportBuffer buffer;
        while (null == (buffer = channel.getBuffer(capacity, false, error)))
        {
            // every output buffer queued: ETA's answer is to flush and try again
            if (TransportReturnCodes.NO_BUFFERS != error.errorId())
            {
                throw new IllegalStateException("ETA getBuffer: " + error.text());
            }
            flushOnce();
        }
        encodeIterator.clear();
        encodeIterator.setBufferAndRWFVersion(buffer, channel.majorVersion(), channel.minorVersion());
        final int encoded = encoder.encode(encodeIterator);
        if (CodecReturnCodes.SUCCESS != encoded)
        {
            channel.releaseBuffer(buffer, error);
            throw new IllegalStateException("ETA encode: " + CodecReturnCodes.toString(encoded));
        }
        writeArgs.clear();
        int ret = channel.write(buffer, writeArgs, error);
        while (TransportReturnCodes.WRITE_CALL_AGAIN == ret)
        {
            flushOnce();
            writeArgs.clear();
            ret = channel.write(buffer, writeArgs, error);
        }
        if (ret < TransportReturnCodes.SUCCESS && TransportReturnCodes.WRITE_FLUSH_FAILED != ret)
        {
            throw new IllegalStateException("ETA write: " + ret + " " + error.text());
        }
    }

    /**
     * Flush everything written, waiting for the socket to take it: the time pings are counted from (every write is
     * followed by a flush, so the clock is read once per burst, not once per message).
     */
    void flush()
    {
        while (flushOnce() > 0)
        {
            awaitWritable();
        }
        lastWriteNs = System.nanoTime();
    }

    private int flushOnce()
    {
        final int ret = channel.flush(error);
        if (ret < TransportReturnCodes.SUCCESS)
        {
            throw new IllegalStateException("ETA flush: " + ret + " " + error.text());
        }
        return ret;
    }

    private void awaitWritable()
    {
        try
        {
            final SelectionKey key = channel.selectableChannel().keyFor(selector);
            key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            selector.select(1);
            selector.selectedKeys().clear();
            key.interestOps(SelectionKey.OP_READ);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Wait until there is something to read or the timeout passes.
     *
     * @param timeoutMs how long at most.
     */
    void awaitReadable(final long timeoutMs)
    {
        try
        {
            selector.select(timeoutMs);
            selector.selectedKeys().clear();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * End a wait in {@link #awaitReadable(long)} early; any thread may call it.
     */
    void wakeUp()
    {
        selector.wakeup();
    }

    /**
     * Read every message available without waiting.
     *
     * @param reader takes each message.
     * @return messages read.
     * @throws IllegalStateException when the connection has gone.
     */
    int readAvailable(final Reader reader)
    {
        int messages = 0;
        while (true)
        {
            readArgs.clear();
            final TransportBuffer buffer = channel.read(readArgs, error);
            final int ret = readArgs.readRetVal();
            if (null != buffer)
            {
                decodeIterator.clear();
                decodeIterator.setBufferAndRWFVersion(buffer, channel.majorVersion(), channel.minorVersion());
                reader.onMessage(decodeIterator);
                messages++;
            }
            else if (TransportReturnCodes.FAILURE == ret)
            {
                throw new IllegalStateException("the ETA connection failed: " + error.text());
            }
            if (null == buffer && TransportReturnCodes.READ_PING != ret && ret <= TransportReturnCodes.SUCCESS)
            {
                return messages; // READ_WOULD_BLOCK, READ_FD_CHANGE or READ_IN_PROGRESS: nothing more now
            }
        }
    }

    /**
     * Ping when nothing was written for a third of the ping timeout.
     */
    void pingIfDue()
    {
        final long nowNs = System.nanoTime();
        if (nowNs - lastWriteNs >= TimeUnit.SECONDS.toNanos(channel.pingTimeout()) / 3)
        {
            if (channel.ping(error) < TransportReturnCodes.SUCCESS)
            {
                throw new IllegalStateException("ETA ping: " + error.text());
            }
            lastWriteNs = nowNs;
        }
    }

    /**
     * @return milliseconds between pings.
     */
    long pingIntervalMs()
    {
        return TimeUnit.SECONDS.toMillis(channel.pingTimeout()) / 3;
    }

    @Override
    public void close()
    {
        try
        {
            selector.close();
        }
        catch (final IOException ignored)
        {
            // closing: nothing left to do with it
        }
        if (ChannelState.INACTIVE != channel.state())
        {
            channel.close(error);
        }
    }
}
