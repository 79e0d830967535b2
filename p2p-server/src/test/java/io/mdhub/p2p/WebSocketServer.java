package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.mdhub.common.dictionary.FieldIds;

/**
 * The WebSocket API tests' server: a p2p-server with the WebSocket API on an ephemeral port over a stub source whose
 * service {@value #SERVICE_NAME} ({@value #SERVICE_ID}) has TRI.N (BID 123.40, ASK 123.50) and IBM.N (BID 200.00, ASK
 * 200.10). Launched when a test first asks for it; after each test, whatever the test handed to {@link #closeLater}
 * is closed, last first, then the server. Register with {@code @RegisterExtension}.
 */
final class WebSocketServer implements AfterEachCallback
{
    static final int SERVICE_ID = 1;
    static final String SERVICE_NAME = "DIRECT_FEED";

    private final String component;
    private final UnaryOperator<P2pServer.Context> settings;
    private final StubMarketDataSource source = new StubMarketDataSource()
        .service(SERVICE_ID, SERVICE_NAME)
        .item(SERVICE_ID, "TRI.N", FieldIds.BID, 12340, FieldIds.ASK, 12350)
        .item(SERVICE_ID, "IBM.N", FieldIds.BID, 20000, FieldIds.ASK, 20010);
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private P2pServer server;

    /**
     * @param component the server's component name (counter labels, logs).
     */
    WebSocketServer(final String component)
    {
        this(component, UnaryOperator.identity());
    }

    /**
     * @param component the server's component name (counter labels, logs).
     * @param settings  what the tests of the class set beyond the defaults.
     */
    WebSocketServer(final String component, final UnaryOperator<P2pServer.Context> settings)
    {
        this.component = component;
        this.settings = settings;
    }

    /**
     * @return the server, launched with the class's settings on first use in a test.
     */
    P2pServer server()
    {
        return server(UnaryOperator.identity());
    }

    /**
     * @param more what this test sets beyond the class's settings (taken only when the server is launched here).
     * @return the server.
     */
    P2pServer server(final UnaryOperator<P2pServer.Context> more)
    {
        if (null == server)
        {
            server = P2pServer.launch(more.apply(settings.apply(new P2pServer.Context()
                .port(0)
                .webSocketPort(0)
                .componentName(component)
                .itemSourceFactory(source))));
        }
        return server;
    }

    /**
     * @return the WebSocket API's port of the server (launching it).
     */
    int port()
    {
        return server().webSocketPort();
    }

    /**
     * @param labelPrefix the start of the label of one of the server's counters (launching the server), e.g.
     *                    {@code "p2p-websocket-ping-timeouts:"}; a label in full names the one counter.
     * @return that counter's value.
     */
    long counter(final String labelPrefix)
    {
        final CountersReader reader = server().context().countersManager();
        final List<String> labels = new ArrayList<>();
        final long[] value = {-1};
        reader.forEach((id, label) ->
        {
            if (label.startsWith(labelPrefix))
            {
                labels.add(label);
                value[0] = reader.getCounterValue(id);
            }
        });
        assertEquals(1, labels.size(), () -> "one counter's label starts with \"" + labelPrefix + "\": " + labels);
        return value[0];
    }

    /**
     * @return the stub source, to publish updates and statuses.
     */
    StubMarketDataSource source()
    {
        return source;
    }

    /**
     * @param closeable a client of the test's.
     * @return it.
     */
    <T extends AutoCloseable> T closeLater(final T closeable)
    {
        closeables.add(closeable);
        return closeable;
    }

    @Override
    public void afterEach(final ExtensionContext context) throws Exception
    {
        try
        {
            for (int i = closeables.size() - 1; i >= 0; i--)
            {
                closeables.get(i).close();
            }
        }
        finally
        {
            closeables.clear();
            if (null != server)
            {
                server.close();
                server = null;
            }
        }
    }
}
