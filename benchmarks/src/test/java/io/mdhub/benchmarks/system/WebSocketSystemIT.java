package io.mdhub.benchmarks.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.benchmarks.client.ClientStatsLine;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.SystemProcesses;

/**
 * The WebSocket API from the fat jars: a p2p-server started with its WebSocket port serves the quote page from its
 * jar and JSON consumers beside RSSL ones: the test client's JSON mount and RSSL mount watch the same items through
 * the whole path (source, distributor, backbone daemon, p2p-server, each a separate JVM) and neither loses an update.
 */
@InterruptAfter(value = 180)
class WebSocketSystemIT
{
    private static final int ITEMS = 10_000;
    private static final int RATE = 2_000;
    private static final int CLIENT_SECONDS = 20;

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
    void jsonAndRsslMountsGetEveryUpdateAndThePageComesFromTheJar() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int consumerPort = MdTests.unusedPort();
        final int webSocketPort = MdTests.unusedPort();

        final Path backboneLog = dir.resolve("backbone.log");
        start(backboneLog, "backbone/target/mdhub-backbone.jar", "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");
        final Path distributorLog = dir.resolve("distributor.log");
        start(distributorLog, "distributor/target/mdhub-distributor.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(providerPort));
        final Path p2pLog = dir.resolve("p2p.log");
        start(p2pLog, "p2p-server/target/mdhub-p2p.jar", "--aeron-dir", aeronDir,
            "--port", Integer.toString(consumerPort), "-D", "mdhub.p2p.websocket.port=" + webSocketPort);
        SystemProcesses.awaitLine(distributorLog, "mdhub-distributor ready");
        SystemProcesses.awaitLine(p2pLog, "mdhub-p2p ready");

        final HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + webSocketPort + "/")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("quote.js"), page.body());

        final Path sourceLog = dir.resolve("source.log");
        start(sourceLog, "benchmarks/target/mdhub-bench.jar", "source", "--port", Integer.toString(providerPort),
            "--items", Integer.toString(ITEMS), "--rate", Integer.toString(RATE));
        SystemProcesses.awaitLine(sourceLog, "source: refreshes " + ITEMS + ",");

        final Path clientLog = dir.resolve("client.log");
        final Process client = start(clientLog, "benchmarks/target/mdhub-bench.jar", "client",
            "--port", Integer.toString(consumerPort), "--items", Integer.toString(ITEMS), "--mounts", "2",
            "--json-mounts", "1", "--websocket-port", Integer.toString(webSocketPort),
            "--duration", Integer.toString(CLIENT_SECONDS));
        MdTests.await(() -> "the client to finish:\n" + SystemProcesses.tail(clientLog), () -> !client.isAlive());

        final String output = SystemProcesses.read(clientLog);
        assertEquals(0, client.exitValue(), output);
        assertTrue(output.contains("items open " + 2 * ITEMS + ", closed 0, lost 0, out of order 0, malformed 0"),
            output);
        final long jsonUpdates = ClientStatsLine.allJson(output).stream().mapToLong(Long::longValue).sum();
        final long allUpdates = ClientStatsLine.all(output).stream().mapToLong(ClientStatsLine::updatesPerSecond).sum();
        assertTrue(jsonUpdates > RATE * 5L, "the JSON mount's updates: " + jsonUpdates);
        assertTrue(Math.abs(allUpdates - 2 * jsonUpdates) < 0.05 * allUpdates,
            "the JSON mount got what the RSSL mount got: " + jsonUpdates + " of " + allUpdates);
    }

    private Process start(final Path log, final String jar, final String... args) throws IOException
    {
        return processes.start(log, jar, List.of(), args);
    }
}
