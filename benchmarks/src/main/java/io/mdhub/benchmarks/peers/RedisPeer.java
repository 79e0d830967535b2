package io.mdhub.benchmarks.peers;

import java.nio.charset.StandardCharsets;

import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * Redis pub/sub through Jedis, as a Redis user publishes market data: a channel per item, {@code PUBLISH} pipelined
 * (a burst's commands written together, their replies read at the burst's end), one {@code SUBSCRIBE} to every
 * channel on the subscriber's connection, delivered on the thread that reads it.
 */
final class RedisPeer
{
    private RedisPeer()
    {
    }

    /**
     * @param port  the redis-server's port on loopback.
     * @param names the items' channels.
     * @return a connected publisher.
     */
    static PeerPublisher publisher(final int port, final String[] names)
    {
        return new Publisher(port, channels(names));
    }

    /**
     * @param port  the redis-server's port on loopback.
     * @param names the items' channels.
     * @return a subscriber, connected once started.
     */
    static PeerSubscriber subscriber(final int port, final String[] names)
    {
        return new Subscriber(port, channels(names));
    }

    private static byte[][] channels(final String[] names)
    {
        final byte[][] channels = new byte[names.length][];
        for (int i = 0; i < names.length; i++)
        {
            channels[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return channels;
    }

    private static final class Publisher implements PeerPublisher
    {
        private final Jedis jedis;
        private final Pipeline pipeline;
        private final byte[][] channels;
        private int queued;

        Publisher(final int port, final byte[][] channels)
        {
            this.channels = channels;
            jedis = new Jedis("127.0.0.1", port);
            pipeline = jedis.pipelined();
        }

        @Override
        public void publish(final int item, final byte[] payload)
        {
            pipeline.publish(channels[item], payload);
            queued++;
        }

        @Override
        public void flush()
        {
            if (queued > 0)
            {
                pipeline.sync(); // writes the burst and reads its replies (each the number of subscribers reached)
                queued = 0;
            }
        }

        @Override
        public void close()
        {
            pipeline.close();
            jedis.close();
        }
    }

    private static final class Subscriber extends AbstractPeerSubscriber
    {
        private final int port;
        private final byte[][] channels;
        private volatile Jedis jedis;
        private volatile boolean isClosed;
        private final BinaryJedisPubSub pubSub = new BinaryJedisPubSub()
        {
            @Override
            public void onSubscribe(final byte[] channel, final int subscribedChannels)
            {
                subscribed(subscribedChannels);
            }

            @Override
            public void onMessage(final byte[] channel, final byte[] message)
            {
                listener.onUpdate(message);
            }
        };
        private Listener listener;
        private Thread reader;

        Subscriber(final int port, final byte[][] channels)
        {
            this.port = port;
            this.channels = channels;
        }

        @Override
        public void start(final Listener listener)
        {
            this.listener = listener;
            reader = new Thread(() ->
            {
                try (Jedis connection = new Jedis("127.0.0.1", port, 0)) // no read timeout: a quiet channel is fine
                {
                    jedis = connection;
                    connection.subscribe(pubSub, channels); // returns when unsubscribed
                }
                catch (final RuntimeException ex)
                {
                    if (!isClosed)
                    {
                        fail(ex);
                    }
                }
            }, "redis-subscriber");
            reader.setDaemon(true);
            reader.start();
        }

        @Override
        public void close()
        {
            isClosed = true;
            if (pubSub.isSubscribed())
            {
                pubSub.unsubscribe();
            }
            final Jedis connection = jedis;
            if (null != connection)
            {
                connection.close();
            }
        }
    }
}
