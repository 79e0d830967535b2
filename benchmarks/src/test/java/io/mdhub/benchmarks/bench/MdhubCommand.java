package io.mdhub.benchmarks.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code bin/mdhub} command run by a test as a user runs it: a process of its own on the jars this build made, its
 * output in a log file, destroyed (with what it started, which the command ends itself) when closed.
 */
final class MdhubCommand implements AutoCloseable
{
    /** The checkout: {@code bin/mdhub} and the modules' jars. */
    static final Path ROOT =
        Paths.get(System.getProperty("mdhub.build.dir", "target")).toAbsolutePath().getParent().getParent();

    private final Process process;
    private final Path log;

    private MdhubCommand(final Process process, final Path log)
    {
        this.process = process;
        this.log = log;
    }

    /**
     * @param log  where the command's output goes.
     * @param args the command and its options, e.g. {@code bench orders --rates 500}.
     * @return the started command.
     * @throws IOException if it cannot be started.
     */
    static MdhubCommand start(final Path log, final List<String> args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("bin/mdhub").toString()));
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().put("MDHUB_NO_BUILD", "1"); // the build running the test has just made the jars
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return new MdhubCommand(builder.start(), log);
    }

    /**
     * Wait for the command to end and check it succeeded.
     *
     * @param timeoutSeconds longest wait.
     * @return its output.
     * @throws Exception if interrupted or the log cannot be read.
     */
    String awaitSuccess(final long timeoutSeconds) throws Exception
    {
        assertTrue(process.waitFor(timeoutSeconds, TimeUnit.SECONDS), "the command did not end");
        final String output = Files.readString(log);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    @Override
    public void close() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor();
    }
}
