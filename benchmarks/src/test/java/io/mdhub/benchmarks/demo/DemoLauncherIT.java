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
 * bounded by {@code --duration}, ending with zero lost updates and exit status 0.
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
        final ProcessBuilder builder = new ProcessBuilder(List.of("bash", ROOT.resolve("bin/mdhub").toString(),
            "demo", "--items", "2000", "--rate", "2000", "--duration", "4"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().put("MDHUB_NO_BUILD", "1"); // the build running this test has just made the jar
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("JAVA_OPTS", "-Xmx512m -Djava.io.tmpdir=" + dir);
        final Process process = builder.start();
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
}
