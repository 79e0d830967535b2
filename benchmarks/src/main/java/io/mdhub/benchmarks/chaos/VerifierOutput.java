package io.mdhub.benchmarks.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code verify-orders} printed, read back as counts: per queue, acknowledged orders missing from it (or not at
 * the partition and sequence of their ack) and orders stored in it twice; the other problems as they were printed.
 * The verifier prints the first 20 missing orders of a queue one by one, and past 20 a line with the count.
 */
final class VerifierOutput
{
    private static final String PROBLEM = "verify-orders: PROBLEM ";
    private static final Pattern MISSING_ONE = Pattern.compile("^(.+): acknowledged order \\S+ \\(partition \\d+ " +
        "sequence \\d+\\) is (missing|at partition)");
    private static final Pattern MISSING_ALL = Pattern.compile("^(.+): (\\d+) acknowledged orders missing or " +
        "misplaced in all");
    private static final Pattern TWICE = Pattern.compile("^(.+): order \\S+ stored twice");

    /** Whether it said OK. */
    final boolean isOk;
    /** Whether it ended with a verdict at all. */
    final boolean hasVerdict;
    /** Problems that are neither missing nor twice-stored orders (queues that differ, gaps in a sequence...). */
    final List<String> otherProblems = new ArrayList<>();
    private final Map<String, Long> missingByQueue = new LinkedHashMap<>();
    private final Map<String, Long> missingTotalByQueue = new LinkedHashMap<>();
    private final Map<String, Long> twiceByQueue = new LinkedHashMap<>();

    VerifierOutput(final String output)
    {
        boolean ok = false;
        boolean verdict = false;
        for (final String line : output.split("\n"))
        {
            if (line.startsWith("verify-orders: OK"))
            {
                ok = true;
                verdict = true;
            }
            else if (line.startsWith("verify-orders: FAILED"))
            {
                verdict = true;
            }
            else if (line.startsWith(PROBLEM))
            {
                problem(line.substring(PROBLEM.length()).strip());
            }
        }
        isOk = ok;
        hasVerdict = verdict;
    }

    private void problem(final String text)
    {
        final Matcher one = MISSING_ONE.matcher(text);
        final Matcher all = MISSING_ALL.matcher(text);
        final Matcher twice = TWICE.matcher(text);
        if (one.find())
        {
            missingByQueue.merge(one.group(1), 1L, Long::sum);
        }
        else if (all.find())
        {
            missingTotalByQueue.put(all.group(1), Long.parseLong(all.group(2)));
        }
        else if (twice.find())
        {
            twiceByQueue.merge(twice.group(1), 1L, Long::sum);
        }
        else
        {
            otherProblems.add(text);
        }
    }

    /**
     * @return acknowledged orders missing (or misplaced) in the queue that misses most.
     */
    long missing()
    {
        long worst = 0;
        for (final Map.Entry<String, Long> queue : missingByQueue.entrySet())
        {
            worst = Math.max(worst, missingTotalByQueue.getOrDefault(queue.getKey(), queue.getValue()));
        }
        for (final long total : missingTotalByQueue.values())
        {
            worst = Math.max(worst, total);
        }
        return worst;
    }

    /**
     * @return orders stored twice in the queue that holds most such.
     */
    long storedTwice()
    {
        long worst = 0;
        for (final long count : twiceByQueue.values())
        {
            worst = Math.max(worst, count);
        }
        return worst;
    }
}
