package io.mdhub.common.order.client;

import java.net.InetSocketAddress;

import javax.net.ssl.SSLContext;

import io.mdhub.common.tls.TlsSettings;

import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.net.ConnectionHandler;
import io.mdhub.common.net.FrameConnection;
import io.mdhub.common.net.SocketPoller;

/**
 * The client's connection to every server, over the client's {@link SocketPoller}: connects (again 50 ms after a
 * connection is lost, for as long as it takes), says hello on every new connection and each hello interval until the
 * server's map arrives, notices a lost server, and tells {@link OrderRouting} when a server comes or goes. What a
 * server sends is decoded by its pair's {@link OrderEgressAdapter}. It is the {@link OrderLinks} the send path uses.
 * Not thread safe: the client's thread.
 */
final class ServerLinks implements OrderLinks
{
    private static final Logger LOG = LoggerFactory.getLogger(OrderClient.class);

    /** Links are looked at when a connection opens or ends, and this often to reconnect and repeat hellos. */
    private static final long CHECK_INTERVAL_NS = 50_000_000L;

    private final long clientId;
    private final long helloIntervalNs;
    private final NanoClock clock;
    private final SocketPoller poller;
    private final OrderRouting routing;
    private final OrderClientCounters counters;
    private final ServerLink[] links;
    private final OrderEgressAdapter[] adapters;
    private long nextCheckNs;

    /**
     * No connection is made until {@link #connect(OrderEgressListener)}.
     *
     * @param clientId        this client: named in every hello.
     * @param addresses       the servers; entries 2i and 2i+1 are pair i, in server-id order.
     * @param maxOrderLength  longest FIX message to be sent.
     * @param helloIntervalNs time between hellos to a server whose map has not arrived.
     * @param clock           the client's clock.
     * @param poller          the client's sockets.
     * @param routing         told when a server connects or is lost; says whose map has arrived.
     * @param counters        the client's counters (hellos, server losses).
     */
    private TlsSettings tls;
    private SSLContext sslContext;

    /**
     * Speak TLS to the servers: call before {@link #connect}.
     *
     * @param tls        the settings (host name check, protocols).
     * @param sslContext the client context built from them.
     */
    void tls(final TlsSettings tls, final SSLContext sslContext)
    {
        this.tls = tls;
        this.sslContext = sslContext;
    }

    ServerLinks(
        final long clientId,
        final List<OrderServerAddress> addresses,
        final int maxOrderLength,
        final long helloIntervalNs,
        final NanoClock clock,
        final SocketPoller poller,
        final OrderRouting routing,
        final OrderClientCounters counters)
    {
        this.clientId = clientId;
        this.helloIntervalNs = helloIntervalNs;
        this.clock = clock;
        this.poller = poller;
        this.routing = routing;
        this.counters = counters;
        this.links = new ServerLink[addresses.size()];
        this.adapters = new OrderEgressAdapter[routing.pairCount()];
        for (int i = 0; i < links.length; i++)
        {
            links[i] = new ServerLink(i, addresses.get(i), new OrderIngressPublisher(maxOrderLength));
        }
    }

    /**
     * Start connecting to every server; the first {@link #check} after a connection opens says hello.
     *
     * @param egress receives what the servers send, decoded.
     */
    void connect(final OrderEgressListener egress)
    {
        for (int i = 0; i < adapters.length; i++)
        {
            adapters[i] = new OrderEgressAdapter(i, egress);
        }
        for (final ServerLink link : links)
        {
            connect(link, clock.nanoTime());
        }
        nextCheckNs = clock.nanoTime();
    }

    /**
     * @return when {@link #check} next has work: a reconnect or hello to repeat, or sooner once a connection opens or
     * ends.
     */
    long nextCheckNs()
    {
        return nextCheckNs;
    }

