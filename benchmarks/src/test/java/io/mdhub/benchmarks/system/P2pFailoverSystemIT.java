package io.mdhub.benchmarks.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
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
 * A p2p-server SIGKILLed under a client with a server list, every component a separate JVM: the client's mounts are
 * spread over two p2p-servers; the mount on the killed one moves to the survivor, logs in, re-opens every item and
 * gets fresh refreshes, with no update lost without a refresh in between (per-item counters); the recovery time is
 * printed.
 */
@InterruptAfter(value = 150)
class P2pFailoverSystemIT
{
    private static final int ITEMS = 5_000;
    private static final int RATE = 2_000;
    private static final int CLIENT_SECONDS = 25;

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));

    @AfterEach
    void stopEverything()
    {
        processes.close();
    }

    @Test
    void theMountOfAKilledP2pServerMovesToTheOtherAndReopensEveryItem() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int portA = MdTests.unusedPort();
        final int portB = MdTests.unusedPort();

        final Path backboneLog = dir.resolve("backbone.log");
        start(backboneLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");
        final Path distributorLog = dir.resolve("distributor.log");
        start(distributorLog, "distributor/target/mdhub-distributor.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(providerPort));
        final Process p2pA = startP2p(dir.resolve("p2p-a.log"), aeronDir, portA, 1);
        startP2p(dir.resolve("p2p-b.log"), aeronDir, portB, 2);
        SystemProcesses.awaitLine(distributorLog, "mdhub-distributor ready");

        final Path sourceLog = dir.resolve("source.log");
        start(sourceLog, "benchmarks/target/mdhub-bench.jar", "source", "--port", Integer.toString(providerPort),
            "--items", Integer.toString(ITEMS), "--rate", Integer.toString(RATE));
        SystemProcesses.awaitLine(sourceLog, "source: refreshes " + ITEMS + ",");

        final Path clientLog = dir.resolve("client.log");
        final Process client = start(clientLog, "benchmarks/target/mdhub-bench.jar", "client",
            "--servers", "127.0.0.1:" + portA + ",127.0.0.1:" + portB, "--mounts", "2",
            "--items", Integer.toString(ITEMS), "--duration", Integer.toString(CLIENT_SECONDS));
        final long recovered =
            ClientStatus.awaitAllOpenAndOk(clientLog, 2 * ITEMS, 0, "every item open on both mounts");

        p2pA.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        final long killedNs = System.nanoTime();
        ClientStatus.awaitAllOpenAndOk(clientLog, 2 * ITEMS, recovered + ITEMS,
            "the moved mount's items re-opened on the other server");
        System.out.printf("p2p failover: %d items re-opened on the surviving p2p-server %d ms after the kill%n",
            ITEMS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs));

        MdTests.await(() -> "the client to finish:\n" + SystemProcesses.tail(clientLog), () -> !client.isAlive());
        final String output = SystemProcesses.read(clientLog);
        assertEquals(0, client.exitValue(), output);
        assertTrue(output.contains("items open " + 2 * ITEMS + ", closed 0, lost 0, out of order 0, malformed 0, " +
            "suspect now 0"), output);
        final Matcher summary =
            Pattern.compile("recovered (\\d+) \\(longest (\\d+) ms\\), failovers (\\d+)").matcher(output);
        assertTrue(summary.find(), output);
        assertEquals(1, Integer.parseInt(summary.group(3)), output);
        System.out.printf("p2p failover: the longest an item stayed Suspect: %s ms%n", summary.group(2));
    }

    private Process startP2p(final Path log, final String aeronDir, final int port, final int consumerId)
        throws IOException
    {
        final Process p2p = start(log, "p2p-server/target/mdhub-p2p.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(port), "-D", "mdhub.p2p.backbone.consumer.id=" + consumerId,
            "-D", "mdhub.p2p.component.name=p2p-" + consumerId);
        SystemProcesses.awaitLine(log, "mdhub-p2p ready");
        return p2p;
    }

    private Process start(final Path log, final String jar, final String... args) throws IOException
    {
        return processes.start(log, jar, List.of(), args);
    }
}
