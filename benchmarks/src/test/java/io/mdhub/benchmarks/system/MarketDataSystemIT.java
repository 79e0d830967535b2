package io.mdhub.benchmarks.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The market data path as operators run it: the backbone daemon, a distributor, a p2p-server, the source and the
 * test client, each a separate JVM started from its fat jar. 100,000 items are published and opened, a steady
 * update rate runs for more than 30 seconds, and the client's per-item counter check must find no lost update.
 * Every process is ended by PID in cleanup.
 */
@InterruptAfter(value = 240)
class MarketDataSystemIT
{
    private static final Path ROOT =
        Paths.get(System.getProperty("mdhub.build.dir", "target")).toAbsolutePath().getParent().getParent();
    private static final int ITEMS = 100_000;
    private static final int RATE = 10_000;
    private static final int CLIENT_SECONDS = 40;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stopEverything() throws InterruptedException
    {
        for (int i = processes.size() - 1; i >= 0; i--)
        {
            final Process process = processes.get(i);
            process.destroy(); // SIGTERM: clean close
            if (!process.waitFor(10, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }

    @Test
    void hundredThousandItemsFromSourceToClientWithoutLoss() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int consumerPort = MdTests.unusedPort();

        final Path backboneLog = dir.resolve("backbone.log");
        start(backboneLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        awaitLine(backboneLog, "mdhub-backbone ready");

        final Path distributorLog = dir.resolve("distributor.log");
        start(distributorLog, "distributor/target/mdhub-distributor.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(providerPort));
        final Path p2pLog = dir.resolve("p2p.log");
        start(p2pLog, "p2p-server/target/mdhub-p2p.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(consumerPort));
        awaitLine(distributorLog, "mdhub-distributor ready");
        awaitLine(p2pLog, "mdhub-p2p ready");

        final Path sourceLog = dir.resolve("source.log");
        start(sourceLog, "benchmarks/target/mdhub-bench.jar", "source", "--port", Integer.toString(providerPort),
            "--items", Integer.toString(ITEMS), "--rate", Integer.toString(RATE));
        awaitLine(sourceLog, "source: refreshes " + ITEMS + ",");

        final Path clientLog = dir.resolve("client.log");
        final Process client = start(clientLog, "benchmarks/target/mdhub-bench.jar", "client",
            "--port", Integer.toString(consumerPort), "--items", Integer.toString(ITEMS),
            "--duration", Integer.toString(CLIENT_SECONDS));
        MdTests.await(() -> "the client to finish:\n" + tail(clientLog), () -> !client.isAlive());

        final String output = read(clientLog);
        assertEquals(0, client.exitValue(), output);
        assertTrue(output.contains("items open " + ITEMS + ", closed 0, lost 0, out of order 0, malformed 0"),
            output);
        final long updates = Long.parseLong(output.replaceAll("(?s).*mdhub-client: refreshes \\d+, updates (\\d+),.*",
            "$1"));
        assertTrue(updates > (long)RATE * (CLIENT_SECONDS - 15), "steady updates for more than 30 s: " + updates);
    }

    private Process start(final Path log, final String jar, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx384m", "-Dchronicle.analytics.disable=true", "-Djava.net.preferIPv4Stack=true",
            "-jar", ROOT.resolve(jar).toString()));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
        processes.add(process);
        return process;
    }

    private static void awaitLine(final Path log, final String text)
    {
        MdTests.await(() -> "'" + text + "' in " + log.getFileName() + ":\n" + tail(log),
            () -> read(log).contains(text));
    }

    private static String tail(final Path log)
    {
        final String text = read(log);
        return text.length() > 3000 ? text.substring(text.length() - 3000) : text;
    }

    private static String read(final Path log)
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
}