    /**
     * When due: reconnect servers whose connection ended, and act on connections that opened (a hello is due, orders
     * waiting in the pair are tried again) or ended (the server is lost).
     *
     * @param nowNs the time now.
     * @return work done.
     */
    int check(final long nowNs)
    {
        if (nowNs - nextCheckNs < 0)
        {
            return 0;
        }
        nextCheckNs = nowNs + CHECK_INTERVAL_NS;
        int work = 0;
        for (final ServerLink link : links)
        {
            if (link.connection.isClosed() && nowNs - link.nextConnectNs >= 0)
            {
                work += connect(link, nowNs);
            }
            final boolean isConnected = link.publisher.isConnected();
            if (isConnected != link.isConnected)
            {
                link.isConnected = isConnected;
                work++;
                if (isConnected)
                {
                    LOG.info("order client {}: server {} ({}) connected", clientId, link.index, link.address);
                    link.isHelloDue = true;
                    routing.onServerConnected(link.index);
                }
                else
                {
                    serverLost(link, nowNs, "its connection ended: " + link.closeReason);
                }
            }
        }
        return work;
    }

    /**
     * Say hello to every connected server that is due one: asked for a map, or its map has not arrived within the
     * hello interval.
     *
     * @param nowNs the time now.
     * @return hellos sent.
     */
    int sendHellos(final long nowNs)
    {
        int work = 0;
        for (final ServerLink link : links)
        {
            if (link.isConnected &&
                (link.isHelloDue || (!routing.hasMap(link.index) && nowNs - link.nextHelloNs >= 0)))
            {
                if (OrderIngressPublisher.SENT == link.publisher.sendHello(clientId))
                {
                    link.isHelloDue = false;
                    link.nextHelloNs = nowNs + helloIntervalNs;
                    counters.hellosSent++;
                    work++;
                }
            }
        }
        return work;
    }

    /**
     * @param server a server (configuration order).
     * @return true if its connection was open at the last {@link #check}.
     */
    @Override
    public boolean isConnected(final int server)
    {
        return links[server].isConnected;
    }

    /**
     * @param server a server (configuration order).
     * @return true if a send to it was refused by a full connection since {@link #clearBackPressure()}.
     */
    @Override
    public boolean isBackPressured(final int server)
    {
        return links[server].isBackPressured;
    }

    /**
     * Let every server take orders again: its connection may have been written out since it refused one.
     */
    @Override
    public void clearBackPressure()
    {
        for (final ServerLink link : links)
        {
            link.isBackPressured = false;
        }
    }

    /**
     * Queue an order on a server's connection; a refusal by the full connection marks the server back-pressured.
     *
     * @param server          a server (configuration order).
     * @param orderId         the order.
     * @param partition       the pair's partition.
     * @param sendTimestampNs echoed in the answer.
     * @param fix             the FIX message.
     * @param offset          where it starts.
     * @param length          its length.
     * @return {@link OrderIngressPublisher#SENT}, {@link OrderIngressPublisher#NOT_CONNECTED} or {@link
     * OrderIngressPublisher#BACK_PRESSURED}.
     */
    @Override
    public long sendOrder(
        final int server,
        final long orderId,
        final int partition,
        final long sendTimestampNs,
        final DirectBuffer fix,
        final int offset,
        final int length)
    {
        final ServerLink link = links[server];
        final long result = link.publisher.sendOrder(
            clientId, orderId, partition, sendTimestampNs, fix, offset, length);
        if (OrderIngressPublisher.BACK_PRESSURED == result)
        {
            link.isBackPressured = true;
        }
        return result;
    }

    /**
     * A server's map arrived complete on its connection: answers on that session are now known to be the server's,
     * and a later loss counts again.
     *
     * @param server    the server (configuration order).
     * @param sessionId the session the map came on.
     */
    void onMapReceived(final int server, final int sessionId)
    {
        final ServerLink link = links[server];
        link.isSessionKnown = true;
        link.isLost = false;
        link.sessionId = sessionId;
    }

