package io.mdhub.benchmarks.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.ScriptOptions;
import io.mdhub.common.test.SystemProcesses;

/**
 * {@code bin/mdhub demo}, the first command of README.md, run as a user runs it: a separate JVM from the fat jar,
 * bounded by {@code --duration}, ending with zero lost updates and exit status 0; and {@code bin/mdhub demo --orders}
 * exactly as documented (default sweep), which must leave its report within five minutes.
 */
@InterruptAfter(120)
class DemoLauncherIT
{
    private final SystemProcesses processes = new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));

    @TempDir
    Path dir;

    @AfterEach
    void stopProcesses()
    {
        processes.close();
    }

    @Test
    void runsThePathEndToEndAndReportsNoLoss() throws Exception
    {
        final Path log = dir.resolve("demo.log");
        final Process process = startDemo(log, "--items", "2000", "--rate", "2000", "--duration", "4");
        final String output = SystemProcesses.awaitSuccess(process, log, 100);
        assertTrue(output.contains("items open 2000/2000"), output);
        assertTrue(output.contains(", lost 0, out of order 0"), output);
        assertTrue(output.contains("rate,mean_us,stddev_us,max_us,min_us,samples"), output);
    }

    @Test
    @InterruptAfter(330)
    void theOrdersDemoWritesItsReportWithinFiveMinutes() throws Exception
    {
        final Path log = dir.resolve("demo-orders.log");
        final long startNs = System.nanoTime();
        final String output = SystemProcesses.awaitSuccess(startDemo(log, "--orders"), log, 300);
        final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs);
        for (final String rate : List.of("1000", "2000", "4000", "6000"))
        {
            final String row = "orders: " + " ".repeat(6 - rate.length()) + rate + "/s  create-to-end mean";
            assertTrue(output.contains(row), () -> "no create-to-end row for " + rate + "/s:\n" + output);
        }
        final Path report = dir.resolve("reports").resolve("orders-demo"); // the documented default
        for (final String file : List.of("report.html", "report.txt", "summary.csv"))
        {
            assertTrue(Files.size(report.resolve(file)) > 0, file);
        }
        try (Stream<Path> files = Files.list(report))
        {
            final List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertEquals(4, names.stream().filter(n -> n.endsWith("-histogram.svg")).count(), names::toString);
            assertEquals(4, names.stream().filter(n -> n.endsWith("-timeseries.svg")).count(), names::toString);
            assertEquals(4, names.stream().filter(n -> n.endsWith(".hlog")).count(), names::toString);
        }
        System.out.println("demo --orders wrote its report in " + seconds + " s");
    }

    /**
     * In the test's directory, as a user in a fresh checkout: the orders demo's default report directory lands there.
     */
    private Process startDemo(final Path log, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("demo"));
        command.addAll(List.of(args));
        return processes.startScript(log, "bin/mdhub", command, ScriptOptions.DEFAULTS.in(dir)
            .with("JAVA_OPTS", "-Xmx512m -Djava.io.tmpdir=" + dir));
    }
}
