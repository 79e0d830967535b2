package io.mdhub.benchmarks.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The figures of one {@code chaos orders} round and the rules that make its verdict.
 */
final class OrderRound implements ChaosRound
{
    /** The table's columns. */
    static final List<String> COLUMNS = List.of("round", "fault", "kill at (s)", "sent", "acked", "lost",
        "duplicated", "caught-up (s)", "worst create-to-end (ms)", "verdict");

    int round;
    String fault = "";
    /** Seconds from the start of the round's load to the (first) kill; -1 when there was none. */
    double killAtS = -1;
    long sent;
    long acked;
    /** Acknowledged orders missing from a queue (or not at their acknowledged place), newly in this round. */
    long lost;
    /** Orders stored twice in a queue, newly in this round. */
    long duplicated;
    /** From a restart to the pair whole again, the longest of the round's, seconds; -1 when it did not become whole. */
    double caughtUpS = -1;
    /** Worst create-to-end of the answers while the fault lasted, ms; -1 when no answer came then. */
    double worstMs = -1;
    long unanswered;
    long answeredTwice;
    boolean isWhole;
    long boundSeconds;
    boolean loadFinished;
    int loadStatus;
    boolean verifierFinished;
    final List<String> verifierProblems = new ArrayList<>();
    /** What went wrong besides the figures: processes that exited by themselves, tools that did not finish. */
    final List<String> problems = new ArrayList<>();

    @Override
    public Verdict verdict()
    {
        final Verdict verdict = new Verdict()
            .failIf(lost > 0, lost + " acknowledged order(s) lost")
            .failIf(duplicated > 0, duplicated + " order(s) stored twice")
            .failIf(!isWhole, "pair not whole " + boundSeconds + " s after the restart")
            .failIf(unanswered > 0, unanswered + " order(s) never answered")
            .failIf(answeredTwice > 0, answeredTwice + " order(s) answered twice")
            .failIf(!loadFinished, "orders-load did not finish (status " + loadStatus + ")")
            .failIf(!verifierFinished, "verify-orders did not finish");
        if (!verifierProblems.isEmpty())
        {
            verdict.fail("verify-orders: " + verifierProblems.get(0) +
                (verifierProblems.size() > 1 ? " (and " + (verifierProblems.size() - 1) + " more)" : ""));
        }
        problems.forEach(verdict::fail);
        return verdict;
    }

    @Override
    public List<String> cells()
    {
        return List.of(Integer.toString(round), fault, ChaosReport.seconds(killAtS), Long.toString(sent),
            Long.toString(acked), Long.toString(lost), Long.toString(duplicated), ChaosReport.seconds(caughtUpS),
            worstMs < 0 ? "-" : String.format(Locale.ROOT, "%.1f", worstMs), verdict().toString());
    }

    /**
     * @return true when the pair was not whole at the round's end; a round that only failed its figures (an order
     * lost while the pair recovered) leaves it serving.
     */
    @Override
    public boolean leftBroken()
    {
        return !isWhole;
    }
}
