package io.mdhub.common.ripc;

import org.agrona.DirectBuffer;

import io.netty.channel.ChannelHandler;

/**
 * A pipeline handler that writes a copy of one RWF message with an int of it patched (a consumer's streamId), without
 * the caller allocating a buffer per message: the RIPC encoder packs the copy into its open frame, the WebSocket
 * API's JSON writer converts the message once for every consumer of it. A fan-out looks it up in a connection's
 * pipeline and falls back to writing a buffer of its own when there is none or it declines.
 */
public interface MessageCopyWriter extends ChannelHandler
{
    /**
     * @param source      holding the message.
     * @param offset      where it starts.
     * @param length      its length.
     * @param patchOffset offset within the message of the int to write.
     * @param patchValue  the int.
     * @return false when this writer cannot take the message: write it as usual instead.
     */
    boolean writePackedCopy(DirectBuffer source, int offset, int length, int patchOffset, int patchValue);
}
