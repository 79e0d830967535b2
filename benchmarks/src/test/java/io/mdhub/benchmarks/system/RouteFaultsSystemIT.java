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
 * Faults on the sink-driven path, every component a separate JVM from its fat jar: the interactive source, mounted by
 * a distributor's route, feeding a p2p-server and the test client. The source is SIGKILLed and restarted on its port;
 * later the distributor is SIGKILLed with a second distributor mounting the same source. Each time the client must
 * see its items go Open/Suspect and come back with fresh refreshes while it does nothing, lose no update without a
 * Suspect status first (its per-item counters), and the recovery time is printed.
 */
@InterruptAfter(value = 180)
class RouteFaultsSystemIT
{
    private static final int ITEMS = 2_000;
    private static final int RATE = 2_000;
    private static final int CLIENT_SECONDS = 45;

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
    void itemsRecoverFromAKilledSourceAndAKilledDistributorWithoutTheClientAsking() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int sourcePort = MdTests.unusedPort();
        final int consumerPort = MdTests.unusedPort();
        final String route = "127.0.0.1:" + sourcePort;

        final Path backboneLog = dir.resolve("backbone.log");
        start(backboneLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");

        Process source = startSource(dir.resolve("source-1.log"), sourcePort);
        final Path firstLog = dir.resolve("distributor-1.log");
        final Process first = startDistributor(firstLog, aeronDir, route, 1);
        final Path p2pLog = dir.resolve("p2p.log");
        start(p2pLog, "p2p-server/target/mdhub-p2p.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(consumerPort));
        SystemProcesses.awaitLine(firstLog, "mdhub-distributor ready");
        SystemProcesses.awaitLine(p2pLog, "mdhub-p2p ready");

        final Path clientLog = dir.resolve("client.log");
        final Process client = start(clientLog, "benchmarks/target/mdhub-bench.jar", "client",
            "--port", Integer.toString(consumerPort), "--service", "MDH_SINK", "--items", Integer.toString(ITEMS),
            "--duration", Integer.toString(CLIENT_SECONDS));
        long recovered = ClientStatus.awaitAllOpenAndOk(clientLog, ITEMS, 0, "every item open");

        // a second distributor mounts the same source: it takes the items over when the first dies
        final Path secondLog = dir.resolve("distributor-2.log");
        startDistributor(secondLog, aeronDir, route, 2);
        SystemProcesses.awaitLine(secondLog, "mdhub-distributor ready");

        // fault 1: the source dies; a new one starts on the same port a second later
        source.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        final long sourceKilledNs = System.nanoTime();
        TimeUnit.SECONDS.sleep(1);
        source = startSource(dir.resolve("source-2.log"), sourcePort);
        recovered = ClientStatus.awaitAllOpenAndOk(clientLog, ITEMS, recovered + ITEMS,
            "every item recovered from the restarted source");
        System.out.printf("route faults: source killed and restarted after 1 s, every item Ok again %d ms after " +
            "the kill%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sourceKilledNs));

        // fault 2: the distributor serving the items dies; the second one has mounted the source meanwhile
        first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        final long distributorKilledNs = System.nanoTime();
        ClientStatus.awaitAllOpenAndOk(clientLog, ITEMS, recovered + ITEMS,
            "every item recovered through the second distributor");
        System.out.printf("route faults: distributor killed, every item Ok again through the second %d ms after " +
            "the kill%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - distributorKilledNs));

        MdTests.await(() -> "the client to finish:\n" + SystemProcesses.tail(clientLog), () -> !client.isAlive());
        final String output = SystemProcesses.read(clientLog);
        assertEquals(0, client.exitValue(), output);
        assertTrue(output.contains("items open " + ITEMS + ", closed 0, lost 0, out of order 0, malformed 0, " +
            "suspect now 0"), output);
        final Matcher summary = Pattern.compile("recovered (\\d+) \\(longest (\\d+) ms\\)").matcher(output);
        assertTrue(summary.find(), output);
        assertTrue(Long.parseLong(summary.group(1)) >= 2L * ITEMS, () -> "both faults recovered: " + output);
        System.out.printf("route faults: %s items recovered in all, the longest Suspect lasted %s ms%n",
            summary.group(1), summary.group(2));
        assertTrue(source.isAlive());
    }

    private Process startSource(final Path log, final int port) throws IOException
    {
        final Process source = start(log, "benchmarks/target/mdhub-bench.jar", "source", "--interactive",
            "--port", Integer.toString(port), "--rate", Integer.toString(RATE));
        SystemProcesses.awaitLine(log, "mdhub-source: interactive, listening");
        return source;
    }

    private Process startDistributor(final Path log, final String aeronDir, final String route, final int id)
        throws IOException
    {
        return start(log, "distributor/target/mdhub-distributor.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(MdTests.unusedPort()), "--route", route,
            "-D", "mdhub.distributor.backbone.distributor.id=" + id,
            "-D", "mdhub.distributor.component.name=route-distributor-" + id,
            "-D", "mdhub.distributor.route.reconnect.ms=200");
    }

    private Process start(final Path log, final String jar, final String... args) throws IOException
    {
        return processes.start(log, jar, List.of(), args);
    }
}
