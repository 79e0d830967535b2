package io.mdhub.common.test.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.transport.Channel;
import com.refinitiv.eta.transport.ChannelInfo;
import com.refinitiv.eta.transport.ChannelState;
import com.refinitiv.eta.transport.ConnectOptions;
import com.refinitiv.eta.transport.ConnectionTypes;
import com.refinitiv.eta.transport.Error;
import com.refinitiv.eta.transport.InProgInfo;
import com.refinitiv.eta.transport.ReadArgs;
import com.refinitiv.eta.transport.Transport;
import com.refinitiv.eta.transport.TransportBuffer;
import com.refinitiv.eta.transport.TransportFactory;
import com.refinitiv.eta.transport.TransportReturnCodes;
import com.refinitiv.eta.transport.WriteArgs;

import io.mdhub.common.test.MdTests;

/**
 * One real ETA 3.9.1.0 transport channel (a client connection, or one accepted by an ETA server) for tests: SOCKET,
 * non-blocking, driven by the test thread. {@link #service()} reads every whole RWF message into a queue and pings
 * like ETA's example PingHandler (a ping when nothing was written for pingTimeout/3). Every wait is unbounded by
 * itself and ends at the test's {@code @InterruptAfter} deadline with a message saying what it waited for; the
 * overloads taking a nanosecond deadline end there too. Uses nothing of MDHub but the test waits.
 * <p>
 * Requires ETA's transport to be initialised ({@code @ExtendWith(EtaTransportExtension.class)}).
 */
public final class EtaChannel implements AutoCloseable
{
    /** Default ping timeout asked for by {@link #connect(String, int)}, in seconds. */
    public static final int DEFAULT_PING_TIMEOUT_SECONDS = 30;

    private static final int INITIAL_ENCODE_BYTES = 4096;
    private static final int MAX_ENCODE_BYTES = 1 << 24;
    private static final EtaChannel[] NONE = new EtaChannel[0];

    private final Channel channel;
    private final ArrayDeque<byte[]> received = new ArrayDeque<>();
    private final Error error = TransportFactory.createError();
    private final ReadArgs readArgs = TransportFactory.createReadArgs();
    private final WriteArgs writeArgs = TransportFactory.createWriteArgs();
    private long lastWriteNs = System.nanoTime();
    private boolean autoPing = true;
    private EtaChannel[] alongside = new EtaChannel[0];
    private boolean isClosed;
    private int pingsReceived;
    private long messagesReceived;
    private Wire wire;

    /**
     * Encodes one message with ETA onto an iterator.
     */
    @FunctionalInterface
    public interface Encoder
    {
        /**
         * @param iterator positioned on an empty buffer.
         * @return an ETA {@link CodecReturnCodes} value.
         */
        int encode(EncodeIterator iterator);
    }

    /**
     * What the application of a channel whose wire is not RWF (ETA's WebSocket transport on a JSON sub-protocol)
     * converts: the channel's users keep reading and writing RWF.
     */
    public interface Wire
    {
        /**
         * @param rwf one RWF message to send.
         * @return the bytes to write for it.
         */
        byte[] toWire(byte[] rwf);

        /**
         * @param wire one buffer read from the channel.
         * @param rwf  takes each RWF message it carries (none for a ping, say).
         */
        void fromWire(byte[] wire, Consumer<byte[]> rwf);
    }

    /**
     * @param wire converts every message written and read from now on (null: the channel carries RWF).
     * @return this.
     */
    public EtaChannel wire(final Wire wire)
    {
        this.wire = wire;
        return this;
    }

    /**
     * Wrap an ETA channel, for example one returned by {@code Server.accept}; call {@link #awaitActive()} next.
     *
     * @param channel the ETA channel.
     */
    public EtaChannel(final Channel channel)
    {
        this.channel = channel;
    }

    /**
     * Connect and wait until the channel is ACTIVE.
     *
     * @param host server address.
     * @param port server port.
     * @return the active channel.
     */
    public static EtaChannel connect(final String host, final int port)
    {
        return connect(host, port, DEFAULT_PING_TIMEOUT_SECONDS, "mdhub-eta-harness");
    }

    /**
     * Connect and wait until the channel is ACTIVE.
     *
     * @param host               server address.
     * @param port               server port.
     * @param pingTimeoutSeconds ping timeout to ask for.
     * @param componentVersion   text ETA appends to its own component version in the ConnectReq.
     * @return the active channel.
     */
    public static EtaChannel connect(
        final String host, final int port, final int pingTimeoutSeconds, final String componentVersion)
    {
        final EtaChannel etaChannel = connectAsync(host, port, pingTimeoutSeconds, Codec.protocolType(),
            componentVersion);
        etaChannel.awaitActive();
        return etaChannel;
    }

