package io.mdhub.benchmarks.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Judges a gate run: timing, each benchmark's ratio to the calibration benchmark against its baseline ratio (a
 * regression when it grew by more than the margin); allocation, each benchmark that must not allocate against
 * {@link NoAllocation#MAX_BYTES_PER_OP}. A benchmark without a baseline is reported as new and not judged on time.
 */
public final class GateCheck
{
    /** The calibration benchmark's full name. */
    public static final String CALIBRATION = CalibrationBenchmark.class.getName() + ".mixWords";

    private final List<String> lines = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    private GateCheck()
    {
    }

    /**
     * @param results         the run's results.
     * @param baseline        benchmark to baseline ratio, or null to judge allocation only.
     * @param margin          the growth of a ratio that counts as a regression (0.25: 25 % slower).
     * @param mustNotAllocate which benchmarks must not allocate.
     * @return the verdict.
     */
    public static GateCheck judge(
        final List<GateResult> results,
        final Map<String, Double> baseline,
        final double margin,
        final Predicate<String> mustNotAllocate)
    {
        final GateCheck check = new GateCheck();
        final GateResult calibration = results.stream()
            .filter((result) -> CALIBRATION.equals(result.benchmark())).findFirst().orElse(null);
        if (null != baseline && null == calibration)
        {
            check.failures.add("no calibration result (" + CALIBRATION + "): timing cannot be judged");
        }
        check.lines.add(String.format(Locale.ROOT, "%-64s %11s %9s %9s %8s %10s  %s", "benchmark", "ns/op",
            "ratio", "baseline", "change", "B/op", "verdict"));
        for (final GateResult result : results)
        {
            final StringBuilder verdict = new StringBuilder();
            double ratio = Double.NaN;
            double base = Double.NaN;
            double change = Double.NaN;
            if (null != baseline && null != calibration)
            {
                ratio = result.nsPerOp() / calibration.nsPerOp();
                final Double known = baseline.get(result.benchmark());
                if (null == known)
                {
                    verdict.append("new (no baseline)");
                }
                else
                {
                    base = known;
                    change = ratio / base - 1;
                    if (change > margin)
                    {
                        verdict.append(String.format(Locale.ROOT, "SLOWER by %.0f %% (margin %.0f %%)",
                            change * 100, margin * 100));
                        check.failures.add(result.shortName() + " " + verdict);
                    }
                }
            }
            if (mustNotAllocate.test(result.benchmark()))
            {
                if (Double.isNaN(result.bytesPerOp()))
                {
                    verdict.append(verdict.length() > 0 ? "; " : "").append("ALLOCATION NOT MEASURED");
                    check.failures.add(result.shortName() + " must not allocate, and its allocation was not measured");
                }
                else if (result.bytesPerOp() >= NoAllocation.MAX_BYTES_PER_OP)
                {
                    final String what = String.format(Locale.ROOT, "ALLOCATES %.1f B/op", result.bytesPerOp());
                    verdict.append(verdict.length() > 0 ? "; " : "").append(what);
                    check.failures.add(result.shortName() + " must not allocate: " + what);
                }
            }
            check.lines.add(String.format(Locale.ROOT, "%-64s %11.1f %9s %9s %8s %10s  %s", result.shortName(),
                result.nsPerOp(), number(ratio, "%.3f"), number(base, "%.3f"),
                Double.isNaN(change) ? "-" : String.format(Locale.ROOT, "%+.0f%%", change * 100),
                number(result.bytesPerOp(), "%.1f"), verdict.length() > 0 ? verdict : "ok"));
        }
        return check;
    }

    private static String number(final double value, final String format)
    {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, format, value);
    }

    /**
     * @return true when nothing failed.
     */
    public boolean isPassed()
    {
        return failures.isEmpty();
    }

    /**
     * @return what failed, a line each.
     */
    public List<String> failures()
    {
        return failures;
    }

    /**
     * @return the report: a table of every benchmark, then the verdict.
     */
    public String report()
    {
        final StringBuilder text = new StringBuilder();
        lines.forEach((line) -> text.append(line).append('\n'));
        if (failures.isEmpty())
        {
            text.append("gate: passed\n");
        }
        else
        {
            text.append("gate: FAILED\n");
            failures.forEach((failure) -> text.append("  ").append(failure).append('\n'));
        }
        return text.toString();
    }
}
