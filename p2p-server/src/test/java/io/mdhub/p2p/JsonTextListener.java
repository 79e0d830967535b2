package io.mdhub.p2p;

import java.io.IOException;
import java.net.http.WebSocket;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A JDK WebSocket listener for a peer that speaks JSON text: gathers a message's fragments, hands the parsed message
 * to a consumer and asks for the next one. Text that is not JSON fails the listener (the JDK then calls its
 * {@code onError}): the tests' peers send nothing else.
 */
final class JsonTextListener implements WebSocket.Listener
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StringBuilder text = new StringBuilder();
    private final Consumer<JsonNode> onMessage;
    private final BiConsumer<Integer, String> onClose;

    /**
     * @param onMessage takes every message, on the WebSocket's thread.
     */
    JsonTextListener(final Consumer<JsonNode> onMessage)
    {
        this(onMessage, (statusCode, reason) -> { });
    }

    /**
     * @param onMessage takes every message, on the WebSocket's thread.
     * @param onClose   takes the status code and reason of the peer's close.
     */
    JsonTextListener(final Consumer<JsonNode> onMessage, final BiConsumer<Integer, String> onClose)
    {
        this.onMessage = onMessage;
        this.onClose = onClose;
    }

    @Override
    public CompletionStage<?> onText(final WebSocket webSocket, final CharSequence data, final boolean last)
    {
        text.append(data);
        if (last)
        {
            final JsonNode message;
            try
            {
                message = JSON.readTree(text.toString());
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("a text message that is not JSON: " + text, ex);
            }
            text.setLength(0);
            onMessage.accept(message);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(final WebSocket webSocket, final int statusCode, final String reason)
    {
        onClose.accept(statusCode, reason);
        return null;
    }
}
