package io.mdhub.benchmarks.console;

import java.util.Map;
import java.util.TreeMap;

/**
 * One line of the overview: a process's role and figures, rates taken between its last two samples. A figure the
 * process does not have (a distributor's consumers) is -1; a rate without an earlier sample is NaN.
 *
 * @param target           how the process was reached ({@code pid 1234} or {@code host:port}).
 * @param role             backbone, distributor, p2p, order, or p2p+order.
 * @param name             its components' names.
 * @param pid              its process id.
 * @param uptimeMs         how long it has run.
 * @param updatesInPerSec  updates received per second.
 * @param updatesOutPerSec updates sent to consumers per second.
 * @param items            items open (p2p) or cached (distributor).
 * @param consumers        consumer connections.
 * @param providers        provider connections.
 * @param slowConsumers    consumers disconnected as slow, since start.
 * @param gaps             backbone gaps detected by the subscribers this driver serves, since start.
 * @param recoveries       backbone recoveries, since start.
 * @param ordersPerSec     orders acknowledged per second.
 * @param orderState       STARTING, CATCHING_UP or SERVING, or null.
 * @param standing         SOLE, PAIRED or UNPROVEN, or null.
 * @param partitions       partition roles ({@code 0:PRIMARY 1:BACKUP}), or null.
 * @param queueDepth       write-behind queue depth summed over partitions, or -1.
 * @param replicationRttUs the slowest partition's last replication round trip, or -1.
 * @param ackP50Us         median store-to-completion of the orders this server completed lately, or -1.
 * @param ackP99Us         its 99th percentile, or -1.
 * @param gcMsPerSec       GC time per second of wall time.
 * @param cpuPercent       the process's CPU, percent of one core.
 * @param heapUsedMb       heap in use.
 * @param pauses           pauses recorded (p2p and order servers), or -1.
 * @param error            why the process could not be read, or null.
 */
record ProcessRow(
    String target,
    String role,
    String name,
    long pid,
    long uptimeMs,
    double updatesInPerSec,
    double updatesOutPerSec,
    long items,
    long consumers,
    long providers,
    long slowConsumers,
    long gaps,
    long recoveries,
    double ordersPerSec,
    String orderState,
    String standing,
    String partitions,
    long queueDepth,
    long replicationRttUs,
    long ackP50Us,
    long ackP99Us,
    double gcMsPerSec,
    double cpuPercent,
    long heapUsedMb,
    int pauses,
    String error)
{
    /**
     * @param target   how the process was reached.
     * @param previous its sample a refresh ago, or null.
     * @param current  its sample now.
     * @param cpus     processors of its host, to turn the JVM's CPU load into percent of a core.
     * @return the row.
     */
    static ProcessRow of(final String target, final ProcessSample previous, final ProcessSample current, final int cpus)
    {
        final boolean isDistributor = current.has("distributor-providers-active");
        final boolean isP2p = current.has("p2p-connections-active");
        final boolean isOrder = null != current.orderState;
        final boolean isBackbone = !isDistributor && !isP2p && !isOrder && current.components.contains("aeron");
        final String role = isBackbone ? "backbone" : isDistributor ? "distributor" :
            isP2p && isOrder ? "p2p+order" : isP2p ? "p2p" : isOrder ? "order" : "unknown";
        final double seconds = null == previous ? Double.NaN : (current.nanoTime - previous.nanoTime) / 1e9;
        final String updatesIn = isDistributor ? "distributor-service-updates-in" : "p2p-service-updates-in";

        return new ProcessRow(
            target,
            role,
            String.join(",", current.components),
            current.pid,
            current.uptimeMs,
            isDistributor || isP2p ? rate(previous, current, seconds, updatesIn, null) : Double.NaN,
            isP2p ? rate(previous, current, seconds, "p2p-updates-out", null) : Double.NaN,
            isDistributor ? current.sum("distributor-service-items", null) :
                isP2p ? current.sum("p2p-items-open", null) : -1,
            isP2p ? current.sum("p2p-connections-active", null) : -1,
            isDistributor ? current.sum("distributor-providers-active", null) : -1,
            isP2p ? current.sum("p2p-disconnects", "reason=slow-consumer") : -1,
            isBackbone ? current.sum("backbone-gaps", null) : -1,
            isBackbone ? current.sum("backbone-recoveries", null) : -1,
            isOrder ? rate(previous, current, seconds, "order-acked", null) : Double.NaN,
            current.orderState,
            current.orderStanding,
            isOrder ? partitionRoles(current.partitions) : null,
            isOrder ? sumField(current.partitions, "queueDepth") : -1,
            isOrder ? maxField(current.partitions, "replicationRttUs") : -1,
            ackPercentile(current, 1),
            ackPercentile(current, 3),
            null == previous ? Double.NaN : (current.gcTimeMs - previous.gcTimeMs) / seconds,
            Double.isNaN(current.cpuLoad) || current.cpuLoad < 0 ? Double.NaN : current.cpuLoad * cpus * 100,
            current.heapUsedBytes >> 20,
            current.pauseCount,
            null);
    }

    /**
     * @param target how the process was to be reached.
     * @param error  why it could not be read.
     * @return a row with nothing but the error.
     */
    static ProcessRow failed(final String target, final String error)
    {
        return new ProcessRow(target, "?", "", -1, -1, Double.NaN, Double.NaN, -1, -1, -1, -1, -1, -1, Double.NaN,
            null, null, null, -1, -1, -1, -1, Double.NaN, Double.NaN, -1, -1, error);
    }

    /**
     * @return a percentile of the sample's order completion latency (index 1 p50 ... 5 max), -1 without completions.
     */
    private static long ackPercentile(final ProcessSample sample, final int index)
    {
        return sample.ackLatencyUs.length > index && sample.ackLatencyUs[0] > 0 ? sample.ackLatencyUs[index] : -1;
    }

    private static double rate(
        final ProcessSample previous,
        final ProcessSample current,
        final double seconds,
        final String name,
        final String word)
    {
        if (null == previous || !(seconds > 0))
        {
            return Double.NaN;
        }
        return Math.max(0, current.sum(name, word) - previous.sum(name, word)) / seconds;
    }

    /**
     * @return {@code id:role} per partition from lines of {@code key=value} words, ordered by id.
     */
    static String partitionRoles(final String[] partitions)
    {
        final Map<Integer, String> roles = new TreeMap<>();
        for (final String line : partitions)
        {
            final String id = field(line, "partition");
            final String role = field(line, "role");
            if (null != id && null != role)
            {
                roles.put(Integer.parseInt(id), role);
            }
        }
        final StringBuilder text = new StringBuilder();
        roles.forEach((id, role) -> text.append(text.length() > 0 ? " " : "").append(id).append(':').append(role));
        return text.toString();
    }

    private static long sumField(final String[] lines, final String key)
    {
        long sum = 0;
        for (final String line : lines)
        {
            final String value = field(line, key);
            sum += null == value ? 0 : Long.parseLong(value);
        }
        return sum;
    }

    private static long maxField(final String[] lines, final String key)
    {
        long max = -1;
        for (final String line : lines)
        {
            final String value = field(line, key);
            max = null == value ? max : Math.max(max, Long.parseLong(value));
        }
        return max;
    }

    private static String field(final String line, final String key)
    {
        for (final String word : line.split("\\s+"))
        {
            if (word.startsWith(key + "="))
            {
                return word.substring(key.length() + 1);
            }
        }
        return null;
    }
}
