package io.mdhub.p2p.websocket;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The WebSocket API's Error message, {@code [{"Type":"Error","Text":"..."}]}, with the text escaped as JSON.
 */
final class JsonErrors
{
    private JsonErrors()
    {
    }

    static ByteBuf error(final ByteBufAllocator allocator, final String text)
    {
        final StringBuilder json = new StringBuilder(32 + text.length()).append("[{\"Type\":\"Error\",\"Text\":\"");
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if ('"' == c || '\\' == c)
            {
                json.append('\\').append(c);
            }
            else if (c < 0x20)
            {
                json.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                json.append(c);
            }
        }
        json.append("\"}]");
        final byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
        return allocator.buffer(bytes.length).writeBytes(bytes);
    }
}
