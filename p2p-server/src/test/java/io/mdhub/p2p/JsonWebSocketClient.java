package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A WebSocket API client for tests, on the JDK's own WebSocket: sends JSON text, and hands out each message the
 * server sends (a frame holding an array gives its elements one by one). Over {@code ws://}, or {@code wss://} with
 * an {@link SSLContext} trusting the server.
 */
final class JsonWebSocketClient implements AutoCloseable
{
    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> closes = new LinkedBlockingQueue<>();
    private final AtomicInteger framesNotArrays = new AtomicInteger();
    private final WebSocket socket;
    private final String protocol;

    private JsonWebSocketClient(final HttpClient http, final String scheme, final int port, final String protocol)
    {
        this.socket = http.newWebSocketBuilder()
            .subprotocols(protocol)
            .buildAsync(URI.create(scheme + "://127.0.0.1:" + port + "/WebSocket"), new JsonTextListener(
                this::onMessage, (statusCode, reason) -> closes.add(statusCode + " " + reason)))
            .join();
        this.protocol = socket.getSubprotocol();
    }

    static JsonWebSocketClient connect(final int port, final String protocol)
    {
        return new JsonWebSocketClient(HttpClient.newHttpClient(), "ws", port, protocol);
    }

    /**
     * @param port     the server's TLS WebSocket port.
     * @param protocol the sub-protocol to offer.
     * @param tls      trusts the server's certificate (which must name 127.0.0.1).
     * @return a client connected over {@code wss://}.
     */
    static JsonWebSocketClient connectTls(final int port, final String protocol, final SSLContext tls)
    {
        return new JsonWebSocketClient(HttpClient.newBuilder().sslContext(tls).build(), "wss", port, protocol);
    }

    /**
     * @return frames the server sent that were not JSON arrays (the WebSocket API's clients read only arrays).
     */
    int framesNotArrays()
    {
        return framesNotArrays.get();
    }

    String protocol()
    {
        return protocol;
    }

    void send(final String json)
    {
        socket.sendText(json, true).join();
    }

    /**
     * @param user a plain name (put into the JSON as it is).
     * @return the WebSocket API's login request on stream 1 for that user, as its examples send it.
     */
    static String loginRequest(final String user)
    {
        return "{\"ID\":1,\"Domain\":\"Login\",\"Key\":{\"Name\":\"" + user + "\",\"Elements\":" +
            "{\"ApplicationId\":\"256\",\"Position\":\"127.0.0.1/net\"}}}";
    }

    /**
     * Log in and check the answer: a Login refresh, the stream open, a ping timeout announced.
     *
     * @param user a plain name.
     * @return the login refresh.
     */
    JsonNode login(final String user) throws InterruptedException
    {
        send(loginRequest(user));
        final JsonNode login = nextOn(1);
        assertEquals("Refresh", login.path("Type").asText(), login::toString);
        assertEquals("Login", login.path("Domain").asText(), login::toString);
        assertEquals("Open", login.path("State").path("Stream").asText(), login::toString);
        assertTrue(login.path("Key").path("Elements").path("PingTimeout").asInt() > 0, login::toString);
        return login;
    }

    /**
     * @return the next message from the server, within 10 s.
     */
    JsonNode next() throws InterruptedException
    {
        final JsonNode message = received.poll(10, TimeUnit.SECONDS);
        assertNotNull(message, "no message within 10 s");
        return message;
    }

    /**
     * @return the next message with this stream id, skipping others (and pings).
     */
    JsonNode nextOn(final int streamId) throws InterruptedException
    {
        while (true)
        {
            final JsonNode message = next();
            if (message.path("ID").asInt(Integer.MIN_VALUE) == streamId)
            {
                return message;
            }
        }
    }

    /**
     * @return the reason of the server's close, within 10 s, or null.
     */
    String awaitClose() throws InterruptedException
    {
        return closes.poll(10, TimeUnit.SECONDS);
    }

    @Override
    public void close()
    {
        socket.abort();
    }

    private void onMessage(final JsonNode message)
    {
        if (message.isArray())
        {
            message.forEach(received::add);
        }
        else
        {
            framesNotArrays.incrementAndGet();
            received.add(message);
        }
    }
}
