package io.mdhub.distributor;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.ripc.RipcClient;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Future;

/**
 * One mounted interactive provider ({@code host:port}): keeps a {@link RouteSession} connected to it, reconnecting
 * after a fixed wait whenever the connection fails or is lost, for as long as the distributor runs. Its RSSL client
 * shares the distributor's single event loop, so the session is owned by the same thread as everything else. The
 * address is resolved once, when the distributor starts, never on the event loop.
 */
final class RouteEndpoint implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RouteEndpoint.class);
    private static final int LOG_EVERY_FAILURES = 30;

    private final int order;
    private final String host;
    private final int port;
    private final String userName;
    private final long reconnectMs;
    private InetSocketAddress address;
    private DistributorCore core;
    private EventLoop eventLoop;
    private RipcClient client;
    private volatile boolean isStopped;
    private int failures;

    RouteEndpoint(final int order, final String host, final int port, final String userName, final long reconnectMs)
    {
        this.order = order;
        this.host = host;
        this.port = port;
        this.userName = userName;
        this.reconnectMs = reconnectMs;
    }

    /**
     * @param routes {@code host:port,host:port...}; blank for none.
     * @return the endpoints, in order.
     * @throws IllegalArgumentException naming the bad entry.
     */
    static List<RouteEndpoint> parse(final String routes, final String userName, final long reconnectMs)
    {
        final List<RouteEndpoint> endpoints = new ArrayList<>();
        if (null == routes || routes.isBlank())
        {
            return endpoints;
        }
        for (final String entry : routes.split(","))
        {
            final String trimmed = entry.trim();
            final int colon = trimmed.lastIndexOf(':');
            if (colon <= 0 || colon == trimmed.length() - 1)
            {
                throw new IllegalArgumentException(DistributorConfiguration.ROUTES_PROP_NAME +
                    ": expected host:port, got '" + trimmed + "'");
            }
            final int port;
            try
            {
                port = Integer.parseInt(trimmed.substring(colon + 1));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(DistributorConfiguration.ROUTES_PROP_NAME + ": bad port in '" +
                    trimmed + "'", ex);
            }
            if (port < 1 || port > 0xFFFF)
            {
                throw new IllegalArgumentException(DistributorConfiguration.ROUTES_PROP_NAME +
                    ": port out of range in '" + trimmed + "'");
            }
            endpoints.add(new RouteEndpoint(endpoints.size(), trimmed.substring(0, colon), port, userName,
                reconnectMs));
        }
        return endpoints;
    }

    /**
     * Resolve the address and start connecting (from the launching thread).
     */
    void start(final DistributorCore core, final EventLoopGroup group, final String componentName)
    {
        this.core = core;
        this.eventLoop = group.next();
        this.address = new InetSocketAddress(host, port);
        client = RipcClient.launch(new RipcClient.Context()
            .host(host)
            .port(port)
            .componentName(componentName)
            .eventLoopGroup(group)
            .channelHook((channel) -> channel.pipeline().addLast(new RouteSession(core, this))));
        eventLoop.execute(this::connect);
    }

    private void connect()
    {
        if (isStopped)
        {
            return;
        }
        if (address.isUnresolved())
        {
            onConnectFailed(new IllegalStateException("unresolved host " + host));
            return;
        }
        final Future<Channel> connected = client.connect(address);
        connected.addListener((Future<Channel> f) ->
        {
            if (!f.isSuccess())
            {
                eventLoop.execute(() -> onConnectFailed(f.cause()));
            }
            else
            {
                eventLoop.execute(this::onConnected);
            }
        });
    }

    private void onConnected()
    {
        if (failures > 0)
        {
            LOG.info("{}: route {} connected after {} failed attempts", core.component, this, failures);
        }
        failures = 0;
    }

    private void onConnectFailed(final Throwable cause)
    {
        core.counters.routeConnectFailures().increment();
        if (0 == failures++ % LOG_EVERY_FAILURES)
        {
            LOG.warn("{}: route {} connect failed ({} so far), retrying every {} ms: {}", core.component, this,
                failures, reconnectMs, cause.toString());
        }
        scheduleConnect();
    }

    /**
     * The session's connection was lost (called on the event loop).
     */
    void onDisconnected()
    {
        LOG.warn("{}: route {} lost, reconnecting in {} ms", core.component, this, reconnectMs);
        scheduleConnect();
    }

    private void scheduleConnect()
    {
        if (!isStopped && !eventLoop.isShuttingDown())
        {
            eventLoop.schedule(this::connect, reconnectMs, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * @return the endpoint's place in the configured list: with hot standby the lowest one up is the active.
     */
    int order()
    {
        return order;
    }

    /**
     * @return the user name logged in with.
     */
    String userName()
    {
        return userName;
    }

    /**
     * Stop reconnecting and close the connection (its session ends as usual on the event loop).
     */
    @Override
    public void close()
    {
        isStopped = true;
        CloseHelper.quietClose(client);
    }

    @Override
    public String toString()
    {
        return host + ":" + port;
    }
}
