package io.mdhub.benchmarks.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.agrona.IoUtil;

import io.mdhub.common.config.LauncherJvmOptions;

/**
 * The processes of one benchmark topology: started from the checkout's fat jars with the same JVM options (after
 * {@link LauncherJvmOptions}, as {@code bin/mdhub} starts every JVM), each logging into the report directory, and
 * all ended by PID, last started first, when the topology closes. Their shared-memory files (Aeron's directory, the
 * order queues) go into {@link #memoryDir(String) memory-backed directories}, deleted when the topology closes.
 */
public final class BenchProcesses implements AutoCloseable
{
    /** The backbone daemon's jar, relative to the checkout. */
    public static final String BACKBONE_JAR = "backbone/target/mdhub-backbone.jar";
    /** The distributor's jar. */
    public static final String DISTRIBUTOR_JAR = "distributor/target/mdhub-distributor.jar";
    /** The p2p-server's jar. */
    public static final String P2P_JAR = "p2p-server/target/mdhub-p2p.jar";
    /** The order probe's jar. */
    public static final String ORDER_PROBE_JAR = "order-probe/target/mdhub-order-probe.jar";
    /** The source's and the test client's jar. */
    public static final String BENCH_JAR = "benchmarks/target/mdhub-bench.jar";

    private static final int JCMD_TIMEOUT_SECONDS = 30;
    private static final long START_TIMEOUT_SECONDS = 60;
    private static final Path SHM = Path.of("/dev/shm");
    private static final Path TASKSET = Path.of("/usr/bin/taskset");
    private static final Path CHRT = Path.of("/usr/bin/chrt");
    private static final int TOOL_TIMEOUT_SECONDS = 10;
    /** The kernel's number for the FIFO real-time policy (sched(7)). */
    private static final int SCHED_FIFO = 1;
    private static final java.util.concurrent.atomic.AtomicInteger TOPOLOGIES =
        new java.util.concurrent.atomic.AtomicInteger();

    private final Path root;
    private final Path dir;
    private final List<String> jvmOpts;
    private final List<BenchProcess> started = new ArrayList<>();
    private final java.util.Map<String, String> cpusByName = new java.util.HashMap<>();
    /** Ends the processes when the bench itself is ended (Ctrl-C, SIGTERM) instead of leaving them running. */
    private final Thread shutdownHook = new Thread(this::close, "bench-processes-stop");
    private Path memoryRoot;

