package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletionException;

import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.transport.ConnectionTypes;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.TlsTestKeys;
import io.mdhub.common.test.eta.EtaChannel;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.tls.TlsClientAuth;

/**
 * The WebSocket API's port speaking TLS only ({@code mdhub.p2p.websocket.tls.enabled}): a JSON client over
 * {@code wss://} and ETA's encrypted WebSocket transport on {@code rssl.rwf} log in and get refreshes and updates, the
 * quote page comes over {@code https://}; a plain {@code ws://} client fails its upgrade, is counted, and a TLS client
 * after it is served as before.
 */
@InterruptAfter(60)
@ExtendWith(EtaTransportExtension.class)
class WebSocketTlsTest
{
    private static final int SERVICE_ID = WebSocketServer.SERVICE_ID;
    private static final int STREAM = 2;
    private static final String COMPONENT = "ws-tls-test";

    private final TlsTestKeys keys = TlsTestKeys.get();
    private final SSLContext clientTls = keys.clientSettings(false).jdkContext(false);

    @RegisterExtension
    final WebSocketServer ws = new WebSocketServer(COMPONENT,
        (ctx) -> ctx.webSocketTlsEnabled(true).tls(keys.serverSettings(TlsClientAuth.NONE)));

    @Test
    void aJsonClientOverWssLogsInAndGetsAnItemsRefreshAndUpdate() throws Exception
    {
        final JsonWebSocketClient client = loggedIn();
        streamTriN(client, 12360);
        assertEquals(1, ripcCounter("ripc-tls-handshakes-completed"), "the one TLS handshake counted");
        assertEquals(0, ripcCounter("ripc-tls-handshake-failures"));
    }

    @Test
    void etasEncryptedWebSocketTransportOnRsslRwfLogsInAndGetsAnItemsRefreshAndUpdate()
    {
        final EtaConsumer consumer = EtaConsumer.connect("localhost", ws.port(),
            EtaChannel.encrypted(keys.truststore().toString(), TlsTestKeys.PASSWORD).andThen((options) ->
            {
                options.encryptionOptions().connectionType(ConnectionTypes.WEBSOCKET);
                options.wSocketOpts().protocols("rssl.rwf");
            }));
        ws.closeLater(consumer);
        assertEquals(StreamStates.OPEN, consumer.login("bob").state().streamState());

        consumer.requestItem(STREAM, SERVICE_ID, "TRI.N");
        final EtaMessage refresh = consumer.awaitMessage(STREAM);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals("TRI.N", refresh.keyName());
        assertEquals(DataStates.OK, refresh.dataState(), refresh::toString);
        assertEquals(12340, refresh.mantissa(FieldIds.BID), refresh::toString);

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12370);
        final EtaMessage update = consumer.awaitMessage(STREAM);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(12370, update.mantissa(FieldIds.BID), update::toString);
        assertEquals(1, ripcCounter("ripc-tls-handshakes-completed"));
    }

    @Test
    void aPlainClientFailsItsUpgradeAndATlsClientAfterItIsServed() throws Exception
    {
        assertThrows(CompletionException.class, () -> JsonWebSocketClient.connect(ws.port(), "tr_json2"),
            "ws:// on a TLS port");
        // the JDK's client tries a failed connection twice: one failure per attempt, each also a disconnect
        MdTests.await("the plain client's TLS failure counted",
            () -> ripcCounter("ripc-tls-handshake-failures") >= 1 &&
            ripcCounter("ripc-disconnects: reason=tls-handshake") == ripcCounter("ripc-tls-handshake-failures"));
        final long failures = ripcCounter("ripc-tls-handshake-failures");
        assertEquals(0, ripcCounter("ripc-tls-handshakes-completed"));
        assertEquals(0, ws.server().context().counters().connectionsActive().get(), "no consumer session was made");

        final JsonWebSocketClient client = loggedIn();
        streamTriN(client, 12380);
        assertEquals(1, ripcCounter("ripc-tls-handshakes-completed"));
        assertEquals(failures, ripcCounter("ripc-tls-handshake-failures"), "nothing more failed");
    }

    @Test
    void theQuotePageComesOverHttpsOnly() throws Exception
    {
        final HttpResponse<String> page = HttpClient.newBuilder().sslContext(clientTls).build().send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + ws.port() + "/")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("quote.js"), page::body);

        assertThrows(java.io.IOException.class, () -> HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ws.port() + "/")).build(),
            HttpResponse.BodyHandlers.ofString()), "http:// on a TLS port");
        MdTests.await("the plain request's TLS failure counted", () -> ripcCounter("ripc-tls-handshake-failures") >= 1);
    }

    private JsonWebSocketClient loggedIn() throws Exception
    {
        final JsonWebSocketClient client =
            ws.closeLater(JsonWebSocketClient.connectTls(ws.port(), "tr_json2", clientTls));
        assertEquals("tr_json2", client.protocol());
        client.login("alice");
        return client;
    }

    private void streamTriN(final JsonWebSocketClient client, final int bid) throws Exception
    {
        client.send("{\"ID\":2,\"Key\":{\"Name\":\"TRI.N\",\"Service\":\"DIRECT_FEED\"}}");
        final JsonNode refresh = client.nextOn(STREAM);
        assertEquals("Refresh", refresh.path("Type").asText(), refresh::toString);
        assertEquals(123.40, refresh.path("Fields").path("BID").asDouble(), 1e-9, refresh::toString);

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, bid);
        final JsonNode update = client.nextOn(STREAM);
        assertEquals("Update", update.path("Type").asText(), update::toString);
        assertEquals(bid / 100.0, update.path("Fields").path("BID").asDouble(), 1e-9, update::toString);
    }

    /**
     * @return the value of the WebSocket port's RIPC counter of that name (component {@code <component>-ws}).
     */
    private long ripcCounter(final String name)
    {
        return ws.counter(name + (name.contains(":") ? "" : ":") + " component=" + COMPONENT + "-ws");
    }
}
