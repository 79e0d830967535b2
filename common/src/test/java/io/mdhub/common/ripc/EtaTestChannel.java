package io.mdhub.common.ripc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.Codec;
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
 * A real ETA 3.9.1.0 channel (consumer side or accepted by an ETA server) driven by the test thread, non-blocking,
 * with bounded waits (the test deadline interrupts them). Pings like ETA's PingHandler when {@link #service()} is
 * called: a ping when nothing was written for pingTimeout/3.
 */
final class EtaTestChannel implements AutoCloseable
{
    final Channel channel;
    final ArrayDeque<byte[]> received = new ArrayDeque<>();
    private final Error error = TransportFactory.createError();
    private final ReadArgs readArgs = TransportFactory.createReadArgs();
    private final WriteArgs writeArgs = TransportFactory.createWriteArgs();
    private long lastWriteNs = System.nanoTime();
    private boolean autoPing = true;
    int pingsReceived;
    boolean isClosed;

    EtaTestChannel(final Channel channel)
    {
        this.channel = channel;
    }

    static EtaTestChannel connect(final int port, final int pingTimeoutSeconds)
    {
        final EtaTestChannel etaChannel = connectAsync(port, pingTimeoutSeconds, Codec.protocolType());
        etaChannel.awaitActive();
        return etaChannel;
    }

    static EtaTestChannel connectAsync(final int port, final int pingTimeoutSeconds, final int protocolType)
    {
        final ConnectOptions options = TransportFactory.createConnectOptions();
        options.connectionType(ConnectionTypes.SOCKET);
        options.unifiedNetworkInfo().address("127.0.0.1");
        options.unifiedNetworkInfo().serviceName(Integer.toString(port));
        options.majorVersion(Codec.majorVersion());
        options.minorVersion(Codec.minorVersion());
        options.protocolType(protocolType);
        options.blocking(false);
        options.pingTimeout(pingTimeoutSeconds);
        options.componentVersion("EtaTestChannel");
        final Error error = TransportFactory.createError();
        final Channel channel = Transport.connect(options, error);
        assertTrue(null != channel, () -> "Transport.connect: " + error.text());
        return new EtaTestChannel(channel);
    }

    /**
     * @return the last init return code: SUCCESS once ACTIVE, negative on failure.
     */
    int init()
    {
        final InProgInfo inProg = TransportFactory.createInProgInfo();
        final int ret = channel.init(inProg, error);
        return ret;
    }

    void awaitActive()
    {
        final int ret = awaitInitResult();
        assertEquals(TransportReturnCodes.SUCCESS, ret, () -> "Channel.init failed: " + error.text());
        assertEquals(ChannelState.ACTIVE, channel.state());
    }

    int awaitInitResult()
    {
        int ret;
        while (TransportReturnCodes.CHAN_INIT_IN_PROGRESS == (ret = init()))
        {
            MdTests.idle(() -> "ETA channel to become ACTIVE");
        }
        return ret;
    }

    ChannelInfo info()
    {
        final ChannelInfo info = TransportFactory.createChannelInfo();
        assertEquals(TransportReturnCodes.SUCCESS, channel.info(info, error), () -> error.text());
        return info;
    }

    void autoPing(final boolean autoPing)
    {
        this.autoPing = autoPing;
    }

    /**
     * Read everything available and ping if due. Returns false once the connection failed.
     */
    boolean service()
    {
        if (isClosed)
        {
            return false;
        }
        while (true)
        {
            readArgs.clear();
            final TransportBuffer buffer = channel.read(readArgs, error);
            if (null != buffer)
            {
                final byte[] bytes = new byte[buffer.length()];
                final ByteBuffer data = buffer.data();
                for (int i = 0; i < bytes.length; i++)
                {
                    bytes[i] = data.get(buffer.dataStartPosition() + i);
                }
                received.add(bytes);
            }
            final int ret = readArgs.readRetVal();
            if (TransportReturnCodes.READ_PING == ret)
            {
                pingsReceived++;
            }
            else if (ret == TransportReturnCodes.FAILURE || (null == buffer && ret < 0 &&
                ret != TransportReturnCodes.READ_WOULD_BLOCK && ret != TransportReturnCodes.READ_PING &&
                ret != TransportReturnCodes.READ_FD_CHANGE && ret != TransportReturnCodes.READ_IN_PROGRESS))
            {
                isClosed = true;
                return false;
            }
            if (ret <= 0 && null == buffer && TransportReturnCodes.READ_PING != ret)
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

    void ping()
    {
        final int ret = channel.ping(error);
        assertTrue(ret >= 0, () -> "ping: " + error.text());
        lastWriteNs = System.nanoTime();
    }

    byte[] awaitMessage(final EtaTestChannel... others)
    {
        while (received.isEmpty())
        {
            assertTrue(service(), "ETA channel closed while waiting for a message");
            for (final EtaTestChannel other : others)
            {
                other.service();
            }
            if (received.isEmpty())
            {
                MdTests.idle(() -> "a message on the ETA channel");
            }
        }
        return received.poll();
    }

    void awaitClosed()
    {
        while (service())
        {
            MdTests.idle(() -> "the ETA channel to be closed by the peer");
        }
    }

    void write(final byte[] message)
    {
        final TransportBuffer buffer = channel.getBuffer(message.length, false, error);
        assertTrue(null != buffer, () -> "getBuffer: " + error.text());
        buffer.data().put(message);
        writeBuffer(buffer);
    }

    void writePacked(final byte[]... messages)
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

    @Override
    public void close()
    {
        if (ChannelState.INACTIVE != channel.state())
        {
            channel.close(error);
        }
    }
}
