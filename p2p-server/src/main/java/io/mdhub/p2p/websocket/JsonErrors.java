package io.mdhub.p2p.websocket;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;

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
        JsonStringEncoder.getInstance().quoteAsString(text, json);
        return ByteBufUtil.writeUtf8(allocator, json.append("\"}]"));
    }
}
