package io.mdhub.orderprobe.analysis;

import java.util.List;

import io.mdhub.common.pause.PauseEvent;

/**
 * Consecutive orders above the spike threshold whose lifetimes touch: one stall and the queue that drains behind it
 * (the published time plots' "pause, then a steep descent"), with the pauses that explain it, if any.
 *
 * @param startEpochNs  creation time of its first order.
 * @param endEpochNs    the latest end of its orders.
 * @param orders        orders above the threshold in it.
 * @param maxLatencyNs  the worst create-to-end in it.
 * @param causes        overlapping pauses long enough to explain it, longest first; empty when unexplained.
 */
public record SpikeEpisode(long startEpochNs, long endEpochNs, int orders, long maxLatencyNs, List<PauseEvent> causes)
{
    /**
     * @return true when no pause explains it.
     */
    public boolean isUnexplained()
    {
        return causes.isEmpty();
    }

    /**
     * @return "process cause 12.3 ms" for the main cause, or "unexplained".
     */
    public String describeCause()
    {
        if (causes.isEmpty())
        {
            return "unexplained";
        }
        final PauseEvent main = causes.get(0);
        return String.format(java.util.Locale.ROOT, "%s %s %.1f ms%s", main.process(), main.cause(),
            main.durationNs() / 1e6, causes.size() > 1 ? " (+" + (causes.size() - 1) + " more)" : "");
    }
}