    /**
     * Start a connection without waiting for the handshake: see {@link #awaitInitResult()}.
     *
     * @param host               server address.
     * @param port               server port.
     * @param pingTimeoutSeconds ping timeout to ask for.
     * @param protocolType       0 for RWF (ETA's {@code Codec.protocolType()}), 2 for JSON.
     * @param componentVersion   text ETA appends to its own component version in the ConnectReq.
     * @return the channel, still initialising.
     */
    public static EtaChannel connectAsync(
        final String host,
        final int port,
        final int pingTimeoutSeconds,
        final int protocolType,
        final String componentVersion)
    {
        return connectAsync(host, port, pingTimeoutSeconds, protocolType, componentVersion, (options) -> { });
    }

    /**
     * Connect over TLS (ETA's ENCRYPTED connection type carrying a SOCKET connection) and wait until ACTIVE.
     *
     * @param host             server host, as its certificate names it ({@code localhost}).
     * @param port             server port.
     * @param keystore         ETA's one keystore: the trusted server certificate, and the client's key for mutual
     *                         TLS.
     * @param password         the keystore's password.
     * @param componentVersion text ETA appends to its own component version in the ConnectReq.
     * @return the active channel.
     */
    public static EtaChannel connectEncrypted(
        final String host, final int port, final String keystore, final String password,
        final String componentVersion)
    {
        final EtaChannel etaChannel = connectAsync(host, port, DEFAULT_PING_TIMEOUT_SECONDS, Codec.protocolType(),
            componentVersion, encrypted(keystore, password));
        etaChannel.awaitActive();
        return etaChannel;
    }

    /**
     * @param keystore PKCS12 keystore ETA trusts (and, for mutual TLS, presents its key from).
     * @param password its password.
     * @return what turns connect options into ETA's ENCRYPTED (TLS, then RIPC over the socket) options.
     */
    public static Consumer<ConnectOptions> encrypted(final String keystore, final String password)
    {
        return (options) ->
        {
            options.connectionType(ConnectionTypes.ENCRYPTED);
            options.encryptionOptions().connectionType(ConnectionTypes.SOCKET);
            options.encryptionOptions().KeystoreFile(keystore);
            options.encryptionOptions().KeystorePasswd(password);
            options.encryptionOptions().KeystoreType("PKCS12");
            options.encryptionOptions().SecurityProtocol("TLS");
            options.encryptionOptions().SecurityProtocolVersions(new String[]{"1.3", "1.2"});
        };
    }

    /**
     * Start a connection without waiting for the handshake: see {@link #awaitInitResult()}.
     *
     * @param host               server address.
     * @param port               server port.
     * @param pingTimeoutSeconds ping timeout to ask for.
     * @param protocolType       0 for RWF (ETA's {@code Codec.protocolType()}), 2 for JSON.
     * @param componentVersion   text ETA appends to its own component version in the ConnectReq.
     * @param customizer         last changes to the connect options (e.g. {@link #encrypted}).
     * @return the channel, still initialising.
     */
    public static EtaChannel connectAsync(
        final String host,
        final int port,
        final int pingTimeoutSeconds,
        final int protocolType,
        final String componentVersion,
        final Consumer<ConnectOptions> customizer)
    {
        final ConnectOptions options = TransportFactory.createConnectOptions();
        options.connectionType(ConnectionTypes.SOCKET);
        options.unifiedNetworkInfo().address(host);
        options.unifiedNetworkInfo().serviceName(Integer.toString(port));
        options.majorVersion(Codec.majorVersion());
        options.minorVersion(Codec.minorVersion());
        options.protocolType(protocolType);
        options.blocking(false);
        options.pingTimeout(pingTimeoutSeconds);
        options.componentVersion(componentVersion);
        customizer.accept(options);
        final Error connectError = TransportFactory.createError();
        final Channel channel = Transport.connect(options, connectError);
        assertTrue(null != channel, () -> "Transport.connect to " + host + ":" + port + ": " + connectError.text());
        return new EtaChannel(channel);
    }

    /**
     * @return the ETA channel.
     */
    public Channel channel()
    {
        return channel;
    }

    /**
     * One step of the handshake.
     *
     * @return SUCCESS once ACTIVE, CHAN_INIT_IN_PROGRESS while it goes on, negative on failure.
     */
    public int init()
    {
        final InProgInfo inProg = TransportFactory.createInProgInfo();
        return channel.init(inProg, error);
    }

