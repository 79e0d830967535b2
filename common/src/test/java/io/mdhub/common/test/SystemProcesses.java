package io.mdhub.common.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.mdhub.common.config.LauncherJvmOptions;

/**
 * The separate JVMs of a system test: MDHub's fat jars started as users start them (java -jar, small heap,
 * Chronicle analytics off, no periodic safepoints as {@code bin/mdhub} sets), or a {@code bin/mdhub} command as a
 * user types it, each with its output in a log file the test waits on; {@link #close()} stops every one it started
 * (SIGTERM, so a command ends what it started itself, then SIGKILL for it and its descendants after 10 s), newest
 * first.
 */
public final class SystemProcesses implements AutoCloseable
{
    private final Path root;
    private final List<Process> processes = new ArrayList<>();

    /**
     * @param buildDir the module's build directory (failsafe's {@code mdhub.build.dir}); the project root is two up.
     */
    public SystemProcesses(final String buildDir)
    {
        this.root = Paths.get(buildDir).toAbsolutePath().getParent().getParent();
    }

    /**
     * @return the project root.
     */
    public Path root()
    {
        return root;
    }

    /**
     * Start a fat jar.
     *
     * @param log     where its output goes.
     * @param jar     path of the jar from the project root, e.g. {@code p2p-server/target/mdhub-p2p.jar}.
     * @param jvmArgs extra JVM options (system properties).
     * @param args    its arguments.
     * @return the process.
     * @throws IOException if it cannot start.
     */
    public Process start(final Path log, final String jar, final List<String> jvmArgs, final String... args)
        throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx384m", "-Dchronicle.analytics.disable=true", "-Djava.net.preferIPv4Stack=true"));
        // as bin/mdhub starts every JVM: a system test that expects a quiet process must not see a Cleanup safepoint
        command.addAll(LauncherJvmOptions.NO_PERIODIC_SAFEPOINTS);
        command.addAll(LauncherJvmOptions.RARE_HOUSEKEEPING);
        command.add(LauncherJvmOptions.jfrRepository(log.toAbsolutePath().getParent().resolve("jfr")));
        command.addAll(jvmArgs);
        command.addAll(List.of("-jar", root.resolve(jar).toString()));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
        processes.add(process);
        return process;
    }

    /**
     * Start a script of the checkout, such as {@code bin/mdhub}, on the jars this build made (no rebuild) and this
     * test's Java.
     *
     * @param log    where its output goes.
     * @param script path of the script from the project root, e.g. {@code bin/mdhub}.
     * @param args   its arguments, e.g. {@code bench orders --rates 500}.
     * @return the process.
     * @throws IOException if it cannot start.
     */
    public Process startScript(final Path log, final String script, final List<String> args) throws IOException
    {
        return startScript(log, script, args, ScriptOptions.DEFAULTS);
    }

    /**
     * Start a script of the checkout as {@link #startScript(Path, String, List)} does, with a working directory, a
     * command to run under or environment variables of its own.
     *
     * @param log     where its output goes.
     * @param script  path of the script from the project root, e.g. {@code bin/mdhub}.
     * @param args    its arguments.
     * @param options prefix, working directory and environment.
     * @return the process.
     * @throws IOException if it cannot start.
     */
    public Process startScript(final Path log, final String script, final List<String> args,
        final ScriptOptions options) throws IOException
    {
        final List<String> command = new ArrayList<>(options.prefix());
        command.addAll(List.of("bash", root.resolve(script).toString()));
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        if (null != options.directory())
        {
            builder.directory(options.directory().toFile());
        }
        builder.environment().put("MDHUB_NO_BUILD", "1"); // the build running this test has just made the jars
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().putAll(options.environment());
        final Process process = builder.start();
        processes.add(process);
        return process;
    }

    /**
     * Wait for a process to end and check that it succeeded.
     *
     * @param process        the process.
     * @param log            its output.
     * @param timeoutSeconds longest wait.
     * @return its output.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static String awaitSuccess(final Process process, final Path log, final long timeoutSeconds)
        throws InterruptedException
    {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            throw new AssertionError("did not end within " + timeoutSeconds + " s:\n" + tail(log));
        }
        final String output = read(log);
        if (0 != process.exitValue())
        {
            throw new AssertionError("exit status " + process.exitValue() + ":\n" + output);
        }
        return output;
    }

    /**
     * Wait (within the test's deadline) until a log contains a text.
     *
     * @param log  the log.
     * @param text the text.
     */
    public static void awaitLine(final Path log, final String text)
    {
        MdTests.await(() -> "'" + text + "' in " + log.getFileName() + ":\n" + tail(log),
            () -> read(log).contains(text));
    }

    /**
     * @param log a log.
     * @return its last 3,000 characters.
     */
    public static String tail(final Path log)
    {
        final String text = read(log);
        return text.length() > 3000 ? text.substring(text.length() - 3000) : text;
    }

    /**
     * @param log a log.
     * @return its content ("" if it does not exist yet).
     */
    public static String read(final Path log)
    {
        try
        {
            return Files.exists(log) ? Files.readString(log) : "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close()
    {
        for (int i = processes.size() - 1; i >= 0; i--)
        {
            final Process process = processes.get(i);
            process.destroy();
            try
            {
                if (!process.waitFor(10, TimeUnit.SECONDS))
                {
                    kill(process);
                }
            }
            catch (final InterruptedException ex)
            {
                kill(process);
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * SIGKILL a process and what it started: a script killed alone would leave its JVMs running.
     */
    private static void kill(final Process process)
    {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try
        {
            process.waitFor(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
