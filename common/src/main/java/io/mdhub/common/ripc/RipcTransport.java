package io.mdhub.common.ripc;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Chooses the Netty transport: native epoll when asked for and available, else NIO. Channel classes follow the
 * event-loop group, so a group supplied by the application decides for itself.
 */
public final class RipcTransport
{
    private RipcTransport()
    {
    }

    /**
     * @param threads      event-loop threads.
     * @param preferEpoll  use epoll when available.
     * @param threadPrefix thread name prefix.
     * @return a new group the caller owns.
     */
    public static EventLoopGroup newEventLoopGroup(
        final int threads, final boolean preferEpoll, final String threadPrefix)
    {
        final DefaultThreadFactory threadFactory = new DefaultThreadFactory(threadPrefix, true);
        return preferEpoll && Epoll.isAvailable() ?
            new EpollEventLoopGroup(threads, threadFactory) : new NioEventLoopGroup(threads, threadFactory);
    }

    /**
     * @param group the event-loop group.
     * @return the server channel class that fits it.
     */
    public static Class<? extends ServerSocketChannel> serverChannelClass(final EventLoopGroup group)
    {
        return group instanceof EpollEventLoopGroup ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /**
     * @param group the event-loop group.
     * @return the client channel class that fits it.
     */
    public static Class<? extends SocketChannel> channelClass(final EventLoopGroup group)
    {
        return group instanceof EpollEventLoopGroup ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
