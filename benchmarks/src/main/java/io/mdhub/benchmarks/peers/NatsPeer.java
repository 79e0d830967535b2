package io.mdhub.benchmarks.peers;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Nats;
import io.nats.client.Options;

/**
 * NATS core pub/sub through jnats, as a NATS user publishes market data: a subject per item, publishes queued on the
 * connection and written by the library's writer thread, one dispatcher holding a subscription per subject; the
 * subscriptions count once the server has answered a flush (a PING after them), as NATS confirms no SUB.
 */
final class NatsPeer
{
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SUBSCRIBE_FLUSH_TIMEOUT = Duration.ofSeconds(60);

    private NatsPeer()
    {
    }

    /**
     * @param port  the nats-server's port on loopback.
     * @param names the items' subjects.
     * @return a connected publisher.
     */
    static PeerPublisher publisher(final int port, final String[] names)
    {
        return new Publisher(connect(port, "mdhub-peer-publisher"), names);
    }

    /**
     * @param port  the nats-server's port on loopback.
     * @param names the items' subjects.
     * @return a subscriber, connected once started.
     */
    static PeerSubscriber subscriber(final int port, final String[] names)
    {
        return new Subscriber(port, names);
    }

    private static Connection connect(final int port, final String name)
    {
        final Options options = new Options.Builder()
            .server("nats://127.0.0.1:" + port)
            .connectionName(name)
            .connectionTimeout(CONNECT_TIMEOUT)
            .noReconnect() // a lost connection is a failed run, not something to ride out
            .build();
        try
        {
            return Nats.connect(options);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot connect to nats-server on port " + port + ": " + ex, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted connecting to nats-server", ex);
        }
    }

    private static final class Publisher implements PeerPublisher
    {
        private final Connection connection;
        private final String[] subjects;

        Publisher(final Connection connection, final String[] subjects)
        {
            this.connection = connection;
            this.subjects = subjects;
        }

        @Override
        public void publish(final int item, final byte[] payload)
        {
            connection.publish(subjects[item], payload);
        }

        @Override
        public void flush()
        {
            // the library's writer thread writes what is queued as soon as it is queued, a burst at a time
        }

        @Override
        public void close()
        {
            try
            {
                connection.close();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final class Subscriber extends AbstractPeerSubscriber
    {
        private final int port;
        private final String[] subjects;
        private volatile Connection connection;

        Subscriber(final int port, final String[] subjects)
        {
            this.port = port;
            this.subjects = subjects;
        }

        @Override
        public void start(final Listener listener)
        {
            final Connection connected = connect(port, "mdhub-peer-subscriber");
            connection = connected;
            final Dispatcher dispatcher = connected.createDispatcher((message) -> listener.onUpdate(message.getData()));
            for (final String subject : subjects)
            {
                dispatcher.subscribe(subject);
            }
            try
            {
                connected.flush(SUBSCRIBE_FLUSH_TIMEOUT);
                subscribed(subjects.length);
            }
            catch (final TimeoutException | RuntimeException ex)
            {
                fail(ex);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                fail(ex);
            }
        }

        @Override
        public Throwable failure()
        {
            final Connection connected = connection;
            final Throwable failure = super.failure();
            if (null == failure && null != connected && Connection.Status.CLOSED == connected.getStatus())
            {
                return new IllegalStateException("the connection to nats-server closed: " +
                    connected.getLastError());
            }
            return failure;
        }

        @Override
        public void close()
        {
            final Connection connected = connection;
            if (null != connected)
            {
                try
                {
                    connected.close();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
