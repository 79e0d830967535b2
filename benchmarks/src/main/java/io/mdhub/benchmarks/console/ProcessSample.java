package io.mdhub.benchmarks.console;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One reading of one process: when, its JVM's figures, every counter of its components by label, and what its
 * management beans said. Immutable once read.
 */
final class ProcessSample
{
    final long nanoTime;
    final long pid;
    final long uptimeMs;
    final long gcCount;
    final long gcTimeMs;
    final double cpuLoad;
    final long heapUsedBytes;
    /** Counter label to value, over every component of the process. */
    final Map<String, Long> counters;
    final List<String> components;
    final String orderState;
    final String orderStanding;
    final boolean isReplicationLinkUp;
    final String[] partitions;
    /** Orders completed, then p50, p90, p99, p99.9 and max store-to-completion in µs, over the last seconds. */
    final long[] ackLatencyUs;
    final String[] services;
    final String[] connections;
    final int pauseCount;

    ProcessSample(final Builder builder)
    {
        this.nanoTime = builder.nanoTime;
        this.pid = builder.pid;
        this.uptimeMs = builder.uptimeMs;
        this.gcCount = builder.gcCount;
        this.gcTimeMs = builder.gcTimeMs;
        this.cpuLoad = builder.cpuLoad;
        this.heapUsedBytes = builder.heapUsedBytes;
        this.counters = Collections.unmodifiableMap(new TreeMap<>(builder.counters)); // by label, for the details
        this.components = List.copyOf(builder.components);
        this.orderState = builder.orderState;
        this.orderStanding = builder.orderStanding;
        this.isReplicationLinkUp = builder.isReplicationLinkUp;
        this.partitions = builder.partitions;
        this.ackLatencyUs = builder.ackLatencyUs;
        this.services = builder.services;
        this.connections = builder.connections;
        this.pauseCount = builder.pauseCount;
    }

    /**
     * @param name a counter name, the label's part before the colon ({@code p2p-updates-out}).
     * @param word a word the label must also hold ({@code reason=slow-consumer}), or null.
     * @return the sum of the matching counters.
     */
    long sum(final String name, final String word)
    {
        long sum = 0;
        for (final Map.Entry<String, Long> counter : counters.entrySet())
        {
            if (isNamed(counter.getKey(), name) && (null == word || hasWord(counter.getKey(), word)))
            {
                sum += counter.getValue();
            }
        }
        return sum;
    }

    /**
     * @param name a counter name.
     * @return true when a counter of that name exists.
     */
    boolean has(final String name)
    {
        for (final String label : counters.keySet())
        {
            if (isNamed(label, name))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean isNamed(final String label, final String name)
    {
        return label.startsWith(name) && label.length() > name.length() &&
            (':' == label.charAt(name.length()) || ' ' == label.charAt(name.length()));
    }

    private static boolean hasWord(final String label, final String word)
    {
        for (final String part : label.split("[\\s,]+"))
        {
            if (part.equals(word))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Collects a reading.
     */
    static final class Builder
    {
        long nanoTime = System.nanoTime();
        long pid;
        long uptimeMs;
        long gcCount;
        long gcTimeMs;
        double cpuLoad = Double.NaN;
        long heapUsedBytes;
        final Map<String, Long> counters = new LinkedHashMap<>();
        final List<String> components = new ArrayList<>();
        String orderState;
        String orderStanding;
        boolean isReplicationLinkUp;
        String[] partitions = new String[0];
        long[] ackLatencyUs = new long[0];
        String[] services = new String[0];
        String[] connections = new String[0];
        int pauseCount = -1;

        /**
         * Add a counter; a label seen twice (two components' counters with one label) adds up.
         */
        void counter(final String label, final long value)
        {
            counters.merge(label, value, Long::sum);
        }

        ProcessSample build()
        {
            return new ProcessSample(this);
        }
    }
}
