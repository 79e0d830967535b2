package io.mdhub.p2p;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.mdhub.common.test.MdTests;

/**
 * A headless Chromium showing one page, read while it runs through the DevTools protocol: the browser listens on an
 * ephemeral loopback port it names in its (temporary) profile directory, and {@link #evaluate} runs an expression in
 * the page. A page that keeps changing (a WebSocket feeding it) can be read again and again, which a single
 * {@code --dump-dom} cannot. {@link #close()} ends the browser and every process it started and deletes the profile.
 */
final class HeadlessChromium implements AutoCloseable
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long CALL_TIMEOUT_S = 10;

    private final Path profile;
    private final Process browser;
    private final BlockingQueue<JsonNode> replies = new LinkedBlockingQueue<>();
    private final List<String> pageErrors = new ArrayList<>();
    private WebSocket devTools;
    private int nextCallId;

    /**
     * @return the Chromium binary on the PATH ({@code chromium} or {@code chromium-browser}), if any.
     */
    static Optional<Path> find()
    {
        final String path = System.getenv("PATH");
        for (final String name : new String[] {"chromium", "chromium-browser"})
        {
            for (final String dir : null == path ? new String[0] : path.split(File.pathSeparator))
            {
                final Path binary = Path.of(dir, name);
                if (Files.isExecutable(binary))
                {
                    return Optional.of(binary);
                }
            }
        }
        return Optional.empty();
    }

    HeadlessChromium(final Path binary, final String url) throws IOException
    {
        profile = Files.createTempDirectory("mdhub-chromium-");
        browser = new ProcessBuilder(binary.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
            "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--user-data-dir=" + profile, "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", url)
            .redirectErrorStream(true)
            .redirectOutput(profile.resolve("browser.log").toFile())
            .start();
        boolean isAttached = false;
        try
        {
            attach(url);
            isAttached = true;
        }
        finally
        {
            if (!isAttached)
            {
                close();
            }
        }
    }

    private void attach(final String url) throws IOException
    {
        final Path activePort = profile.resolve("DevToolsActivePort");
        MdTests.await(() -> "Chromium's DevTools port; its log: " + log(), () -> 2 <= lines(activePort).size());
        final String port = lines(activePort).get(0).trim();
        final HttpClient http = HttpClient.newHttpClient();
        final String[] target = new String[1];
        MdTests.await(() -> "the page in Chromium's targets; its log: " + log(), () ->
        {
            target[0] = pageTarget(http, port, url);
            return null != target[0];
        });
        devTools = http.newWebSocketBuilder()
            .buildAsync(URI.create(target[0]), new JsonTextListener(this::onMessage))
            .join();
        call("Runtime.enable", JSON.createObjectNode());
    }

    /**
     * @param expression JavaScript evaluated in the page.
     * @return its value (JSON-serialisable values only), or a missing node for undefined.
     */
    JsonNode evaluate(final String expression)
    {
        final ObjectNode params = JSON.createObjectNode().put("expression", expression).put("returnByValue", true);
        final JsonNode result = call("Runtime.evaluate", params);
        if (result.has("exceptionDetails"))
        {
            throw new AssertionError("the expression threw: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /**
     * @return the page's uncaught exceptions so far.
     */
    synchronized List<String> pageErrors()
    {
        return new ArrayList<>(pageErrors);
    }

    private JsonNode call(final String method, final ObjectNode params)
    {
        final int id = ++nextCallId;
        final ObjectNode request = JSON.createObjectNode().put("id", id).put("method", method);
        request.set("params", params);
        devTools.sendText(request.toString(), true).join();
        try
        {
            for (JsonNode reply; null != (reply = replies.poll(CALL_TIMEOUT_S, TimeUnit.SECONDS)); )
            {
                if (id == reply.path("id").asInt())
                {
                    if (reply.has("error"))
                    {
                        throw new AssertionError(method + " failed: " + reply.get("error"));
                    }
                    return reply.path("result");
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + method, ex);
        }
        throw new AssertionError("no answer to " + method + " within " + CALL_TIMEOUT_S + " s; log: " + log());
    }

    private void onMessage(final JsonNode message)
    {
        if ("Runtime.exceptionThrown".equals(message.path("method").asText()))
        {
            synchronized (this)
            {
                pageErrors.add(message.path("params").path("exceptionDetails").toString());
            }
        }
        else if (message.has("id"))
        {
            replies.add(message);
        }
    }

    private static String pageTarget(final HttpClient http, final String port, final String url)
    {
        try
        {
            final HttpResponse<String> list = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/json/list")).build(), HttpResponse.BodyHandlers.ofString());
            for (final JsonNode target : JSON.readTree(list.body()))
            {
                if ("page".equals(target.path("type").asText()) && url.equals(target.path("url").asText()))
                {
                    return target.path("webSocketDebuggerUrl").asText();
                }
            }
            return null;
        }
        catch (final IOException ex)
        {
            return null; // not listening yet
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", ex);
        }
    }

    private static List<String> lines(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        }
        catch (final IOException ex)
        {
            return List.of(); // being written
        }
    }

    private String log()
    {
        try
        {
            final String log = Files.readString(profile.resolve("browser.log"), StandardCharsets.UTF_8);
            return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
        }
        catch (final IOException ex)
        {
            return "(none: " + ex + ")";
        }
    }

    /**
     * End the browser: its helper processes first (renderer, zygotes), then the browser, all by process id, and
     * delete the profile.
     */
    @Override
    public void close() throws IOException
    {
        if (null != devTools)
        {
            devTools.abort();
        }
        final List<ProcessHandle> started = new ArrayList<>(browser.descendants().toList());
        started.forEach(ProcessHandle::destroyForcibly);
        browser.destroyForcibly();
        try
        {
            browser.waitFor(10, TimeUnit.SECONDS);
            for (final ProcessHandle process : started)
            {
                process.onExit().get(10, TimeUnit.SECONDS);
            }
        }
        catch (final Exception ex)
        {
            throw new IOException("Chromium's processes did not end: " + started, ex);
        }
        finally
        {
            try (Stream<Path> files = Files.walk(profile))
            {
                files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
            }
        }
    }
}
