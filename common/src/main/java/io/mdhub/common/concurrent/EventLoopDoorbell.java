package io.mdhub.common.concurrent;

import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

import org.agrona.CloseHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.aeron.Counter;
import io.mdhub.common.status.MdCounters;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;

/**
 * A {@link Doorbell}'s socket in a Netty event loop: the loop's thread blocks in its own {@code epoll_wait} (or
 * selector) for its sockets and its doorbell together, and a ring runs the owner's wake-up on that thread at once. The
 * server socket and every ringer's connection belong to the one loop.
 * <p>
 * A ringer's stream is parsed as {@link DoorbellDescriptor} says: a hello first, then ring bytes. Anything else (a
 * stale-socket sweep's connection closes without a byte; a process that writes garbage) closes that one connection
 * with a log line (the first ten, then at powers of two) and is counted in a counter of type
 * {@link MdCounters#DOORBELL_REFUSED_TYPE_ID} ({@code doorbell-refused: <name>}).
 */
public final class EventLoopDoorbell implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(EventLoopDoorbell.class);
    /** How long a close from another thread waits for the loop to close the sockets (a loop shut down never does). */
    private static final long CLOSE_WAIT_MS = 1_000;

    private final Doorbell doorbell;
    private final EventLoop loop;
    private final Runnable onRing;
    private final ChannelGroup ringers;
    private final Channel server;
    private volatile Counter refused; // allocated once the socket listens, before the doorbell is published

    private EventLoopDoorbell(final Doorbell doorbell, final EventLoop loop, final Runnable onRing)
    {
        this.doorbell = doorbell;
        this.loop = loop;
        this.onRing = onRing;
        this.ringers = new DefaultChannelGroup("doorbell " + doorbell.name(), loop, true);
        final boolean isEpoll = loop.parent() instanceof EpollEventLoopGroup;
        final Class<? extends ServerChannel> channelClass =
            isEpoll ? EpollServerDomainSocketChannel.class : NioServerDomainSocketChannel.class;
        final Path socketPath = doorbell.socketPath();
        final SocketAddress address =
            isEpoll ? new DomainSocketAddress(socketPath.toFile()) : UnixDomainSocketAddress.of(socketPath);
        this.server = new ServerBootstrap()
            .group(loop, loop)
            .channel(channelClass)
            .childHandler(new ChannelInitializer<>()
            {
                @Override
                protected void initChannel(final Channel channel)
                {
                    ringers.add(channel);
                    channel.pipeline().addLast(new RingerHandler());
                }
            })
            .bind(address)
            .syncUninterruptibly()
            .channel();
    }

    /**
     * @param loop an event loop.
     * @return true when it can listen on a doorbell's socket: an epoll or NIO loop, not a loop without I/O.
     */
    public static boolean canServe(final EventExecutor loop)
    {
        return loop instanceof EventLoop &&
            (loop.parent() instanceof EpollEventLoopGroup || loop.parent() instanceof NioEventLoopGroup);
    }

    /**
     * Listen on a new doorbell's socket in a loop, then publish the doorbell's counter, so that a ringer that finds it
     * can connect at once. Not from the loop itself (the bind is waited for).
     *
     * @param aeron     the client whose driver the publishers share.
     * @param name      who sleeps, for the counter's label.
     * @param loop      the loop whose thread sleeps.
     * @param onRing    what a ring runs on that thread: the owner's duty cycle, which says it is awake.
     * @param streamIds the IPC streams the loop polls.
     * @return the bound doorbell, owning its {@link Doorbell}.
     * @throws IllegalStateException if called from the loop, or the loop has no I/O ({@link #canServe}).
     */
    public static EventLoopDoorbell open(
        final Aeron aeron, final String name, final EventLoop loop, final Runnable onRing, final int... streamIds)
    {
        if (loop.inEventLoop() || !canServe(loop))
        {
            throw new IllegalStateException("a doorbell is opened from outside its loop (the bind is waited for), on " +
                "an epoll or NIO loop: " + loop);
        }
        final Doorbell doorbell = new Doorbell(aeron, name);
        final EventLoopDoorbell bound = new EventLoopDoorbell(doorbell, loop, onRing);
        try
        {
            bound.refused = aeron.addCounter(MdCounters.DOORBELL_REFUSED_TYPE_ID, "doorbell-refused: " + name);
            doorbell.publish(aeron, streamIds); // last: ringers find the doorbell from now on
            return bound;
        }
        catch (final RuntimeException ex)
        {
            bound.close();
            throw ex;
        }
    }

    /**
     * @return the doorbell.
     */
    public Doorbell doorbell()
    {
        return doorbell;
    }

    /**
     * @return connections closed for writing what a ringer does not write.
     */
    public long refused()
    {
        return null == refused ? 0 : refused.get();
    }

    /**
     * Close the server socket and every ringer's connection (their ringers drop the doorbell at their next ring).
     */
    @Override
    public void close()
    {
        // the server first, so that no ringer connects after the group closed (which then also closes late members)
        if (loop.inEventLoop())
        {
            server.close();
            ringers.close();
        }
        else
        {
            server.close().awaitUninterruptibly(CLOSE_WAIT_MS);
            ringers.close().awaitUninterruptibly(CLOSE_WAIT_MS);
        }
        CloseHelper.quietClose(doorbell::close);
        CloseHelper.quietClose(refused);
    }

    /**
     * One ringer's connection: its hello, then rings.
     */
    private final class RingerHandler extends ChannelInboundHandlerAdapter
    {
        private int helloBytes;
        private int sessionId;

        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            final ByteBuf bytes = (ByteBuf)msg;
            try
            {
                boolean isRung = false;
                while (bytes.isReadable())
                {
                    final byte b = bytes.readByte();
                    if (helloBytes < DoorbellDescriptor.HELLO_LENGTH)
                    {
                        if (!readHello(b))
                        {
                            refuse(ctx, "it did not start with a hello");
                            return;
                        }
                    }
                    else if (DoorbellDescriptor.RING == b)
                    {
                        isRung = true;
                    }
                    else
                    {
                        refuse(ctx, "it wrote " + (b & 0xFF) + " where a ring goes");
                        return;
                    }
                }
                if (isRung)
                {
                    onRing.run();
                }
            }
            finally
            {
                ReferenceCountUtil.release(bytes);
            }
        }

        private boolean readHello(final byte b)
        {
            if (0 == helloBytes)
            {
                helloBytes = 1;
                return DoorbellDescriptor.HELLO == b;
            }
            sessionId |= (b & 0xFF) << (8 * (helloBytes - 1)); // little-endian
            if (++helloBytes == DoorbellDescriptor.HELLO_LENGTH)
            {
                doorbell.onHello(sessionId);
                onRing.run(); // a new publication may have published before it knew of this doorbell
            }
            return true;
        }

        private void refuse(final ChannelHandlerContext ctx, final String why)
        {
            final Counter counter = refused;
            final long count = null == counter ? 1 : counter.incrementOrdered() + 1;
            if (count <= 10 || 1 == Long.bitCount(count))
            {
                LOG.warn("doorbell {}: closed a connection because {} ({} so far)", doorbell.name(), why, count);
            }
            ctx.close();
        }

        @Override
        public void channelInactive(final ChannelHandlerContext ctx)
        {
            if (helloBytes == DoorbellDescriptor.HELLO_LENGTH)
            {
                doorbell.onRingerGone(sessionId);
                onRing.run(); // its last messages may have no ring behind them
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
        {
            ctx.close(); // the ringer's process died mid-write, or the like: its connection alone goes
        }
    }
}
