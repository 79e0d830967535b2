package io.mdhub.orderprobe.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;

/**
 * The order pair as users run it: two order servers ({@code mdhub-p2p.jar} with the order service on and market
 * data off) and {@code orders-load} at 5,000 orders/s, each a separate process. Five runs, alternating the victim
 * (each server is the primary of half the partitions): SIGKILL one server at a random moment of the load, the load
 * finishes on the survivor, {@code verify-orders} finds every acknowledged order exactly once on the
 * survivor with contiguous sequences, then the killed server restarts, catches up and takes its partitions back.
 * At the end both servers stop and restart from their queue files, and every order acknowledged in any run is
 * still in both queues. The kill times come from a seed taken from {@code System.nanoTime()}, printed at the start
 * and in failures; {@code -Dmdhub.test.order.failover.seed=N} replays a run.
 */
@InterruptAfter(600)
class OrderFailoverSystemIT
{
    private static final int RUNS = 5;
    /** Orders per second of every load: the published procedure's middle rate. */
    private static final int RATE = 5_000;
    private static final int LOAD_SECONDS = 6;
    /** System property that fixes the seed of the kill times, to replay a failed run. */
    private static final String SEED_PROP_NAME = "mdhub.test.order.failover.seed";

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));
    private final Process[] servers = new Process[2];
    private final int[] ingressPorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    private final int[] peerPorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    private final int[] fencePorts = {MdTests.unusedPort(), MdTests.unusedPort()};
    private int serverStarts;

    @AfterEach
    void stopEverything()
    {
        processes.close();
    }

    @Test
    void killingEitherServerAtRandomMomentsLosesAndDuplicatesNothing() throws Exception
    {
        final Path[] logs = {startServer(0), startServer(1)};
        awaitLine(logs[1], "partition 1 (handed over");

        final long seed = Long.getLong(SEED_PROP_NAME, System.nanoTime());
        System.out.println("OrderFailoverSystemIT: kill times from seed " + seed + " (rerun with -D" + SEED_PROP_NAME +
            "=" + seed + ")");
        final Random random = new Random(seed);
        final List<Path> ackFiles = new ArrayList<>();
        for (int i = 1; i <= RUNS; i++)
        {
            final int run = i;
            final int victim = run % 2;
            final Path acked = dir.resolve("acked-" + run + ".csv");
            ackFiles.add(acked);
            final Path loadLog = dir.resolve("load-" + run + ".log");
            final Process load = startLoad(loadLog, acked, run * 1_000_000L, 40600 + run);
            Thread.sleep(1000 + random.nextInt(LOAD_SECONDS * 1000 - 2000));
            servers[victim].destroyForcibly(); // SIGKILL
            servers[victim].waitFor();
            MdTests.await(() -> "run " + run + ": the load to finish:\n" + tail(loadLog), () -> !load.isAlive());
            final String output = "seed " + seed + ", run " + run + ":\n" + read(loadLog);
            assertEquals(0, load.exitValue(), output);
            assertTrue(output.contains("every created order was acknowledged or rejected"), output);
            assertTrue(output.contains(", rejected 0, unresolved 0"), output);

            verify("run " + run + " after killing server " + victim, ackFiles, true);

            logs[victim] = startServer(victim);
            awaitLine(logs[victim], "caught up; backup of every partition");
            awaitLine(logs[victim], "(handed over");
        }

        // both stop and restart from their queue files
        for (int id = 0; id < 2; id++)
        {
            servers[id].destroy();
            assertTrue(servers[id].waitFor(20, TimeUnit.SECONDS), "server " + id + " stops on SIGTERM");
        }
        verify("both stopped", ackFiles, false);
        logs[0] = startServer(0);
        logs[1] = startServer(1);
        awaitLine(logs[1], "(handed over");
        final Path acked = dir.resolve("acked-final.csv");
        ackFiles.add(acked);
        final Path loadLog = dir.resolve("load-final.log");
        final Process load = startLoad(loadLog, acked, 99_000_000L, 40699);
        MdTests.await(() -> "the last load to finish:\n" + tail(loadLog), () -> !load.isAlive());
        assertEquals(0, load.exitValue(), read(loadLog));
        for (int id = 0; id < 2; id++)
        {
            servers[id].destroy();
            assertTrue(servers[id].waitFor(20, TimeUnit.SECONDS));
        }
        verify("after restarting both from their queues", ackFiles, false);
    }

    private Path startServer(final int id) throws IOException
    {
        final Path log = dir.resolve("server-" + id + "-" + (++serverStarts) + ".log");
        final int peer = 1 - id;
        servers[id] = start(log, "p2p-server/target/mdhub-p2p.jar", List.of(
            "-Dmdhub.order.enabled=true",
            "-Dmdhub.p2p.market.data.enabled=false",
            "-Dmdhub.order.server.id=" + id,
            "-Dmdhub.order.partitions=4",
            "-Dmdhub.order.address=localhost:" + ingressPorts[id],
            "-Dmdhub.order.peer.address=localhost:" + peerPorts[id],
            "-Dmdhub.order.peer.remote.address=localhost:" + peerPorts[peer],
            "-Dmdhub.order.fence.address=localhost:" + fencePorts[id],
            "-Dmdhub.order.peer.fence.address=localhost:" + fencePorts[peer],
            "-Dmdhub.order.queue.dir=" + dir.resolve("queue-" + id)));
        awaitLine(log, "mdhub-p2p ready");
        return log;
    }

    private Process startLoad(
        final Path log, final Path acked, final long firstOrderId, final int responsePort)
        throws IOException
    {
        return start(log, "order-probe/target/mdhub-order-probe.jar", List.of(), "orders-load",
            "--rate", Integer.toString(RATE), "--duration", Integer.toString(LOAD_SECONDS),
            "--servers", "localhost:" + ingressPorts[0] + ",localhost:" + ingressPorts[1],
            "--client-id", Long.toString(responsePort),
            "--first-order-id", Long.toString(firstOrderId),
            "--out", acked.toString());
    }

    private void verify(final String when, final List<Path> ackFiles, final boolean allowBehind) throws Exception
    {
        final Path all = dir.resolve("acked-all.csv");
        final StringBuilder lines = new StringBuilder();
        for (final Path file : ackFiles)
        {
            if (Files.exists(file))
            {
                lines.append(Files.readString(file));
            }
        }
        Files.writeString(all, lines);
        final List<String> args = new ArrayList<>(List.of("verify-orders",
            "--queue", dir.resolve("queue-0").toString(), "--queue", dir.resolve("queue-1").toString(),
            "--acked", all.toString()));
        if (allowBehind)
        {
            args.add("--allow-behind");
        }
        final Path log = dir.resolve("verify.log");
        final Process verifier = start(log, "p2p-server/target/mdhub-p2p.jar", List.of(),
            args.toArray(new String[0]));
        assertTrue(verifier.waitFor(60, TimeUnit.SECONDS), when + ": verify-orders did not finish");
        final String output = read(log);
        assertEquals(0, verifier.exitValue(), when + ":\n" + output);
        assertTrue(output.contains("verify-orders: OK"), when + ":\n" + output);
    }

    private Process start(final Path log, final String jar, final List<String> jvmArgs, final String... args)
        throws IOException
    {
        return processes.start(log, jar, jvmArgs, args);
    }

    private static void awaitLine(final Path log, final String text)
    {
        SystemProcesses.awaitLine(log, text);
    }

    private static String tail(final Path log)
    {
        return SystemProcesses.tail(log);
    }

    private static String read(final Path log)
    {
        return SystemProcesses.read(log);
    }
}
