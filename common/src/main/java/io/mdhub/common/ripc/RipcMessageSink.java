package io.mdhub.common.ripc;

import io.netty.buffer.ByteBuf;

/**
 * An application handler that takes each RWF message straight from the {@link RipcFrameDecoder}, inside the
 * decoder's call, instead of as a {@code ByteBuf} passed down the pipeline. A message then costs no retained slice,
 * no reference count changes on the socket buffer and no pipeline hop: on a distributor taking a million updates a
 * second those were a tenth of its event loop. The decoder uses the first inbound handler behind it when that
 * handler implements this interface; any other handler gets retained slices through {@code channelRead}.
 */
public interface RipcMessageSink
{
    /**
     * One RWF message.
     *
     * @param message its readable bytes are exactly the message (no RIPC header, no packed sub-length). It is the
     *                decoder's buffer, lent for this call only: not to be retained, released or kept, nor read
     *                beyond its writer index. Its bytes may be rewritten in place (the streamId, RWF bytes 4..7).
     *                Wrap it in an Agrona buffer with {@code memoryAddress() + readerIndex()} when
     *                {@code hasMemoryAddress()}.
     */
    void onRipcMessage(ByteBuf message);
}
