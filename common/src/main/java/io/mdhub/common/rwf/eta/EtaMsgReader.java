package io.mdhub.common.rwf.eta;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.Msg;

import io.netty.buffer.ByteBuf;

/**
 * A reusable ETA {@link DecodeIterator} and {@link Msg}: {@code read} decodes the message header, then the iterator
 * is positioned on the payload for an RDM or container decoder. The decoded message's buffers point into the
 * caller's memory, so use them before that memory is reused.
 */
public final class EtaMsgReader
{
    private final EtaBufferView view = new EtaBufferView();
    private final DecodeIterator iterator = CodecFactory.createDecodeIterator();
    private final Msg msg = CodecFactory.createMsg();

    /**
     * @param buffer holding one RWF message.
     * @param offset of the message.
     * @param length of the message.
     * @return an ETA {@code CodecReturnCodes} value; SUCCESS when the header decoded.
     */
    public int read(final DirectBuffer buffer, final int offset, final int length)
    {
        return read(view.wrap(buffer, offset, length));
    }

    /**
     * @param buffer holding one RWF message (absolute indices).
     * @param offset of the message.
     * @param length of the message.
     * @return an ETA {@code CodecReturnCodes} value; SUCCESS when the header decoded.
     */
    public int read(final ByteBuffer buffer, final int offset, final int length)
    {
        return read(view.wrap(buffer, offset, length));
    }

    /**
     * @param buffer holding one RWF message.
     * @param index  of the message.
     * @param length of the message.
     * @return an ETA {@code CodecReturnCodes} value; SUCCESS when the header decoded.
     */
    public int read(final ByteBuf buffer, final int index, final int length)
    {
        return read(view.wrap(buffer, index, length));
    }

    private int read(final Buffer buffer)
    {
        iterator.clear();
        msg.clear();
        iterator.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        try
        {
            return msg.decode(iterator);
        }
        catch (final RuntimeException ex)
        {
            return EtaDecoding.malformed();
        }
    }

    /**
     * @return the iterator, positioned after the header of the last message read.
     */
    public DecodeIterator iterator()
    {
        return iterator;
    }

    /**
     * @return the last message read.
     */
    public Msg msg()
    {
        return msg;
    }
}
