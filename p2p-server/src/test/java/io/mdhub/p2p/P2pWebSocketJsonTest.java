package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.entitlement.WatchedEntitlementFile;
import io.mdhub.common.test.InterruptAfter;

/**
 * WebSocket API consumers speaking JSON against a p2p-server fed by a stub source: login, an item's refresh and
 * updates as the WebSocket API's examples read them, pings, views, closes and refused input.
 */
@InterruptAfter(30)
class P2pWebSocketJsonTest
{
    private static final int SERVICE_ID = WebSocketServer.SERVICE_ID;

    /** Conversions are shared per worker: every consumer here on the one. */
    @RegisterExtension
    final WebSocketServer ws = new WebSocketServer("p2p-websocket-test", (ctx) -> ctx.workers(1));

    @Test
    void aJsonConsumerLogsInAndGetsAnItemsRefreshAndUpdates() throws Exception
    {
        final JsonWebSocketClient client = loggedIn("tr_json2");

        client.send("{\"ID\":2,\"Key\":{\"Name\":\"TRI.N\",\"Service\":\"DIRECT_FEED\"}}");
        final JsonNode refresh = client.nextOn(2);
        assertEquals("Refresh", refresh.path("Type").asText(), refresh::toString);
        assertEquals("TRI.N", refresh.path("Key").path("Name").asText(), refresh::toString);
        assertEquals("DIRECT_FEED", refresh.path("Key").path("Service").asText(), refresh::toString);
        assertEquals("Open", refresh.path("State").path("Stream").asText(), refresh::toString);
        assertEquals("Ok", refresh.path("State").path("Data").asText(), refresh::toString);
        assertEquals(123.40, refresh.path("Fields").path("BID").asDouble(), 1e-9, refresh::toString);
        assertEquals(123.50, refresh.path("Fields").path("ASK").asDouble(), 1e-9, refresh::toString);

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12360);
        final JsonNode update = client.nextOn(2);
        assertEquals("Update", update.path("Type").asText(), update::toString);
        assertEquals(123.60, update.path("Fields").path("BID").asDouble(), 1e-9, update::toString);
        assertEquals(0, client.framesNotArrays(), "every frame is an array of messages");
    }

    @Test
    void anUpdateIsConvertedToJsonOnceForAllItsJsonConsumers() throws Exception
    {
        final List<JsonWebSocketClient> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            final JsonWebSocketClient client = loggedIn("tr_json2");
            client.send("[{\"ID\":" + (10 + i) + ",\"Key\":{\"Name\":\"TRI.N\",\"Service\":\"DIRECT_FEED\"}}]");
            assertEquals("Refresh", client.nextOn(10 + i).path("Type").asText());
            clients.add(client);
        }
        final long before = ws.counter("p2p-websocket-json-conversions:");

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12380);
        for (int i = 0; i < clients.size(); i++)
        {
            final JsonNode update = clients.get(i).nextOn(10 + i);
            assertEquals("Update", update.path("Type").asText(), update::toString);
            assertEquals(123.80, update.path("Fields").path("BID").asDouble(), 1e-9, update::toString);
        }
        assertEquals(1, ws.counter("p2p-websocket-json-conversions:") - before, "one conversion for three consumers");
    }

    @Test
    void theOtherJsonProtocolNameIsNegotiatedToo() throws Exception
    {
        final JsonWebSocketClient client = loggedIn("rssl.json.v2");
        assertEquals("rssl.json.v2", client.protocol());
    }

    @Test
    void anUpgradeOfferingNoProtocolTheServerSpeaksIsRefused() throws Exception
    {
        final CompletionException refused = assertThrows(CompletionException.class,
            () -> JsonWebSocketClient.connect(ws.port(), "rssl.unknown"));
        final WebSocketHandshakeException handshake = (WebSocketHandshakeException)refused.getCause();
        assertEquals(400, handshake.getResponse().statusCode());
    }

    @Test
    void aPlainHttpRequestIsNoConsumer() throws Exception
    {
        final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + ws.port() + "/elsewhere")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(404, response.statusCode());
        assertEquals(0, ws.server().context().counters().connectionsActive().get(), "no consumer session was made");

        loggedIn("tr_json2");
        assertEquals(1, ws.server().context().counters().connectionsActive().get(), "an upgraded connection is one");
    }

    @Test
    void aQuietClientIsPingedAndOneThatAnswersNothingIsClosedAtThePingTimeout() throws Exception
    {
        ws.server((ctx) -> ctx.webSocketPingTimeoutNs(TimeUnit.SECONDS.toNanos(3)));
        final JsonWebSocketClient answering = loggedIn("tr_json2");
        final JsonWebSocketClient silent = loggedIn("tr_json2");

        final long startNs = System.nanoTime();
        while (System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(5))
        {
            final JsonNode message = answering.next();
            assertEquals("Ping", message.path("Type").asText(), message::toString);
            answering.send("[{\"Type\":\"Pong\"}]");
        }
        assertEquals("Ping", silent.next().path("Type").asText(), "a quiet connection is pinged");
        final String close = silent.awaitClose();
        assertTrue(null != close && close.contains("ping timeout"), "closed: " + close);
        assertEquals(1, ws.counter("p2p-websocket-ping-timeouts:"));

        answering.send("[{\"Type\":\"Ping\"}]");
        JsonNode reply;
        do
        {
            reply = answering.next();
        }
        while ("Ping".equals(reply.path("Type").asText()));
        assertEquals("Pong", reply.path("Type").asText(), "the answering connection stays up");
    }

    @Test
    void aPingIsAnsweredWithAPong() throws Exception
    {
        final JsonWebSocketClient client = loggedIn("tr_json2");
        client.send("{\"Type\":\"Ping\"}");
        assertEquals("Pong", client.next().path("Type").asText());
        assertEquals(0, client.framesNotArrays(), "every frame is an array of messages");
    }

    @Test
    void severalRequestsInOneFrameOpenSeveralStreamsAndACloseEndsOne() throws Exception
    {
        final JsonWebSocketClient client = loggedIn("tr_json2");
        client.send("[{\"ID\":2,\"Key\":{\"Name\":\"TRI.N\",\"Service\":\"DIRECT_FEED\"}},"
            + "{\"ID\":3,\"Key\":{\"Name\":\"IBM.N\",\"Service\":\"DIRECT_FEED\"},\"Streaming\":false}]");
        assertEquals(123.40, client.nextOn(2).path("Fields").path("BID").asDouble(), 1e-9);
        final JsonNode snapshot = client.nextOn(3);
        assertEquals(200.00, snapshot.path("Fields").path("BID").asDouble(), 1e-9, snapshot::toString);
        assertEquals("NonStreaming", snapshot.path("State").path("Stream").asText(), snapshot::toString);

        client.send("[{\"ID\":2,\"Type\":\"Close\"},{\"Type\":\"Ping\"}]");
        assertEquals("Pong", client.next().path("Type").asText(), "the close was taken before the pong");
        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12370);
        client.send("{\"Type\":\"Ping\"}");
        final JsonNode next = client.next();
        assertEquals("Pong", next.path("Type").asText(), () -> "nothing more on the closed stream: " + next);
    }

    @Test
    void aBatchRequestOpensAStreamPerNameAfterItsOwn() throws Exception
    {
        final JsonWebSocketClient client = loggedIn("tr_json2");
        client.send("[{\"ID\":5,\"Key\":{\"Name\":[\"TRI.N\",\"IBM.N\"],\"Service\":\"DIRECT_FEED\"}}]");
        assertEquals("TRI.N", client.nextOn(6).path("Key").path("Name").asText());
        assertEquals("IBM.N", client.nextOn(7).path("Key").path("Name").asText());
    }

    @Test
    void aViewGetsOnlyItsFields() throws Exception
    {
        final JsonWebSocketClient client = loggedIn("tr_json2");
        client.send("[{\"ID\":8,\"Key\":{\"Name\":\"TRI.N\",\"Service\":\"DIRECT_FEED\"},\"View\":[\"ASK\"]}]");
        final JsonNode refresh = client.nextOn(8);
        assertEquals(123.50, refresh.path("Fields").path("ASK").asDouble(), 1e-9, refresh::toString);
        assertTrue(refresh.path("Fields").path("BID").isMissingNode(), refresh::toString);
    }

    @Test
    void anUnknownItemGetsAClosedStatus() throws Exception
    {
        final JsonWebSocketClient client = loggedIn("tr_json2");
        client.send("{\"ID\":4,\"Key\":{\"Name\":\"NOPE.N\",\"Service\":\"DIRECT_FEED\"}}");
        final JsonNode status = client.nextOn(4);
        assertEquals("Status", status.path("Type").asText(), status::toString);
        assertEquals("Closed", status.path("State").path("Stream").asText(), status::toString);
    }

    @Test
    void entitlementsApplyToAJsonConsumerAsToAnRsslOne(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("entitlements");
        Files.writeString(file, """
            code 62 NYSE
            code 5625 LSE
            items DIRECT_FEED IBM.* 5625
            user alice
              service DIRECT_FEED 62
            """);
        final WatchedEntitlementFile entitlements = ws.closeLater(WatchedEntitlementFile.open(file, null, null));
        ws.server((ctx) -> ctx.entitlementSource(entitlements));
        final JsonWebSocketClient alice = loggedIn("tr_json2");

        alice.send("[{\"ID\":2,\"Key\":{\"Name\":\"TRI.N\"}},{\"ID\":3,\"Key\":{\"Name\":\"IBM.N\"}}]");
        assertEquals("Refresh", alice.nextOn(2).path("Type").asText(), "TRI.N has no lock");
        final JsonNode refused = alice.nextOn(3);
        assertEquals("Status", refused.path("Type").asText(), refused::toString);
        assertEquals("Closed", refused.path("State").path("Stream").asText(), refused::toString);
        assertEquals("NotEntitled", refused.path("State").path("Code").asText(), refused::toString);

        final JsonWebSocketClient mallory = ws.closeLater(JsonWebSocketClient.connect(ws.port(), "tr_json2"));
        mallory.send(JsonWebSocketClient.loginRequest("mallory"));
        final JsonNode login = mallory.nextOn(1);
        assertEquals("Status", login.path("Type").asText(), login::toString);
        assertEquals("Closed", login.path("State").path("Stream").asText(), "a user the file does not know");
    }

    @Test
    void garbageGetsAnErrorAndTheConnectionStaysUsable() throws Exception
    {
        final JsonWebSocketClient client = loggedIn("tr_json2");
        client.send("{this is not json");
        final JsonNode error = client.next();
        assertEquals("Error", error.path("Type").asText(), error::toString);
        assertFalse(error.path("Text").asText().isEmpty(), error::toString);

        client.send("{\"ID\":2,\"Key\":{\"Name\":\"TRI.N\",\"Service\":\"DIRECT_FEED\"}}");
        assertEquals("Refresh", client.nextOn(2).path("Type").asText());
    }

    private JsonWebSocketClient loggedIn(final String protocol) throws Exception
    {
        final JsonWebSocketClient client = ws.closeLater(JsonWebSocketClient.connect(ws.port(), protocol));
        client.login("alice");
        return client;
    }
}