    /**
     * @return the first init result that is not CHAN_INIT_IN_PROGRESS.
     */
    public int awaitInitResult()
    {
        int ret;
        while (TransportReturnCodes.CHAN_INIT_IN_PROGRESS == (ret = init()))
        {
            MdTests.idle(() -> "the ETA channel to become ACTIVE");
        }
        return ret;
    }

    /**
     * Finish the handshake and check the channel is ACTIVE.
     */
    public void awaitActive()
    {
        final int ret = awaitInitResult();
        assertEquals(TransportReturnCodes.SUCCESS, ret, () -> "Channel.init failed: " + error.text());
        assertEquals(ChannelState.ACTIVE, channel.state());
    }

    /**
     * @return what ETA reports about the active channel.
     */
    public ChannelInfo info()
    {
        final ChannelInfo info = TransportFactory.createChannelInfo();
        assertEquals(TransportReturnCodes.SUCCESS, channel.info(info, error), error::text);
        return info;
    }

    /**
     * @param autoPing false to stop {@link #service()} from pinging (to provoke a ping timeout).
     */
    public void autoPing(final boolean autoPing)
    {
        this.autoPing = autoPing;
    }

    /**
     * Keep other channels of the test alive (reading, pinging) while this one waits: a test thread that waits long
     * for one channel would otherwise leave the others silent past their ping timeout.
     *
     * @param others channels to service during every wait of this one.
     */
    public void serviceAlongside(final EtaChannel... others)
    {
        alongside = others.clone();
    }

    private void serviceOthers(final EtaChannel[] others)
    {
        for (final EtaChannel other : alongside)
        {
            other.service();
        }
        for (final EtaChannel other : others)
        {
            other.service();
        }
    }

    /**
     * @return pings read so far.
     */
    public int pingsReceived()
    {
        return pingsReceived;
    }

    /**
     * @return whole messages read so far.
     */
    public long messagesReceived()
    {
        return messagesReceived;
    }

    /**
     * @return true once a read failed (the peer closed or the connection broke).
     */
    public boolean isClosed()
    {
        return isClosed;
    }

    /**
     * Read every message available (into the queue) and ping if due.
     *
     * @return false once the connection is gone.
     */
    public boolean service()
    {
        if (isClosed)
        {
            return false;
        }
        while (true)
        {
            readArgs.clear();
            final TransportBuffer buffer = channel.read(readArgs, error);
            final int ret = readArgs.readRetVal();
            if (null != buffer && null != wire)
            {
                wire.fromWire(copy(buffer), (rwf) ->
                {
                    received.add(rwf);
                    messagesReceived++;
                });
            }
            else if (null != buffer)
            {
                received.add(copy(buffer));
                messagesReceived++;
            }
            else if (TransportReturnCodes.READ_PING == ret)
            {
                pingsReceived++;
            }
            else if (TransportReturnCodes.FAILURE == ret || (ret < 0 && TransportReturnCodes.READ_WOULD_BLOCK != ret &&
                TransportReturnCodes.READ_FD_CHANGE != ret && TransportReturnCodes.READ_IN_PROGRESS != ret))
            {
                isClosed = true;
                return false;
            }
            if (null == buffer && TransportReturnCodes.READ_PING != ret && ret <= 0)
            {
                break;
            }
        }
        if (autoPing && System.nanoTime() - lastWriteNs >= TimeUnit.SECONDS.toNanos(channel.pingTimeout()) / 3)
        {
            ping();
        }
        return true;
    }

