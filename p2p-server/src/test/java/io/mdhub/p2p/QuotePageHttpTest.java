package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.mdhub.common.test.InterruptAfter;

/**
 * The quote page as plain HTTP sees it on the WebSocket API's port: the jar's files with their types and lengths,
 * 404 for any other path (traversal included), 405 for other methods, and nothing of it with the page turned off.
 */
@InterruptAfter(30)
class QuotePageHttpTest
{
    private final HttpClient http = HttpClient.newHttpClient();
    @RegisterExtension
    final WebSocketServer ws = new WebSocketServer("p2p-page-http-test");

    @Test
    void thePageAndItsFilesAreServedWithTheirTypesAndLengths() throws Exception
    {
        launch(true);
        final byte[] index = resource("index.html");
        for (final String path : new String[] {"/", "/index.html", "/?items=TRI.N,IBM.N&user=alice"})
        {
            final HttpResponse<byte[]> page = get(path, "GET");
            assertEquals(200, page.statusCode(), path);
            assertEquals("text/html; charset=utf-8", page.headers().firstValue("content-type").orElse(""), path);
            assertEquals(index.length, page.headers().firstValueAsLong("content-length").orElse(-1), path);
            assertArrayEquals(index, page.body(), path);
        }
        final HttpResponse<byte[]> script = get("/quote.js", "GET");
        assertEquals(200, script.statusCode());
        assertEquals("text/javascript; charset=utf-8", script.headers().firstValue("content-type").orElse(""));
        assertArrayEquals(resource("quote.js"), script.body());
        final HttpResponse<byte[]> style = get("/quote.css", "GET");
        assertEquals("text/css; charset=utf-8", style.headers().firstValue("content-type").orElse(""));
        assertArrayEquals(resource("quote.css"), style.body());

        final HttpResponse<byte[]> head = get("/quote.js", "HEAD");
        assertEquals(200, head.statusCode());
        assertEquals(resource("quote.js").length, head.headers().firstValueAsLong("content-length").orElse(-1));
        assertEquals(0, head.body().length);

        assertEquals(0, ws.server().context().counters().connectionsActive().get(), "a page load is no consumer");
    }

    @Test
    void otherPathsAreNotFoundAndOtherMethodsNotAllowed() throws Exception
    {
        launch(true);
        for (final String path : new String[] {"/nothing", "/web/index.html", "/io/mdhub/p2p/web/index.html",
            "/quote.js/", "/QUOTE.JS"})
        {
            assertEquals(404, get(path, "GET").statusCode(), path);
        }
        final HttpResponse<byte[]> post = get("/", "POST");
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("allow").orElse(""));
        assertEquals(405, get("/quote.js", "DELETE").statusCode());

        // raw request lines, as no HTTP client would normalise them
        for (final String target : new String[] {"/../pom.xml", "/%2e%2e/%2e%2e/pom.xml", "/web/../index.html",
            "../index.html", "//etc/passwd", "/..%2findex.html"})
        {
            final String answer = raw("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 404 "), target + ": " + answer);
        }
    }

    @Test
    void aBrowserFetchesSeveralFilesOverOneConnection() throws Exception
    {
        launch(true);
        final String answers = raw("GET /quote.css HTTP/1.1\r\nHost: x\r\n\r\n" +
            "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n" +
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        final int css = answers.indexOf("HTTP/1.1 200 OK");
        final int missing = answers.indexOf("HTTP/1.1 404 Not Found");
        final int page = answers.indexOf("HTTP/1.1 200 OK", css + 1);
        assertTrue(0 == css && missing > css && page > missing, answers);
        assertTrue(answers.endsWith("</html>\n"), "the last answer is whole");
    }

    @Test
    void withThePageOffEveryPlainRequestIsNotFound() throws Exception
    {
        launch(false);
        assertEquals(404, get("/", "GET").statusCode());
        assertEquals(404, get("/quote.js", "GET").statusCode());
    }

    private void launch(final boolean isPageServed)
    {
        ws.server((ctx) -> ctx.webSocketPageEnabled(isPageServed));
    }

    private HttpResponse<byte[]> get(final String path, final String method) throws Exception
    {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ws.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private String raw(final String requests) throws IOException
    {
        try (Socket socket = new Socket("127.0.0.1", ws.port()))
        {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] resource(final String name) throws IOException
    {
        try (InputStream in = QuotePageHttpTest.class.getResourceAsStream("/io/mdhub/p2p/web/" + name))
        {
            return in.readAllBytes();
        }
    }
}
