package io.mdhub.orderprobe.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.mdhub.common.pause.PauseEvent;

/**
 * The probes of one run merged (the published analyser reported "per probe and across probes"): their orders, the
 * pauses any of them knows (each once), and the statistics and spike episodes of the whole.
 */
public final class RunGroup
{
    private final String label;
    private final String configuration;
    private final long totalRate;
    private final List<ProbeRun> probes;
    private final long[] createEpochNs;
    private final long[] createToEndNs;
    private final long[] sendToEndNs;
    private final List<PauseEvent> pauses;
    private final long measureStartEpochNs;
    private final long measureEndEpochNs;
    private final LatencyStats createToEnd;
    private final LatencyStats sendToEnd;
    private final List<SpikeEpisode> episodes;
    private final long thresholdNs;

    private RunGroup(final String label, final List<ProbeRun> probes, final long spikeThresholdNs)
    {
        this.label = label;
        this.probes = List.copyOf(probes);
        this.configuration = probes.get(0).property(ProbeRun.CONFIGURATION);
        this.totalRate = parseLong(probes.get(0).property(ProbeRun.TOTAL_RATE));
        int count = 0;
        long start = Long.MAX_VALUE;
        for (final ProbeRun probe : probes)
        {
            count += probe.orders();
            start = Math.min(start, parseLong(probe.property(ProbeRun.MEASURE_START_EPOCH_NS)));
        }
        createEpochNs = new long[count];
        createToEndNs = new long[count];
        sendToEndNs = new long[count];
        int i = 0;
        final Set<String> seen = new HashSet<>();
        final List<PauseEvent> allPauses = new ArrayList<>();
        for (final ProbeRun probe : probes)
        {
            for (int k = 0; k < probe.orders(); k++, i++)
            {
                createEpochNs[i] = probe.createEpochNs()[k];
                createToEndNs[i] = probe.endEpochNs()[k] - probe.createEpochNs()[k];
                sendToEndNs[i] = probe.endEpochNs()[k] - probe.sendEpochNs()[k];
            }
            for (final PauseEvent pause : probe.pauses())
            {
                if (seen.add(pause.process() + "@" + pause.startEpochNs()))
                {
                    allPauses.add(pause);
                }
            }
        }
        allPauses.sort(Comparator.comparingLong(PauseEvent::startEpochNs));
        long lastEnd = 0;
        for (int k = 0; k < count; k++)
        {
            lastEnd = Math.max(lastEnd, createEpochNs[k] + createToEndNs[k]);
        }
        this.measureEndEpochNs = lastEnd;
        this.pauses = List.copyOf(allPauses);
        this.measureStartEpochNs = Long.MAX_VALUE == start ? (0 == count ? 0 : min(createEpochNs)) : start;
        this.createToEnd = LatencyStats.of(createToEndNs);
        this.sendToEnd = LatencyStats.of(sendToEndNs);
        this.thresholdNs = spikeThresholdNs;
        this.episodes = SpikeAttribution.episodes(createEpochNs, createToEndNs, spikeThresholdNs,
            (long)(createToEnd.medianUs() * 1000), pauses);
    }

    /**
     * @param runs             probe runs, any order.
     * @param spikeThresholdNs an order slower than this (create-to-end) is a spike.
     * @return one group per run label, in the order labels first appear.
     */
    public static List<RunGroup> group(final List<ProbeRun> runs, final long spikeThresholdNs)
    {
        final Map<String, List<ProbeRun>> byLabel = new LinkedHashMap<>();
        for (final ProbeRun run : runs)
        {
            byLabel.computeIfAbsent(run.property(ProbeRun.RUN_LABEL), (k) -> new ArrayList<>()).add(run);
        }
        final List<RunGroup> groups = new ArrayList<>();
        for (final Map.Entry<String, List<ProbeRun>> entry : byLabel.entrySet())
        {
            groups.add(new RunGroup(entry.getKey(), entry.getValue(), spikeThresholdNs));
        }
        return groups;
    }

    private static long parseLong(final String value)
    {
        try
        {
            return value.isEmpty() ? Long.MAX_VALUE : Long.parseLong(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            return Long.MAX_VALUE;
        }
    }

    private static long min(final long[] values)
    {
        long min = Long.MAX_VALUE;
        for (final long value : values)
        {
            min = Math.min(min, value);
        }
        return min;
    }

    /**
     * @return the run label shared by its probes.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return the configuration (one_server, two_server ...).
     */
    public String configuration()
    {
        return configuration;
    }

    /**
     * @return orders per second of all probes together, or {@link Long#MAX_VALUE} when unknown.
     */
    public long totalRate()
    {
        return totalRate;
    }

    /**
     * @return the probes merged.
     */
    public List<ProbeRun> probes()
    {
        return probes;
    }

    /**
     * @return creation time per order (epoch ns), probe after probe.
     */
    public long[] createEpochNs()
    {
        return createEpochNs;
    }

    /**
     * @return create-to-end per order (ns), same index.
     */
    public long[] createToEndNs()
    {
        return createToEndNs;
    }

    /**
     * @return send-to-end per order (ns), same index.
     */
    public long[] sendToEndNs()
    {
        return sendToEndNs;
    }

    /**
     * @return every known pause, each once, by start time.
     */
    public List<PauseEvent> pauses()
    {
        return pauses;
    }

    /**
     * @return when measurement began (epoch ns).
     */
    public long measureStartEpochNs()
    {
        return measureStartEpochNs;
    }

    /**
     * @return when the last measured order ended (epoch ns; 0 with no orders): pauses after it touched no order.
     */
    public long measureEndEpochNs()
    {
        return measureEndEpochNs;
    }

    /**
     * @return create-to-end statistics.
     */
    public LatencyStats createToEnd()
    {
        return createToEnd;
    }

    /**
     * @return send-to-end statistics.
     */
    public LatencyStats sendToEnd()
    {
        return sendToEnd;
    }

    /**
     * @return spike episodes in time order.
     */
    public List<SpikeEpisode> episodes()
    {
        return episodes;
    }

    /**
     * @return the spike threshold used (ns).
     */
    public long thresholdNs()
    {
        return thresholdNs;
    }

    /**
     * @param key a run property.
     * @return the sum over the probes of a numeric property (0 where absent).
     */
    public long sum(final String key)
    {
        long sum = 0;
        for (final ProbeRun probe : probes)
        {
            final long value = parseLong(probe.property(key));
            sum += Long.MAX_VALUE == value ? 0 : value;
        }
        return sum;
    }
}
