package io.mdhub.benchmarks.console;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;

import org.agrona.CloseHelper;

/**
 * What the console shows, apart from how: the processes to read (found anew at each refresh, so servers that start
 * or stop come and go), one JMX connection per process kept open between refreshes, and each process's previous
 * sample so that rates are taken over the refresh interval. A process that cannot be read gets a row with the
 * reason; its connection is dropped and tried again at the next refresh. Not thread-safe: one refreshing thread.
 */
final class ConsoleModel implements AutoCloseable
{
    private final Supplier<List<ConsoleTarget>> targets;
    private final int cpus = Runtime.getRuntime().availableProcessors();
    private final Map<String, JMXConnector> connectors = new HashMap<>();
    private final Map<String, ProcessSample> latest = new LinkedHashMap<>();

    /**
     * @param targets finds the processes to read, asked at each refresh.
     */
    ConsoleModel(final Supplier<List<ConsoleTarget>> targets)
    {
        this.targets = targets;
    }

    /**
     * The processes of this host and the remote ones given.
     *
     * @param remotes     {@code host:port} of remote JMX connectors.
     * @param environment the remote connectors' credentials and TLS settings.
     * @param isLocal     whether to look for this host's servers.
     * @return the model.
     */
    static ConsoleModel of(final List<String> remotes, final Map<String, ?> environment, final boolean isLocal)
    {
        final List<ConsoleTarget> fixed = new ArrayList<>();
        for (final String remote : remotes)
        {
            fixed.add(ConsoleTarget.remote(remote, environment));
        }
        return new ConsoleModel(() ->
        {
            final List<ConsoleTarget> all = new ArrayList<>(isLocal ? LocalProcesses.find() : List.of());
            all.addAll(fixed);
            return all;
        });
    }

    /**
     * Read every process once.
     *
     * @return a row per process, in the order found.
     */
    List<ProcessRow> refresh()
    {
        final List<ProcessRow> rows = new ArrayList<>();
        final Map<String, ProcessSample> seen = new HashMap<>();
        for (final ConsoleTarget target : targets.get())
        {
            final String key = target.label();
            try
            {
                final ProcessSample sample = ProcessReader.read(connection(target));
                rows.add(ProcessRow.of(key, latest.get(key), sample, cpus));
                seen.put(key, sample);
            }
            catch (final IOException | JMException | RuntimeException ex)
            {
                CloseHelper.quietClose(connectors.remove(key));
                rows.add(ProcessRow.failed(key, String.valueOf(ex.getMessage())));
            }
        }
        for (final String gone : new ArrayList<>(connectors.keySet()))
        {
            if (!seen.containsKey(gone))
            {
                CloseHelper.quietClose(connectors.remove(gone));
            }
        }
        latest.clear();
        latest.putAll(seen);
        rows.sort((a, b) -> roleOrder(a.role()) != roleOrder(b.role()) ?
            Integer.compare(roleOrder(a.role()), roleOrder(b.role())) : a.target().compareTo(b.target()));
        return rows;
    }

    /**
     * @param target a process's label.
     * @return its latest sample, or null.
     */
    ProcessSample sample(final String target)
    {
        return latest.get(target);
    }

    /**
     * @param target a process's label.
     * @return its open connection, or null (for the operations a drill-down offers).
     */
    MBeanServerConnection connectionOf(final String target)
    {
        final JMXConnector connector = connectors.get(target);
        try
        {
            return null == connector ? null : connector.getMBeanServerConnection();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    private MBeanServerConnection connection(final ConsoleTarget target) throws IOException
    {
        JMXConnector connector = connectors.get(target.label());
        if (null == connector)
        {
            connector = JMXConnectorFactory.connect(target.serviceUrl(), target.environment());
            connectors.put(target.label(), connector);
        }
        return connector.getMBeanServerConnection();
    }

    private static int roleOrder(final String role)
    {
        final int order = List.of("backbone", "distributor", "p2p", "p2p+order", "order").indexOf(role);
        return order < 0 ? Integer.MAX_VALUE : order;
    }

    @Override
    public void close()
    {
        connectors.values().forEach(CloseHelper::quietClose);
        connectors.clear();
    }
}
