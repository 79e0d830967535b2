package io.mdhub.orderprobe.probe;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.pause.PauseEvent;

/**
 * Reads the pause timelines of the processes under test at the end of a run: every
 * {@code io.mdhub:type=PauseRecorder} MXBean of each JMX endpoint ({@code host:port} of a process started with
 * remote JMX on, or {@code local} for this JVM's own platform MBeanServer, as when a demo runs servers in-process).
 */
final class ServerPauses
{
    /** The endpoint name for this JVM's own MBeanServer. */
    static final String LOCAL = "local";

    private ServerPauses()
    {
    }

    /**
     * @param endpoints {@code host:port} or {@link #LOCAL} entries.
     * @param problems  where an endpoint that could not be read is described (the run goes on without it).
     * @return every pause found.
     */
    static List<PauseEvent> read(final List<String> endpoints, final List<String> problems)
    {
        final List<PauseEvent> pauses = new ArrayList<>();
        for (final String endpoint : endpoints)
        {
            try
            {
                if (LOCAL.equals(endpoint))
                {
                    readFrom(MBeans.server(), pauses);
                }
                else
                {
                    final JMXServiceURL url =
                        new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + endpoint.trim() + "/jmxrmi");
                    try (JMXConnector connector = JMXConnectorFactory.connect(url))
                    {
                        readFrom(connector.getMBeanServerConnection(), pauses);
                    }
                }
            }
            catch (final IOException | JMException | RuntimeException ex)
            {
                problems.add("pauses of " + endpoint + " not read: " + ex);
            }
        }
        return pauses;
    }

    private static void readFrom(final MBeanServerConnection server, final List<PauseEvent> pauses)
        throws IOException, JMException
    {
        for (final ObjectName name : server.queryNames(new ObjectName("io.mdhub:type=PauseRecorder,*"), null))
        {
            for (final String line : (String[])server.getAttribute(name, "Pauses"))
            {
                pauses.add(PauseEvent.fromLine(line));
            }
        }
    }
}
