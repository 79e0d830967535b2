package io.mdhub.common.management;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.mdhub.common.metrics.CountersCollector;
import io.mdhub.common.test.InterruptAfter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@InterruptAfter(30)
class ManagementServerTest
{
    private static final int CAPACITY = 8;

    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.METADATA_LENGTH * CAPACITY)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.COUNTER_LENGTH * CAPACITY)),
        StandardCharsets.US_ASCII, new CachedEpochClock(), 0);
    private final AtomicBoolean isReady = new AtomicBoolean();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private PrometheusMeterRegistry registry;
    private ManagementServer server;

    @BeforeEach
    void before()
    {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        final CountersCollector collector = new CountersCollector();
        collector.add(counters, "test-server", (typeId) -> true);
        registry.getPrometheusRegistry().register(collector);
        counters.newCounter("p2p-updates-out: component=test-server", 20_001).setOrdered(12);
        final HealthChecks checks = new HealthChecks("test-server")
            .liveness("loop", () -> HealthStatus.up("answers"))
            .readiness("backbone", () -> HealthStatus.of(isReady.get(), isReady.get() ? "joined" : "no distributor"));
        server = ManagementServer.launch(new ManagementServer.Context()
            .bindAddress("127.0.0.1").port(0, "test.port").checks(checks).registry(registry));
        assertNotNull(server);
    }

    @AfterEach
    void after()
    {
        server.close();
        registry.close();
    }

    private HttpResponse<String> get(final String path, final String accept) throws Exception
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(5));
        if (null != accept)
        {
            request.header("Accept", accept);
        }
        return http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesCountersAndTheJvmsMetersInThePrometheusFormat() throws Exception
    {
        final HttpResponse<String> response = get("/metrics", null);
        assertEquals(200, response.statusCode());
        assertEquals(ManagementRequests.PROMETHEUS_TYPE, response.headers().firstValue("Content-Type").orElse(""));
        assertTrue(response.body().contains(
            "mdhub_p2p_updates_out_total{component=\"test-server\",source=\"test-server\"} 12"), response.body());
        assertTrue(response.body().contains(
            "mdhub_http_requests_total{component=\"test-server\",outcome=\"answered\"}"), response.body());
    }

    @Test
    void servesOpenMetricsWhenAskedFor() throws Exception
    {
        final HttpResponse<String> response = get("/metrics", "application/openmetrics-text; version=1.0.0");
        assertEquals(200, response.statusCode());
        assertEquals(ManagementRequests.OPEN_METRICS_TYPE, response.headers().firstValue("Content-Type").orElse(""));
        assertTrue(response.body().endsWith("# EOF\n"), response.body());
    }

    @Test
    void healthIsDownUntilEveryCheckIsUpAndLivenessIgnoresReadiness() throws Exception
    {
        HttpResponse<String> health = get("/health", null);
        assertEquals(503, health.statusCode());
        assertTrue(health.body().contains("\"status\":\"DOWN\""), health.body());
        assertTrue(health.body().contains(
            "{\"name\":\"backbone\",\"kind\":\"readiness\",\"status\":\"DOWN\",\"detail\":\"no distributor\"}"),
            health.body());
        assertEquals(503, get("/health/ready", null).statusCode());
        final HttpResponse<String> live = get("/health/live", null);
        assertEquals(200, live.statusCode());
        assertTrue(!live.body().contains("backbone"), live.body());

        isReady.set(true);
        health = get("/health", null);
        assertEquals(200, health.statusCode());
        assertTrue(health.body().startsWith("{\"status\":\"UP\",\"component\":\"test-server\""), health.body());
        assertEquals(200, get("/health/ready?verbose=1", null).statusCode());
    }

    @Test
    void aCheckThatThrowsIsDown() throws Exception
    {
        server.close();
        final HealthChecks checks = new HealthChecks("thrower").liveness("loop", () ->
        {
            throw new IllegalStateException("boom");
        });
        server = ManagementServer.launch(new ManagementServer.Context()
            .bindAddress("127.0.0.1").port(0, "test.port").checks(checks).registry(registry));
        final HttpResponse<String> live = get("/health/live", null);
        assertEquals(503, live.statusCode());
        assertTrue(live.body().contains("check failed: java.lang.IllegalStateException: boom"), live.body());
    }

    @Test
    void unknownPathsAndOtherMethodsAreRefused() throws Exception
    {
        assertEquals(404, get("/admin", null).statusCode());
        final HttpResponse<String> post = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/health")).POST(HttpRequest.BodyPublishers.ofString("x"))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals(2, server.requests().notFound());
    }

    @Test
    void aGarbageRequestGets400AndIsClosedWhileOthersAreServed() throws Exception
    {
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            socket.setSoTimeout(5_000);
            final OutputStream out = socket.getOutputStream();
            out.write("\u0001\u0002 garbage \u0003 HTTP/9\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            final String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
        }
        assertEquals(1, server.requests().malformed());
        assertEquals(200, get("/health/live", null).statusCode());
    }

    @Test
    void anOversizedRequestIsRefusedAndClosed() throws Exception
    {
        try (Socket socket = new Socket("127.0.0.1", server.port()))
        {
            socket.setSoTimeout(5_000);
            final OutputStream out = socket.getOutputStream();
            out.write(("GET /metrics HTTP/1.1\r\nX-Big: " + "a".repeat(ManagementServer.MAX_REQUEST_BYTES * 2) +
                "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            final String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 431"), answer);
        }
        assertEquals(1, server.requests().malformed());
    }

    @Test
    void connectionsOverTheLimitAreClosed() throws Exception
    {
        final List<Socket> open = new ArrayList<>();
        try
        {
            for (int i = 0; i < ManagementServer.MAX_CONNECTIONS; i++)
            {
                // from several addresses, each within its own budget
                open.add(connectFrom("127.0.0." + (2 + i / ManagementServer.MAX_CONNECTIONS_PER_ADDRESS)));
            }
            try (Socket extra = connectFrom("127.0.0.100"))
            {
                extra.setSoTimeout(5_000);
                final InputStream in = extra.getInputStream();
                assertEquals(-1, in.read(), "closed without an answer");
            }
            assertEquals(1, server.requests().refused());
        }
        finally
        {
            for (final Socket socket : open)
            {
                socket.close();
            }
        }
    }

    @Test
    void oneAddressCannotTakeTheConnectionsOfTheOthers() throws Exception
    {
        final List<Socket> open = new ArrayList<>();
        try
        {
            for (int i = 0; i < ManagementServer.MAX_CONNECTIONS_PER_ADDRESS; i++)
            {
                open.add(connectFrom("127.0.0.7"));
            }
            try (Socket extra = connectFrom("127.0.0.7"))
            {
                extra.setSoTimeout(5_000);
                assertEquals(-1, extra.getInputStream().read(), "over its address's budget: closed without an answer");
            }
            assertEquals(1, server.requests().refused());
            try (Socket other = connectFrom("127.0.0.8"))
            {
                other.setSoTimeout(5_000);
                other.getOutputStream().write("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
                final byte[] head = other.getInputStream().readNBytes(12);
                assertEquals("HTTP/1.1 200", new String(head, StandardCharsets.ISO_8859_1), "another address served");
            }
        }
        finally
        {
            for (final Socket socket : open)
            {
                socket.close();
            }
        }
    }

    private Socket connectFrom(final String localAddress) throws IOException
    {
        final Socket socket = new Socket();
        socket.bind(new InetSocketAddress(localAddress, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
        return socket;
    }

    @Test
    void aPortInUseLeavesTheServerWithoutAnEndpoint() throws IOException
    {
        try (ServerSocket taken = new ServerSocket())
        {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            assertNull(ManagementServer.launch(new ManagementServer.Context().bindAddress("127.0.0.1")
                .port(taken.getLocalPort(), "test.port").checks(new HealthChecks("second")).registry(registry)));
        }
        assertNull(ManagementServer.launch(new ManagementServer.Context().port(-1, "test.port")
            .checks(new HealthChecks("off"))), "-1 is off");
    }

    @Test
    void loopLivenessTellsAStalledLoop() throws Exception
    {
        final ExecutorService healthy = Executors.newSingleThreadExecutor();
        final ExecutorService stalled = Executors.newSingleThreadExecutor();
        final Object gate = new Object();
        try
        {
            stalled.execute(() ->
            {
                synchronized (gate)
                {
                    try
                    {
                        gate.wait(10_000);
                    }
                    catch (final InterruptedException ignore)
                    {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            final List<Executor> loops = List.of(healthy, stalled);
            final HealthStatus status = LoopLiveness.of("worker", loops, 200).check();
            assertTrue(!status.isUp(), status.toString());
            assertEquals("worker 1 has not run a task in 200 ms", status.detail());
            assertTrue(LoopLiveness.of("worker", List.of(healthy), 1_000).check().isUp());
        }
        finally
        {
            healthy.shutdownNow();
            stalled.shutdownNow();
        }
    }
}
