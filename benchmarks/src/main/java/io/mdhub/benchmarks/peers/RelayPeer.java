package io.mdhub.benchmarks.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The ends of a {@code tcp-relay} chain: the publisher writes its updates back to back on one connection, a burst
 * in one write; the subscriber reads the stream and cuts it into {@link PeerUpdate#LENGTH}-byte updates. There is
 * nothing to subscribe to: every item counts as subscribed once connected.
 */
final class RelayPeer
{
    private static final int BUFFER_BYTES = 1024 * 1024;

    private RelayPeer()
    {
    }

    static PeerPublisher publisher(final int port)
    {
        return new Publisher(connect(port));
    }

    static PeerSubscriber subscriber(final int port, final int items)
    {
        return new Subscriber(port, items);
    }

    private static SocketChannel connect(final int port)
    {
        try
        {
            final SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            return channel;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot connect to the relay on port " + port, ex);
        }
    }

    private static final class Publisher implements PeerPublisher
    {
        private final SocketChannel channel;
        private final ByteBuffer burst = ByteBuffer.allocateDirect(BUFFER_BYTES);

        Publisher(final SocketChannel channel)
        {
            this.channel = channel;
        }

        @Override
        public void publish(final int item, final byte[] payload)
        {
            if (burst.remaining() < payload.length)
            {
                flush();
            }
            burst.put(payload);
        }

        @Override
        public void flush()
        {
            burst.flip();
            try
            {
                while (burst.hasRemaining())
                {
                    channel.write(burst);
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("the relay connection failed", ex);
            }
            finally
            {
                burst.clear();
            }
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
                // closing: nothing more to send
            }
        }
    }

    private static final class Subscriber extends AbstractPeerSubscriber
    {
        private final int port;
        private final int items;
        private volatile boolean isClosed;
        private volatile SocketChannel channel;

        Subscriber(final int port, final int items)
        {
            this.port = port;
            this.items = items;
        }

        @Override
        public void start(final Listener listener)
        {
            channel = connect(port);
            subscribed(items);
            final Thread reader = new Thread(() -> read(listener), "relay-subscriber");
            reader.setDaemon(true);
            reader.start();
        }

        private void read(final Listener listener)
        {
            final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
            final byte[] update = new byte[PeerUpdate.LENGTH];
            try
            {
                while (channel.read(buffer) >= 0)
                {
                    buffer.flip();
                    while (buffer.remaining() >= PeerUpdate.LENGTH)
                    {
                        buffer.get(update);
                        listener.onUpdate(update);
                    }
                    buffer.compact();
                }
                fail(new IOException("the relay closed the connection"));
            }
            catch (final IOException ex)
            {
                if (!isClosed)
                {
                    fail(ex);
                }
            }
        }

        @Override
        public void close()
        {
            isClosed = true;
            final SocketChannel connected = channel;
            if (null != connected)
            {
                try
                {
                    connected.close();
                }
                catch (final IOException ex)
                {
                    // closing
                }
            }
        }
    }
}
