package io.mdhub.benchmarks.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;

/**
 * The market data path as operators run it: the backbone daemon, a distributor, a p2p-server, the source and the
 * test client, each a separate JVM started from its fat jar. 100,000 items are published and opened, a steady
 * update rate runs for more than 30 seconds, and the client's per-item counter check must find no lost update.
 * Every process is ended by PID in cleanup.
 */
@InterruptAfter(value = 240)
class MarketDataSystemIT
{
    private static final int ITEMS = 100_000;
    private static final int RATE = 10_000;
    private static final int CLIENT_SECONDS = 50;
    private static final int STEADY_SECONDS = 30;

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));

    @AfterEach
    void stopEverything()
    {
        processes.close(); // SIGTERM: clean close
    }

    @Test
    void hundredThousandItemsFromSourceToClientWithoutLoss() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int consumerPort = MdTests.unusedPort();

        final Path backboneLog = dir.resolve("backbone.log");
        start(backboneLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");

        final Path distributorLog = dir.resolve("distributor.log");
        start(distributorLog, "distributor/target/mdhub-distributor.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(providerPort));
        final Path p2pLog = dir.resolve("p2p.log");
        start(p2pLog, "p2p-server/target/mdhub-p2p.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(consumerPort));
        SystemProcesses.awaitLine(distributorLog, "mdhub-distributor ready");
        SystemProcesses.awaitLine(p2pLog, "mdhub-p2p ready");

        final Path sourceLog = dir.resolve("source.log");
        start(sourceLog, "benchmarks/target/mdhub-bench.jar", "source", "--port", Integer.toString(providerPort),
            "--items", Integer.toString(ITEMS), "--rate", Integer.toString(RATE));
        SystemProcesses.awaitLine(sourceLog, "source: refreshes " + ITEMS + ",");

        final Path clientLog = dir.resolve("client.log");
        final Process client = start(clientLog, "benchmarks/target/mdhub-bench.jar", "client",
            "--port", Integer.toString(consumerPort), "--items", Integer.toString(ITEMS),
            "--duration", Integer.toString(CLIENT_SECONDS));
        MdTests.await(() -> "the client to finish:\n" + SystemProcesses.tail(clientLog), () -> !client.isAlive());

        final String output = SystemProcesses.read(clientLog);
        assertEquals(0, client.exitValue(), output);
        assertTrue(output.contains("items open " + ITEMS + ", closed 0, lost 0, out of order 0, malformed 0"),
            output);
        // the per-second lines once every item is open: at least 30 of them, carrying the commanded rate
        final Matcher second = Pattern.compile("client: refreshes/s \\d+, updates/s (\\d+), .*open " + ITEMS + "/" +
            ITEMS + ",").matcher(output);
        int steadySeconds = 0;
        long steadyUpdates = 0;
        while (second.find())
        {
            steadySeconds++;
            steadyUpdates += Long.parseLong(second.group(1));
        }
        assertTrue(steadySeconds >= STEADY_SECONDS, "seconds with all " + ITEMS + " items open: " + steadySeconds);
        assertTrue(steadyUpdates >= 0.95 * RATE * steadySeconds,
            steadyUpdates + " updates in " + steadySeconds + " s with every item open, commanded " + RATE + "/s");
    }

    private Process start(final Path log, final String jar, final String... args) throws IOException
    {
        return processes.start(log, jar, List.of(), args);
    }
}
