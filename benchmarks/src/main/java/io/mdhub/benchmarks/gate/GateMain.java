package io.mdhub.benchmarks.gate;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import io.mdhub.benchmarks.bench.BenchProcesses;
import io.mdhub.benchmarks.bench.LatencyBench;
import io.mdhub.common.ripc.NettyProcessDefaults;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/mdhub bench gate}: run the hot-path benchmarks briefly with JMH's GC profiler and judge them
 * ({@link GateCheck}) against the committed baseline; {@code --update-baseline} writes it from the run instead;
 * {@code --alloc-only} judges allocation alone (the half CI runs: it does not depend on how busy the machine is);
 * {@code --results} judges a JMH JSON file already written.
 */
@Command(
    name = "mdhub bench gate",
    mixinStandardHelpOptions = true,
    description = "The JMH regression gate: hot-path benchmarks, timed as multiples of a calibration benchmark of " +
        "the same run against a committed baseline, and checked for allocation where a path must not allocate.")
public final class GateMain implements Callable<Integer>
{
    /** The baseline's place in the checkout. */
    public static final String BASELINE = "benchmarks/gate-baseline.csv";

    @Option(names = "--update-baseline", description = "Write the baseline from this run (on a quiet machine).")
    boolean isUpdate;

    @Option(names = "--alloc-only", description = "Only the benchmarks marked @NoAllocation, briefly, judged on " +
        "allocation alone.")
    boolean isAllocOnly;

    @Option(names = "--margin", description = "How much slower than the baseline, as a fraction, fails (default " +
        "0.25).")
    double margin = 0.25;

    @Option(names = "--baseline", description = "The baseline CSV (default " + BASELINE + " in the checkout).")
    Path baseline;

    @Option(names = "--results", description = "Judge this JMH JSON result file instead of running.")
    Path results;

    @Option(names = "--include", description = "Benchmarks to run, a JMH regular expression (default every MDHub " +
        "benchmark).")
    String include = "io\\.mdhub\\.benchmarks\\..*";

    @Option(names = "--out", description = "Report directory (default target/bench-gate-<time>).")
    Path out;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        if (!(margin > 0 && margin < 10))
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--margin is a fraction above 0: " + margin);
        }
        final Path root = LatencyBench.checkoutRoot();
        final Path baselineFile = null != baseline ? baseline : root.resolve(BASELINE);
        final Path dir = BenchProcesses.reportDir(root, out, "gate");
        Files.createDirectories(dir);
        final PrintWriter console = spec.commandLine().getOut();

        final List<GateResult> run;
        if (null != results)
        {
            run = GateResults.read(results);
        }
        else
        {
            final Path json = dir.resolve("results.json");
            run = GateResults.of(new Runner(options(json).build()).run());
        }
        if (isUpdate)
        {
            final GateResult calibration = run.stream()
                .filter((result) -> GateCheck.CALIBRATION.equals(result.benchmark())).findFirst()
                .orElseThrow(() -> new IllegalStateException("the run has no calibration result"));
            GateBaseline.write(baselineFile, run, calibration.nsPerOp());
            console.println("gate: baseline written to " + baselineFile + " (" + run.size() + " benchmarks)");
        }
        final Map<String, Double> ratios = isAllocOnly ? null : GateBaseline.read(baselineFile);
        final GateCheck check = GateCheck.judge(run, ratios, margin, GateResults::isMarkedNoAllocation);
        final String report = check.report();
        Files.writeString(dir.resolve("report.txt"), report, StandardCharsets.UTF_8);
        console.print(report);
        console.println("gate: report in " + dir);
        console.flush();
        return check.isPassed() ? 0 : 1;
    }

    private ChainedOptionsBuilder options(final Path json) throws IOException
    {
        final ChainedOptionsBuilder options = new OptionsBuilder();
        if (isAllocOnly)
        {
            final List<String> marked = markedBenchmarks();
            if (marked.isEmpty())
            {
                throw new IllegalStateException("no benchmark is marked @NoAllocation (META-INF/BenchmarkList)");
            }
            marked.forEach((name) -> options.include("^" + Pattern.quote(name) + "$"));
        }
        else
        {
            options.include(include);
        }
        options
            // the benchmark JVMs run as a server does, whatever JVM runs the gate (a test JVM's Netty leak detection
            // alone allocates kilobytes per buffer); the heap and GC come from AbstractMdBenchmark
            .jvmArgs("-Dchronicle.analytics.disable=true",
                "-D" + NettyProcessDefaults.LEAK_DETECTION_LEVEL_PROP_NAME + "=disabled",
                "-D" + NettyProcessDefaults.RECYCLER_CHUNK_SIZE_PROP_NAME + "=" +
                    NettyProcessDefaults.RECYCLER_CHUNK_SIZE)
            .forks(1)
            .threads(1)
            .addProfiler(GCProfiler.class)
            .shouldFailOnError(true)
            .resultFormat(ResultFormatType.JSON)
            .result(json.toString());
        if (isAllocOnly)
        {
            // allocation settles in a few hundred milliseconds of compiled code; the time is not judged
            return options.warmupIterations(2).warmupTime(TimeValue.milliseconds(300))
                .measurementIterations(2).measurementTime(TimeValue.milliseconds(300));
        }
        return options.warmupIterations(3).warmupTime(TimeValue.milliseconds(500))
            .measurementIterations(4).measurementTime(TimeValue.milliseconds(500));
    }

    /**
     * @return every benchmark of this jar whose method is marked {@link NoAllocation}, by full name, read from the
     * list JMH's annotation processor writes ({@code JMH S <n> <class> S <n> <generated class> S <n> <method> ...}:
     * words 3 and 9).
     * @throws IOException when the list cannot be read.
     */
    static List<String> markedBenchmarks() throws IOException
    {
        final Set<String> names = new TreeSet<>();
        // every copy on the class path: a test run sees this module's classes and jars that carry lists of their own
        final Enumeration<URL> lists =
            GateMain.class.getClassLoader().getResources("META-INF/BenchmarkList");
        while (lists.hasMoreElements())
        {
            try (InputStream list = lists.nextElement().openStream())
            {
                for (final String line : new String(list.readAllBytes(), StandardCharsets.UTF_8).split("\\n"))
                {
                    final String[] words = line.trim().split(" ");
                    if (words.length > 9 && "JMH".equals(words[0]))
                    {
                        final String name = words[3] + "." + words[9];
                        if (GateResults.isMarkedNoAllocation(name))
                        {
                            names.add(name);
                        }
                    }
                }
            }
        }
        return List.copyOf(names);
    }
}
