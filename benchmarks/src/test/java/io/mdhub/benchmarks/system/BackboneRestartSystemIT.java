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

import io.mdhub.backbone.BackboneConfiguration;
import io.mdhub.backbone.BackboneLink;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;

/**
 * The backbone daemon SIGKILLed under a running distributor and p2p-server, every component a separate JVM: both
 * servers stay up with their provider and consumer connections, every item the test client watches turns
 * Open/Suspect, and once a daemon is started again on the same Aeron directory every item comes back with a fresh
 * Open/Ok refresh and updates flow again, with no update lost without a Suspect first (the client's per-item
 * counters). The time from the restart to the last recovered item is printed. And servers whose daemon does not
 * come back within their reconnect timeout exit with {@link BackboneLink#EXIT_BACKBONE_LOST} after one clear line.
 */
@InterruptAfter(value = 300)
class BackboneRestartSystemIT
{
    private static final int ITEMS = 1_000;
    private static final int RATE = 1_000;
    private static final int CLIENT_SECONDS = 75;
    private static final Pattern UPDATES = Pattern.compile("updates/s (\\d+),");

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
    void theServersOutliveTheirBackboneDaemonAndRecoverEveryItemWhenItIsBack() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int p2pPort = MdTests.unusedPort();

        final Path backboneLog = dir.resolve("backbone.log");
        final Process backbone = start(backboneLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");
        final Path distributorLog = dir.resolve("distributor.log");
        final Process distributor = start(distributorLog, "distributor/target/mdhub-distributor.jar",
            "--aeron-dir", aeronDir, "--port", Integer.toString(providerPort));
        final Path p2pLog = dir.resolve("p2p.log");
        final Process p2p = start(p2pLog, "p2p-server/target/mdhub-p2p.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(p2pPort));
        SystemProcesses.awaitLine(distributorLog, "mdhub-distributor ready");
        SystemProcesses.awaitLine(p2pLog, "mdhub-p2p ready");

        final Path sourceLog = dir.resolve("source.log");
        final Process source = start(sourceLog, "benchmarks/target/mdhub-bench.jar", "source",
            "--port", Integer.toString(providerPort), "--items", Integer.toString(ITEMS),
            "--rate", Integer.toString(RATE));
        SystemProcesses.awaitLine(sourceLog, "source: refreshes " + ITEMS + ",");

        final Path clientLog = dir.resolve("client.log");
        final Process client = start(clientLog, "benchmarks/target/mdhub-bench.jar", "client",
            "--servers", "127.0.0.1:" + p2pPort, "--items", Integer.toString(ITEMS),
            "--duration", Integer.toString(CLIENT_SECONDS));
        ClientStatus.awaitAllOpenAndOk(clientLog, ITEMS, 0, "every item open and Ok");

        backbone.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        final long killedNs = System.nanoTime();
        ClientStatus.awaitOpenAndSuspect(
            clientLog, ITEMS, ITEMS, "every item Open/Suspect after the daemon was killed");
        System.out.printf("backbone restart: every item Suspect %d ms after the kill%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs));
        SystemProcesses.awaitLine(distributorLog, "backbone lost");
        SystemProcesses.awaitLine(p2pLog, "backbone lost");
        Thread.sleep(2_000); // a while with the backbone down: nothing exits late
        assertTrue(distributor.isAlive(), () -> "the distributor outlives its backbone:\n" +
            SystemProcesses.tail(distributorLog));
        assertTrue(p2p.isAlive(), () -> "the p2p-server outlives its backbone:\n" + SystemProcesses.tail(p2pLog));
        assertTrue(source.isAlive(), () -> "the provider stays connected:\n" + SystemProcesses.tail(sourceLog));
        assertTrue(client.isAlive(), () -> "the consumer stays connected:\n" + SystemProcesses.tail(clientLog));

        final Path restartedLog = dir.resolve("backbone-restarted.log");
        start(restartedLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(restartedLog, "mdhub-backbone ready");
        final long restartedNs = System.nanoTime();
        ClientStatus.awaitAllOpenAndOk(clientLog, ITEMS, ITEMS, "every item recovered (Open/Ok) after the restart");
        System.out.printf("backbone restart: %d items recovered %d ms after the daemon was ready again%n", ITEMS,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedNs));
        SystemProcesses.awaitLine(distributorLog, "backbone restored");
        SystemProcesses.awaitLine(p2pLog, "backbone restored");
        awaitUpdatesFlowing(clientLog);

        MdTests.await(() -> "the client to finish:\n" + SystemProcesses.tail(clientLog), () -> !client.isAlive());
        final String output = SystemProcesses.read(clientLog);
        assertEquals(0, client.exitValue(), output);
        assertTrue(output.contains("items open " + ITEMS + ", closed 0, lost 0, out of order 0, malformed 0, " +
            "suspect now 0"), output);
        final Matcher summary = Pattern.compile("recovered (\\d+) \\(longest (\\d+) ms\\)").matcher(output);
        assertTrue(summary.find(), output);
        assertTrue(Long.parseLong(summary.group(1)) >= ITEMS, output);
        System.out.printf("backbone restart: the longest an item stayed Suspect: %s ms%n", summary.group(2));
        assertTrue(distributor.isAlive() && p2p.isAlive(), "both servers still run");
    }

    @Test
    void theServersExitWhenTheirDaemonDoesNotComeBackInTime() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final Path backboneLog = dir.resolve("backbone.log");
        final Process backbone = start(backboneLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");
        final String timeout = BackboneConfiguration.RECONNECT_TIMEOUT_MS_PROP_NAME + "=2000";
        final Path distributorLog = dir.resolve("distributor.log");
        final Process distributor = start(distributorLog, "distributor/target/mdhub-distributor.jar",
            "--aeron-dir", aeronDir, "--port", Integer.toString(MdTests.unusedPort()), "-D", timeout);
        final Path p2pLog = dir.resolve("p2p.log");
        final Process p2p = start(p2pLog, "p2p-server/target/mdhub-p2p.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(MdTests.unusedPort()), "-D", timeout);
        SystemProcesses.awaitLine(distributorLog, "mdhub-distributor ready");
        SystemProcesses.awaitLine(p2pLog, "mdhub-p2p ready");

        backbone.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertTrue(distributor.waitFor(60, TimeUnit.SECONDS), () -> SystemProcesses.tail(distributorLog));
        assertTrue(p2p.waitFor(60, TimeUnit.SECONDS), () -> SystemProcesses.tail(p2pLog));
        assertEquals(BackboneLink.EXIT_BACKBONE_LOST, distributor.exitValue(), SystemProcesses.read(distributorLog));
        assertEquals(BackboneLink.EXIT_BACKBONE_LOST, p2p.exitValue(), SystemProcesses.read(p2pLog));
        for (final Path log : List.of(distributorLog, p2pLog))
        {
            final String output = SystemProcesses.read(log);
            assertTrue(output.contains("backbone lost"), output);
            assertTrue(output.contains("giving up"), output);
        }
    }

    /**
     * Wait for two status lines in a row (after the recovery) that report updates.
     */
    private static void awaitUpdatesFlowing(final Path clientLog)
    {
        final int linesBefore = countLines(clientLog);
        MdTests.await(() -> "updates flowing again:\n" + SystemProcesses.tail(clientLog), () ->
        {
            final Matcher line = UPDATES.matcher(SystemProcesses.read(clientLog));
            int index = 0;
            int flowing = 0;
            while (line.find())
            {
                if (index++ >= linesBefore)
                {
                    flowing = Long.parseLong(line.group(1)) > 0 ? flowing + 1 : 0;
                }
            }
            return flowing >= 2;
        });
    }

    private static int countLines(final Path clientLog)
    {
        final Matcher line = UPDATES.matcher(SystemProcesses.read(clientLog));
        int count = 0;
        while (line.find())
        {
            count++;
        }
        return count;
    }

    private Process start(final Path log, final String jar, final String... args) throws IOException
    {
        return processes.start(log, jar, List.of(), args);
    }
}
