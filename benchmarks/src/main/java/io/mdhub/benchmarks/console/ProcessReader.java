package io.mdhub.benchmarks.console;

import java.io.IOException;
import java.util.Set;

import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * Reads a {@link ProcessSample} over a JMX connection: the platform beans (runtime, GC, CPU, heap) and MDHub's
 * ({@code io.mdhub:type=Counters}, {@code P2pServer}, {@code Distributor}, {@code OrderService},
 * {@code PauseRecorder}), whichever the process has.
 */
final class ProcessReader
{
    private static final ObjectName RUNTIME = name("java.lang:type=Runtime");
    private static final ObjectName OPERATING_SYSTEM = name("java.lang:type=OperatingSystem");
    private static final ObjectName MEMORY = name("java.lang:type=Memory");
    private static final ObjectName COLLECTORS = name("java.lang:type=GarbageCollector,*");
    private static final ObjectName COUNTERS = name("io.mdhub:type=Counters,*");
    private static final ObjectName ORDER_SERVICES = name("io.mdhub:type=OrderService,*");
    private static final ObjectName P2P_SERVERS = name("io.mdhub:type=P2pServer,*");
    private static final ObjectName DISTRIBUTORS = name("io.mdhub:type=Distributor,*");
    private static final ObjectName PAUSE_RECORDERS = name("io.mdhub:type=PauseRecorder,*");

    private ProcessReader()
    {
    }

    static ObjectName name(final String name)
    {
        try
        {
            return new ObjectName(name);
        }
        catch (final JMException ex)
        {
            throw new IllegalArgumentException(name, ex);
        }
    }

    /**
     * @param connection the process's MBean server.
     * @return what it says now.
     * @throws IOException  when the connection fails.
     * @throws JMException  when a bean does not answer as expected.
     */
    static ProcessSample read(final MBeanServerConnection connection) throws IOException, JMException
    {
        final ProcessSample.Builder sample = new ProcessSample.Builder();
        sample.pid = ((Number)connection.getAttribute(RUNTIME, "Pid")).longValue();
        sample.uptimeMs = ((Number)connection.getAttribute(RUNTIME, "Uptime")).longValue();
        for (final ObjectName collector : connection.queryNames(COLLECTORS, null))
        {
            sample.gcCount += Math.max(0, ((Number)connection.getAttribute(collector, "CollectionCount")).longValue());
            sample.gcTimeMs += Math.max(0, ((Number)connection.getAttribute(collector, "CollectionTime")).longValue());
        }
        try
        {
            sample.cpuLoad = ((Number)connection.getAttribute(OPERATING_SYSTEM, "ProcessCpuLoad")).doubleValue();
        }
        catch (final JMException ex)
        {
            sample.cpuLoad = Double.NaN; // not a HotSpot JVM
        }
        sample.heapUsedBytes = (Long)((CompositeData)connection.getAttribute(MEMORY, "HeapMemoryUsage")).get("used");

        for (final ObjectName counters : connection.queryNames(COUNTERS, null))
        {
            sample.components.add(counters.getKeyProperty("name"));
            for (final CompositeData counter : (CompositeData[])connection.getAttribute(counters, "Counters"))
            {
                sample.counter((String)counter.get("label"), (Long)counter.get("value"));
            }
        }
        final ObjectName orders = first(connection.queryNames(ORDER_SERVICES, null));
        if (null != orders)
        {
            sample.orderState = (String)connection.getAttribute(orders, "State");
            sample.orderStanding = (String)connection.getAttribute(orders, "Standing");
            sample.isReplicationLinkUp = (Boolean)connection.getAttribute(orders, "ReplicationLinkUp");
            sample.partitions = (String[])connection.getAttribute(orders, "Partitions");
            sample.ackLatencyUs = (long[])connection.getAttribute(orders, "AckLatencyUs");
        }
        final ObjectName server = first(connection.queryNames(P2P_SERVERS, null));
        final ObjectName distributor = first(connection.queryNames(DISTRIBUTORS, null));
        final ObjectName marketData = null != server ? server : distributor;
        if (null != marketData)
        {
            sample.services = (String[])connection.getAttribute(marketData, "Services");
            sample.connections = (String[])connection.getAttribute(marketData, "Connections");
        }
        final ObjectName pauses = first(connection.queryNames(PAUSE_RECORDERS, null));
        if (null != pauses)
        {
            sample.pauseCount = ((Number)connection.getAttribute(pauses, "PauseCount")).intValue();
        }
        return sample.build();
    }

    private static ObjectName first(final Set<ObjectName> names)
    {
        return names.isEmpty() ? null : names.iterator().next();
    }
}
