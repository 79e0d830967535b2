package io.mdhub.orderprobe.analysis;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/mdhub probe analyse DIR...}: the report of probe runs (run directories, or folders holding them at any
 * depth), the probes of each run merged.
 */
@Command(
    name = "mdhub probe analyse",
    mixinStandardHelpOptions = true,
    version = "mdhub probe analyse (MDHub)",
    description = "Report on order probe runs: merges the probes of each run (same run label), computes the " +
        "published statistics, attributes spikes to pauses, writes report.txt, report.html, summary.csv, charts " +
        "and .hlog files.")
public final class AnalyseMain implements Callable<Integer>
{
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Run directories, or folders that hold them.")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "Report directory (default ${DEFAULT-VALUE}).")
    Path out = Path.of("probe-report");

    @Option(names = "--spike-us", paramLabel = "US",
        description = "Create-to-end above this is a spike to attribute (default ${DEFAULT-VALUE}).")
    long spikeUs = 1000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter output = spec.commandLine().getOut();
        final List<ProbeRun> runs = new ArrayList<>();
        for (final Path dir : dirs)
        {
            try (Stream<Path> files = Files.walk(dir))
            {
                for (final Path file : (Iterable<Path>)files.filter(
                    (f) -> f.getFileName().toString().equals(ProbeRun.PROPERTIES_FILE)).sorted()::iterator)
                {
                    runs.add(ProbeRun.load(file.getParent()));
                }
            }
        }
        if (runs.isEmpty())
        {
            spec.commandLine().getErr().println("no probe runs (run.properties) under " + dirs);
            return 2;
        }
        output.print(ProbeReport.write(RunGroup.group(runs, spikeUs * 1000), out));
        output.printf("report of %d probe run(s) in %s%n", runs.size(), out);
        output.flush();
        return 0;
    }
}
