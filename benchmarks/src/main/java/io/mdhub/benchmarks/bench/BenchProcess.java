package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.mdhub.common.config.LauncherJvmOptions;

/**
 * One MDHub component run as its own JVM for a benchmark ({@code java -jar <fat jar> ...}), its output in a log
 * file, its standard input open for commands (the source's {@code ur <rate>}); ended by PID, gently first.
 */
public final class BenchProcess implements AutoCloseable
{
    private static final long STOP_WAIT_SECONDS = 10;
    /** Field numbers in {@code /proc/<pid>/task/<tid>/stat} (proc(5)): rt_priority, policy. */
    private static final int STAT_PRIORITY = 40;
    private static final int STAT_POLICY = 41;

    private final String name;
    private final Path log;
    private final Process process;
    private final OutputStream stdin;

    BenchProcess(final String name, final Path log, final Process process)
    {
        this.name = name;
        this.log = log;
        this.process = process;
        this.stdin = process.getOutputStream();
    }

    /**
     * @param name    for messages.
     * @param log     where its output goes.
     * @param jar     the fat jar.
     * @param jvmOpts JVM options (Chronicle analytics are always off).
     * @param env     environment variables to set besides the bench's own.
     * @param args    the command's arguments.
     * @return the started process.
     */
    static BenchProcess start(
        final String name,
        final Path log,
        final List<String> launcher,
        final Path jar,
        final List<String> jvmOpts,
        final Map<String, String> env,
        final List<String> args)
    {
        final List<String> command = new ArrayList<>(launcher);
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Dchronicle.analytics.disable=true");
        command.add(LauncherJvmOptions.jfrRepository(log.toAbsolutePath().getParent().resolve("jfr")));
        command.addAll(jvmOpts);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        try
        {
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
            builder.environment().putAll(env);
            final Process process = builder.start();
            return new BenchProcess(name, log, process);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start " + name + ": " + command, ex);
        }
    }

