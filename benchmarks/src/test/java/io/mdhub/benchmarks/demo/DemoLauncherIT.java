package io.mdhub.benchmarks.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;

/**
 * {@code bin/mdhub demo}, the first command of README.md, run as a user runs it: a separate JVM from the fat jar,
 * bounded by {@code --duration}, ending with zero lost updates and exit status 0; and {@code bin/mdhub demo --orders}
 * exactly as documented (default sweep), which must leave its report within five minutes.
 */
@InterruptAfter(120)
class DemoLauncherIT
{
    private static final Path ROOT =
        Paths.get(System.getProperty("mdhub.build.dir", "target")).toAbsolutePath().getParent().getParent();

    @TempDir
    Path dir;

    @Test
    void runsThePathEndToEndAndReportsNoLoss() throws Exception
    {
        final Path log = dir.resolve("demo.log");
        final Process process = startDemo(log, "--items", "2000", "--rate", "2000", "--duration", "4");
        try
        {
            assertTrue(process.waitFor(100, TimeUnit.SECONDS), "demo did not end after --duration");
            final String output = Files.readString(log);
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.contains("items open 2000/2000"), output);
            assertTrue(output.contains(", lost 0, out of order 0"), output);
            assertTrue(output.contains("rate,mean_us,stddev_us,max_us,min_us,samples"), output);
        }
        finally
        {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    @Test
    @InterruptAfter(330)
    void theOrdersDemoWritesItsReportWithinFiveMinutes() throws Exception
    {
        final Path log = dir.resolve("demo-orders.log");
        final long startNs = System.nanoTime();
        final Process process = startDemo(log, "--orders");
        try
        {
            assertTrue(process.waitFor(300, TimeUnit.SECONDS), "demo --orders did not end within five minutes");
            final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs);
            final String output = Files.readString(log);
            assertEquals(0, process.exitValue(), output);
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
            try (java.util.stream.Stream<Path> files = Files.list(report))
            {
                final List<String> names = files.map(f -> f.getFileName().toString()).toList();
                assertEquals(4, names.stream().filter(n -> n.endsWith("-histogram.svg")).count(), names::toString);
                assertEquals(4, names.stream().filter(n -> n.endsWith("-timeseries.svg")).count(), names::toString);
                assertEquals(4, names.stream().filter(n -> n.endsWith(".hlog")).count(), names::toString);
            }
            System.out.println("demo --orders wrote its report in " + seconds + " s");
        }
        finally
        {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    private Process startDemo(final Path log, final String... args) throws java.io.IOException
    {
        final List<String> command = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("bin/mdhub").toString(),
            "demo"));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().put("MDHUB_NO_BUILD", "1"); // the build running this test has just made the jar
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("JAVA_OPTS", "-Xmx512m -Djava.io.tmpdir=" + dir);
        return builder.start();
    }
}
