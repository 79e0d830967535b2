package io.mdhub.distributor;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

import com.refinitiv.eta.codec.CodecReturnCodes;

import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.netty.buffer.ByteBuf;

/**
 * Re-encodes a provider's message with another serviceId in its msgKey, for a provider whose service the
 * distributor renumbered. The serviceId is a u16ob whose width can change, so the header cannot be patched in
 * place: ETA decodes the message and encodes it again (payload copied unchanged) into a reused buffer.
 */
final class ServiceIdRewriter
{
    private static final int HEADROOM = 16;

    private final EtaMsgReader reader = new EtaMsgReader();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final ExpandableDirectByteBuffer out = new ExpandableDirectByteBuffer(1024);

    /**
     * @return the length of the rewritten message in {@link #buffer()}, or a negative ETA code.
     */
    int rewrite(final ByteBuf message, final int index, final int length, final int serviceId)
    {
        int result = reader.read(message, index, length);
        if (CodecReturnCodes.SUCCESS != result)
        {
            return result < 0 ? result : CodecReturnCodes.FAILURE;
        }
        reader.msg().msgKey().serviceId(serviceId);
        final int capacity = length + HEADROOM;
        out.checkLimit(capacity);
        result = reader.msg().encode(writer.begin(out, 0, capacity));
        if (CodecReturnCodes.SUCCESS != result)
        {
            return result < 0 ? result : CodecReturnCodes.FAILURE;
        }
        return writer.encodedLength();
    }

    DirectBuffer buffer()
    {
        return out;
    }
}