    /**
     * Start a program that is not one of the jars (a peer's server binary), logging into a file.
     *
     * @param name    for messages.
     * @param log     where its output goes.
     * @param command the program and its arguments.
     * @return the started process.
     */
    static BenchProcess startProgram(final String name, final Path log, final List<String> command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
            return new BenchProcess(name, log, process);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start " + name + ": " + command, ex);
        }
    }

    /**
     * @return everything it printed so far.
     */
    public String output()
    {
        try
        {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Wait until it printed a text.
     *
     * @throws IllegalStateException when it exits first or the time is up (with the end of its output).
     */
    public void awaitLine(final String text, final long timeoutSeconds)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (!output().contains(text))
        {
            if (!process.isAlive() || System.nanoTime() > deadlineNs)
            {
                throw new IllegalStateException(name + " did not print '" + text + "'" +
                    (process.isAlive() ? " in " + timeoutSeconds + " s" : " (it exited)") + ":\n" + tail());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /**
     * Wait until its output matches a pattern.
     *
     * @param pattern        what to find.
     * @param timeoutSeconds how long to wait.
     * @return the first match, its groups readable.
     * @throws IllegalStateException when it exits first or the time is up (with the end of its output).
     */
    public Matcher awaitMatch(final Pattern pattern, final long timeoutSeconds)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true)
        {
            final Matcher matcher = pattern.matcher(output());
            if (matcher.find())
            {
                return matcher;
            }
            if (!process.isAlive() || System.nanoTime() > deadlineNs)
            {
                throw new IllegalStateException(name + " did not print " + pattern +
                    (process.isAlive() ? " in " + timeoutSeconds + " s" : " (it exited)") + ":\n" + tail());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /**
     * Wait until it printed, from now on, a number of lines in a row that all match (lines printed before the call do
     * not count).
     *
     * @throws IllegalStateException when it exits first or the time is up (with the end of its output).
     */
    public void awaitLinesInARow(final Predicate<String> matches, final int count, final long timeoutSeconds)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        int read = output().length();
        int inARow = 0;
        while (inARow < count)
        {
            final String output = output();
            final int end = output.lastIndexOf('\n') + 1;
            for (final String line : output.substring(Math.min(read, end), end).split("\n"))
            {
                inARow = line.isEmpty() ? inARow : matches.test(line) ? inARow + 1 : 0;
            }
            read = Math.max(read, end);
            if (inARow >= count)
            {
                return;
            }
            if (!process.isAlive() || System.nanoTime() > deadlineNs)
            {
                throw new IllegalStateException(name + " did not print " + count + " matching lines in a row" +
                    (process.isAlive() ? " in " + timeoutSeconds + " s" : " (it exited)") + ":\n" + tail());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /**
     * @return true once it exited by itself within the time.
     */
    public boolean awaitExit(final long timeoutSeconds) throws InterruptedException
    {
        return process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    }

    /**
     * Send a line to its standard input.
     */
    public void send(final String line)
    {
        try
        {
            stdin.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write to " + name, ex);
        }
    }

    /**
     * @return the last lines of its output.
     */
    public String tail()
    {
        final String output = output();
        return output.substring(Math.max(0, output.length() - 3000));
    }

    /**
     * @return whether it runs.
     */
    public boolean isAlive()
    {
        return process.isAlive();
    }

    /**
     * @return its process id.
     */
    public long pid()
    {
        return process.pid();
    }

    /**
     * @return its threads, id to name as the kernel keeps it (the first 15 characters of a Java thread's name), read
     * from {@code /proc/<pid>/task}.
     */
    Map<Long, String> threads()
    {
        final Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        final Map<Long, String> threads = new TreeMap<>();
        try (Stream<Path> list = Files.list(tasks))
        {
            for (final Path thread : (Iterable<Path>)list::iterator)
            {
                final String comm = threadName(thread);
                if (null != comm)
                {
                    threads.put(Long.parseLong(thread.getFileName().toString()), comm);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list the threads of " + name + " in " + tasks, ex);
        }
        return threads;
    }

    private static String threadName(final Path thread) throws IOException
    {
        try
        {
            return Files.readString(thread.resolve("comm"), StandardCharsets.UTF_8).strip();
        }
        catch (final NoSuchFileException ex)
        {
            return null; // the thread ended meanwhile
        }
    }

    /**
     * The scheduling policy and real-time priority the kernel keeps for one of its threads: fields 41 and 40 of
     * {@code /proc/<pid>/task/<tid>/stat} (counted from the first, the name in parentheses skipped).
     *
     * @param tid the thread's id.
     * @return {policy (0 ordinary, 1 FIFO, 2 round-robin...), real-time priority (0 for ordinary threads)}.
     */
    int[] scheduling(final long tid)
    {
        final Path stat = Path.of("/proc", Long.toString(process.pid()), "task", Long.toString(tid), "stat");
        try
        {
            return scheduling(Files.readString(stat, StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + stat, ex);
        }
    }

    /**
     * @param statLine a {@code /proc/<pid>/task/<tid>/stat} line.
     * @return {policy, real-time priority}, as {@link #scheduling(long)}.
     */
    static int[] scheduling(final String statLine)
    {
        // the fields from the 3rd on follow the name, which may itself hold spaces and parentheses
        final String[] fields = statLine.substring(statLine.lastIndexOf(')') + 2).strip().split(" ");
        return new int[] {Integer.parseInt(fields[STAT_POLICY - 3]), Integer.parseInt(fields[STAT_PRIORITY - 3])};
    }

    /**
     * @return its name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return its log file.
     */
    public Path log()
    {
        return log;
    }

    /**
     * SIGKILL (kill -9): the process ends at once, without its shutdown hooks, as in a crash; returns once it is gone.
     *
     * @return true when it ended within the wait.
     */
    public boolean kill()
    {
        try
        {
            return process.destroyForcibly().waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /**
     * @return its exit status, or -1 while it runs.
     */
    public int exitValue()
    {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /**
     * SIGTERM, then SIGKILL if it does not end in time.
     */
    @Override
    public void close()
    {
        process.destroy();
        try
        {
            if (!process.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
