package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * The quote page in a real browser: headless Chromium loads it from the p2p-server's WebSocket API port with items
 * in its address, logs in, shows the items' refreshed fields and then an update as it arrives, and an item the source
 * does not have as closed. Skipped, with the reason, where no Chromium is installed ({@code .ci/run} installs it).
 */
@InterruptAfter(30)
class QuotePageChromiumTest
{
    private static final int SERVICE_ID = WebSocketServer.SERVICE_ID;
    private static Path chromium;

    @RegisterExtension
    final WebSocketServer ws = new WebSocketServer("p2p-quote-page-test");
    private HeadlessChromium browser;

    @BeforeAll
    static void chromiumInstalled()
    {
        final Optional<Path> binary = HeadlessChromium.find();
        assumeTrue(binary.isPresent(), "skipped: no chromium or chromium-browser on the PATH (Debian: chromium)");
        chromium = binary.get();
    }

    @AfterEach
    void tearDown() throws Exception
    {
        if (null != browser)
        {
            browser.close();
        }
    }

    @Test
    void thePageShowsTheItemsOfItsAddressAndTheirUpdatesLive() throws Exception
    {
        browser = new HeadlessChromium(chromium,
            "http://127.0.0.1:" + ws.port() + "/?user=alice&items=TRI.N,IBM.N,NONE.N");

        awaitCell("TRI.N", "BID", 123.40);
        assertEquals(123.50, number(cell("TRI.N", "ASK")), 1e-9);
        awaitCell("IBM.N", "ASK", 200.10);
        assertEquals("Open / Ok", state("TRI.N"));
        assertEquals("logged in as alice", browser.evaluate("document.getElementById('status').textContent")
            .asText());
        MdTests.await(() -> "NONE.N closed: " + row("NONE.N"), () -> state("NONE.N").startsWith("Closed"));
        assertEquals("Item not found", browser.evaluate(
            "document.querySelector('tr[data-item=\"NONE.N\"] td.text').textContent").asText());

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12360);
        awaitCell("TRI.N", "BID", 123.60);
        assertEquals("up", cell("TRI.N", "BID").path("className").asText(), "a rise is highlighted");
        assertEquals(123.50, number(cell("TRI.N", "ASK")), 1e-9, "a field the update did not carry stays");
        assertEquals("", cell("TRI.N", "ASK").path("className").asText(), "and is not highlighted");

        ws.source().update(SERVICE_ID, "TRI.N", 0, FieldIds.BID, 12300);
        awaitCell("TRI.N", "BID", 123.00);
        assertEquals("down", cell("TRI.N", "BID").path("className").asText(), "a fall is highlighted");
        assertEquals(200.00, number(cell("IBM.N", "BID")), 1e-9, "the other item is untouched");
        assertTrue(browser.pageErrors().isEmpty(), () -> "the page threw: " + browser.pageErrors());
    }

    private void awaitCell(final String item, final String field, final double value)
    {
        MdTests.await(() -> item + " " + field + " = " + value + ", the row is " + row(item),
            () -> Math.abs(number(cell(item, field)) - value) < 1e-9);
    }

    private JsonNode cell(final String item, final String field)
    {
        return browser.evaluate("(() => { const c = document.querySelector('tr[data-item=\"" + item +
            "\"] td[data-field=\"" + field + "\"]'); return c ? {text: c.textContent, className: c.className} : {}; " +
            "})()");
    }

    private String state(final String item)
    {
        return browser.evaluate("document.querySelector('tr[data-item=\"" + item + "\"] td.state').textContent")
            .asText();
    }

    private String row(final String item)
    {
        return browser.evaluate("(document.querySelector('tr[data-item=\"" + item + "\"]') || {}).outerHTML")
            .asText();
    }

    private static double number(final JsonNode cell)
    {
        final String text = cell.path("text").asText("");
        return text.isEmpty() ? Double.NaN : Double.parseDouble(text);
    }
}