    /**
     * Ask a pair's server for a fresh map by a hello on the next {@link #sendHellos}: the server that answered on
     * the session, or both when it cannot be told (none or both have that session).
     *
     * @param pair      the pair.
     * @param sessionId the session an answer came on.
     */
    void askForMap(final int pair, final int sessionId)
    {
        final ServerLink rejecting = linkOfSession(pair, sessionId);
        if (null != rejecting)
        {
            rejecting.isHelloDue = true;
        }
        else
        {
            askForMaps(pair);
        }
    }

    /**
     * Ask both servers of a pair for a fresh map by a hello on the next {@link #sendHellos}.
     *
     * @param pair the pair.
     */
    @Override
    public void askForMaps(final int pair)
    {
        for (int s = 0; s < OrderRouting.SERVERS_PER_PAIR; s++)
        {
            links[pair * OrderRouting.SERVERS_PER_PAIR + s].isHelloDue = true;
        }
    }

    /**
     * @return servers whose connection was open at the last {@link #check}.
     */
    int connectedCount()
    {
        int connected = 0;
        for (final ServerLink link : links)
        {
            connected += link.isConnected ? 1 : 0;
        }
        return connected;
    }

    /**
     * @return sends refused by a full connection, over all servers.
     */
    long backPressureEvents()
    {
        long total = 0;
        for (final ServerLink link : links)
        {
            total += link.publisher.backPressureEvents();
        }
        return total;
    }

    private int connect(final ServerLink link, final long nowNs)
    {
        link.nextConnectNs = nowNs + SocketPoller.RECONNECT_INTERVAL_NS;
        final InetSocketAddress address = link.address.socketAddress();
        link.connection = poller.connect(address, link,
            null == sslContext ? null : tls.newClientEngine(sslContext, address.getHostString(), address.getPort()));
        link.publisher.connection(link.connection);
        return 1;
    }

    private void serverLost(final ServerLink link, final long nowNs, final String why)
    {
        if (!link.isLost)
        {
            LOG.warn("order client {}: lost server {} ({}): {}", clientId, link.index, link.address, why);
            counters.serverLosses++;
            link.isLost = true;
        }
        link.isSessionKnown = false;
        link.nextHelloNs = nowNs;
        routing.onServerLost(link.index);
    }

    /**
     * @return the server of the pair whose connection has this session, or null if none or both have it (two
     * servers that share one session cannot be told apart).
     */
    private ServerLink linkOfSession(final int pair, final int sessionId)
    {
        ServerLink found = null;
        for (int s = 0; s < OrderRouting.SERVERS_PER_PAIR; s++)
        {
            final ServerLink link = links[pair * OrderRouting.SERVERS_PER_PAIR + s];
            if (link.isSessionKnown && sessionId == link.sessionId)
            {
                if (null != found)
                {
                    return null;
                }
                found = link;
            }
        }
        return found;
    }

    /**
     * One server: its connection and what the client knows of it.
     */
    private final class ServerLink implements ConnectionHandler
    {
        private final int index;
        private final int pair;
        private final OrderServerAddress address;
        private final OrderIngressPublisher publisher;
        private FrameConnection connection;
        private String closeReason;
        private long nextConnectNs;
        private boolean isConnected;
        private boolean isHelloDue;
        private boolean isSessionKnown;
        private boolean isBackPressured;
        private boolean isLost;
        private int sessionId;
        private long nextHelloNs;

        ServerLink(final int index, final OrderServerAddress address, final OrderIngressPublisher publisher)
        {
            this.index = index;
            this.pair = index / OrderRouting.SERVERS_PER_PAIR;
            this.address = address;
            this.publisher = publisher;
        }

        @Override
        public void onOpen(final FrameConnection connection)
        {
            nextCheckNs = clock.nanoTime(); // say hello now
        }

        @Override
        public void onMessage(
            final FrameConnection connection, final DirectBuffer buffer, final int offset, final int length)
        {
            adapters[pair].onMessage(index, buffer, offset, length);
        }

        @Override
        public void onClose(final FrameConnection connection, final String reason)
        {
            closeReason = reason;
            nextCheckNs = clock.nanoTime(); // the loss is handled by the next poll's link check
        }
    }
}