    private static byte[] copy(final TransportBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.length()];
        final ByteBuffer data = buffer.data();
        final int start = buffer.dataStartPosition();
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = data.get(start + i);
        }
        return bytes;
    }

    /**
     * Send a ping now.
     */
    public void ping()
    {
        final int ret = channel.ping(error);
        assertTrue(ret >= 0, () -> "ping: " + error.text());
        lastWriteNs = System.nanoTime();
    }

    /**
     * @return the oldest queued message, without reading, or null.
     */
    public byte[] poll()
    {
        return received.poll();
    }

    /**
     * Wait for the next message (any stream).
     *
     * @param others channels to keep serviced (pinging) meanwhile.
     * @return the RWF bytes of the message.
     */
    public byte[] awaitMessage(final EtaChannel... others)
    {
        while (received.isEmpty())
        {
            assertTrue(service(), "the ETA channel closed while waiting for a message");
            serviceOthers(others);
            if (received.isEmpty())
            {
                MdTests.idle(() -> "a message on the ETA channel");
            }
        }
        return received.poll();
    }

    /**
     * Wait for the first message that matches, leaving the others queued in order.
     *
     * @param what       what is awaited, for the failure message.
     * @param match      which message.
     * @param deadlineNs {@link System#nanoTime()} at which to give up and return null; Long.MAX_VALUE for none.
     * @return the RWF bytes of the message, or null at the deadline.
     */
    public byte[] awaitMessage(final String what, final Predicate<byte[]> match, final long deadlineNs)
    {
        while (true)
        {
            for (final Iterator<byte[]> it = received.iterator(); it.hasNext(); )
            {
                final byte[] bytes = it.next();
                if (match.test(bytes))
                {
                    it.remove();
                    return bytes;
                }
            }
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return null;
            }
            assertTrue(service(), () -> "the ETA channel closed while waiting for " + what);
            serviceOthers(NONE);
            if (!hasMatch(match))
            {
                MdTests.idle(() -> what);
            }
        }
    }

    private boolean hasMatch(final Predicate<byte[]> match)
    {
        for (final byte[] bytes : received)
        {
            if (match.test(bytes))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param rwf one RWF message.
     * @return its streamId (RWF bytes 4..7).
     */
    public static int streamId(final byte[] rwf)
    {
        return ByteBuffer.wrap(rwf).getInt(4);
    }

    /**
     * Wait until the peer closes the connection (keeps reading, and pinging, meanwhile).
     */
    public void awaitClosed()
    {
        while (service())
        {
            serviceOthers(NONE);
            MdTests.idle(() -> "the ETA channel to be closed by the peer");
        }
    }

    /**
     * Send one RWF message (converted to the channel's {@link Wire} if it has one).
     *
     * @param rwf RWF bytes.
     */
    public void write(final byte[] rwf)
    {
        final byte[] message = null == wire ? rwf : wire.toWire(rwf);
        final TransportBuffer buffer = channel.getBuffer(message.length, false, error);
        assertTrue(null != buffer, () -> "getBuffer: " + error.text());
        buffer.data().put(message);
        writeBuffer(buffer);
    }

    /**
     * Encode a message with ETA and send it.
     *
     * @param encoder writes the message.
     * @return the bytes sent.
     */
    public byte[] write(final Encoder encoder)
    {
        final byte[] message = encode(encoder);
        write(message);
        return message;
    }

    /**
     * Send several RWF messages packed into one RIPC frame.
     *
     * @param messages RWF bytes of each.
     */
    public void writePacked(final byte[]... messages)
    {
        int size = 0;
        for (final byte[] message : messages)
        {
            size += message.length + 2;
        }
        final TransportBuffer buffer = channel.getBuffer(size, true, error);
        assertTrue(null != buffer, () -> "getBuffer: " + error.text());
        for (int i = 0; i < messages.length; i++)
        {
            buffer.data().put(messages[i]);
            if (i < messages.length - 1)
            {
                assertTrue(channel.packBuffer(buffer, error) >= 0, () -> "packBuffer: " + error.text());
            }
        }
        writeBuffer(buffer);
    }

    private void writeBuffer(final TransportBuffer buffer)
    {
        writeArgs.clear();
        int ret = channel.write(buffer, writeArgs, error);
        while (TransportReturnCodes.WRITE_CALL_AGAIN == ret)
        {
            flush();
            writeArgs.clear();
            ret = channel.write(buffer, writeArgs, error);
        }
        final int result = ret;
        assertTrue(result >= 0, () -> "write: " + result + " " + error.text());
        flush();
        lastWriteNs = System.nanoTime();
    }

    private void flush()
    {
        int ret;
        while ((ret = channel.flush(error)) > 0)
        {
            MdTests.idle(() -> "ETA flush");
        }
        final int result = ret;
        assertTrue(result >= 0, () -> "flush: " + result + " " + error.text());
    }

    /**
     * Encode one message with ETA (RWF 14.1) without sending it.
     *
     * @param encoder writes the message.
     * @return its bytes.
     */
    public static byte[] encode(final Encoder encoder)
    {
        int capacity = INITIAL_ENCODE_BYTES;
        while (true)
        {
            final ByteBuffer data = ByteBuffer.allocate(capacity);
            final Buffer buffer = CodecFactory.createBuffer();
            buffer.data(data);
            final EncodeIterator it = CodecFactory.createEncodeIterator();
            it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
            final int ret = encoder.encode(it);
            if (CodecReturnCodes.BUFFER_TOO_SMALL == ret && capacity < MAX_ENCODE_BYTES)
            {
                capacity *= 2;
                continue;
            }
            assertEquals(CodecReturnCodes.SUCCESS, ret, () -> "ETA encode: " + CodecReturnCodes.toString(ret));
            final byte[] out = new byte[data.position()];
            data.flip();
            data.get(out);
            return out;
        }
    }

    @Override
    public void close()
    {
        if (ChannelState.INACTIVE != channel.state())
        {
            channel.close(error);
        }
    }
}