    /**
     * @param root  the checkout.
     * @param out   the report directory asked for, or null.
     * @param bench the benchmark's name.
     * @return {@code out}, or {@code <root>/target/bench-<bench>-<date-time>}.
     */
    public static Path reportDir(final Path root, final Path out, final String bench)
    {
        return null != out ? out : root.resolve("target").resolve("bench-" + bench + "-" +
            LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    /**
     * @param spec JVM options as given on the command line, separated by spaces (values cannot hold spaces).
     * @return the options.
     */
    public static List<String> jvmOptions(final String spec)
    {
        return spec.isBlank() ? List.of() : Arrays.asList(spec.trim().split("\\s+"));
    }

    /**
     * @param root    the checkout.
     * @param dir     where the logs go.
     * @param jvmOpts options of every JVM, after the launcher's.
     */
    public BenchProcesses(final Path root, final Path dir, final List<String> jvmOpts)
    {
        this.root = root;
        this.dir = dir;
        this.jvmOpts = jvmOpts;
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Start MDHub on its defaults as a user does: the backbone daemon, then a distributor and a p2p-server on it, each
     * awaited until it says it is ready.
     *
     * @param prefix          what the processes' names begin with.
     * @param distributorPort the distributor's provider port.
     * @param p2pPort         the p2p-server's consumer port.
     * @param p2pArgs         more arguments of the p2p-server.
     * @return the backbone, the distributor and the p2p-server, in that order.
     */
    List<BenchProcess> startMdhub(
        final String prefix, final int distributorPort, final int p2pPort, final String... p2pArgs)
    {
        final String aeronDir = memoryDir("aeron").toString();
        final BenchProcess backbone = start(prefix + "backbone", BACKBONE_JAR, "--aeron-dir", aeronDir);
        backbone.awaitLine("mdhub-backbone ready", START_TIMEOUT_SECONDS);
        final BenchProcess distributor = start(prefix + "distributor", DISTRIBUTOR_JAR, "--aeron-dir", aeronDir,
            "--port", Integer.toString(distributorPort));
        final List<String> args =
            new ArrayList<>(List.of("--aeron-dir", aeronDir, "--port", Integer.toString(p2pPort)));
        args.addAll(Arrays.asList(p2pArgs));
        final BenchProcess p2p = start(prefix + "p2p", P2P_JAR, args.toArray(new String[0]));
        distributor.awaitLine("mdhub-distributor ready", START_TIMEOUT_SECONDS);
        p2p.awaitLine("mdhub-p2p ready", START_TIMEOUT_SECONDS);
        return List.of(backbone, distributor, p2p);
    }

    /**
     * Start a process logging into {@code <dir>/<name>.log}.
     *
     * @param name the process's name.
     * @param jar  its jar, relative to the checkout.
     * @param args its arguments.
     * @return the process.
     */
    public BenchProcess start(final String name, final String jar, final String... args)
    {
        return start(name, jar, List.of(), args);
    }

    /**
     * Start a process with JVM options of its own besides everyone's, logging into {@code <dir>/<name>.log}.
     *
     * @param name      the process's name.
     * @param jar       its jar, relative to the checkout.
     * @param extraOpts its own JVM options, after everyone's.
     * @param args      its arguments.
     * @return the process.
     */
    public BenchProcess start(final String name, final String jar, final List<String> extraOpts, final String... args)
    {
        return start(name, jar, extraOpts, Map.of(), args);
    }

    /**
     * Start a process with JVM options and environment variables of its own besides everyone's, logging into
     * {@code <dir>/<name>.log}.
     *
     * @param name      the process's name.
     * @param jar       its jar, relative to the checkout.
     * @param extraOpts its own JVM options, after everyone's.
     * @param env       environment variables to set for it.
     * @param args      its arguments.
     * @return the process.
     */
    synchronized BenchProcess start(
        final String name,
        final String jar,
        final List<String> extraOpts,
        final Map<String, String> env,
        final String... args)
    {
        // the launcher's options first, as bin/mdhub puts them before JAVA_OPTS: the bench's may turn them off again
        final List<String> opts = new ArrayList<>(LauncherJvmOptions.NO_PERIODIC_SAFEPOINTS);
        opts.addAll(LauncherJvmOptions.RARE_HOUSEKEEPING);
        opts.addAll(jvmOpts);
        opts.addAll(extraOpts);
        final String cpus = cpusByName.get(name);
        final List<String> launcher = null == cpus ? List.of() : List.of(TASKSET.toString(), "-c", cpus);
        final BenchProcess process =
            BenchProcess.start(name, dir.resolve(name + ".log"), launcher, root.resolve(jar), opts, env, List.of(args));
        started.add(process);
        return process;
    }

    /**
     * Start a program that is not one of the jars (a peer's server binary), logging into {@code <dir>/<name>.log},
     * ended with the others.
     *
     * @param name    the process's name.
     * @param command the program and its arguments.
     * @return the process.
     */
    synchronized BenchProcess startProgram(final String name, final List<String> command)
    {
        final String cpus = cpusByName.get(name);
        final List<String> launched = new ArrayList<>();
        if (null != cpus)
        {
            launched.addAll(List.of(TASKSET.toString(), "-c", cpus));
        }
        launched.addAll(command);
        final BenchProcess process = BenchProcess.startProgram(name, dir.resolve(name + ".log"), launched);
        started.add(process);
        return process;
    }

    /**
     * Run the process of this name, when it is started, on these CPUs only ({@code taskset -c}; its threads inherit
     * the affinity). On a host with few cores this decides which processes share a core: a busy-polling process and
     * the one it hands its output to on one core make the hand-off a wake-up on the same core, not an
     * inter-processor interrupt to an idle virtual CPU.
     *
     * @param name the process's name as given to {@link #start(String, String, String...)}.
     * @param cpus a CPU list as {@code taskset -c} reads it ({@code 0}, {@code 1-3}).
     * @return this.
     */
    BenchProcesses pin(final String name, final String cpus)
    {
        if (!Files.isExecutable(TASKSET))
        {
            throw new IllegalStateException("pinning processes to CPUs needs " + TASKSET + " (util-linux)");
        }
        cpusByName.put(name, cpus);
        return this;
    }

    /**
     * Run some threads of a running process under the real-time FIFO policy ({@code chrt -f -p}): a woken thread
     * then takes its CPU from any ordinary thread at once, instead of queueing behind whatever runs there. On a
     * small shared host that is the kernel's own work too: a memory-reclaim thread (DAMON's {@code kdamond}) that
     * runs for 1-3 ms at a time on the CPU the busy-polling worker leaves free. Only event-driven threads, which
     * sleep between messages, may be raised so: a spinning thread under FIFO would starve its CPU.
     *
     * @param process      a started process.
     * @param threadPrefix the start of the threads' names as the kernel keeps them
     *                     (see {@link BenchProcess#threads()}).
     * @param priority     FIFO priority, 1-99.
     * @return how many threads were raised (at least one).
     * @throws IllegalStateException when no thread has that name, or chrt is missing or refuses (it needs root or
     *                               CAP_SYS_NICE).
     */
    static int realtime(final BenchProcess process, final String threadPrefix, final int priority)
        throws IOException, InterruptedException
    {
        final List<Long> threads = new ArrayList<>();
        partition(process, threadPrefix, threads, new ArrayList<>());
        for (final long tid : threads)
        {
            run(CHRT, "-f", "-p", Integer.toString(priority), Long.toString(tid));
            // read back: what the kernel keeps, not chrt's exit code, says the thread now runs under FIFO
            final int[] scheduling = process.scheduling(tid);
            if (SCHED_FIFO != scheduling[0] || priority != scheduling[1])
            {
                throw new IllegalStateException(process.name() + " thread " + tid + " runs policy " + scheduling[0] +
                    " priority " + scheduling[1] + " after chrt -f " + priority);
            }
        }
        return threads.size();
    }

    /**
     * Move every thread of a running process but the named ones onto other CPUs ({@code taskset -p -c}): what a
     * JVM runs beside its hot thread (compilers, the collector, timers, the main thread) then no longer takes that
     * thread's CPU from it for a millisecond now and then. Threads the process starts later inherit the affinity
     * of the thread that starts them.
     *
     * @param process  a started process.
     * @param hotPrefix the start of the names of the threads that stay where they are.
     * @param cpus     where the others go, as {@code taskset -c} reads it.
     * @return how many threads were moved.
     * @throws IllegalStateException when no thread has the hot name, or taskset is missing or refuses.
     */
    static int moveAllBut(final BenchProcess process, final String hotPrefix, final String cpus)
        throws IOException, InterruptedException
    {
        final List<Long> others = new ArrayList<>();
        partition(process, hotPrefix, new ArrayList<>(), others);
        for (final long tid : others)
        {
            run(TASKSET, "-p", "-c", cpus, Long.toString(tid));
        }
        return others.size();
    }

    /**
     * Split the process's threads, read once, by whether their names start with {@code prefix}; a prefix that
     * matches nothing is a mistake (a renamed thread), not a no-op.
     */
    private static void partition(
        final BenchProcess process, final String prefix, final List<Long> named, final List<Long> others)
    {
        final Map<Long, String> all = process.threads();
        all.forEach((tid, name) -> (name.startsWith(prefix) ? named : others).add(tid));
        if (named.isEmpty())
        {
            throw new IllegalStateException(process.name() + " has no thread named " + prefix + "*: " + all.values());
        }
    }

    private static void run(final Path tool, final String... args) throws IOException, InterruptedException
    {
        if (!Files.isExecutable(tool))
        {
            throw new IllegalStateException("placing threads needs " + tool + " (util-linux)");
        }
        final List<String> command = new ArrayList<>(List.of(tool.toString()));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(TOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not end in " + TOOL_TIMEOUT_SECONDS +
                " s");
        }
        if (0 != process.exitValue())
        {
            throw new IllegalStateException(String.join(" ", command) + " failed: " +
                new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
        }
    }

    /**
     * Ask every running process for a full collection ({@code jcmd <pid> GC.run}), so what the start-up made to keep
     * (a 100,000-item watchlist, caches, indexes) is tenured before anything is measured: left in the young
     * generation it is copied by every young collection until it ages out, in pauses of 100-500 ms on two cores. A
     * process running for days is past that; a benchmark that starts its processes minutes earlier is not.
     *
     * @return how many processes collected.
     */
    int collectGarbage() throws IOException, InterruptedException
    {
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd))
        {
            return 0; // a JRE without the tool: measured without the collection
        }
        int collected = 0;
        for (final BenchProcess process : started)
        {
            if (!process.isAlive())
            {
                continue;
            }
            final Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "GC.run")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!gc.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                gc.destroyForcibly();
                continue;
            }
            collected += 0 == gc.exitValue() ? 1 : 0;
        }
        return collected;
    }

    /**
     * A directory for files the processes map and write all the time — Aeron's log buffers, the order queues — in
     * memory ({@code /dev/shm}) where there is one, as Aeron's own default on Linux and as the published order tests
     * kept their queues. Mapped from a disk file system they would be written back to the disk while the processes
     * write them, and a write to a page under write-back waits for it: stalls of tens to hundreds of milliseconds
     * that are the disk's, not the system's. Without {@code /dev/shm}: {@code <dir>/memory/<name>}. All deleted on
     * close.
     *
     * @param name what the directory holds.
     * @return its absolute path.
     */
    public Path memoryDir(final String name)
    {
        if (null == memoryRoot)
        {
            memoryRoot = Files.isDirectory(SHM) && Files.isWritable(SHM) ?
                SHM.resolve("mdhub-bench-" + ProcessHandle.current().pid() + "-" + TOPOLOGIES.incrementAndGet()) :
                dir.resolve("memory");
        }
        return memoryRoot.resolve(name).toAbsolutePath(); // siblings a process makes (e.g. queue.discarded-*) too
    }

    @Override
    public synchronized void close()
    {
        for (int i = started.size() - 1; i >= 0; i--)
        {
            started.get(i).close();
        }
        started.clear();
        if (null != memoryRoot)
        {
            IoUtil.delete(memoryRoot.toFile(), true);
            memoryRoot = null;
        }
        if (Thread.currentThread() != shutdownHook)
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            }
            catch (final IllegalStateException ex)
            {
                // the JVM is shutting down already: the hook runs (or ran) this close itself
            }
        }
    }
}
