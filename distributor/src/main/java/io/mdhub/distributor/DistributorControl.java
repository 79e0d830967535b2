package io.mdhub.distributor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.channel.EventLoop;

/**
 * The {@link DistributorMXBean} implementation: each call is handed to the distributor's event loop and awaited, so
 * JMX threads never read state the event loop is changing.
 */
final class DistributorControl implements DistributorMXBean
{
    private static final long TIMEOUT_SECONDS = 5;

    private final DistributorCore core;
    private final EventLoop eventLoop;

    DistributorControl(final DistributorCore core, final EventLoop eventLoop)
    {
        this.core = core;
        this.eventLoop = eventLoop;
    }

    <T> T call(final Callable<T> task)
    {
        try
        {
            if (eventLoop.inEventLoop())
            {
                return task.call();
            }
            return eventLoop.submit(task).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the distributor event loop", ex);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException("distributor event loop did not answer: " + ex, ex);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public String[] getServices()
    {
        return call(() ->
        {
            final List<String> lines = new ArrayList<>();
            for (final DistributedService service : core.directory.services())
            {
                lines.add("id=" + service.id() + " name=" + service.name() + " state=" +
                    (DistributedService.STATE_UP == service.serviceState() ? "up" : "down") +
                    " acceptingRequests=" + service.acceptingRequests() + " providers=" + service.providerCount() +
                    " items=" + service.cache().size() + " sinkDriven=" + service.isSinkDriven() + " caching=" +
                    service.isCaching());
            }
            return lines.toArray(new String[0]);
        });
    }

    @Override
    public String[] getConnections()
    {
        return call(() ->
        {
            final List<String> lines = new ArrayList<>();
            for (final ProviderLink session : core.sessions.values())
            {
                lines.add("id=" + session.connectionId() + " kind=" + (session.isRoute() ? "route" : "provider") +
                    " remote=" + session.remoteAddress() + " user=" + session.userName() + " services=" +
                    session.serviceCount() + " items=" + session.itemCount());
            }
            return lines.toArray(new String[0]);
        });
    }

    @Override
    public int getItemCount()
    {
        return call(core.directory::itemCount);
    }

    @Override
    public boolean dropConnection(final long connectionId)
    {
        return call(() ->
        {
            final ProviderLink session = core.sessions.get(connectionId);
            if (null == session)
            {
                return false;
            }
            session.disconnect(ProviderDisconnectReason.OPERATOR, "dropped over JMX");
            return true;
        });
    }
}
