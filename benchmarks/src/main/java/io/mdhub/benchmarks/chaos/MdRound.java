package io.mdhub.benchmarks.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * The figures of one {@code chaos md} round and the rules that make its verdict.
 */
final class MdRound implements ChaosRound
{
    /** The table's columns. */
    static final List<String> COLUMNS = List.of("round", "fault", "back after (s)", "to Suspect (ms)",
        "to recovered (ms)", "skipped silently", "streams closed", "verdict");

    int round;
    String fault = "";
    /** From the kill until the killed process (and what died with it) was running and ready again, seconds. */
    double downS;
    /** From the kill to the consumer's first Suspect item, ms; -1 when no item went Suspect. */
    long toSuspectMs = -1;
    /** From the kill to every item Open/Ok again with updates flowing, ms; -1 when not within the bound. */
    long toRecoveredMs = -1;
    /** When the client was first seen whole after the restart (wall clock, ms), 0 before. */
    long firstWholeMs;
    long skippedSilently;
    long streamsClosed;
    /** Whether a second of the consumer's report after the kill had no update at all (the data stopped). */
    boolean hadStall;
    long boundSeconds;
    /** What went wrong besides the figures: processes that exited by themselves, tools that did not start. */
    final List<String> problems = new ArrayList<>();

    @Override
    public Verdict verdict()
    {
        final Verdict verdict = new Verdict()
            .failIf(skippedSilently > 0, skippedSilently + " update(s) skipped without a Suspect")
            .failIf(toRecoveredMs < 0, "not recovered " + boundSeconds + " s after the restart")
            .failIf(streamsClosed > 0, streamsClosed + " item stream(s) closed")
            .failIf(toSuspectMs < 0 && hadStall, "updates stopped without a Suspect");
        problems.forEach(verdict::fail);
        return verdict;
    }

    @Override
    public List<String> cells()
    {
        return List.of(Integer.toString(round), fault, ChaosReport.seconds(downS),
            toSuspectMs < 0 ? "-" : Long.toString(toSuspectMs), toRecoveredMs < 0 ? "-" : Long.toString(toRecoveredMs),
            Long.toString(skippedSilently), Long.toString(streamsClosed), verdict().toString());
    }

    /**
     * @return true on any broken promise: the path is then checked, and made whole again where it is not.
     */
    @Override
    public boolean leftBroken()
    {
        return !verdict().isOk();
    }
}
