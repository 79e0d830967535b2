package io.mdhub.orderprobe.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;

/**
 * Rejoining under load, as users run the pair: two order servers and {@code orders-load} at 2,000 orders/s for 30 s,
 * each a separate process. SIGKILL server 1, restart it 3 s later; once it has its partitions back, SIGKILL server 0,
 * restart it 3 s later and SIGKILL it again as soon as it starts catching up, then restart it once more. Every
 * restarted server catches up within {@link #CATCH_UP_BOUND_MS} of asking (a generous bound on a shared host: the
 * transfer runs at tens of thousands of orders a second) at five times the load rate or more; the load finishes with
 * every order acknowledged, and {@code verify-orders} finds both queues complete, equal, contiguous and free of
 * duplicates.
 */
@InterruptAfter(240)
class OrderRejoinSystemIT
{
    private static final int RATE = 2_000;
    private static final int LOAD_SECONDS = 30;
    private static final long CATCH_UP_BOUND_MS = 5_000;
    private static final Pattern CAUGHT_UP = Pattern.compile(
        "caught up; backup of every partition \\((\\d+) orders held, (\\d+) ms after the catch-up began");

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
    void serversKilledInTurnAndDuringTheirCatchUpRejoinWithinTheBoundAndLoseNothing() throws Exception
    {
        startServer(0);
        final Path first = startServer(1);
        SystemProcesses.awaitLine(first, "(handed over");

        final Path acked = dir.resolve("acked.csv");
        final Path loadLog = dir.resolve("load.log");
        final Process load = processes.start(loadLog, "order-probe/target/mdhub-order-probe.jar", List.of(),
            "orders-load", "--rate", Integer.toString(RATE), "--duration", Integer.toString(LOAD_SECONDS),
            "--servers", "localhost:" + ingressPorts[0] + ",localhost:" + ingressPorts[1],
            "--client-id", "4242", "--out", acked.toString());
        SystemProcesses.awaitLine(loadLog, "acked");
        final List<String> catchUps = new ArrayList<>();

        Thread.sleep(4_000);
        kill(1);
        Thread.sleep(3_000);
        final Path second = startServer(1);
        catchUps.add(awaitCaughtUp(second, 1));
        SystemProcesses.awaitLine(second, "(handed over");

        kill(0);
        Thread.sleep(3_000);
        final Path third = startServer(0);
        SystemProcesses.awaitLine(third, "taking every order from server 1");
        kill(0); // during its own catch-up (or just after: the transfer is quick)
        final Path fourth = startServer(0);
        catchUps.add(awaitCaughtUp(fourth, 0));
        SystemProcesses.awaitLine(fourth, "(handed over");

        MdTests.await(() -> "the load to finish:\n" + SystemProcesses.tail(loadLog), () -> !load.isAlive());
        final String output = SystemProcesses.read(loadLog);
        System.out.println("OrderRejoinSystemIT: " + String.join("; ", catchUps));
        assertEquals(0, load.exitValue(), output);
        assertTrue(output.contains("every created order was acknowledged or rejected"), output);
        assertTrue(output.contains(", rejected 0, unresolved 0"), output);

        for (int id = 0; id < 2; id++)
        {
            servers[id].destroy();
            assertTrue(servers[id].waitFor(20, TimeUnit.SECONDS), "server " + id + " stops on SIGTERM");
        }
        final Path verifyLog = dir.resolve("verify.log");
        final Process verifier = processes.start(verifyLog, "p2p-server/target/mdhub-p2p.jar", List.of(),
            "verify-orders", "--queue", dir.resolve("queue-0").toString(), "--queue",
            dir.resolve("queue-1").toString(), "--acked", acked.toString());
        assertTrue(verifier.waitFor(60, TimeUnit.SECONDS), "verify-orders did not finish");
        final String verified = SystemProcesses.read(verifyLog);
        assertEquals(0, verifier.exitValue(), verified);
        assertTrue(verified.contains("verify-orders: OK"), verified);
    }

    /**
     * @return what the caught-up line says, after checking it against the bound and the rate.
     */
    private String awaitCaughtUp(final Path log, final int id)
    {
        SystemProcesses.awaitLine(log, "caught up; backup of every partition");
        final Matcher matcher = CAUGHT_UP.matcher(SystemProcesses.read(log));
        assertTrue(matcher.find(), () -> SystemProcesses.tail(log));
        final long orders = Long.parseLong(matcher.group(1));
        final long ms = Long.parseLong(matcher.group(2));
        final String what = "server " + id + ": " + orders + " orders in " + ms + " ms";
        assertTrue(ms < CATCH_UP_BOUND_MS, what + ": not within " + CATCH_UP_BOUND_MS + " ms");
        assertTrue(orders * 1_000 / Math.max(1, ms) >= 5L * RATE, what + ": under five times the load rate");
        return what;
    }

    private void kill(final int id) throws InterruptedException
    {
        servers[id].destroyForcibly(); // SIGKILL
        servers[id].waitFor();
    }

    private Path startServer(final int id) throws IOException
    {
        final Path log = dir.resolve("server-" + id + "-" + (++serverStarts) + ".log");
        final int peer = 1 - id;
        servers[id] = processes.start(log, "p2p-server/target/mdhub-p2p.jar", List.of(
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
        SystemProcesses.awaitLine(log, "mdhub-p2p ready");
        return log;
    }
}
