package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.InterruptAfter;

/**
 * A Python consumer on Debian's websocket-client ({@code python3-websocket}), written after the public WebSocket API
 * examples, logs in, asks for an item without naming a service and reads its refresh and an update. Skipped, with
 * the reason, where the module is not installed ({@code .ci/run} installs it).
 */
@InterruptAfter(60)
class PythonWebSocketClientTest
{
    private static final String PYTHON = "/usr/bin/python3";
    private static final Path SCRIPT = Path.of("src/test/python/ws_api_client.py");
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final WebSocketServer ws = new WebSocketServer("p2p-python-test");
    private Process python;

    @BeforeAll
    static void pythonWebSocketInstalled() throws Exception
    {
        boolean isInstalled = Files.isExecutable(Path.of(PYTHON));
        if (isInstalled)
        {
            final Process check = new ProcessBuilder(PYTHON, "-c", "import websocket").redirectErrorStream(true)
                .start();
            isInstalled = check.waitFor(20, TimeUnit.SECONDS) && 0 == check.exitValue();
        }
        assumeTrue(isInstalled, "skipped: " + PYTHON + " with the websocket module (Debian python3-websocket) is " +
            "not installed");
    }

    @AfterEach
    void tearDown()
    {
        if (null != python)
        {
            python.destroyForcibly();
        }
    }

    @Test
    void thePublicExamplesShapeOfConsumerGetsARefreshAndAnUpdate() throws Exception
    {
        python = new ProcessBuilder(PYTHON, SCRIPT.toString(), "127.0.0.1:" + ws.port(), "TRI.N")
            .redirectErrorStream(true).start();

        JsonNode refresh = null;
        JsonNode update = null;
        try (BufferedReader lines = new BufferedReader(
            new InputStreamReader(python.getInputStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while (null != (line = lines.readLine()))
            {
                final JsonNode message = line.startsWith("{") ? JSON.readTree(line) : null;
                assertTrue(null != message, "not a message: " + line);
                if (2 == message.path("ID").asInt() && "Refresh".equals(message.path("Type").asText()))
                {
                    refresh = message;
                    ws.source().update(1, "TRI.N", 0, FieldIds.BID, 12360);
                }
                else if (2 == message.path("ID").asInt() && "Update".equals(message.path("Type").asText()))
                {
                    update = message;
                }
            }
        }
        assertTrue(python.waitFor(30, TimeUnit.SECONDS), "the client ends");
        assertEquals(0, python.exitValue(), "the client saw its update");
        assertTrue(null != refresh, "a refresh");
        assertEquals("DIRECT_FEED", refresh.path("Key").path("Service").asText(), refresh::toString);
        assertEquals(123.40, refresh.path("Fields").path("BID").asDouble(), 1e-9, refresh::toString);
        assertTrue(null != update, "an update");
        assertEquals(123.60, update.path("Fields").path("BID").asDouble(), 1e-9, update::toString);
    }
}
