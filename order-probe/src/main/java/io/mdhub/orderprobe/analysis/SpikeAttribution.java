package io.mdhub.orderprobe.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.mdhub.common.pause.PauseEvent;

/**
 * Finds the latency spikes of a run and lays each beside the pauses of every process: a spike episode is explained by
 * a pause that overlaps it (the pause began before the episode's last order ended and ended after its first order was
 * created) and is long enough to account for a good part of the excess — at least {@link #EXPLAIN_FRACTION} of the
 * episode's worst latency above the median, and at least {@link #MIN_EXPLAINING_PAUSE_NS} — so the sub-millisecond
 * safepoints every JVM takes cannot explain a 20 ms spike by coincidence.
 */
public final class SpikeAttribution
{
    /** Share of a spike's excess over the median a pause must cover to explain it. */
    public static final double EXPLAIN_FRACTION = 0.25;
    /** Shortest pause that explains anything. */
    public static final long MIN_EXPLAINING_PAUSE_NS = 100_000;

    private SpikeAttribution()
    {
    }

    /**
     * @param createEpochNs creation times, any order.
     * @param latencyNs     create-to-end per order, same index.
     * @param thresholdNs   a spike is an order above this.
     * @param medianNs      the run's median create-to-end.
     * @param pauses        pauses of every process.
     * @return the episodes in time order.
     */
    public static List<SpikeEpisode> episodes(
        final long[] createEpochNs,
        final long[] latencyNs,
        final long thresholdNs,
        final long medianNs,
        final List<PauseEvent> pauses)
    {
        final int[] spiked = spikedByCreation(createEpochNs, latencyNs, thresholdNs);
        final List<SpikeEpisode> episodes = new ArrayList<>();
        int i = 0;
        while (i < spiked.length)
        {
            final long start = createEpochNs[spiked[i]];
            long end = start + latencyNs[spiked[i]];
            long worst = latencyNs[spiked[i]];
            int orders = 1;
            i++;
            while (i < spiked.length && createEpochNs[spiked[i]] <= end)
            {
                end = Math.max(end, createEpochNs[spiked[i]] + latencyNs[spiked[i]]);
                worst = Math.max(worst, latencyNs[spiked[i]]);
                orders++;
                i++;
            }
            episodes.add(new SpikeEpisode(start, end, orders, worst, causes(start, end, worst - medianNs, pauses)));
        }
        return episodes;
    }

    private static int[] spikedByCreation(final long[] createEpochNs, final long[] latencyNs, final long thresholdNs)
    {
        int count = 0;
        for (final long latency : latencyNs)
        {
            if (latency > thresholdNs)
            {
                count++;
            }
        }
        final Integer[] indexes = new Integer[count];
        for (int i = 0, j = 0; i < latencyNs.length; i++)
        {
            if (latencyNs[i] > thresholdNs)
            {
                indexes[j++] = i;
            }
        }
        java.util.Arrays.sort(indexes, Comparator.comparingLong((Integer k) -> createEpochNs[k]));
        final int[] sorted = new int[count];
        for (int i = 0; i < count; i++)
        {
            sorted[i] = indexes[i];
        }
        return sorted;
    }

    private static List<PauseEvent> causes(
        final long startEpochNs, final long endEpochNs, final long excessNs, final List<PauseEvent> pauses)
    {
        final long needed = Math.max(MIN_EXPLAINING_PAUSE_NS, (long)(EXPLAIN_FRACTION * excessNs));
        final List<PauseEvent> causes = new ArrayList<>();
        for (final PauseEvent pause : pauses)
        {
            if (pause.startEpochNs() < endEpochNs && pause.endEpochNs() > startEpochNs && pause.durationNs() >= needed)
            {
                causes.add(pause);
            }
        }
        causes.sort(Comparator.comparingLong(PauseEvent::durationNs).reversed());
        return causes;
    }
}
