package io.mdhub.benchmarks.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * Every server's management endpoint as Prometheus and an orchestrator see it: the backbone daemon, a distributor
 * with a source, a p2p-server with a client and an order pair, each a JVM from its fat jar with its own HTTP port.
 * Each {@code /metrics} carries the counters the console shows (updates in and out, items, connections, slow-consumer
 * disconnects, backbone gaps and recoveries, orders acknowledged) and the JVM's meters; each {@code /health} says
 * DOWN with the reason until the server can serve, then UP.
 */
@InterruptAfter(value = 180)
class ManagementEndpointsSystemIT
{
    private static final int ITEMS = 50;
    private static final Pattern SAMPLE = Pattern.compile("^(\\w+)(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    private final SystemProcesses processes =
        new SystemProcesses(System.getProperty("mdhub.build.dir", "target"));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stopEverything()
    {
        processes.close();
    }

    @Test
    void everyServerServesItsMetricsAndHealth() throws Exception
    {
        final String aeronDir = dir.resolve("aeron").toString();
        final int providerPort = MdTests.unusedPort();
        final int consumerPort = MdTests.unusedPort();
        final int backboneHttp = MdTests.unusedPort();
        final int distributorHttp = MdTests.unusedPort();
        final int p2pHttp = MdTests.unusedPort();

        final Path backboneLog = start("backbone", "backbone/target/mdhub-backbone.jar",
            List.of("-Dmdhub.backbone.http.port=" + backboneHttp), "--aeron-dir", aeronDir);
        SystemProcesses.awaitLine(backboneLog, "mdhub-backbone ready");
        final Path distributorLog = start("distributor", "distributor/target/mdhub-distributor.jar",
            List.of("-Dmdhub.distributor.http.port=" + distributorHttp),
            "--aeron-dir", aeronDir, "--port", Integer.toString(providerPort));
        final Path p2pLog = start("p2p", "p2p-server/target/mdhub-p2p.jar",
            List.of("-Dmdhub.p2p.http.port=" + p2pHttp),
            "--aeron-dir", aeronDir, "--port", Integer.toString(consumerPort));
        SystemProcesses.awaitLine(distributorLog, "http=" + distributorHttp);
        SystemProcesses.awaitLine(p2pLog, "http=" + p2pHttp);
        assertTrue(SystemProcesses.read(backboneLog).contains("http=" + backboneHttp));

        // no provider yet: alive, not ready, and saying why
        assertEquals(200, get(backboneHttp, "/health").statusCode());
        assertEquals(200, get(distributorHttp, "/health/live").statusCode());
        final HttpResponse<String> notReady = get(distributorHttp, "/health/ready");
        assertEquals(503, notReady.statusCode(), notReady.body());
        assertTrue(notReady.body().contains(
            "{\"name\":\"services\",\"kind\":\"readiness\",\"status\":\"DOWN\",\"detail\":\"up: [], down: []\"}"),
            notReady.body());

        final Path sourceLog = start("source", "benchmarks/target/mdhub-bench.jar", List.of(),
            "source", "--port", Integer.toString(providerPort), "--items", Integer.toString(ITEMS), "--rate", "200");
        SystemProcesses.awaitLine(sourceLog, "source: refreshes " + ITEMS + ",");
        awaitStatus(distributorHttp, "/health/ready", 200);
        awaitStatus(p2pHttp, "/health/ready", 200);
        final String ready = get(p2pHttp, "/health").body();
        assertTrue(ready.contains("\"detail\":\"worker 0: 1 distributor(s)\""), ready);
        assertTrue(ready.contains("\"detail\":\"up: [NI_PUB], down: []\""), ready);

        final Path clientLog = start("client", "benchmarks/target/mdhub-bench.jar", List.of(),
            "client", "--port", Integer.toString(consumerPort), "--items", Integer.toString(ITEMS), "--duration", "60");
        SystemProcesses.awaitLine(clientLog, "open " + ITEMS + "/" + ITEMS);
        MdTests.await(() -> "updates to reach the client through the p2p-server:\n" + metrics(p2pHttp),
            () -> value(metrics(p2pHttp), "mdhub_p2p_updates_out_total", "") > 100);

        final String distributor = metrics(distributorHttp);
        assertTrue(value(distributor, "mdhub_distributor_service_updates_in_total", "") > 100, distributor);
        assertEquals(1, value(distributor, "mdhub_distributor_providers_active", ""), distributor);
        assertTrue(distributor.contains("jvm_memory_used_bytes{"), distributor);
        final String p2p = metrics(p2pHttp);
        assertEquals(1, value(p2p, "mdhub_p2p_connections_active", ""), p2p);
        assertEquals(ITEMS, value(p2p, "mdhub_p2p_items_open", ""), p2p);
        assertEquals(0, value(p2p, "mdhub_p2p_disconnects_total", "reason=\"slow-consumer\""), p2p);
        // the p2p-server's backbone counters are Aeron counters: the driver's CnC holds them, its daemon serves them
        final String backbone = metrics(backboneHttp);
        assertTrue(backbone.contains("aeron_bytes_sent{source=\"aeron\"}"), backbone);
        assertEquals(0, value(backbone, "mdhub_backbone_gaps_total", "consumer="), backbone);
        assertTrue(value(backbone, "mdhub_backbone_messages_in_total", "consumer=") > 100, backbone);
        assertTrue(backbone.contains("mdhub_backbone_recoveries_total{"), backbone);

        final String orders = orderPairIsReadyOnceServing();
        everyMetricOfTheDashboardIsServed(distributor + p2p + backbone + orders);
    }

    /**
     * The Grafana dashboard in docs/ queries only metrics that the servers serve (the JVM's GC pause timer appears
     * once a collection has happened, so it is left out).
     */
    private void everyMetricOfTheDashboardIsServed(final String scrapes) throws IOException
    {
        final String dashboard = Files.readString(processes.root().resolve("docs/grafana-dashboard.json"));
        final Matcher name = Pattern.compile("\\b((?:mdhub|jvm|aeron)_[a-z0-9_]+)").matcher(dashboard);
        int names = 0;
        while (name.find())
        {
            final String metric = name.group(1);
            if (!metric.startsWith("jvm_gc_pause"))
            {
                assertTrue(scrapes.contains("\n" + metric + "{"), metric + " is in the dashboard, not in a scrape");
                names++;
            }
        }
        assertTrue(names >= 8, "metrics found in the dashboard: " + names);
    }

    private String orderPairIsReadyOnceServing() throws Exception
    {
        final StringBuilder scrapes = new StringBuilder();
        final int[] httpPorts = {MdTests.unusedPort(), MdTests.unusedPort()};
        OrderPairLaunch.start(processes, dir, 2, (id) -> List.of("-Dmdhub.p2p.http.port=" + httpPorts[id]));
        for (int id = 0; id < 2; id++)
        {
            awaitStatus(httpPorts[id], "/health/ready", 200);
            final String health = get(httpPorts[id], "/health").body();
            assertTrue(health.contains("\"name\":\"order-pair\",\"kind\":\"readiness\",\"status\":\"UP\"," +
                "\"detail\":\"SERVING"), health);
            final String metrics = metrics(httpPorts[id]);
            assertEquals(0, value(metrics, "mdhub_order_acked_total", ""), metrics);
            scrapes.append(metrics);
        }
        return scrapes.toString();
    }

    private Path start(final String name, final String jar, final List<String> jvmArgs, final String... args)
        throws IOException
    {
        final Path log = dir.resolve(name + ".log");
        processes.start(log, jar, new ArrayList<>(jvmArgs), args);
        return log;
    }

    private HttpResponse<String> get(final int port, final String path) throws Exception
    {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private String metrics(final int port)
    {
        try
        {
            final HttpResponse<String> response = get(port, "/metrics");
            assertEquals(200, response.statusCode());
            return response.body();
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("scrape of port " + port + " failed", ex);
        }
    }

    private void awaitStatus(final int port, final String path, final int status)
    {
        MdTests.await(() -> path + " of port " + port + " to answer " + status, () ->
        {
            try
            {
                return status == get(port, path).statusCode();
            }
            catch (final Exception ex)
            {
                return false;
            }
        });
    }

    /**
     * The sum of a metric's samples whose labels contain the given text.
     */
    private static double value(final String exposition, final String name, final String labelText)
    {
        final Matcher sample = SAMPLE.matcher(exposition);
        double sum = 0;
        boolean isFound = false;
        while (sample.find())
        {
            if (sample.group(1).equals(name) && (null == sample.group(2) ? "" : sample.group(2)).contains(labelText))
            {
                sum += Double.parseDouble(sample.group(3));
                isFound = true;
            }
        }
        assertTrue(isFound, name + " {" + labelText + "} not in the scrape");
        return sum;
    }
}
